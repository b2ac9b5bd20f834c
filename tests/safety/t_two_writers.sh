#!/bin/sh
# t_two_writers.sh - one writer at a time: while an `e2layout -w` session
# (reading its requests from a fifo) holds an image, a second -w session is
# refused at open (exit 3, naming the holder) and a read-only one still
# opens; the first still applies a plan, keeps its lock through apply's
# reopen, and releases it when it ends.  On a loop device the same, and
# `e2fsck -fy` is kept out too (O_EXCL); e2layout's own e2fsck -fn still
# checks before the apply.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/gate_lib.sh"
for tool in mke2fs debugfs e2fsck mkfifo; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is missing"
done
loop=""
cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

# second NAME DEVICE PATTERN: a second writer is refused at open, exit 3.
second() {
	"$E2LAYOUT" -w -R "journal relocate" "$2" > "$T/out" 2>&1
	rc=$?
	[ $rc = 3 ] || { cat "$T/out"; fail "$1: a second writer: exit $rc, not 3"; }
	grep -q "$3" "$T/out" || { cat "$T/out"; fail "$1: the refusal"; }
	grep -q "e2layout (pid $first_pid)" "$T/out" ||
		{ cat "$T/out"; fail "$1: the holder is not named"; }
	grep -q "Plan:" "$T/out" && fail "$1: the second writer made a plan"
	echo "ok: $1: second writer refused"
}

mk_small "$T/img"
cp "$T/img" "$T/img.before"

# 1. An image file: flock.
first "$T/img"
second "image" "$T/img" "holds a lock on $T/img"
cmp -s "$T/img" "$T/img.before" || fail "the refused writer wrote"
"$E2LAYOUT" -R "testb 1" "$T/img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "a read-only session did not open"; }
# through another name of the same file
ln -s "$T/img" "$T/link"
second "image (by a symlink)" "$T/link" "holds a lock"
req "defrag /big"
wait_for "$T/first.out" "^verified" "the first writer's apply"
[ "$(extents_of "$T/img" /big)" = 1 ] || fail "big not defragmented"
# the apply reopened the filesystem (its undo file): still locked
second "image, after the first applied" "$T/img" "holds a lock"
done_first
grep -q "^undo file:" "$T/first.out" || fail "the apply wrote no undo file"
fsck_clean "$T/img" || { cat "$T/fsck.out"; fail "e2fsck after the apply"; }
"$E2LAYOUT" -w -R "stats" "$T/img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "the lock outlived its session"; }
echo "ok: image: the first writer applied; the lock is released at its end"

# 2. A loop device: O_EXCL, which keeps e2fsck -fy out too.
mk_small "$T/limg"
loop=$(losetup -f --show "$T/limg" 2>/dev/null) || loop=""
[ -n "$loop" ] && [ -b "$loop" ] ||
	skip "losetup refused (no loop devices here): the loop-device case is skipped; the image-file case passed"
first "$loop"
second "loop device" "$loop" "is opened exclusively by"
e2fsck -fy "$loop" > "$T/fsck.out" 2>&1
rc=$?
[ $rc -ge 8 ] || { cat "$T/fsck.out"; fail "e2fsck -fy ran beside the writer (exit $rc)"; }
grep -q "in use" "$T/fsck.out" || { cat "$T/fsck.out"; fail "e2fsck's refusal"; }
"$E2LAYOUT" -R "testb 1" "$loop" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "a read-only session did not open the loop device"; }
req "defrag /big --no-undo"
wait_for "$T/first.out" "^verified" "the apply on the loop device"
grep -q "checking the filesystem (e2fsck -fn $loop)" "$T/first.out" ||
	{ cat "$T/first.out"; fail "no e2fsck -fn before the apply"; }
second "loop device, after the apply" "$loop" "is opened exclusively by"
done_first
e2fsck -fn "$loop" > "$T/fsck.out" 2>&1 ||
	{ cat "$T/fsck.out"; fail "e2fsck after the apply on the loop device"; }
[ "$(extents_of "$loop" /big)" = 1 ] || fail "big not defragmented on $loop"
echo "ok: loop device: writer, e2fsck -fy kept out; the apply checked and done"
exit 0
