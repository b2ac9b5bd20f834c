#!/bin/sh
# t_tui_scan_progress.sh - while the owner scan runs, the TUI's status line
# shows its progress: percent done, files walked so far, and the time left
# once there is enough to estimate it; Esc stops it and the line says where.
# E2L_TUI_SCAN_SLOW=1 paces the scan (an inode a tenth of a second) so
# that a small image shows the line long enough to be read.
. "$(dirname "$0")/../lib/testlib.sh"

command -v tmux >/dev/null 2>&1 || skip "tmux is missing: TUI test skipped"
img=$E2L_IMAGES/demo.img
[ -f "$img" ] || skip "no demo image"
sock=e2l-scan-$$
TM="tmux -L $sock"
trap '$TM kill-server 2>/dev/null; rm -rf "$T"' EXIT INT TERM
capture() { $TM capture-pane -p -t e2l > "$T/screen" 2>/dev/null; }
# wait_for ERE WHAT: polls the pane for up to ~20 s
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		capture
		grep -Eq -- "$1" "$T/screen" && return 0
		sleep 0.2
		i=$((i + 1))
	done
	echo "--- screen:"; cat "$T/screen"
	fail "$2"
}

$TM -f /dev/null new-session -d -s e2l -x 160 -y 50 \
	"env E2L_TUI_SCAN_SLOW=1 ASAN_OPTIONS='${ASAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' '$E2LAYOUT' '$img' 2>'$T/err'; echo \$? > '$T/rc'; sleep 30" ||
	skip "tmux could not start a session: TUI test skipped"
wait_for 'scan [0-9]+%, [0-9]+ files, ' "no scan progress on the status line"
wait_for 'scan [0-9]+%, [0-9]+ files, ([0-9]+ s|[0-9]+:[0-9][0-9]) left' \
	"the status line never showed the time left"
pct=$(sed -n 's/.*scan \([0-9]*\)%.*/\1/p' "$T/screen" | head -1)
[ "$pct" -lt 100 ] || fail "the scan shows ${pct}% while running"
# the files walked grow as the scan goes on
f1=$(sed -n 's/.*scan [0-9]*%, \([0-9]*\) files.*/\1/p' "$T/screen" | head -1)
wait_for "scan [0-9]+%, ([1-9][0-9]*) files" "no files counted"
i=0
while :; do
	capture
	f2=$(sed -n 's/.*scan [0-9]*%, \([0-9]*\) files.*/\1/p' "$T/screen" |
	     head -1)
	[ -n "$f2" ] && [ "$f2" -gt "$f1" ] && break
	i=$((i + 1))
	[ $i -lt 100 ] || fail "the file count stayed at $f1"
	sleep 0.2
done
$TM send-keys -t e2l Escape
wait_for 'scan cancelled at [0-9]+%, [0-9]+ files' \
	"Esc did not leave the cancelled scan on the status line"
$TM send-keys -t e2l q
i=0
while [ ! -s "$T/rc" ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
[ "$(cat "$T/rc" 2>/dev/null)" = 0 ] ||
	fail "exit status $(cat "$T/rc" 2>/dev/null): $(cat "$T/err")"
exit 0
