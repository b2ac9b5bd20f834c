#!/bin/sh
# t_tui_tabbar.sh - the tab bar degrades by its rule and keeps every tab:
# at 160, 80 and 60 columns, in each view, line 1 holds the seven tabs'
# numbers in order, the current view's title whole, every other tab whole
# or by its first four letters, and nothing cut with "…" (at 60 columns
# the sixth tab was "6…" and the seventh was gone); at 160 columns every
# title is whole.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/tmux.sh"
img=$E2L_IMAGES/demo.img
[ -f "$img" ] || skip "no demo image"

titles="Overview Map Flex Journal Frag Files Console"
tmux_start -x 160 -y 50 "env TERM=xterm-256color LANG=C.UTF-8 ASAN_OPTIONS='$ASAN_OPTIONS' LSAN_OPTIONS='$LSAN_OPTIONS' '$E2LAYOUT' '$img' 2>'$T/err'; echo \$? > '$T/rc'; sleep 60"
wait_for "owner scan complete" "the owner scan never completed"
for size in "160 50" "80 24" "60 20"; do
	resize $size
	cols=${size% *}
	for v in 1 2 3 4 5 6 7; do
		keys "$v"
		cur=$(echo $titles | cut -d' ' -f$v)
		# (the current tab's title follows its number)
		wait_for "^.\{0,$cols\} $v $cur\( \|\$\)" "no tab \"$v $cur\" at $size"
		wait_stable
		head -1 "$SCREEN" > "$T/bar"
		[ "$(wc -L < "$T/bar")" -le "$cols" ] || fail "the tab bar is wider than $cols"
		! grep -q '…' "$T/bar" || fail "$size, view $v: a tab is cut: $(cat "$T/bar")"
		awk -v titles="$titles" -v v="$v" -v full=$([ "$cols" = 160 ] && echo 1) '
		{
			n = split(titles, title, " ")
			line = $0; pos = 0
			for (i = 1; i <= n; i++) {
				# " i " then its title, its first four letters or nothing
				k = index(substr(line, pos + 1), " " i " ")
				if (!k) { printf "tab %d is missing\n", i; exit 1 }
				pos += k + length(i) + 1
				rest = substr(line, pos + 1)
				split(rest, w, " ")
				if (i == v || full) {
					if (w[1] != title[i]) { printf "tab %d reads \"%s\", not %s\n", i, w[1], title[i]; exit 1 }
				} else if (w[1] != "" && w[1] !~ /^[0-9]/ && w[1] != title[i] &&
					   w[1] != substr(title[i], 1, 4)) {
					printf "tab %d reads \"%s\"\n", i, w[1]; exit 1
				}
			}
		}' "$T/bar" > "$T/bad" || fail "$size, view $v: $(cat "$T/bad"): $(cat "$T/bar")"
	done
done
keys q
wait_file "$T/rc" "the TUI did not quit"
[ "$(cat "$T/rc")" = 0 ] || fail "exit status $(cat "$T/rc"): $(cat "$T/err")"
exit 0
