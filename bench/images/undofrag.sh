#!/bin/sh
# undofrag.sh - the undo row's defrag image: ext4 whose file /big (real
# data) lies in hundreds of pieces in the holes left by deleted fillers,
# with a contiguous free run above them to defragment it into (SIZE at
# least eight times BIG_MIB).  Fillers are
# allocated with debugfs fallocate (no data written), /big is written with
# debugfs write.  With OLD=1 the free space first holds old data (a file of
# random bytes over three times /big's size, written and deleted), so that
# the blocks /big moves into have contents an undo file must really save;
# else they were never written (holes of the sparse image, which read as
# zeros).  Checks the extent count.
# Usage: undofrag.sh OUT SIZE BIG_MIB PIECE_KIB WORKDIR [OLD]
set -eu
out=$1 size=$2 bmib=$3 pkib=$4 work=$5 old=${6:-0}
mkdir -p "$work"
cmds=$work/undofrag.$$.cmd data=$work/undofrag.$$.data
trap 'rm -f "$cmds" "$data"' EXIT INT TERM
rm -f "$out"
truncate -s "$size" "$out"
# -G 128: the groups' metadata packed at the start (up to 16 GiB), so that
# above the fillers only the superblock backups break the free space
mke2fs -q -F -t ext4 -b 4096 -G 128 -E lazy_itable_init=1,nodiscard "$out" >/dev/null
if [ "$old" = 1 ]; then
	head -c $((bmib * 3 * 1048576 + 67108864)) /dev/urandom > "$data"
	debugfs -w -R "write $data old" "$out" >/dev/null 2>&1
	debugfs -w -R "rm old" "$out" >/dev/null 2>&1
	rm -f "$data"
fi
pblocks=$((pkib / 4))
# fillers over twice /big's size, every other one deleted: holes for /big
n=$((bmib * 2 * 1024 / pkib))
i=1
while [ $i -le $n ]; do
	printf 'write /dev/null f%d\nfallocate f%d 0 %d\n' $i $i $((pblocks - 1))
	i=$((i + 1))
done > "$cmds"
debugfs -w -f "$cmds" "$out" >/dev/null 2>&1
i=1
while [ $i -le $n ]; do
	printf 'rm f%d\n' $i
	i=$((i + 2))
done > "$cmds"
debugfs -w -f "$cmds" "$out" >/dev/null 2>&1
head -c $((bmib * 1048576)) /dev/urandom > "$data"
debugfs -w -R "write $data big" "$out" >/dev/null 2>&1
# a leaf extent's line names two ranges (logical and physical)
ext=$(debugfs -R "ex /big" "$out" 2>/dev/null | grep -c ' - .* - ' || true)
echo "big: $bmib MiB in $ext extents$( [ "$old" = 1 ] && echo ", free space holding old data")"
[ "$ext" -ge 16 ] || { echo "undofrag.sh: /big is in only $ext extents" >&2; exit 1; }
