#!/bin/sh
# t_live_tui.sh - the TUI's live allocation overlay on a loop-mounted ext4
# made here: `a` starts recording, a dd with fsync allocates, the status
# line's last allocation lies within filefrag's extents of the file, and q
# exits 0 leaving no e2layout tracing instance behind (nor does a second
# a); on an unmounted image a says it is not live.
# e2l: serial - checks global tracefs state (no e2layout instance left)
set -u
: "${E2LAYOUT:?}"
. "$(dirname "$0")/../lib/testlib.sh"
[ "$(id -u)" = 0 ] || skip "live tests need root (loop mounts): skipped"
for t in losetup mount umount mkfs.ext4 filefrag; do
	command -v $t >/dev/null 2>&1 || skip "$t is missing: live TUI test skipped"
done
. "$(dirname "$0")/../lib/tmux.sh"
tmp=$T
loop=""; mounted=""; tracefs=""
cleanup() {	# (after the tmux server is gone: testlib's exit trap)
	[ -n "$mounted" ] && umount "$tmp/mnt" 2>/dev/null
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	[ -n "$tracefs" ] && umount /sys/kernel/tracing 2>/dev/null
	return 0
}
on_fail() {
	tmux_on_fail
	echo "--- stderr:"; cat "$tmp/err" 2>/dev/null
	for d in /sys/kernel/tracing/instances/e2layout-*; do
		[ -d "$d" ] && { echo "--- $d:"; tail -5 "$d/trace"; }
	done
}
# The TUI's own instance, e2layout-PID: other programs name theirs
# otherwise, and other e2layout processes on the machine have their own.
tui_pid() {
	tp_pane=$($TM list-panes -t e2l -F '#{pane_pid}' 2>/dev/null)
	[ -n "$tp_pane" ] && pgrep -P "$tp_pane" -x e2layout | head -1
}
has_instance() { [ -n "$1" ] && [ -d "/sys/kernel/tracing/instances/e2layout-$1" ]; }
no_instance() { ! has_instance "$pid"; }

mkfs.ext4 -q -F -b 4096 -E nodiscard "$tmp/img" 64M >/dev/null 2>&1 ||
	fail "mkfs.ext4"
mkdir "$tmp/mnt"
loop=$(losetup -f --show "$tmp/img" 2>/dev/null) ||
	skip "losetup refused here: live TUI test skipped"
mount -t ext4 "$loop" "$tmp/mnt" 2>/dev/null ||
	skip "mounting $loop refused here: live TUI test skipped"
mounted=1
mnt=$tmp/mnt
if [ ! -d /sys/kernel/tracing/instances ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null && tracefs=1
fi
[ -d /sys/kernel/tracing/events/ext4/ext4_allocate_blocks ] ||
	skip "tracefs or the ext4 tracepoints are unavailable: live TUI test skipped"

tmux_start "env ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' '$E2LAYOUT' '$mnt' 2>'$tmp/err'; echo \$? > '$tmp/rc'; sleep 30"
wait_for "LIVE" "no LIVE mark on the tab bar"
wait_for "owner scan: complete" "the owner scan never completed"
pid=$(tui_pid)
[ -n "$pid" ] || fail "cannot find the TUI's process"
keys a
wait_for "ALLOC rec" "a did not start recording: $(sed -n '$p' "$tmp/screen")"
has_instance "$pid" ||
	fail "no tracing instance e2layout-$pid while recording: $(ls /sys/kernel/tracing/instances)"
dd if=/dev/zero of="$mnt/f" bs=1M count=8 conv=fsync status=none || fail "dd"
wait_for "ALLOC [0-9]* (" "no allocation on the status line"
wait_stable	# the last allocation of the fsync is on the line
ino=$(stat -c %i "$mnt/f")
line=$(grep "ALLOC [0-9]* (" "$tmp/screen")
set -- $(echo "$line" | sed -n 's/.*last: <\([0-9]*\)> .* got \([0-9]*\)-\([0-9]*\) .*/\1 \2 \3/p')
[ $# = 3 ] || fail "cannot read the last allocation from: $line"
[ "$1" = "$ino" ] || fail "last allocation is for <$1>, the file is <$ino>"
got_s=$2; got_e=$3
filefrag -v -b4096 "$mnt/f" |
	sed -n 's/^ *[0-9]*: *[0-9]*\.\. *[0-9]*: *\([0-9]*\)\.\. *\([0-9]*\):.*/\1 \2/p' > "$tmp/ext"
[ -s "$tmp/ext" ] || fail "filefrag gave no extents"
awk -v s="$got_s" -v e="$got_e" '$1 <= s && e <= $2 { f = 1 } END { exit !f }' "$tmp/ext" || {
	cat "$tmp/ext"; fail "allocation $got_s-$got_e is in none of filefrag's extents"; }
# a again stops and removes the instance; a third a records again, and q
# must remove that one.
keys a
wait_for "allocation recording stopped: [1-9]" "a did not stop the recording"
has_instance "$pid" &&
	fail "stopping left the tracing instance e2layout-$pid"
keys a
wait_for "ALLOC rec" "a did not start recording again"
keys q
wait_file "$tmp/rc" "q did not end the TUI" 10
[ "$(cat "$tmp/rc" 2>/dev/null)" = 0 ] || fail "q exited with '$(cat "$tmp/rc" 2>/dev/null)': $(cat "$tmp/err")"
has_instance "$pid" &&
	fail "the tracing instance e2layout-$pid was left behind"
# The terminal closing (SIGHUP) while recording still removes the instance.
tmux_stop
tmux_start "'$E2LAYOUT' '$mnt' 2>/dev/null; sleep 30"
wait_for "owner scan: complete" "the owner scan never completed (second run)"
pid=$(tui_pid)
[ -n "$pid" ] || fail "cannot find the TUI's process (second run)"
keys a
wait_for "ALLOC rec" "a did not start recording (second run)"
has_instance "$pid" || fail "no tracing instance e2layout-$pid (second run)"
$TM kill-session -t e2l 2>/dev/null
wait_until 5 "SIGHUP left the tracing instance" no_instance

# Not live (an unmounted image made here): a says so.
mkfs.ext4 -q -F -b 4096 "$tmp/plain.img" 8M >/dev/null 2>&1 || fail "mkfs.ext4 (plain)"
tmux_stop
tmux_start "'$E2LAYOUT' '$tmp/plain.img' 2>/dev/null; sleep 30"
wait_for "owner scan: complete" "the owner scan never completed on the plain image"
keys a
wait_for "not live: allocations" "a on an unmounted image gave no clear message"
keys q
echo "live tui: allocation overlay ($got_s-$got_e of <$ino>), instance removed: ok"
exit 0
