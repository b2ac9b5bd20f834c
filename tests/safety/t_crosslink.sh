#!/bin/sh
# t_crosslink.sh - blocks claimed twice (made with the real debugfs sif on
# block-mapped ext3 files): a file sharing a block with another file, and a
# file sharing one with the superblock/GDT.  defrag of either file and
# evacuate over the shared block must be refused, naming the other owner,
# with the image unchanged; so must a plan made earlier in a long -w session
# whose target another inode has claimed since (apply's own check), and a
# plan for an inode whose block count (i_blocks) is smaller than what it
# maps (the switch would fail half-way through the apply), and any plan
# while the resize inode maps a file's block.
. "$(dirname "$0")/lib.sh"

img=$T/base.img
mkdir -p "$T/pay"
i=1
while [ $i -le 8 ]; do
	head -c 30000 /dev/urandom > "$T/pay/f$i"
	i=$((i + 1))
done
head -c 90000 /dev/urandom > "$T/pay/A"
head -c 40000 /dev/urandom > "$T/pay/B"
mke2fs -q -F -t ext3 -b 1024 -J size=1 "$img" 32M >/dev/null 2>&1 ||
	fail "mke2fs"
{
	i=1
	while [ $i -le 8 ]; do
		echo "write $T/pay/f$i f$i"
		i=$((i + 1))
	done
	i=1
	while [ $i -le 8 ]; do
		echo "rm f$i"
		i=$((i + 2))
	done
	echo "write $T/pay/A A"
	echo "write $T/pay/B B"
} | debugfs -w "$img" >/dev/null 2>&1
fsck_clean "$img" || { cat "$T/fsck.out"; fail "the image is not clean"; }
"$E2LAYOUT" -R "defrag A" "$img" > "$T/out" 2>&1 &&
	grep -q "copy" "$T/out" || { cat "$T/out"; fail "A is not fragmented"; }
O="--no-fsck"

# 1. A's second block is also B's third (B keeps it; A's own is leaked)
x=$(blocks "$img" B | sed -n 3p)
cp "$img" "$T/img"
dfs "$T/img" "sif A block[1] $x"
[ "$(blocks "$T/img" A | sed -n 2p)" = "$x" ] || fail "sif did not take"
refused "defrag of A (shares block $x with B)" "$T/img" \
	"frees them from inode [0-9]+, but inode [0-9]+ \(/B\), file data claims them too" \
	"defrag A $O"
refused "defrag of B (shares block $x with A)" "$T/img" \
	"inode [0-9]+ \(/A\), file data claims them too" "defrag B $O"
refused "evacuate over the shared block $x" "$T/img" \
	"block $x.*claims them too" "evacuate $x-$x $O"

# 2. A's second block is the primary GDT (block 2 on 1 KiB blocks), then
# group 1's backup superblock
for blk in 2 8193; do
	cp "$img" "$T/img"
	dfs "$T/img" "sif A block[1] $blk"
	case $blk in
	2) who="group descriptors \(the copy in group 0\)" ;;
	*) who="backup superblock of group 1" ;;
	esac
	refused "defrag of A (shares block $blk with the metadata)" "$T/img" \
		"block $blk: the plan frees them from inode [0-9]+, but the $who claims them too" \
		"defrag A $O"
	cp "$T/img" "$T/before.img"
	"$E2LAYOUT" -w -R "evacuate $blk-$blk $O" "$T/img" > "$T/out" 2>&1 &&
		{ cat "$T/out"; fail "evacuate $blk-$blk was not refused"; }
	cmp -s "$T/img" "$T/before.img" || fail "evacuate $blk-$blk wrote"
	echo "ok: evacuate $blk-$blk refused"
done

# 3. A long session: the plan is made while all is well, then another
# inode claims a block of its target (sif, in the same session), then
# apply: the check at apply time refuses it.
cp "$img" "$T/img"
"$E2LAYOUT" -R "defrag A" "$T/img" > "$T/out" 2>&1
t=$(sed -n 's/.*new run: blocks \([0-9]*\)-.*/\1/p' "$T/out")
[ -n "$t" ] || { cat "$T/out"; fail "no target for defrag A"; }
cp "$T/img" "$T/before.img"
printf '%s\n' "plan defrag A" "sif B block[0] $t" "apply --no-undo $O" |
	"$E2LAYOUT" -w -f - "$T/img" > "$T/out" 2>&1 &&
	{ cat "$T/out"; fail "the stale plan was applied"; }
grep -q "apply: .*belongs to something else" "$T/out" &&
	grep -q "block $t: the plan writes there, but they belong to inode [0-9]* (/B)" "$T/out" ||
	{ cat "$T/out"; fail "apply did not name B's block"; }
grep -q "applied" "$T/out" && { cat "$T/out"; fail "applied"; }
# the session wrote B's inode (sif), nothing else: A maps what it mapped
blocks "$T/img" A > "$T/a.now"
blocks "$T/before.img" A > "$T/a.was"
cmp -s "$T/a.now" "$T/a.was" || fail "A was moved"
debugfs -R "cat A" "$T/img" 2>/dev/null | cmp -s - "$T/pay/A" ||
	fail "A's contents changed"
echo "ok: a plan made earlier in the session, refused at apply"

# 4. the resize inode's double-indirect block made one of B's blocks: what
# it maps is no longer the reserved GDT blocks, so who owns what is unknown
cp "$img" "$T/img"
dfs "$T/img" "sif <7> block[DIND] $x"
refused "a resize inode cross-linked with B" "$T/img" \
	"the resize inode maps block [0-9]+, which is not a reserved GDT block" \
	"defrag A $O" "evacuate $x-$x $O"

# 5. i_blocks lies (2 sectors for a file of 90 blocks)
cp "$img" "$T/img"
dfs "$T/img" "sif A blocks 2"
refused "defrag of A, whose i_blocks is too small" "$T/img" \
	"inode [0-9]+'s block count, i_blocks, does not cover what it maps" \
	"defrag A $O"
exit 0
