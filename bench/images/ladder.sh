#!/bin/sh
# ladder.sh - one rung of the scale ladder: SIZE of sparse ext4 (4 KiB
# blocks, lazy init) filled with NFILES files by genfs.c straight through
# libext2fs (~30 s a million files); SPREAD=1 puts a directory in every
# group (PER_DIR files each).
# Usage: ladder.sh OUT SIZE NFILES SPREAD PER_DIR WORKDIR
set -eu
out=$1 size=$2 nfiles=$3 spread=$4 per_dir=$5 work=$6
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
${CC:-cc} -O2 -o "$work/genfs" "$here/genfs.c" -lext2fs -lcom_err
rm -f "$out"
truncate -s "$size" "$out"
mke2fs -q -F -t ext4 -b 4096 -N $((nfiles + nfiles / 5 + 4096)) \
	-E lazy_itable_init=1,lazy_journal_init=1,nodiscard "$out" >/dev/null
"$work/genfs" "$out" "$nfiles" "$spread" "$per_dir"
echo "$size ext4, $nfiles files by genfs.c$( [ "$spread" = 1 ] &&
	echo ", a directory of $per_dir in every group")"
