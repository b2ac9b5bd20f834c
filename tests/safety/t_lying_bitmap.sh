#!/bin/sh
# t_lying_bitmap.sh - a block bitmap that lies (bits cleared with the real
# debugfs freeb over a file, the backup superblock/GDT/reserved GDT of group
# 3, the journal, an inode table, the bitmaps themselves; with the free
# counters left as they were and with every counter made to agree) must not
# let any layout operation write there: journal relocate (with and without
# --size), defrag, prealloc into a new and into an existing file, evacuate
# and repack-flex, each aimed at the lied-about blocks, are refused with the
# blocks and their owners named, and the image stays byte-identical; nor may
# a directory that must grow for prealloc's new file take a lied-about block
# (the blocks it will grow into are part of the plan, checked like the rest)
# (and on bigalloc, whole clusters are what is checked).  The
# operations run with --no-fsck: these checks must hold without e2fsck.
. "$(dirname "$0")/lib.sh"

mk_files "$T/base.img"
file_sums "$T/base.img" > "$T/sums.want"
b=$T/base.img
v0=$(first_blk "$b" V)
vn=$(nblocks "$b" V)
[ "$(last_blk "$b" V)" -eq $((v0 + vn - 1)) ] || fail "V is not contiguous"
s_last=$(last_blk "$b" small)
[ "$s_last" -eq $((v0 - 1)) ] || fail "small does not end just before V"
# group 3 (not BLOCK_UNINIT, so that its bitmap is read) starts with a
# backup superblock
dumpe2fs "$b" 2>/dev/null | grep -q "^Group 3: (Blocks 24577-.*INODE_UNINIT\]" ||
	fail "group 3 is not where it should be, or is BLOCK_UNINIT"
jstart=$(debugfs -R "bmap <8> 0" "$b" 2>/dev/null)
# (group 1 is BLOCK_UNINIT: libext2fs marks its metadata in use whatever
# its bitmap says, so the lies go to group 2's)
it2=$(dumpe2fs "$b" 2>/dev/null | sed -n '/^Group 2:/,/^Group 3:/s/.*Inode table at \([0-9]*\)-.*/\1/p')
bb2=$(dumpe2fs "$b" 2>/dev/null | sed -n '/^Group 2:/,/^Group 3:/s/.*Block bitmap at \([0-9]*\) .*/\1/p')
ib2=$(dumpe2fs "$b" 2>/dev/null | sed -n '/^Group 2:/,/^Group 3:/s/.*Inode bitmap at \([0-9]*\) .*/\1/p')
[ -n "$jstart" ] && [ -n "$it2" ] && [ -n "$bb2" ] && [ -n "$ib2" ] ||
	fail "no journal, inode table or bitmaps found"
# the journal ends group 2's used blocks: evacuating its last block moves
# it to the first free run after group 2, at group 3's superblock
lastb=$((jstart + 1023))
dumpe2fs "$b" 2>/dev/null | sed -n '/^Group 2:/,/^Group 3:/p' |
	grep -q "Free blocks: $((lastb + 1))-24576$" ||
	fail "group 2 is not free after the journal"
O="--no-fsck"

# ops GOAL: every operation aimed at GOAL (prealloc sizes fit the hole)
ops() {
	echo "journal_relocate --goal $1 $O"
	echo "journal_relocate --goal $1 --size 1100 $O"
	echo "defrag big --goal $1 $O"
	echo "prealloc newfile ${2:-1000K} --goal $1 $O"
	echo "prealloc small ${3:-600K} --goal $1 $O"
}

for mode in plain agree; do
	# 1. a file's blocks
	cp "$b" "$T/img"
	lie "$T/img" "$v0" "$vn" $mode
	ops "$v0" > "$T/reqs"
	echo "evacuate $s_last-$s_last $O" >> "$T/reqs"
	while read -r req; do
		refused "file V, $mode: $req" "$T/img" \
			"belong to inode [0-9]+ \(/V\), file data;e2fsck -f" "$req"
	done < "$T/reqs"

	# 2. the backup superblock, GDT and reserved GDT blocks of group 3
	cp "$b" "$T/img"
	lie "$T/img" 24577 257 $mode
	ops 24577 > "$T/reqs"
	echo "evacuate $lastb-24576 $O" >> "$T/reqs"
	while read -r req; do
		refused "backup sb, $mode: $req" "$T/img" \
			"block 24577: .*backup superblock of group 3;group descriptors \(the copy in group 3\);reserved GDT blocks of group 3" \
			"$req"
	done < "$T/reqs"

	# 3. the journal (the journal relocated onto itself, too)
	cp "$b" "$T/img"
	lie "$T/img" "$jstart" 1024 $mode
	ops "$jstart" | grep -v -- --size > "$T/reqs"
	while read -r req; do
		refused "journal, $mode: $req" "$T/img" \
			"belong to the journal \(inode 8\)" "$req"
	done < "$T/reqs"

	# 4. group 2's inode table (512 blocks: what fits)
	cp "$b" "$T/img"
	lie "$T/img" "$it2" 512 $mode
	ops "$it2" 300K 300K | grep -v journal_relocate > "$T/reqs"
	while read -r req; do
		refused "inode table, $mode: $req" "$T/img" \
			"belong to the inode table of group 2" "$req"
	done < "$T/reqs"

	# 5. the block bitmaps, then the inode bitmaps, of groups 2 and 3
	for bm in "$bb2 block" "$ib2 inode"; do
		cp "$b" "$T/img"
		lie "$T/img" "${bm% *}" 2 $mode
		refused "${bm#* } bitmaps, $mode" "$T/img" \
			"belong to the ${bm#* } bitmap of group 2" \
			"prealloc newfile 2K --goal ${bm% *} $O" \
			"prealloc small 22K --goal ${bm% *} $O"
	done
