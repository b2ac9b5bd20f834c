#!/bin/sh
# t_tui_help_narrow.sh - the help screen (?) fits the width without losing
# a word: at 60 columns a line wider than the screen wraps at spaces, its
# continuations indented under the description (15 columns in for a key's, 4 for other text),
# and joined again they are the lines the help shows at 200 columns (it
# used to cut them at the screen's edge).
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/tmux.sh"
img=$E2L_IMAGES/demo.img
[ -f "$img" ] || skip "no demo image"
tmux_start -x 200 -y 200 "env TERM=xterm-256color LANG=C.UTF-8 ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' '$E2LAYOUT' '$img' 2>'$T/err'; echo \$? > '$T/rc'; sleep 30"
wait_for " 1 Overview" "the TUI never started"
keys '?'
wait_for "^Mouse: .*scrolls" "the help does not end on one screen at 200 columns"
wait_stable
sed 's/ *$//' "$SCREEN" | sed '/^$/d' > "$T/wide"
[ "$(awk 'length > 60' "$T/wide" | wc -l)" -gt 3 ] ||
	fail "too few help lines wider than 60 columns to test"
keys q
wait_gone "^Mouse: " "q did not close the help"
resize 60 200
keys '?'
wait_for "^Global keys" "no help at 60 columns"
last=$(tail -1 "$T/wide" | awk '{ print $NF }')	# its last word
wait_for " $last\$" "the help does not end on one screen at 60 columns"
wait_stable
sed 's/ *$//' "$SCREEN" | sed '/^$/d' > "$T/narrow"
[ "$(wc -L < "$T/narrow")" -le 60 ] || fail "a help line is wider than 60 columns"
! grep -q '…' "$T/narrow" || fail "a help line is cut: $(grep '…' "$T/narrow" | head -1)"
# the continuations (15 columns in under a key's description, 4 under
# other text; a key's label is 2 in) joined to the line before
awk 'NR > 1 && (/^               [^ ]/ || /^    [^ ]/) {
	sub(/^ +/, ""); prev = prev " " $0; next }
{ if (NR > 1) print prev; prev = $0 }
END { print prev }' "$T/narrow" > "$T/joined"
diff "$T/wide" "$T/joined" > "$T/diff" ||
	fail "the wrapped help is not the wide one: $(head -6 "$T/diff")"
keys q q
wait_file "$T/rc" "the TUI did not quit"
[ "$(cat "$T/rc")" = 0 ] || fail "exit status $(cat "$T/rc"): $(cat "$T/err")"
exit 0
