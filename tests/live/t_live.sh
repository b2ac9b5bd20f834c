#!/bin/sh
# t_live.sh - live mode on a loop-mounted ext4 made here: free counts against
# e2freefrag (which asks the kernel through GETFSMAP), alloc watch against
# filefrag's extents of a file written during the recording, alloc set and
# revert leave every tunable as it was, strace shows e2layout never
# opens the device for writing nor writes to it, and the --json documents
# are valid against help/schema/.
# e2l: serial - records allocations through tracefs, checks no instance is left
set -u
: "${E2LAYOUT:?}"
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/jsonlib.sh"
[ "$(id -u)" = 0 ] || skip "live tests need root (loop mounts): skipped"
for t in losetup mount umount mkfs.ext4 e2freefrag filefrag strace; do
	command -v $t >/dev/null 2>&1 || skip "$t is missing: live tests skipped"
done
tmp=$T
loop=""; mounted=""; tracefs=""
cleanup() {	# (testlib's exit trap calls it, then removes $T)
	[ -n "$mounted" ] && umount "$tmp/mnt" 2>/dev/null
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	[ -n "$tracefs" ] && umount /sys/kernel/tracing 2>/dev/null
	return 0
}

# the inode table written by mkfs: the kernel's lazy zeroing would write
# 4 MiB behind the test's back (the preview check counts lifetime writes)
mkfs.ext4 -q -F -b 4096 -E nodiscard,lazy_itable_init=0 "$tmp/img" 64M >/dev/null 2>&1 ||
	fail "mkfs.ext4"
mkdir "$tmp/mnt" "$tmp/state"
loop=$(losetup -f --show "$tmp/img" 2>/dev/null) ||
	skip "losetup refused here: live tests skipped"
mount -t ext4 "$loop" "$tmp/mnt" 2>/dev/null ||
	skip "mounting $loop refused here: live tests skipped"
mounted=1
mnt=$tmp/mnt
export E2LAYOUT_STATE_DIR=$tmp/state
num() { sed -n "s/.*\"$1\":\([0-9-]*\).*/\1/p"; }

# Some files, then the kernel's and the disk's free counts.
for i in 1 2 3 4 5; do
	dd if=/dev/zero of="$mnt/f$i" bs=64k count=$((i * 3)) status=none
done
rm "$mnt/f2"
sync
$E2LAYOUT --json -R "live status" "$mnt" > "$tmp/st.json" 2>"$tmp/err" ||
	fail "live status: $(cat "$tmp/err")"
kern=$(num kernel_free_blocks < "$tmp/st.json")
fsmap=$(num fsmap_free_blocks < "$tmp/st.json")
ff=$(e2freefrag "$loop" | sed -n 's/^Free blocks: \([0-9]*\).*/\1/p')
[ -n "$kern" ] && [ -n "$ff" ] || fail "no free counts (kernel '$kern', e2freefrag '$ff')"
[ "$kern" = "$ff" ] || fail "kernel free $kern, e2freefrag $ff"
[ "$fsmap" = "$ff" ] || fail "GETFSMAP free $fsmap, e2freefrag $ff"
grep -q "\"mount_point\":\"$mnt\"" "$tmp/st.json" || fail "mount point not reported"
# The same view from the device and from the image file.
for dev in "$loop" "$tmp/img"; do
	k=$($E2LAYOUT --json -R "live status" "$dev" 2>/dev/null | num kernel_free_blocks)
	[ "$k" = "$kern" ] || fail "live status on $dev: $k, on the mount point: $kern"
done
# live groups: per-group kernel counts add up to the same total.
$E2LAYOUT --json -R "live groups" "$mnt" > "$tmp/gr.json" 2>/dev/null || fail "live groups"
total=$(tr '{}' '\n\n' < "$tmp/gr.json" | num kernel_free |
	awk '{ s += $1 } END { print s + 0 }')
