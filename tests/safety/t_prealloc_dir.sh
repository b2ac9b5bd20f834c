#!/bin/sh
# t_prealloc_dir.sh - prealloc's new file in a directory whose blocks are
# full: the plan names the free blocks the directory grows into (outside
# the new run), apply makes it grow into exactly the first of them, and the
# result is clean, undoable and verified - in a linear directory and in an
# indexed one (the leaf the name hashes to is full).  A directory with room
# does not grow.  (The old apply aborted: the directory grew into the plan's
# own new run.)
. "$(dirname "$0")/../lib/testlib.sh"

# dir_blocks IMG DIR: the directory's blocks, as the real debugfs lists them
dir_blocks() { echo $(debugfs -R "blocks $2" "$1" 2>/dev/null); }

# grows IMG DIR NAME: plan, apply, check.
grows() {
	img=$1; dir=$2; name=$3
	cp "$img" "$T/orig.img"
	before=$(dir_blocks "$img" "$dir")
	"$E2LAYOUT" -R "prealloc $dir/$name 64K" "$img" > "$T/plan" 2>&1 ||
		{ cat "$T/plan"; fail "$dir: the plan failed"; }
	x=$(sed -n 's/.*has no room for the entry: it grows into block \([0-9]*\),.*/\1/p' "$T/plan")
	[ -n "$x" ] || { cat "$T/plan"; fail "$dir: the plan does not say the directory grows"; }
	run=$(sed -n 's/^  new run: blocks \([0-9]*\)-\([0-9]*\) .*/\1 \2/p' "$T/plan")
	set -- $run
	[ "$x" -lt "$1" ] || [ "$x" -gt "$2" ] || fail "$dir: block $x is in the new run $1-$2"
	"$E2LAYOUT" -w -R "prealloc $dir/$name 64K --undo $T/u.e2undo" "$img" > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "$dir: apply failed"; }
	grep -q "^verified:" "$T/out" || fail "$dir: not verified"
	fsck_clean "$img" || { cat "$T/fsck.out"; fail "$dir: e2fsck -fn after the apply"; }
	after=$(dir_blocks "$img" "$dir")
	[ "$after" = "$before $x" ] || fail "$dir: blocks '$before' became '$after', not '$before $x'"
	debugfs -R "stat $dir/$name" "$img" 2>/dev/null | grep -q "Size: 65536" ||
		fail "$dir/$name: not 64 KiB"
	e2undo "$T/u.e2undo" "$img" > /dev/null 2>&1 || fail "$dir: e2undo"
	cmp -s "$img" "$T/orig.img" || fail "$dir: e2undo did not restore the image"
	rm -f "$T/u.e2undo"
	echo "ok: $dir grew into block $x, the block the plan named"
}

# A linear directory of one 1 KiB block: ".", ".." and three 251-byte
# names leave 208 bytes, less than a 240-byte name needs.
L=$(printf '%0250d' 0 | tr 0 L)
mke2fs -q -F -t ext4 -O ^dir_index -b 1024 "$T/lin.img" 16M >/dev/null 2>&1 || fail mke2fs
printf 'mkdir d\ncd d\nwrite /dev/null a%s\nwrite /dev/null b%s\nwrite /dev/null c%s\n' "$L" "$L" "$L" |
	debugfs -w "$T/lin.img" >/dev/null 2>&1
fsck_clean "$T/lin.img" || fail "the linear image is not clean"
[ "$(dir_blocks "$T/lin.img" /d | wc -w)" = 1 ] || fail "/d is not one block"
# a short name still fits: no growth
cp "$T/lin.img" "$T/fit.img"
"$E2LAYOUT" -w -R "prealloc /d/short 64K --no-undo" "$T/fit.img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "prealloc /d/short"; }
grep -q "has no room" "$T/out" && fail "/d/short: growth planned where the entry fits"
[ "$(dir_blocks "$T/fit.img" /d)" = "$(dir_blocks "$T/lin.img" /d)" ] || fail "/d grew for a name that fits"
fsck_clean "$T/fit.img" || fail "e2fsck -fn after /d/short"
grows "$T/lin.img" /d "$(printf '%0240d' 0 | tr 0 n)"

# An indexed directory (e2fsck -D packs its leaves): a long name whose leaf
# has no room.
mkdir -p "$T/src/h"
i=1
while [ $i -le 1500 ]; do
	: > "$T/src/h/entry-with-a-fairly-long-name-number-$i"
	i=$((i + 1))
done
mke2fs -q -F -t ext4 -b 1024 -d "$T/src" "$T/ht.img" 32M >/dev/null 2>&1 || fail "mke2fs -d"
e2fsck -fyD "$T/ht.img" >/dev/null 2>&1
debugfs -R "htree /h" "$T/ht.img" 2>/dev/null | grep -q "^Root node dump:" ||
	fail "/h is not indexed"
Q=$(printf '%0240d' 0 | tr 0 q)
found=
for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	if "$E2LAYOUT" -R "prealloc /h/$Q-$k 64K" "$T/ht.img" 2>&1 | grep -q "has no room"; then
		found=$Q-$k
		break
	fi
done
[ -n "$found" ] || fail "no 240-byte name lands in a full leaf of /h"
grows "$T/ht.img" /h "$found"
exit 0
