#!/bin/sh
# t_tui_narrow.sh - at 80x24 no view cuts a number: every line of every view
# that begins like the same view's line at 160x50 either holds it whole or
# stops (with "…") where no number is cut ("free of 6" for 65536 was one);
# and the overview's counts at 80x24 are debugfs's.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/tmux.sh"
img=$E2L_IMAGES/demo.img
[ -f "$img" ] || skip "no demo image"

tmux_start -x 160 -y 50 "env TERM=xterm-256color LANG=C.UTF-8 ASAN_OPTIONS='$ASAN_OPTIONS' LSAN_OPTIONS='$LSAN_OPTIONS' '$E2LAYOUT' '$img' 2>'$T/err'; echo \$? > '$T/rc'; sleep 60"
wait_for "owner scan complete" "the owner scan never completed"
for v in 1 2 3 4 5 6 7; do
	keys "$v"
	resize 160 50
	wait_for "$v [A-Z]" "no view $v"
	wait_stable
	sed 's/ *$//' "$SCREEN" > "$T/wide.$v"
	resize 80 24
	wait_stable
	sed 's/ *$//' "$SCREEN" > "$T/narrow.$v"
	# each narrow line that is the start of a wide line must not stop
	# inside a number of it
	awk -v view="$v" '
	FNR == NR { wide[NR] = $0; nw = NR; next }
	{
		l = $0
		sub(/…$/, "", l)
		sub(/ +$/, "", l)
		if (length(l) < 8 || l !~ /[0-9]$/)
			next
		for (i = 1; i <= nw; i++)
			if (index(wide[i], l) == 1 &&
			    substr(wide[i], length(l) + 1, 1) ~ /[0-9]/) {
				printf "view %s cuts a number: \"%s\" of \"%s\"\n",
					view, l, wide[i]
				bad = 1
			}
	}
	END { exit bad }' "$T/wide.$v" "$T/narrow.$v" > "$T/cut" ||
		fail "$(head -3 "$T/cut")"
done
# the overview at 80x24: its counts are debugfs's, whole or absent
keys 1
wait_for "Overview" "no overview"
wait_stable
stats=$(debugfs -R stats "$img" 2>/dev/null)
fb=$(echo "$stats" | sed -n 's/^Free blocks: *//p')
fi=$(echo "$stats" | sed -n 's/^Free inodes: *//p')
ic=$(echo "$stats" | sed -n 's/^Inode count: *//p')
grep -q "blocks: $fb free" "$SCREEN" || fail "free blocks are not $fb"
line=$(grep "inodes: " "$SCREEN" | grep -v "inodes of") ||
	line=$(grep "inodes: " "$SCREEN")
for num in $(echo "$line" | sed 's/.*inodes: //' | grep -o '[0-9][0-9]*'); do
	[ "$num" = "$fi" ] || [ "$num" = "$ic" ] ||
		fail "the overview shows $num inodes ($fi free of $ic)"
done
keys q
wait_file "$T/rc" "the TUI did not quit"
[ "$(cat "$T/rc")" = 0 ] || fail "exit status $(cat "$T/rc"): $(cat "$T/err")"
exit 0
