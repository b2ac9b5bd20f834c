#!/bin/sh
# t_tui_frag_special.sh - the TUI's fragmentation view names the special
# inodes under its worst-files list: the demo's journal, <8>, with as many
# extents as debugfs lists (it was left out of the view altogether).
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
command -v tmux >/dev/null 2>&1 || skip "tmux is missing: skipped"
demo=$E2L_IMAGES/demo.img
want=$(debugfs -R "ex <8>" "$demo" 2>/dev/null | awk 'match($0, /^ *[0-9]+\/ *[0-9]+/) {
	v = substr($0, RSTART, RLENGTH); gsub(/ /, "", v)
	split(v, l, "/"); if (l[1] == l[2]) n++ } END { print n + 0 }')
[ "$want" -gt 1 ] || fail "the demo's journal is not fragmented"
TM="tmux -L e2l-fragsp-$$"
trap '$TM kill-server 2>/dev/null; rm -rf "$T"' EXIT
$TM -f /dev/null new-session -d -s s -x 160 -y 45 \
	"env ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' '$E2LAYOUT' '$demo' 2>'$T/err'; sleep 30" ||
	skip "tmux could not start a session: skipped"
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		$TM capture-pane -p -t s > "$T/screen" 2>/dev/null
		grep -q -- "$1" "$T/screen" && return 0
		sleep 0.2
		i=$((i + 1))
	done
	cat "$T/screen"; fail "$2"
}
wait_for "owner scan: complete" "the owner scan never completed"
$TM send-keys -t s 5
wait_for "fragmented, score" "no fragmentation view"
wait_for "special: journal <8> $want extents" "the view does not name the journal's $want extents"
$TM send-keys -t s q
exit 0
