#!/bin/sh
# t_repack.sh - repack-flex on a default ext4 made without flex_bg (with a
# resize inode): refused while file data sits in the island (and the message
# names the evacuate range), shown but not written on a read-only session,
# then applied: dumpe2fs shows the block bitmaps, inode bitmaps and inode
# tables packed in group 0 as mke2fs -G lays them out, the reserved GDT
# blocks unchanged, e2fsck -fn is clean, files are unchanged, resize2fs still
# grows it, and e2undo restores the image byte for byte.  A fault-injection
# sweep; a saved plan applied from another process, moving the resize
# inode's double-indirect block itself.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/d"
i=1
while [ $i -le 8 ]; do
	head -c $((150000 * i)) /dev/urandom > "$T/d/f$i"
	i=$((i + 1))
done
img=$T/a.img
mke2fs -q -F -t ext4 -O ^flex_bg -b 1024 -d "$T/d" "$img" 64M \
	>/dev/null 2>&1 || fail "mke2fs"
dumpe2fs -h "$img" 2>/dev/null | grep -q "^Reserved GDT blocks: *[1-9]" ||
	fail "mke2fs made no resize inode"
cp "$img" "$T/fresh.img"
sums "$img" "$T/want.md5"
rsv() { dumpe2fs "$1" 2>/dev/null | grep "Reserved GDT blocks at"; }
dind() { debugfs -R "stat <7>" "$1" 2>/dev/null | sed -n 's/.*(DIND):\([0-9]*\).*/\1/p'; }
rsv "$img" > "$T/rsv.want"
# grow: a copy grows with resize2fs and stays clean
grow() {
	cp "$1" "$T/grow.img"
	resize2fs "$T/grow.img" 200M > "$T/resize.out" 2>&1 ||
		{ cat "$T/resize.out"; fail "resize2fs could not grow $2"; }
	e2fsck -fn "$T/grow.img" > "$T/fsck.out" 2>&1 ||
		{ cat "$T/fsck.out"; fail "e2fsck after growing $2"; }
}

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
fault_points "$img" "repack-flex 0 --no-undo" "repack-flex 0" \
	1 4 9 16 24 33 42 51 60 66 71 74 77 80 100 200
[ $rc -eq 0 ] || fail "the apply never completed in the sweep"
[ $crashes -ge 5 ] || fail "only $crashes crash points were exercised"
echo "ok: fault sweep: $crashes crash points, files intact, e2fsck clean or leaked blocks only"

# 5. Apply with an undo file.
"$E2LAYOUT" -w -R "repack-flex 0 --undo $T/u.e2undo" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "repack-flex apply"; }
grep -q "^verified" "$T/out" || { cat "$T/out"; fail "not verified"; }
applied_check "$img" "repack-flex 0"
dumpe2fs "$img" 2>/dev/null > "$T/dumpe2fs.out"
grep -q "^Filesystem features:.*flex_bg" "$T/dumpe2fs.out" || fail "flex_bg not set"
# The packed layout: after group 0's superblock, descriptors and reserved
# GDT blocks come the
# 8 block bitmaps, 8 inode bitmaps, then 8 inode tables, in group order.
awk -v ngrp=8 '
/^Group [0-9]+:/ { g = $2 + 0 }
/Group descriptors at/ && g == 0 {
	l = $0; sub(/.*Group descriptors at /, "", l); split(l, d, "-")
	start = d[2] + 1
}
/Reserved GDT blocks at/ && g == 0 {
	l = $0; sub(/.*Reserved GDT blocks at /, "", l); split(l, d, "-")
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
rsv "$img" | cmp -s - "$T/rsv.want" || fail "the reserved GDT blocks moved"
d=$(dind "$img")
[ -n "$d" ] && [ "$d" -gt 4370 ] || fail "the resize inode's block is at $d, in the island"
grow "$img" "the packed filesystem"
e2undo "$T/u.e2undo" "$img" >/dev/null 2>&1 || fail "e2undo"
cmp -s "$img" "$T/pre.img" || fail "e2undo did not restore the image"
echo "ok: repack-flex packed 8 groups, resize inode kept, resize2fs grows it, undo restores"

# 6. repack-flex moving the resize inode's block itself (the files around
# it evacuated separately), saved and applied from another process.
img=$T/b.img
cp "$T/fresh.img" "$img"
d0=$(dind "$img")
"$E2LAYOUT" -w -R "evacuate 773-$((d0 - 1)) --no-undo" "$img" > "$T/out" 2>&1 &&
"$E2LAYOUT" -w -R "evacuate $((d0 + 1))-4370 --no-undo" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "evacuate around the resize inode's block"; }
[ "$(dind "$img")" = "$d0" ] || fail "evacuate moved the resize inode's block"
printf 'repack-flex 0\nplan save %s\n' "$T/r.plan" | "$E2LAYOUT" -f - "$img" \
	> "$T/out" 2>&1 || { cat "$T/out"; fail "plan save of repack-flex"; }
grep -q "double-indirect block $d0-$d0 -> " "$T/out" ||
	{ cat "$T/out"; fail "the plan does not move the resize inode's block"; }
# crashes while the resize inode's block moves (the first writes)
for k in 1 2 3 4 5 6 7; do
	cp "$img" "$T/c.img"
	E2L_FAULT_WRITES=$k "$E2LAYOUT" -w -R "apply $T/r.plan --no-undo" \
		"$T/c.img" > "$T/out" 2>&1
	[ $? -eq 86 ] || { cat "$T/out"; fail "k=$k did not crash"; }
	fsck_verdict "$T/c.img"
	[ $? -eq 2 ] && { cat "$T/fsck.out"; fail "k=$k e2fsck found damage"; }
done
cp "$img" "$T/pre.img"
"$E2LAYOUT" -w -R "apply $T/r.plan --undo $T/u2.e2undo" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "apply of the saved repack-flex plan"; }
grep -q "^verified: flex group 0" "$T/out" || { cat "$T/out"; fail "not verified"; }
applied_check "$img" "the saved plan"
d=$(dind "$img")
[ "$d" -gt 4370 ] || fail "the resize inode's block is at $d"
rsv "$img" | cmp -s - "$T/rsv.want" || fail "the reserved GDT blocks moved"
grow "$img" "the packed filesystem"
"$E2LAYOUT" -w -R "apply $T/r.plan" "$img" > "$T/out" 2>&1 &&
	fail "a plan applied twice"
e2undo "$T/u2.e2undo" "$img" >/dev/null 2>&1 || fail "e2undo"
cmp -s "$img" "$T/pre.img" || fail "e2undo did not restore the image"
# a damaged plan is refused
sed 's/^ritem 3 0 \([0-9]*\) 0 [0-9]*/ritem 3 0 \1 0 9999/' "$T/r.plan" > "$T/bad.plan"
"$E2LAYOUT" -w -R "apply $T/bad.plan --no-undo" "$img" > "$T/out" 2>&1 &&
	fail "a damaged plan was applied"
cmp -s "$img" "$T/pre.img" || fail "a refused plan wrote"
echo "ok: saved plan applied from another process, resize inode's block moved"
exit 0
