#!/bin/sh
# t_prealloc.sh - prealloc: unwritten extents after an existing file's data
# (contents kept, the rest reads as zeros) and for a new file, e2fsck -fn
# clean, e2undo restoring the image; refused on a block-mapped filesystem.
. "$(dirname "$0")/lib.sh"

NFILES=12
mk_frag "$T/e4.img" ext4 32M 4096 4
cp "$T/e4.img" "$T/orig.img"
size2=$(stat -c %s "$T/payload/f2")
printf 'prealloc /f2 3M\napply\nprealloc /dir-less-new 2M\napply --no-undo\n' |
	"$E2LAYOUT" -w -f - "$T/e4.img" > "$T/out" 2>&1 || { cat "$T/out"; fail "prealloc"; }
[ "$(grep -c '^verified: ' "$T/out")" = 2 ] || { cat "$T/out"; fail "not verified twice"; }
e2fsck -fn "$T/e4.img" >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck after prealloc"; }
debugfs -R "ex /f2" "$T/e4.img" 2>/dev/null | grep -q Uninit || fail "no unwritten extent in /f2"
debugfs -R "ex /dir-less-new" "$T/e4.img" 2>/dev/null | grep -q Uninit || fail "new file not unwritten"
debugfs -R "stat /dir-less-new" "$T/e4.img" 2>/dev/null | grep -q "Size: 2097152" || fail "new file size"
debugfs -R "dump /f2 $T/f2.out" "$T/e4.img" >/dev/null 2>&1
[ "$(stat -c %s "$T/f2.out")" = 3145728 ] || fail "/f2 size is not 3M"
head -c "$size2" "$T/f2.out" | cmp -s - "$T/payload/f2" || fail "/f2 data changed"
tail -c $((3145728 - size2)) "$T/f2.out" | tr -d '\0' | grep -q . && fail "preallocated part not zero"
undo=$(sed -n 's/^undo file: \([^ ]*\) .*/\1/p' "$T/out")
# the undo file covers the first apply only: undo the second by hand
"$E2LAYOUT" -w -R "prealloc /f2 1M" "$T/e4.img" | grep -q "already allocated" ||
	fail "no nothing-to-do message"
echo "ok: prealloc (undo file $undo)"

# Undo restores byte for byte (a single apply).
cp "$T/orig.img" "$T/u.img"
printf 'prealloc /f4 4M\napply\n' | "$E2LAYOUT" -w -f - "$T/u.img" > "$T/out" 2>&1 || fail "prealloc /f4"
undo=$(sed -n 's/^undo file: \([^ ]*\) .*/\1/p' "$T/out")
e2undo "$undo" "$T/u.img" >/dev/null 2>&1 || fail "e2undo"
cmp -s "$T/u.img" "$T/orig.img" || fail "e2undo did not restore the image"

# Unwritten extents need ext4.
mk_frag "$T/e2.img" ext2 16M 1024 0
"$E2LAYOUT" -R "prealloc /f2 2M" "$T/e2.img" > "$T/out" 2>&1 && fail "prealloc on ext2"
grep -q "extent feature" "$T/out" || { cat "$T/out"; fail "ext2 message"; }
exit 0
