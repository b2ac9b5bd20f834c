# explib.sh - what the experiment tests share (sourced after testlib.sh):
# skip unless this machine lets us attach loop devices and mount them, and
# check that an experiment left nothing behind.

# need_loop: root, the tools, and a loop mount that works here.
need_loop() {
	[ "$(id -u)" = 0 ] || skip "experiments need root (loop devices, mounts): skipped"
	for t in mkfs.ext4 losetup mount umount jq; do
		command -v $t >/dev/null 2>&1 || skip "$t is missing: skipped"
	done
	mkfs.ext4 -q -F -E nodiscard "$T/probe.img" 8M >/dev/null 2>&1 || fail "mkfs.ext4"
	mkdir -p "$T/probe"
	mount -o loop "$T/probe.img" "$T/probe" 2>/dev/null ||
		skip "this machine refuses loop mounts: skipped"
	umount "$T/probe"
	rm -rf "$T/probe" "$T/probe.img"
}

# need_tracefs: the counters' tracepoints.
need_tracefs() {
	tr=/sys/kernel/tracing
	[ -d $tr/instances ] || tr=/sys/kernel/debug/tracing
	[ -r $tr/events/block/block_rq_issue/format ] &&
	[ -r $tr/events/jbd2/jbd2_run_stats/format ] ||
		skip "tracefs or the block/jbd2 tracepoints are missing: skipped"
}

# left_behind: fails when a mount, a loop device or a work directory of
# this test remains.
left_behind() {
	grep -q "$T" /proc/mounts && fail "left mounted: $(grep "$T" /proc/mounts)"
	losetup -a 2>/dev/null | grep -q "$T" && fail "loop device left: $(losetup -a | grep "$T")"
	ls -a "$T" | grep -q 'e2layout-exp' && fail "work directory left: $(ls -a "$T")"
	return 0
}
