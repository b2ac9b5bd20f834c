# livelib.sh - sourced (after testlib.sh) by live tests: a loop-mounted
# ext4 made in $T, removed with its loop device on exit; tracefs mounted
# when it is not (and unmounted again).  Not a test itself.
# live_mount SIZE MOUNT_OPTIONS [MKFS_OPTIONS...]: sets loop, mnt, kdev
# (dev_t as the ext4 tracepoints print it) and E2LAYOUT_STATE_DIR.
# live_tracefs: skips unless the ext4 tracepoints can be used.
loop=""; mounted=""; tracefs=""
live_cleanup() {
	[ -n "${live_extra_cleanup:-}" ] && eval "$live_extra_cleanup"
	[ -n "$mounted" ] && umount "$mnt" 2>/dev/null
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	[ -n "$tracefs" ] && umount /sys/kernel/tracing 2>/dev/null
	rm -rf "$T"
}
trap live_cleanup EXIT
trap 'exit 2' INT TERM

live_mount() {
	size=$1; opts=$2; shift 2
	[ "$(id -u)" = 0 ] || skip "live tests need root (loop mounts): skipped"
	for t in losetup mount umount mkfs.ext4; do
		command -v $t >/dev/null 2>&1 || skip "$t is missing: live test skipped"
	done
	mkfs.ext4 -q -F -b 4096 -E nodiscard "$@" "$T/img" "$size" >/dev/null 2>&1 ||
		fail "mkfs.ext4 $*"
	mkdir -p "$T/mnt" "$T/state"
	mnt=$T/mnt
	loop=$(losetup -f --show "$T/img" 2>/dev/null) ||
		skip "losetup refused here: live test skipped"
	mount -t ext4 ${opts:+-o "$opts"} "$loop" "$mnt" 2>/dev/null ||
		skip "mounting $loop refused here: live test skipped"
	mounted=1
	maj=$(stat -Lc %t "$loop"); min=$(stat -Lc %T "$loop")
	kdev=$(( (0x$maj << 20) | 0x$min ))
	export E2LAYOUT_STATE_DIR=$T/state
}

live_tracefs() {
	if [ ! -d /sys/kernel/tracing/instances ]; then
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null && tracefs=1
	fi
	[ -d /sys/kernel/tracing/events/ext4/ext4_allocate_blocks ] ||
		skip "the ext4 tracepoints are unavailable here: skipped"
}

# num KEY: the first number after "KEY": in the JSON on stdin.
num() { tr ',' '\n' | sed -n "s/^.*\"$1\":\([0-9-]*\)[]}]*$/\1/p" | head -1; }
