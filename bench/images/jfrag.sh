#!/bin/sh
# jfrag.sh - the "-G 512" ext4 image whose journal is in dozens of pieces:
# made without a journal, filled with equal files (allocated with debugfs
# fallocate, no data written), every other file deleted, then tune2fs adds a
# journal that can only take the holes; the first half is then emptied.  Checks the piece count with
# debugfs "ex <8>".  Usage: jfrag.sh OUT SIZE JOURNAL_MIB FILE_KIB WORKDIR
set -eu
out=$1 size=$2 jmib=$3 fkib=$4 work=$5
mkdir -p "$work"
cmds=$work/jfrag.$$.cmd
trap 'rm -f "$cmds"' EXIT INT TERM
rm -f "$out"
truncate -s "$size" "$out"
mke2fs -q -F -t ext4 -b 4096 -O ^has_journal -G 512 \
	-E lazy_itable_init=1,nodiscard "$out" >/dev/null
fblocks=$((fkib / 4))
free=$(dumpe2fs -h "$out" 2>/dev/null | awk -F: '/^Free blocks/ {print $2+0}')
n=$((free / fblocks + 1))
i=1
while [ $i -le $n ]; do
	printf 'write /dev/null f%d\nfallocate f%d 0 %d\n' $i $i $((fblocks - 1))
	i=$((i + 1))
done > "$cmds"
# The last fallocate runs out of space on purpose: the filesystem is full.
debugfs -w -f "$cmds" "$out" >/dev/null 2>&1 || true
i=1
while [ $i -le $n ]; do
	printf 'rm f%d\n' $i
	i=$((i + 2))
done > "$cmds"
debugfs -w -f "$cmds" "$out" >/dev/null 2>&1
tune2fs -O has_journal -J size="$jmib" "$out" >/dev/null 2>&1
# Free the first half (files are laid out in order, the journal went to the
# middle and above) so that a contiguous run exists to relocate it into.
i=2
while [ $i -le $((n / 2)) ]; do
	printf 'rm f%d\n' $i
	i=$((i + 2))
done > "$cmds"
debugfs -w -f "$cmds" "$out" >/dev/null 2>&1
pieces=$(debugfs -R "ex <8>" "$out" 2>/dev/null | awk '$6 == "-" && $9 == "-" {n++} END {print n+0}')
echo "journal: $jmib MiB in $pieces pieces"
[ "$pieces" -ge 8 ] || { echo "jfrag.sh: journal is in only $pieces pieces" >&2; exit 1; }
