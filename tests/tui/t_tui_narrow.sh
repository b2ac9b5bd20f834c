#!/bin/sh
# t_tui_narrow.sh - at 80x24 and 60x20 no view cuts a number: every line of
# every view that begins like the same view's line at 160x50 either holds it
# whole or stops (with "…") where no number is cut ("free of 6" for 65536
# was one); the overview's counts are debugfs's; the fragmentation view,
# which drops columns to fit, shows the numbers the frag request prints.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/tmux.sh"
img=$E2L_IMAGES/demo.img
[ -f "$img" ] || skip "no demo image"

tmux_start -x 160 -y 50 "env TERM=xterm-256color LANG=C.UTF-8 ASAN_OPTIONS='$ASAN_OPTIONS' LSAN_OPTIONS='$LSAN_OPTIONS' '$E2LAYOUT' '$img' 2>'$T/err'; echo \$? > '$T/rc'; sleep 60"
wait_for "owner scan complete" "the owner scan never completed"
e2l_frag=$("$E2LAYOUT" -R frag "$img" 2>/dev/null)
# mark V: a line only view V draws
mark() {
	case $1 in
	1) echo "fragmentation score" ;;
	2) echo "Whole device: \|^Group [0-9]*:" ;;
	3) echo "flex group(s)" ;;
	4) echo "Journal inode <8>" ;;
	5) echo "Free extents" ;;
	6) echo "entries, by size" ;;
	7) echo "^Console:" ;;
	esac
}
# show V COLS ROWS: view V drawn at that size.  Another view first, then
# the resize, then V: the frame waited for is drawn after the resize (a
# capture just after one can hold the old frame, cropped, and be stable).
show() {
	o=7; [ "$1" = 7 ] && o=1
	keys "$o"
	wait_for "$(mark $o)" "no view $o"
	resize "$2" "$3"
	keys "$1"
	# a frame drawn around tmux's resize of the pane can land on cells
	# that are not what curses thinks they are (1 run in 4 under load
	# showed the old view's pieces for good); C-l, the full repaint a
	# user would ask for then, is sent when the view does not show
	n=0
	until (wait_for "$(mark "$1")" "" 3) >/dev/null 2>&1; do
		n=$((n + 1))
		[ $n -le 5 ] || fail "no view $1 at $2x$3 (after $n repaints)"
		keys C-l
	done
	wait_stable
}
for size in "80 24" "60 20"; do
for v in 1 2 3 4 5 6 7; do
	show "$v" 160 50
	sed 's/ *$//' "$SCREEN" > "$T/wide.$v"
	show "$v" $size
	sed 's/ *$//' "$SCREEN" > "$T/narrow.$v"
	# each narrow line that is the start of a wide line must not stop
	# inside a number of it
	awk -v view="$v" -v size="$size" '
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
				printf "%s: view %s cuts a number: \"%s\" of \"%s\"\n",
					size, view, l, wide[i]
				bad = 1
			}
	}
	END { exit bad }' "$T/wide.$v" "$T/narrow.$v" > "$T/cut" ||
		fail "$(head -3 "$T/cut")"
done
# the fragmentation view's rows: each number shown is the request's
echo "$e2l_frag" > "$T/frag"
awk -v size="$size" '
FNR == NR {
	if ($1 ~ /^[0-9]+\.\.\.[0-9]+$/) {
		r = $1; sub(/\.\.\./, "-", r); ext[r] = $2; blk[r] = $3
	} else if ($1 ~ /^[0-9]+$/ && NF >= 5) {
		fx[$1] = $2; fb[$1] = $4
	}
	next
}
{
	gsub(/…|█|░/, " ")	# one column each, as on the screen (awk counts bytes)
	split(size, wh, " ")
	left = substr($0, 1, int(wh[1] / 2)); right = substr($0, int(wh[1] / 2) + 1)
	# the histogram (left half): "A-B extents [blocks]"
	split(left, f, " ")
	if (f[1] ~ /^[0-9]+-[0-9]+$/) {
		rows++
		e = (f[1] in ext) ? ext[f[1]] : 0
		b = (f[1] in blk) ? blk[f[1]] : 0
		if (f[2] != "" && f[2] != e)
			{ printf "%s: %s extents %s, not %s\n", size, f[1], f[2], e; bad = 1 }
		if (f[3] != "" && f[3] != b)
			{ printf "%s: %s blocks %s, not %s\n", size, f[1], f[3], b; bad = 1 }
	}
	# the worst files (right half): "inode blocks extents [ideal] path"
	nf = split(right, g, " ")
	if (nf >= 3 && g[1] in fx) {
		files++
		if (g[2] != fb[g[1]] || g[3] != fx[g[1]])
			{ printf "%s: <%s> %s blocks %s extents, not %s %s\n", size, g[1], g[2], g[3], fb[g[1]], fx[g[1]]; bad = 1 }
	}
}
END {
	if (!rows || !files) { printf "%s: %d histogram rows, %d files\n", size, rows, files; bad = 1 }
	exit bad
}' "$T/frag" "$T/narrow.5" > "$T/bad" || fail "$(head -3 "$T/bad")"
done
# the overview at 80x24: its counts are debugfs's, whole or absent
show 1 80 24
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
