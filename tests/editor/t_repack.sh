#!/bin/sh
# t_repack.sh - repack-flex on an ext4 made without flex_bg: refused while
# file data sits in the island (and the message names the evacuate range),
# shown but not written on a read-only session, then applied: dumpe2fs shows
# the block bitmaps, inode bitmaps and inode tables packed in group 0 as
# mke2fs -G lays them out, e2fsck -fn is clean, files are unchanged and
# e2undo restores the image byte for byte.  Then a fault-injection sweep.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/d"
i=1
while [ $i -le 8 ]; do
	head -c $((150000 * i)) /dev/urandom > "$T/d/f$i"
	i=$((i + 1))
done
img=$T/a.img
# (no resize inode: its block sits right after group 0's inode table)
mke2fs -q -F -t ext4 -O ^flex_bg,^resize_inode -b 1024 -d "$T/d" "$img" 64M \
	>/dev/null 2>&1 || fail "mke2fs"
sums "$img" "$T/want.md5"

# 1. The island holds the root directory and files: refused.
cp "$img" "$T/orig.img"
"$E2LAYOUT" -w -R "repack-flex 0" "$img" > "$T/out" 2>&1 &&
	fail "repack-flex accepted an island holding file data"
grep -q "file data" "$T/out" || { cat "$T/out"; fail "no reason given"; }
range=$(sed -n 's/.*evacuate \([0-9]*-[0-9]*\).*/\1/p' "$T/out")
[ -n "$range" ] || { cat "$T/out"; fail "no evacuate range suggested"; }
cmp -s "$img" "$T/orig.img" || fail "a refused request wrote"

# 2. Free it as suggested.
"$E2LAYOUT" -w -R "evacuate $range --no-undo" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "evacuate $range"; }

# 3. Read-only: the plan is shown, nothing written.
cp "$img" "$T/pre.img"
"$E2LAYOUT" -R "repack-flex 0" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "repack-flex plan"; }
grep -q "chose 16" "$T/out" || { cat "$T/out"; fail "flex size not stated"; }
grep -q "Nothing is written" "$T/out" || { cat "$T/out"; fail "no preview"; }
cmp -s "$img" "$T/pre.img" || fail "a read-only session wrote"

# 4. Fault injection (on copies, without undo): after each crash the files
# read back unchanged and e2fsck finds nothing but leaked blocks.
crashes=0
for k in 1 4 9 16 24 33 42 51 60 66 71 74 77 80 100 200; do
	cp "$img" "$T/c.img"
	E2L_FAULT_WRITES=$k "$E2LAYOUT" -w -R "repack-flex 0 --no-undo" \
		"$T/c.img" > "$T/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && break
	[ $rc -eq 86 ] || { cat "$T/out"; fail "k=$k exit $rc"; }
	e2fsck -E journal_only -y "$T/c.img" >/dev/null 2>&1	# as a mount
	fsck_verdict "$T/c.img"
	[ $? -eq 2 ] && { cat "$T/fsck.out"; fail "k=$k e2fsck found damage"; }
	sums "$T/c.img" "$T/got.md5"
	cmp -s "$T/want.md5" "$T/got.md5" || fail "k=$k contents changed"
	crashes=$((crashes + 1))
done
[ $rc -eq 0 ] || fail "the apply never completed in the sweep"
[ $crashes -ge 5 ] || fail "only $crashes crash points were exercised"
echo "ok: fault sweep: $crashes crash points, files intact, e2fsck clean or leaked blocks only"

# 5. Apply with an undo file.
"$E2LAYOUT" -w -R "repack-flex 0 --undo $T/u.e2undo" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "repack-flex apply"; }
grep -q "^verified" "$T/out" || { cat "$T/out"; fail "not verified"; }
e2fsck -fn "$img" > "$T/fsck.out" 2>&1 || { cat "$T/fsck.out"; fail "e2fsck"; }
sums "$img" "$T/got.md5"
cmp -s "$T/want.md5" "$T/got.md5" || fail "contents changed"
dumpe2fs "$img" 2>/dev/null > "$T/dumpe2fs.out"
grep -q "^Filesystem features:.*flex_bg" "$T/dumpe2fs.out" || fail "flex_bg not set"
# The packed layout: after group 0's superblock and descriptors come the
# 8 block bitmaps, 8 inode bitmaps, then 8 inode tables, in group order.
awk -v ngrp=8 '
/^Group [0-9]+:/ { g = $2 + 0 }
/Group descriptors at/ && g == 0 {
	l = $0; sub(/.*Group descriptors at /, "", l); split(l, d, "-")
	start = d[2] + 1
}
/Block bitmap at/ { bb[g] = $4 + 0 }
/Inode bitmap at/ { ib[g] = $4 + 0 }
/Inode table at/ { split($4, t, "-"); it[g] = t[1] + 0; itb = t[2] - t[1] + 1 }
END {
	if (!start) { print "no descriptor line"; exit 1 }
	for (i = 0; i < ngrp; i++) {
		if (bb[i] != start + i) { print "bb", i, bb[i]; exit 1 }
		if (ib[i] != start + ngrp + i) { print "ib", i, ib[i]; exit 1 }
		if (it[i] != start + 2 * ngrp + i * itb) { print "it", i, it[i]; exit 1 }
	}
}' "$T/dumpe2fs.out" || fail "the groups are not packed as mke2fs -G lays them out"
e2undo "$T/u.e2undo" "$img" >/dev/null 2>&1 || fail "e2undo"
cmp -s "$img" "$T/pre.img" || fail "e2undo did not restore the image"
echo "ok: repack-flex packed 8 groups, undo restores"
exit 0
