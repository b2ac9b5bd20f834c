#!/bin/sh
# t_write_then_plan.sh - a debugfs-style write and an e2layout plan in one
# -w -f script: the plan allocates from the session's own state (the
# write's unwritten inode and blocks included) and the gate's e2fsck sees
# that state on disk.  For prealloc (a new file), defrag, evacuate and
# journal relocate, with and without --no-fsck: the script succeeds,
# e2fsck -fn is clean afterwards, the written file's bytes are intact, and
# e2undo of the apply's undo file brings back the state the write alone
# leaves (the same allocation, group by group, per dumpe2fs).  A plan only
# previewed (never applied) leaves the write's allocation in place too.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/gate_lib.sh"
for tool in mke2fs debugfs e2fsck dumpe2fs e2undo; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is missing"
done

mk_small "$T/base.img"
head -c 150000 /dev/urandom > "$T/x"

# The state the write alone leaves: a separate session on a copy (the
# allocation is deterministic: the same inode and blocks).
cp "$T/base.img" "$T/wrote.img"
"$E2LAYOUT" -w -R "write $T/x /x" "$T/wrote.img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "write alone"; }
fsck_clean "$T/wrote.img" || { cat "$T/fsck.out"; fail "write alone: not clean"; }
ino=$(debugfs -R "stat /x" "$T/wrote.img" 2>/dev/null |
	sed -n 's/^Inode: \([0-9]*\).*/\1/p')
[ -n "$ino" ] || fail "no inode for /x"
first=$(debugfs -R "bmap /x 0" "$T/wrote.img" 2>/dev/null)
[ -n "$first" ] || fail "no block of /x"

# layout IMG: what the allocation looks like, times left out.
layout() {
	dumpe2fs "$1" 2>/dev/null | grep -v -e "time:" -e "^Lifetime writes" \
		-e "^Mount count" -e "^Last " -e "^Checksum:" -e "^Directory Hash Seed" \
		-e "^dumpe2fs"
	debugfs -R "ls -l /" "$1" 2>/dev/null | awk '{ print $1, $2, $NF }'
}
layout "$T/wrote.img" > "$T/wrote.layout"

# case NAME REQUEST: "write; REQUEST --undo U" in one -w -f script on a
# copy of base.img.
case_() {
	name=$1
	cp "$T/base.img" "$T/img"
	rm -f "$T/u.e2undo"
	printf 'write %s /x\n%s --undo %s\n' "$T/x" "$2" "$T/u.e2undo" \
		> "$T/script"
	"$E2LAYOUT" -w -f "$T/script" "$T/img" > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "$name: the script failed"; }
	grep -q "^verified: " "$T/out" || { cat "$T/out"; fail "$name: not applied"; }
	grep -q "Inode bitmap differences" "$T/out" &&
		{ cat "$T/out"; fail "$name: the gate saw a stale inode bitmap"; }
	fsck_clean "$T/img" ||
		{ cat "$T/out" "$T/fsck.out"; fail "$name: e2fsck -fn not clean"; }
	rm -f "$T/x.back"
	debugfs -R "dump /x $T/x.back" "$T/img" >/dev/null 2>&1
	cmp -s "$T/x" "$T/x.back" || fail "$name: /x lost its bytes"
	[ -f "$T/u.e2undo" ] || { cat "$T/out"; fail "$name: no undo file"; }
	e2undo "$T/u.e2undo" "$T/img" > "$T/undo.out" 2>&1 ||
		{ cat "$T/undo.out"; fail "$name: e2undo"; }
	fsck_clean "$T/img" ||
		{ cat "$T/fsck.out"; fail "$name: not clean after e2undo"; }
	layout "$T/img" > "$T/undone.layout"
	diff "$T/wrote.layout" "$T/undone.layout" > "$T/diff" ||
		{ cat "$T/diff"; fail "$name: e2undo did not restore the write's state"; }
	rm -f "$T/x.back"
	debugfs -R "dump /x $T/x.back" "$T/img" >/dev/null 2>&1
	cmp -s "$T/x" "$T/x.back" || fail "$name: /x differs after e2undo"
	echo "ok: $name"
}
for nf in "" " --no-fsck"; do
	case_ "prealloc of a new file$nf" "prealloc /y 256K$nf"
	case_ "defrag$nf" "defrag /x$nf"
	case_ "evacuate$nf" "evacuate $first-$((first + 40))$nf"
	case_ "journal relocate$nf" "journal relocate --start$nf"
done

# A new file's inode is not the written one's, named so in the preview.
cp "$T/base.img" "$T/img"
printf 'write %s /x\nprealloc /y 64K --no-fsck --no-undo\n' "$T/x" > "$T/script"
"$E2LAYOUT" -w -f "$T/script" "$T/img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "prealloc --no-undo"; }
y=$(debugfs -R "stat /y" "$T/img" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
[ -n "$y" ] && [ "$y" != "$ino" ] || fail "/y took inode ${y:-none} (/x has $ino)"
grep -q "a new file, inode $y," "$T/out" ||
	{ cat "$T/out"; fail "the preview does not name inode $y"; }
echo "ok: /y is inode $y, /x keeps $ino"

# A plan previewed in a -w session (plan prealloc: not applied) keeps the
# write's allocation: closing writes the inode bitmap with it.
cp "$T/base.img" "$T/img"
printf 'write %s /x\nplan prealloc /y 64K\n' "$T/x" > "$T/script"
"$E2LAYOUT" -w -f "$T/script" "$T/img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "plan prealloc"; }
fsck_clean "$T/img" ||
	{ cat "$T/out" "$T/fsck.out"; fail "a previewed plan dropped the write's inode"; }
layout "$T/img" > "$T/plan.layout"
diff "$T/wrote.layout" "$T/plan.layout" > "$T/diff" ||
	{ cat "$T/diff"; fail "a previewed plan changed the allocation"; }
echo "ok: a previewed plan keeps the write's allocation"
