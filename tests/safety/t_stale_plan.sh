#!/bin/sh
# t_stale_plan.sh - a plan made in a long -w session is applied only to the
# filesystem it was made from: after `e2fsck -fy` (which rewrites the
# superblock), a debugfs `freeb`, or a block bitmap changed on disk behind
# an unchanged superblock, `apply` is refused as stale (its own message,
# never "read-only filesystem"), every later apply too, the session writes
# nothing more (not even its own pending bitmaps at close), and the image
# is exactly what the other writer left.  The session's own debugfs-style
# changes are written before the check and do not make its plan stale; a
# plan made before them is refused as changed.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/gate_lib.sh"
for tool in mke2fs debugfs e2fsck dumpe2fs mkfifo dd; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is missing"
done
trap 'exec 3>&- 2>/dev/null; rm -rf "$T"' EXIT INT TERM
mk_small "$T/base.img"

# stale NAME: after the other writer, apply is refused as stale, then again;
# the session writes nothing more and leaves the image as it was after.
stale() {
	cp "$T/img" "$T/img.after"
	req "apply"
	grep -q "changed on disk since the plan was made" "$T/first.out" ||
		{ cat "$T/first.out"; fail "$1: not refused as stale"; }
	grep -q "^verified\|^applied" "$T/first.out" &&
		{ cat "$T/first.out"; fail "$1: applied"; }
	req "apply"
	[ "$(grep -c "changed on disk since the plan" "$T/first.out")" = 2 ] ||
		{ cat "$T/first.out"; fail "$1: a later apply not refused"; }
	req "freeb 100"
	done_first 1
	grep -qi "read-only filesystem\|opened read-only" "$T/first.out" &&
		{ cat "$T/first.out"; fail "$1: stale reported as read-only"; }
	cmp -s "$T/img" "$T/img.after" || fail "$1: the session wrote after all"
	echo "ok: $1: stale plan refused, nothing written"
}

# 1. e2fsck -fy between the plan and the apply.
cp "$T/base.img" "$T/img"
first "$T/img"
req "plan defrag /big"
grep -q "Nothing is written yet" "$T/first.out" || fail "no plan"
e2fsck -fy "$T/img" > "$T/fsck.out" 2>&1 || { cat "$T/fsck.out"; fail "e2fsck -fy"; }
stale "e2fsck -fy"

# 2. debugfs freeb of a block of f2 (a change to the bitmap and counters).
cp "$T/base.img" "$T/img"
b=$(debugfs -R "bmap /f2 0" "$T/img" 2>/dev/null)
first "$T/img"
req "plan defrag /big"
debugfs -w -R "freeb $b" "$T/img" >/dev/null 2>&1
stale "debugfs freeb"

# 3. Only the block bitmap changes on disk (the superblock as it was): a
# free block of group 1 marked in use in its bitmap block, written with dd.
cp "$T/base.img" "$T/img"
bb=$(dumpe2fs "$T/img" 2>/dev/null | sed -n '/^Group 1:/,/^Group 2:/s/^ *Block bitmap at \([0-9]*\).*/\1/p')
[ -n "$bb" ] || fail "no block bitmap of group 1"
first "$T/img"
req "plan defrag /big"
dd if="$T/img" of="$T/bm" bs=1024 skip="$bb" count=1 2>/dev/null
# the last byte of the group's bitmap: blocks near its end, free here
printf '\377' | dd of="$T/bm" bs=1 seek=1023 conv=notrunc 2>/dev/null
dd if="$T/bm" of="$T/img" bs=1024 seek="$bb" count=1 conv=notrunc 2>/dev/null
stale "block bitmap only"
grep -q "block bitmap of group 1" "$T/first.out" ||
	{ cat "$T/first.out"; fail "the changed group is not named"; }

# 4. The session's own changes (a debugfs-style write) are written before
# the check: the plan made after them applies (with an undo file, which
# reopens the filesystem), the new file is kept, e2fsck is clean.
cp "$T/base.img" "$T/img"
first "$T/img"
req "write $T/payload/f1 newfile"
req "defrag /big"
grep -q "^verified" "$T/first.out" || { cat "$T/first.out"; fail "own write: not applied"; }
done_first
[ "$(extents_of "$T/img" /big)" = 1 ] || fail "own write: big not defragmented"
debugfs -R "cat /newfile" "$T/img" 2>/dev/null | cmp -s - "$T/payload/f1" ||
	fail "own write: the new file's contents"
fsck_clean "$T/img" || { cat "$T/fsck.out"; fail "own write: e2fsck"; }
echo "ok: the session's own changes flushed, then its plan applied"

# 5. A plan made before the session's own change: refused as changed, and
# made again it applies.
cp "$T/base.img" "$T/img"
first "$T/img"
req "plan defrag /big"
req "write $T/payload/f1 newfile"
req "apply"
grep -q "changed since the plan was made" "$T/first.out" ||
	{ cat "$T/first.out"; fail "old plan: not refused"; }
grep -q "^verified" "$T/first.out" && fail "old plan: applied"
req "defrag /big"
grep -q "^verified" "$T/first.out" || { cat "$T/first.out"; fail "new plan: not applied"; }
done_first 1
grep -qi "read-only filesystem" "$T/first.out" && fail "old plan: read-only"
fsck_clean "$T/img" || { cat "$T/fsck.out"; fail "new plan: e2fsck"; }
echo "ok: a plan older than the session's own change is refused, a new one applies"
exit 0