last=$(sed 's/.*}\]//' "$tmp/gr.json" | num kernel_free)
[ "$last" = "$kern" ] || fail "live groups total $last, live status $kern"
[ "$total" = $((kern * 2)) ] || fail "live groups rows add to $((total - kern)), not $kern"
$E2LAYOUT -R "live groups" "$mnt" 2>/dev/null | grep -q '^  total' ||
	fail "live groups text has no total"
# Not live: an unmounted image says so and fails.
cp "$tmp/img" "$tmp/copy.img"
$E2LAYOUT -R "live status" "$tmp/copy.img" >/dev/null 2>"$tmp/err" &&
	fail "live status on an unmounted image succeeded"
grep -q "not a mounted filesystem" "$tmp/err" || fail "no clear message: $(cat "$tmp/err")"
rm -f "$tmp/copy.img"

# alloc set / revert leave every tunable as it was.
snap() { for f in /sys/fs/ext4/$(basename "$loop")/*; do
	case $f in *_kbytes|*delayed_allocation_blocks|*msg_count|*warning_count|*errors_count|*first_error*|*last_error*|*journal_task) continue ;; esac
	[ -r "$f" ] && [ -f "$f" ] && echo "$(basename "$f") $(cat "$f" 2>/dev/null)"
done; }
snap > "$tmp/before"
$E2LAYOUT --json -R "alloc set mb_stream_req=64 mb_max_to_scan=50" "$mnt" \
	> "$tmp/set1.json" 2>/dev/null || fail "alloc set"
[ "$(cat /sys/fs/ext4/$(basename "$loop")/mb_stream_req)" = 64 ] || fail "alloc set wrote nothing"
$E2LAYOUT --json -R "alloc set mb_stream_req=128 mb_order2_req=3" "$mnt" \
	> "$tmp/set2.json" 2>/dev/null || fail "second alloc set"
$E2LAYOUT --json -R "alloc revert" "$mnt" > "$tmp/revert.json" 2>/dev/null ||
	fail "alloc revert"
snap > "$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || { diff "$tmp/before" "$tmp/after"; fail "tunables changed after set + revert"; }
[ -z "$(ls "$tmp/state")" ] || fail "revert left a state file"
$E2LAYOUT -R "alloc set mb_stream_req=x" "$mnt" >/dev/null 2>&1 && fail "bad value accepted"
$E2LAYOUT -R "alloc set no_such=1" "$mnt" >/dev/null 2>&1 && fail "unknown tunable accepted"
$E2LAYOUT --json -R "alloc tunables" "$mnt" > "$tmp/tun.json" 2>/dev/null ||
	fail "alloc tunables"
$E2LAYOUT --json -R "live extents $mnt/f3" "$mnt" > "$tmp/ext.json" 2>/dev/null ||
	fail "live extents"
schema_check "$tmp/st.json" "$tmp/gr.json" "$tmp/set1.json" "$tmp/set2.json" \
	"$tmp/revert.json" "$tmp/tun.json" "$tmp/ext.json"

# Tracing: mount tracefs if it is not (and unmount it at the end).
if [ ! -d /sys/kernel/tracing/instances ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null && tracefs=1
fi
if [ ! -d /sys/kernel/tracing/events/ext4/ext4_allocate_blocks ]; then
	echo "tracing unavailable: alloc watch not tested"
	exit 0
fi
# alloc watch during dd: the recorded allocations of the file are exactly
# its extents as filefrag reports them.
$E2LAYOUT -R "alloc watch --limit 100000 --run \"dd if=/dev/zero of=$mnt/w bs=1M count=5 conv=fsync status=none\"" \
	"$mnt" > "$tmp/watch" 2>"$tmp/err" || fail "alloc watch: $(cat "$tmp/err")"
ino=$(stat -c %i "$mnt/w")
merge() { sort -n | awk 'NR > 1 && $1 == e + 1 { e = $2; next }
	NR > 1 { print s, e } { s = $1; e = $2 } END { if (NR) print s, e }'; }
awk -v ino="$ino" 'NF >= 9 && $1 == ino && $2 ~ /^[0-9]+$/ { print $5, $5 + $3 - 1 }' "$tmp/watch" |
	merge > "$tmp/alloc.ranges"
filefrag -v -b4096 "$mnt/w" | sed -n 's/^ *[0-9]*: *[0-9]*\.\. *[0-9]*: *\([0-9]*\)\.\. *\([0-9]*\):.*/\1 \2/p' |
	merge > "$tmp/fiemap.ranges"
[ -s "$tmp/fiemap.ranges" ] || fail "filefrag gave no extents"
cmp -s "$tmp/alloc.ranges" "$tmp/fiemap.ranges" || {
	echo "recorded:"; cat "$tmp/alloc.ranges"; echo "filefrag:"; cat "$tmp/fiemap.ranges"
	cat "$tmp/watch"; fail "alloc watch does not match filefrag"; }
grep -q "^Hottest inodes" "$tmp/watch" || fail "no hottest inodes"
awk -v ino="$ino" '$1 == ino { f = 1 } END { exit !f }' "$tmp/watch" || fail "inode $ino missing"
ls /sys/kernel/tracing/instances | grep -q e2layout && fail "a tracing instance was left behind"

# bench and preview restore their state and remove their scratch files;
# the preview's workload runs on a scratch filesystem: nothing reaches the
# previewed one (its lifetime write count stays), so it cannot move where
# the next file goes (issue #19).
snap > "$tmp/before"
sync; w0=$(cat /sys/fs/ext4/$(basename "$loop")/lifetime_write_kbytes)
$E2LAYOUT -R "alloc set mb_stream_req=64 --preview" "$mnt" > "$tmp/prev" 2>&1 ||
	fail "alloc set --preview: $(cat "$tmp/prev")"
grep -q "extents per file" "$tmp/prev" || fail "preview has no comparison"
sync; w1=$(cat /sys/fs/ext4/$(basename "$loop")/lifetime_write_kbytes)
[ "$w1" -le $((w0 + 64)) ] || fail "alloc set --preview wrote $((w1 - w0)) KiB to the filesystem it previews"
grep -q "scratch filesystem" "$tmp/prev" || fail "preview does not say where it ran"
$E2LAYOUT --json -R "alloc set mb_stream_req=64 --preview" "$mnt" \
	> "$tmp/prev.json" 2>/dev/null || fail "alloc set --preview --json"
schema_check "$tmp/prev.json"
snap > "$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || fail "tunables changed after --preview"
$E2LAYOUT -R "bench randwrite --size 1M --ops 32" "$mnt" > "$tmp/bench" 2>&1 ||
	fail "bench: $(cat "$tmp/bench")"
grep -q "^randwrite" "$tmp/bench" || fail "bench printed no row"
ls -a "$mnt" | grep -q e2layout-bench && fail "scratch directory left behind"

# Nothing is written to the device by e2layout itself: under strace, no
# open of the device or image for writing, and no write to it.
strace -f -y -o "$tmp/strace" -e trace=openat,open,write,pwrite64,pwritev,pwritev2 \
	$E2LAYOUT -f - "$loop" > /dev/null 2>&1 <<REQ
live status
live groups
stats
alloc tunables
alloc watch --seconds 0.2
REQ
[ -s "$tmp/strace" ] || fail "strace recorded nothing"
real=$(readlink -f "$loop")
grep -E "open(at)?\(.*\"($real|$tmp/img)\".*O_(WRONLY|RDWR)" "$tmp/strace" &&
	fail "e2layout opened the device for writing"
grep -E "write(64|v|v2)?\([0-9]+<($real|$tmp/img)" "$tmp/strace" &&
	fail "e2layout wrote to the device"
grep -q "openat(.*\"$real\"" "$tmp/strace" || fail "strace did not see the device opened"
echo "live: free counts, groups, watch, set/revert, preview, bench, read-only: ok"
exit 0