done

# The lies told, the files are what they were (debugfs reads them).
file_sums "$T/img" > "$T/sums.now"
cmp -s "$T/sums.want" "$T/sums.now" || fail "file contents changed"

# 6. repack-flex: the temporary place of group 0's inode table (the first
# free run of 512 blocks after the island) would be V's blocks, lied free.
mk_files "$T/nf.img" -O ^flex_bg
"$E2LAYOUT" -R "repack-flex 0" "$T/nf.img" > "$T/out" 2>&1
range=$(sed -n 's/.*evacuate \([0-9]*-[0-9]*\).*/\1/p' "$T/out")
[ -n "$range" ] || { cat "$T/out"; fail "repack-flex suggested no range"; }
"$E2LAYOUT" -w -R "evacuate $range --no-undo" "$T/nf.img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "evacuate $range"; }
v0=$(first_blk "$T/nf.img" V)
vn=$(nblocks "$T/nf.img" V)
for mode in plain agree; do
	cp "$T/nf.img" "$T/img"
	lie "$T/img" "$v0" "$vn" $mode
	"$E2LAYOUT" -R "repack-flex 0" "$T/img" > "$T/out" 2>&1
	grep -q "inode table .* -> $v0 (meanwhile)" "$T/out" ||
		grep -q "belong to inode [0-9]* (/V)" "$T/out" ||
		{ cat "$T/out"; fail "the lie is not where repack-flex looks"; }
	refused "repack-flex, $mode" "$T/img" \
		"belong to inode [0-9]+ \(/V\), file data" "repack-flex 0 $O"
done

# 8 (first, while the payload files exist). bigalloc: the unit is the
# cluster (16 blocks); V's clusters lied free, defrag aimed at them.
img=$T/ba.img
mke2fs -q -F -t ext4 -O bigalloc,^has_journal -b 4096 -C 65536 "$img" 128M \
	>/dev/null 2>&1 || fail "mke2fs bigalloc"
head -c 200000 /dev/urandom > "$T/g"
{
	echo "write $T/pay/V V"
	for i in 1 2 3 4 5 6; do echo "write $T/g g$i"; done
	echo "rm g1"; echo "rm g3"; echo "rm g5"
	echo "write $T/pay/big big"
} | debugfs -w "$img" >/dev/null 2>&1
fsck_clean "$img" || { cat "$T/fsck.out"; fail "the bigalloc image is not clean"; }
for mode in plain agree; do
	cp "$img" "$T/img"
	dfs "$T/img" "freeb $(first_blk "$img" V) $(nblocks "$img" V)"
	[ $mode = agree ] && lie "$T/img" "$(first_blk "$img" V)" 1 agree
	refused "bigalloc, $mode" "$T/img" \
		"belong to inode [0-9]+ \(/V\), file data" \
		"defrag big --goal $(first_blk "$img" V) $O"
done

# 7. prealloc's new file in a full directory: the block the directory would
# grow into (the next one, W's, lied free) was never checked.  (With
# metadata_csum, four 236-byte names leave 12 bytes of a 1 KiB block.)
img=$T/d.img
mke2fs -q -F -t ext4 -b 1024 -J size=1 "$img" 32M >/dev/null 2>&1 ||
	fail "mke2fs"
dumpe2fs -h "$img" 2>/dev/null | grep -q "features:.*metadata_csum" ||
	skip "mke2fs made no metadata_csum filesystem (the full directory needs it)"
n236=$(printf '%0235d' 0 | tr 0 n)
head -c 100000 /dev/urandom > "$T/W"
{
	echo "mkdir d"
	for c in a b c d; do echo "write /dev/null d/$c$n236"; done
	echo "write $T/W W"
} | debugfs -w "$img" >/dev/null 2>&1
[ "$(debugfs -R "blocks d" "$img" 2>/dev/null)" = "$(($(first_blk "$img" W) - 1)) " ] ||
	fail "the directory's block is not just before W"
for mode in plain agree; do
	cp "$img" "$T/img"
	lie "$T/img" "$(first_blk "$img" W)" "$(nblocks "$img" W)" $mode
	refused "a directory that must grow, $mode" "$T/img" \
		"the plan writes there, but (it|they) belongs? to inode [0-9]+ \\(/W\\)" \
		"prealloc d/newfile 10K --goal 20000 $O"
done
debugfs -R "cat W" "$T/img" 2>/dev/null | cmp -s - "$T/W" || fail "W changed"
exit 0
