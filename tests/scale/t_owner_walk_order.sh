#!/bin/sh
# t_owner_walk_order.sh - the path walk goes first into the directories
# numbered nearest below the inodes it looks for (a directory's files are
# made after it): nine files of a tree of 2000 directories (mke2fs -d,
# one file each) are named after reading a few directories, not most of
# the tree (strace counts the reads; the old walk, last entry first, read
# 2263), and named as debugfs ncheck names them.
. "$(dirname "$0")/../lib/testlib.sh"
export MKE2FS_CONFIG=/dev/null
for t in mke2fs debugfs truncate; do
	command -v $t >/dev/null 2>&1 || skip "$t not installed"
done
command -v strace >/dev/null 2>&1 || skip "strace not installed"
strace -o /dev/null true 2>/dev/null || skip "strace not usable here"
mkdir "$T/src"
i=0
while [ $i -lt 2000 ]; do
	i=$((i + 1))
	mkdir "$T/src/d$i"
	echo $i > "$T/src/d$i/f$i"
done
truncate -s 128M "$T/a.img"
mke2fs -q -F -b 4096 -I 256 -N 8192 \
	-O extent,flex_bg,metadata_csum,64bit,filetype,sparse_super \
	-d "$T/src" "$T/a.img" >/dev/null 2>&1 || fail "mke2fs -d"
for i in 7 300 301 302 999 1000 1500 1999 2000; do
	echo "bmap /d$i/f$i 0"
done > "$T/bmaps"
debugfs -f "$T/bmaps" "$T/a.img" 2>/dev/null | grep '^[0-9][0-9]*$' \
	> "$T/blocks"
[ "$(wc -l < "$T/blocks")" = 9 ] || fail "not 9 file blocks"
B=$(tr '\n' ' ' < "$T/blocks")
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -o "$T/trace" -e trace=pread64 \
	"$E2LAYOUT" -R "owner $B" "$T/a.img" > "$T/owner" 2>&1 ||
	{ cat "$T/owner"; fail "owner"; }
sed -n 's/^[0-9]*: file data, group [0-9]*, inode \([0-9]*\) (\(.*\)), logical block 0$/\1 \2/p' \
	"$T/owner" | sort > "$T/paths"
[ "$(wc -l < "$T/paths")" = 9 ] || fail "not 9 files named: $(cat "$T/owner")"
debugfs -R "ncheck $(cut -d' ' -f1 "$T/paths" | tr '\n' ' ')" "$T/a.img" \
	2>/dev/null | awk -F'\t' 'NR > 1 { print $1 " " $2 }' | sort \
	> "$T/ncheck"
cmp -s "$T/paths" "$T/ncheck" ||
	fail "paths differ from ncheck's: $(diff "$T/paths" "$T/ncheck" | head -4)"
n=$(grep -c '^pread64' "$T/trace")
[ "$n" -le 200 ] || fail "$n reads to name 9 files of 2000 directories"
