#!/bin/sh
# t_gdt_cut.sh - an image cut inside its group descriptor table is refused
# at a read-only open with libext2fs's short read, whether the cut falls on
# a block boundary or inside the table's last block; an image that holds
# the whole table opens.  The superblock-only open judges a plain regular
# file by its size instead of reading the table's last block, and this
# proves that judgement refuses what the read refused.
. "$(dirname "$0")/../lib/testlib.sh"
export MKE2FS_CONFIG=/dev/null
img=$T/a.img
truncate -s 64G "$img"
# 512 groups of 64-byte descriptors: the table is blocks 1-8
mke2fs -q -F -O extent,64bit,^resize_inode -b 4096 "$img" >/dev/null 2>&1 ||
	fail "mke2fs"
dumpe2fs "$img" 2>/dev/null | grep -q 'Group descriptors at 1-8$' ||
	fail "the table is not blocks 1-8"
cut() {	# BYTES
	cp --sparse=always "$img" "$T/c.img"
	truncate -s "$1" "$T/c.img"
}
for bytes in 16384 32868 36863; do
	cut "$bytes"
	"$E2LAYOUT" --json -R groups "$T/c.img" > "$T/out" 2>&1 &&
		fail "cut at $bytes: opened: $(cat "$T/out")"
	grep -q "short read while trying to open" "$T/out" ||
		fail "cut at $bytes: not the short read: $(cat "$T/out")"
done
cut 36864
"$E2LAYOUT" --json -R groups "$T/c.img" > "$T/out" 2>&1 ||
	fail "the whole table: not opened: $(cat "$T/out")"
grep -q '"groups"' "$T/out" || fail "no groups: $(cat "$T/out")"
exit 0
