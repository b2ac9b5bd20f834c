#!/bin/sh
# t_repack_bigalloc1k.sh - repack-flex on bigalloc with 1 KiB blocks,
# clusters of 16 KiB and 64 KiB (16 and 64 blocks each; a cluster holds
# many groups' bitmaps; two descriptor blocks, the second read where
# ext2fs_open reads it): as t_repack_bigalloc.sh (repack_ba.sh).  Without
# resize_inode: mke2fs's resize inode on 1 KiB bigalloc maps each backup's
# reserved GDT blocks one block too far (group 1's block bitmap), so who
# owns that block is unknown and every plan is refused, saying so.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/repack_ba.sh"

# the refusal, and nothing written
mke2fs -q -F -t ext4 -O bigalloc,^flex_bg -b 1024 -C 16384 -g 256 -N 2048 \
	"$T/rz.img" 96M >/dev/null 2>&1 || skip "mke2fs cannot make a bigalloc filesystem here"
cp "$T/rz.img" "$T/rz0.img"
"$E2LAYOUT" -w -R "repack-flex --all --no-undo" "$T/rz.img" > "$T/out" 2>&1 &&
	fail "repack-flex with a resize inode mapping a bitmap"
grep -q "resize inode maps block [0-9]*, which is not a reserved GDT block" "$T/out" ||
	{ cat "$T/out"; fail "the refusal does not name the resize inode's block"; }
cmp -s "$T/rz.img" "$T/rz0.img" || fail "the refused plan wrote"
echo "ok: 1 KiB bigalloc with resize_inode: refused, naming the block the resize inode maps"

ba_case b1k_c16k 1024 16384 256 ,^resize_inode
BA_EVERY=4	# the second geometry: every fourth write (time)
ba_case b1k_c64k 1024 65536 256 ,^resize_inode
exit 0
