#!/bin/sh
# ldfrag.sh - the image of the live defrag row: ext4 with NFILES files of
# ROUNDS pieces each, made on a loop mount by appending 16 KiB to each file
# in turn with fsync (so that no two pieces of a file touch).  Exits 3 when
# the machine refuses a loop mount.  Usage: ldfrag.sh OUT SIZE NFILES ROUNDS
# WORKDIR
set -eu
out=$1 size=$2 nfiles=$3 rounds=$4 work=$5
mnt=$work/ldfrag.mnt.$$
rm -f "$out"
truncate -s "$size" "$out"
mke2fs -q -F -t ext4 -b 4096 -E nodiscard "$out" >/dev/null
mkdir -p "$mnt"
trap 'umount "$mnt" 2>/dev/null; rmdir "$mnt" 2>/dev/null' EXIT INT TERM
mount -o loop "$out" "$mnt" 2>/dev/null || { echo "cannot loop-mount"; exit 3; }
mkdir "$mnt/d"
r=0
while [ $r -lt "$rounds" ]; do
	i=0
	while [ $i -lt "$nfiles" ]; do
		dd if=/dev/urandom of="$mnt/d/f$i" bs=16k count=1 oflag=append \
			conv=notrunc,fsync status=none
		i=$((i + 1))
	done
	r=$((r + 1))
done
n=$(find "$mnt/d" -type f -exec filefrag {} + |
    awk '{ s += $(NF - 2) } END { print s + 0 }')
echo "live defrag image: $nfiles files of $((rounds * 16)) KiB, $n extents"
