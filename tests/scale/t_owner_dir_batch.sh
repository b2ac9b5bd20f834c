#!/bin/sh
# t_owner_dir_batch.sh - the path walk reads each directory a stretch at a
# time (core/model/dir_batch.c) and names what it named block by block:
# with a directory of 267 blocks in 267 pieces under an extent index block
# (4000 files of 251-byte names, made by mke2fs -d) and one of 111 blocks
# in a few pieces (debugfs's expand_dir, then 2000 entries, every 50th a
# file with data, spread over it), every file's path is the one debugfs ncheck gives, and the
# walk reads the second directory in at most one read a piece (strace);
# a root that cannot be mapped is read through, without a fault.
. "$(dirname "$0")/../lib/testlib.sh"
export MKE2FS_CONFIG=/dev/null
for t in mke2fs debugfs truncate; do
	command -v $t >/dev/null 2>&1 || skip "$t not installed"
done
feat=extent,flex_bg,metadata_csum,64bit,filetype,sparse_super

# 1: a fragmented directory with an index block
mkdir -p "$T/src/big"
i=0
while [ $i -lt 4000 ]; do
	i=$((i + 1))
	n=$(printf '%04d%0247d' $i 0)
	echo "file $i" > "$T/src/big/$n"
done
truncate -s 256M "$T/a.img"
mke2fs -q -F -b 4096 -I 256 -O $feat -d "$T/src" "$T/a.img" \
	>/dev/null 2>&1 || fail "mke2fs -d"
debugfs -R "ex /big" "$T/a.img" 2>/dev/null > "$T/ex"
# an index level over at least 200 leaf pieces: the layout asked for
grep -q '^ 0/ 1 ' "$T/ex" || fail "/big has no extent index block"
[ "$(grep -c '^ 1/ 1 ' "$T/ex")" -ge 200 ] ||
	fail "/big is in $(grep -c '^ 1/ 1 ' "$T/ex") pieces, not 200 or more"
# /wide: blocks made first (in a few pieces), then 2000 entries of empty
# files with every 50th a file of one block: the wanted entries spread
# over the directory's blocks
echo data > "$T/d"
{
	echo "mkdir wide"
	i=0
	while [ $i -lt 110 ]; do echo "expand_dir wide"; i=$((i + 1)); done
	i=0
	while [ $i -lt 2000 ]; do
		i=$((i + 1))
		if [ $((i % 50)) = 0 ]; then
			printf 'write %s wide/d%04d%0195d\n' "$T/d" $i 0
		else
			printf 'write /dev/null wide/e%04d%0195d\n' $i 0
		fi
	done
} > "$T/mkwide"
debugfs -w -f "$T/mkwide" "$T/a.img" >/dev/null 2>&1 || fail "debugfs -w"
debugfs -R "ex /wide" "$T/a.img" 2>/dev/null |
	awk '$1 == "0/" && $2 == "0" { print $8, $11 }' > "$T/pieces"
awk '$2 >= 90 { f = 1 } END { exit !f }' "$T/pieces" ||
	fail "/wide has no piece of 90 blocks or more: $(cat "$T/pieces")"
{ ls "$T/src/big" | awk '{ print "bmap /big/" $0 " 0" }'
  awk '$3 ~ /^wide\/d/ { print "bmap /" $3 " 0" }' "$T/mkwide"; } \
	> "$T/bmaps"
debugfs -f "$T/bmaps" "$T/a.img" 2>/dev/null | grep '^[0-9][0-9]*$' \
	> "$T/blocks"
[ "$(wc -l < "$T/blocks")" = 4040 ] || fail "not 4040 file blocks"
B=$(tr '\n' ' ' < "$T/blocks")
"$E2LAYOUT" -R "owner $B" "$T/a.img" > "$T/owner" 2>&1 ||
	{ head "$T/owner"; fail "owner of 4040 blocks"; }
# "B: file data, group G, inode I (PATH), logical block 0" -> "I PATH"
sed -n 's/^[0-9]*: file data, group [0-9]*, inode \([0-9]*\) (\(.*\)), logical block 0$/\1 \2/p' \
	"$T/owner" | sort > "$T/paths"
[ "$(wc -l < "$T/paths")" = 4040 ] ||
	fail "$(wc -l < "$T/paths") of 4040 files named: $(grep -v '(/big/\|(/wide/' "$T/owner" | head -3)"
[ "$(grep -c ' /wide/d' "$T/paths")" = 40 ] || fail "not 40 files of /wide"
cut -d' ' -f1 "$T/paths" | tr '\n' ' ' > "$T/inos"
debugfs -R "ncheck $(cat "$T/inos")" "$T/a.img" 2>/dev/null |
	awk -F'\t' 'NR > 1 { print $1 " " $2 }' | sort > "$T/ncheck"
cmp -s "$T/paths" "$T/ncheck" ||
	fail "paths differ from ncheck's: $(diff "$T/paths" "$T/ncheck" | head -4)"

# the first directory walked cannot be mapped (the root's extent header
# zeroed): its reads pass through, the walk goes on, nothing trips (the
# fuzzer found qsort given no runs at all here, under UBSan)
cp "$T/a.img" "$T/c.img"
debugfs -w -R "sif <2> block[0] 0" "$T/c.img" >/dev/null 2>&1 ||
	fail "debugfs sif"
"$E2LAYOUT" -R "owner $B" "$T/c.img" > "$T/bad" 2>&1
rc=$?
[ $rc -lt 128 ] || fail "owner on a broken root: exit $rc: $(tail -3 "$T/bad")"
grep -q 'runtime error\|Sanitizer' "$T/bad" &&
	fail "owner on a broken root: $(grep -m1 'runtime error\|Sanitizer' "$T/bad")"
command -v strace >/dev/null 2>&1 || skip "strace not installed"
strace -o /dev/null true 2>/dev/null || skip "strace not usable here"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -o "$T/trace" -e trace=pread64 \
	"$E2LAYOUT" -R "owner $B" "$T/a.img" > "$T/owner2" 2>&1 ||
	fail "owner under strace"
cmp -s "$T/owner" "$T/owner2" || fail "the output differs under strace"
# the reads that start inside /wide's pieces
sed -n 's/.*, \([0-9]*\)) = [0-9]*$/\1/p' "$T/trace" |
	awk -v pieces="$(tr '\n' ' ' < "$T/pieces")" '
	BEGIN { n = split(pieces, p, " ") }
	{ b = $1 / 4096; for (i = 1; i < n; i += 2)
		if (b >= p[i] && b < p[i] + p[i + 1]) k++ }
	END { print k + 0 }' > "$T/nreads"
np=$(wc -l < "$T/pieces")
[ "$(cat "$T/nreads")" -ge 1 ] || fail "no read of /wide seen in the trace"
[ "$(cat "$T/nreads")" -le "$np" ] ||
	fail "$(cat "$T/nreads") reads of /wide's blocks in $np pieces"
