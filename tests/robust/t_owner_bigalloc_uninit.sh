#!/bin/sh
# t_owner_bigalloc_uninit.sh - bigalloc with BLOCK_UNINIT groups: `owner B`
# with no bitmap loaded (each asked group's bitmap read from the disk, the
# uninit groups' marks merged in cluster units) answers as the index does,
# on the blocks of each uninit group's metadata clusters, their slack
# (the blocks of a cluster past the metadata in it) included.
. "$(dirname "$0")/../lib/testlib.sh"

command -v mke2fs >/dev/null || skip "no mke2fs"
command -v dumpe2fs >/dev/null || skip "no dumpe2fs"

img=$T/fs.img
# 9 groups of 131072 blocks (8192 clusters of 16), sparse
mke2fs -q -F -t ext4 -O bigalloc -C 16384 -b 1024 "$img" 1100M \
	>/dev/null 2>&1 || fail "mke2fs"
dumpe2fs "$img" 2>/dev/null > "$T/dump"
# every block from an uninit group's first to the end of the cluster of
# its last metadata block (superblock, descriptors, reserved GDT)
awk '/^Group [0-9]*:/ { un = /BLOCK_UNINIT/; split($4, r, "[-)]");
			sub(/\(Blocks /, "", r[1]); first = r[1] }
     un && /Reserved GDT blocks at|Group descriptors at/ {
	split($NF, r, "-"); last = r[2] + 0
	if (last > max[first]) max[first] = last }
     END { for (f in max) { e = max[f] - max[f] % 16 + 15
			    for (b = f; b <= e; b++) print b } }' \
	"$T/dump" | sort -n > "$T/blocks"
[ "$(wc -l < "$T/blocks")" -ge 100 ] ||
	fail "only $(wc -l < "$T/blocks") blocks in uninit groups to ask"
blocks=$(tr '\n' ' ' < "$T/blocks")
"$E2LAYOUT" -R "owner $blocks" "$img" > "$T/probe" 2>&1 ||
	fail "owner failed: $(tail -1 "$T/probe")"
printf 'map 0-0\nowner %s\n' "$blocks" > "$T/script"
"$E2LAYOUT" -f "$T/script" "$img" 2>&1 | grep '^[0-9]*: ' > "$T/index"
cmp -s "$T/probe" "$T/index" ||
	fail "owner without the bitmap and the index differ:" \
	     "$(diff "$T/probe" "$T/index" | head -4)"
grep -q 'reserved GDT' "$T/probe" || fail "no reserved GDT block asked"
echo "ok: $(wc -l < "$T/blocks") blocks of uninit groups, both ways"
