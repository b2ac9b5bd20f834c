# ldf_lib.sh - sourced (not run) by the live defrag tests: a loop-mounted
# filesystem made here (ldf_mount), files fragmented by interleaved appends
# (ldf_frag), extent counts by filefrag (nextents), and the cleanup that
# unmounts and detaches whatever was set up.
. "$(dirname "$0")/../lib/testlib.sh"
[ "$(id -u)" = 0 ] || skip "live tests need root (loop mounts): skipped"
for t in losetup mount umount mkfs.ext4 mkfs.ext3 filefrag sha256sum e2fsck; do
	command -v $t >/dev/null 2>&1 || skip "$t is missing: live defrag test skipped"
done
loop=""; mounted=""; mnt="$T/mnt"
mkdir "$mnt"
ldf_cleanup() {
	[ -n "${ldf_pids:-}" ] && kill $ldf_pids 2>/dev/null
	[ -n "$mounted" ] && umount "$mnt" 2>/dev/null
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	rm -rf "$T"
}
trap ldf_cleanup EXIT
trap 'exit 2' INT TERM

# ldf_mount SIZE "MKFS OPTIONS" [MOUNT OPTIONS] [MKFS PROGRAM]
ldf_mount() {
	${4:-mkfs.ext4} -q -F -E nodiscard $2 "$T/img" "$1" >/dev/null 2>&1 ||
		fail "${4:-mkfs.ext4} $2"
	loop=$(losetup -f --show "$T/img" 2>/dev/null) ||
		skip "losetup refused here: live defrag test skipped"
	mount -t ext4 ${3:+-o "$3"} "$loop" "$mnt" 2>/dev/null ||
		skip "mounting $loop refused here: live defrag test skipped"
	mounted=1
}

# ldf_umount: unmount and detach (then e2fsck the image).
ldf_umount() {
	umount "$mnt" || fail "umount"
	mounted=""
	losetup -d "$loop" || fail "losetup -d"
	loop=""
}

# ldf_frag ROUNDS BLOCKS FILE...: ROUNDS times, BLOCKS 4 KiB blocks of
# random data appended and fsynced to each file in turn.
ldf_frag() {
	r=$1; b=$2; shift 2
	while [ "$r" -gt 0 ]; do
		for f; do
			dd if=/dev/urandom of="$f" bs=4k count="$b" \
				oflag=append conv=notrunc,fsync status=none ||
				fail "appending to $f"
		done
		r=$((r - 1))
	done
}

# nextents FILE: the extent count filefrag reports.
nextents() { filefrag "$1" | sed -n 's/.*: \([0-9]*\) extents\{0,1\} found/\1/p'; }
