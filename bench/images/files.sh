#!/bin/sh
# files.sh - the aged "300,000 files" ext4 image of the benchmark: files of
# mixed sizes made by genfiles.c (creates, deletes, interleaved appends) on a
# loop mount, or, where mounting is not possible, into a host directory that
# mke2fs -d copies (less aged: mke2fs lays files out in order).
# Usage: files.sh OUT SIZE NFILES WORKDIR
set -eu
out=$1 size=$2 nfiles=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
gen=$work/genfiles
mnt=$work/mnt.$$
tree=$work/tree.$$
inodes=$((nfiles + nfiles / 3 + 1024))
mkdir -p "$work"
${CC:-cc} -O2 -o "$gen" "$here/genfiles.c"

cleanup() {
	if [ -d "$mnt" ]; then
		umount "$mnt" 2>/dev/null || true
		rmdir "$mnt" 2>/dev/null || true
	fi
	rm -rf "$tree"
}
trap cleanup EXIT INT TERM

rm -f "$out"
truncate -s "$size" "$out"
mkfs() {
	mke2fs -q -F -t ext4 -b 4096 -N "$inodes" \
		-E lazy_itable_init=1,lazy_journal_init=1,nodiscard "$@" \
		>/dev/null
}
mkdir -p "$mnt"
mkfs "$out"
if [ -z "${E2L_BENCH_NOMOUNT:-}" ] &&
   mount -o loop,noinit_itable "$out" "$mnt" 2>/dev/null; then
	"$gen" "$mnt" "$nfiles" 1
	umount "$mnt"
	echo "made on a loop mount"
else
	rmdir "$mnt"
	mkdir -p "$tree"
	"$gen" "$tree" "$nfiles" 1 --data
	mkfs -d "$tree" "$out"
	echo "made with mke2fs -d (no loop mount here)"
fi
