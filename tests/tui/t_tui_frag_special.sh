#!/bin/sh
# t_tui_frag_special.sh - the TUI's fragmentation view names the special
# inodes under its worst-files list: the demo's journal, <8>, with as many
# extents as debugfs lists (it was left out of the view altogether).
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
. "$(dirname "$0")/../lib/tmux.sh"
demo=$E2L_IMAGES/demo.img
want=$(debugfs -R "ex <8>" "$demo" 2>/dev/null | awk 'match($0, /^ *[0-9]+\/ *[0-9]+/) {
	v = substr($0, RSTART, RLENGTH); gsub(/ /, "", v)
	split(v, l, "/"); if (l[1] == l[2]) n++ } END { print n + 0 }')
[ "$want" -gt 1 ] || fail "the demo's journal is not fragmented"
tmux_start -x 160 -y 45 "env ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' '$E2LAYOUT' '$demo' 2>'$T/err'; sleep 30"
wait_for "owner scan: complete" "the owner scan never completed"
keys 5
wait_for "fragmented, score" "no fragmentation view"
wait_for "special: journal <8> $want extents" "the view does not name the journal's $want extents"
keys q
exit 0
