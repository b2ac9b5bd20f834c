#!/bin/sh
# t_deep_bigalloc.sh - the movers on extent trees deeper than one index
# level and on bigalloc.  A file with tens of thousands of alternating holes
# (debugfs write + punch: a depth-3 tree) is defragmented into the most
# compact tree, another (depth 2) evacuated; on a bigalloc image (-C 16384)
# a fragmented file and a sparse file with partial-cluster holes and an
# unwritten extent are defragmented, a range evacuated and the journal
# relocated.  Each checked by debugfs ex, e2fsck -fn, md5 of every file and
# e2undo restoring the image byte for byte.
. "$(dirname "$0")/lib.sh"

# depth of FILE's tree and its number of tree blocks, per debugfs
tree() {
	debugfs -R "ex $2" "$1" 2>/dev/null | awk 'NR > 1 {
		split($1, a, "/"); d = $2 + 0
		if (a[1] + 0 < d) n++ } END { print d + 0, n + 0 }'
}
# every extent keeps block offsets within clusters of R blocks
aligned() {
	debugfs -R "ex $2" "$1" 2>/dev/null | awk -v r="$3" 'NR > 1 {
		split($1, a, "/"); if (a[1] + 0 < $2 + 0) next
		if ($5 % r != $8 % r) bad = 1 } END { exit bad }'
}
# the data extents follow each other physically (holes take no space)
packed() {
	debugfs -R "ex $2" "$1" 2>/dev/null | awk 'NR > 1 {
		split($1, a, "/"); if (a[1] + 0 < $2 + 0) next
		s = $8 + 0; e = ($9 == "-") ? $10 + 0 : s
		if (p && s != p + 1) bad = 1; p = e } END { exit bad }'
}
# logical ranges and flags, neighbours merged
logical() {
	debugfs -R "ex $2" "$1" 2>/dev/null | awk 'NR > 1 {
		split($1, a, "/"); if (a[1] + 0 < $2 + 0) next
		u = ($NF ~ /Uninit/)
		if (n && $5 == e + 1 && u == f) { e = $7; next }
		if (n) print b, e, f
		b = $5; e = $7; f = u; n = 1 } END { if (n) print b, e, f }'
}
undo_check() {	# IMG ORIG OUT
	undo=$(sed -n 's/^undo file: \([^ ]*\) .*/\1/p' "$3")
	[ -f "$undo" ] || fail "no undo file"
	e2undo "$undo" "$1" >/dev/null 2>&1 || fail "e2undo"
	cmp -s "$1" "$2" || fail "e2undo did not restore $1"
	rm -f "$undo"
}

# 1. Deep trees (1 KiB blocks: 84 extents a block).
img=$T/deep.img
mke2fs -q -F -t ext4 -O ^has_journal -b 1024 "$img" 120M >/dev/null 2>&1 ||
	fail "mke2fs"
head -c 58000000 /dev/urandom > "$T/d3"
head -c 3000000 /dev/urandom > "$T/d2"
{
	echo "write $T/d3 deep3"
	echo "write $T/d2 deep2"
	i=1; while [ $i -lt 56700 ]; do echo "punch deep3 $i $i"; i=$((i + 2)); done
	i=1; while [ $i -lt 2900 ]; do echo "punch deep2 $i $i"; i=$((i + 2)); done
} | debugfs -w -f - "$img" >/dev/null 2>&1
set -- $(tree "$img" deep3)
[ "$1" -ge 3 ] || skip "debugfs made a tree of depth $1 only; deep trees not tested"
d_before=$1; tb_before=$2
set -- $(tree "$img" deep2)
[ "$1" -ge 2 ] || fail "deep2 has depth $1"
e2fsck -fn "$img" >/dev/null 2>&1 || fail "the generated $img is not clean"
sums "$img" "$T/want.md5"
logical "$img" deep3 > "$T/l1"
cp --sparse=always "$img" "$T/orig.img"
"$E2LAYOUT" -w -R "defrag /deep3" "$img" > "$T/out" 2>&1 ||
	{ tail -5 "$T/out"; fail "defrag of a depth-$d_before tree"; }
grep -q "^verified: " "$T/out" || fail "defrag not verified"
e2fsck -fn "$img" > "$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck after defrag"; }
set -- $(tree "$img" deep3)
n=$(wc -l < "$T/l1")
# the most compact tree over n extents: full blocks at every level
want=$(awk -v n="$n" 'BEGIN { per = 84; c = n; t = 0; d = 0
	while (c > 4) { c = int((c + per - 1) / per); t += c; d++ }
	print d, t }')
[ "$1 $2" = "$want" ] || fail "tree after defrag: depth/blocks $1 $2, the most compact is $want"
logical "$img" deep3 | cmp -s - "$T/l1" || fail "the logical layout of deep3 changed"
packed "$img" deep3 || fail "deep3's data not in one run"
sums "$img" "$T/got.md5"
cmp -s "$T/want.md5" "$T/got.md5" || fail "contents changed (defrag)"
undo_check "$img" "$T/orig.img" "$T/out"
echo "ok: defrag of a depth-$d_before tree ($tb_before tree blocks -> $2, $n extents)"

first=$(debugfs -R "bmap deep2 0" "$img" 2>/dev/null)
last=$(debugfs -R "bmap deep2 2928" "$img" 2>/dev/null)
"$E2LAYOUT" -w -R "evacuate $first-$last" "$img" > "$T/out" 2>&1 ||
	{ tail -5 "$T/out"; fail "evacuate $first-$last"; }
e2fsck -fn "$img" > "$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck after evacuate"; }
n=$(debugfs -R "testb $first $((last - first + 1))" "$img" 2>/dev/null | grep -c "marked in use")
[ "$n" = 0 ] || fail "$n blocks of the range still in use"
sums "$img" "$T/got.md5"
cmp -s "$T/want.md5" "$T/got.md5" || fail "contents changed (evacuate)"
undo_check "$img" "$T/orig.img" "$T/out"
echo "ok: evacuate of a depth-2 tree"

# 2. Bigalloc: 4 KiB blocks, 16 KiB clusters.
img=$T/ba.img
mke2fs -q -F -t ext4 -O bigalloc -C 16384 -b 4096 -J size=4 "$img" 64M \
	>/dev/null 2>&1 || skip "mke2fs cannot make bigalloc here"
i=1
while [ $i -le 30 ]; do head -c $((60000 + i * 1000)) /dev/urandom > "$T/s$i"; i=$((i + 1)); done
head -c 2000000 /dev/urandom > "$T/bb"
{
	i=1; while [ $i -le 30 ]; do echo "write $T/s$i s$i"; i=$((i + 1)); done
	i=1; while [ $i -le 30 ]; do echo "rm s$i"; i=$((i + 2)); done
	echo "write $T/bb big"
	echo "write $T/bb sp"
	echo "punch sp 5 6"
	echo "punch sp 13 13"
	echo "punch sp 40 47"
	echo "punch sp 101 130"
	echo "fallocate sp 600 650"
} | debugfs -w -f - "$img" >/dev/null 2>&1
e2fsck -fn "$img" >/dev/null 2>&1 || fail "the generated bigalloc image is not clean"
[ "$(extents "$img" /big)" -gt 1 ] || fail "big not fragmented on bigalloc"
sums "$img" "$T/want.md5"
# crashes during a bigalloc defrag: e2fsck finds at most leaked clusters
crashes=0
for k in 1 2 3 4 5 6 8; do
	cp "$img" "$T/c.img"
	E2L_FAULT_WRITES=$k "$E2LAYOUT" -w -R "defrag /big --no-undo" "$T/c.img" > "$T/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && break
	[ $rc -eq 86 ] || { cat "$T/out"; fail "bigalloc k=$k exit $rc"; }
	fsck_verdict "$T/c.img"
	[ $? -eq 2 ] && { cat "$T/fsck.out"; fail "bigalloc k=$k e2fsck found damage"; }
	sums "$T/c.img" "$T/got.md5"
	cmp -s "$T/want.md5" "$T/got.md5" || fail "bigalloc k=$k contents changed"
	crashes=$((crashes + 1))
done
[ $crashes -ge 3 ] || fail "only $crashes bigalloc crash points"
for f in big sp; do
	logical "$img" $f > "$T/l1"
	cp "$img" "$T/orig.img"
	"$E2LAYOUT" -w -R "defrag /$f" "$img" > "$T/out" 2>&1 ||
		{ tail -5 "$T/out"; fail "bigalloc defrag $f"; }
	e2fsck -fn "$img" > "$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck after bigalloc defrag $f"; }
	aligned "$img" $f 4 || fail "$f breaks the cluster rule"
	logical "$img" $f | cmp -s - "$T/l1" || fail "the logical layout of $f changed"
	sums "$img" "$T/got.md5"
	cmp -s "$T/want.md5" "$T/got.md5" || fail "contents changed (bigalloc $f)"
	cp "$img" "$T/done.img"
	undo_check "$img" "$T/orig.img" "$T/out"
	cp "$T/done.img" "$img"
done
[ "$(extents "$img" /big)" = 1 ] || fail "big not in one extent on bigalloc"
echo "ok: bigalloc defrag (fragmented file; partial-cluster holes, unwritten extent; $crashes crash points)"
first=$(debugfs -R "bmap big 0" "$img" 2>/dev/null)
"$E2LAYOUT" -w -R "evacuate $first-$((first + 100)) --no-undo" "$img" > "$T/out" 2>&1 ||
	{ tail -5 "$T/out"; fail "bigalloc evacuate"; }
"$E2LAYOUT" -w -R "journal_relocate --middle --no-undo" "$img" > "$T/out" 2>&1 ||
	{ tail -5 "$T/out"; fail "bigalloc journal relocate"; }
e2fsck -fn "$img" > "$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck after bigalloc evacuate/journal"; }
n=$(debugfs -R "testb $first 101" "$img" 2>/dev/null | grep -c "marked in use")
[ "$n" = 0 ] || fail "$n blocks of the evacuated range still in use"
sums "$img" "$T/got.md5"
cmp -s "$T/want.md5" "$T/got.md5" || fail "contents changed (bigalloc evacuate/journal)"
echo "ok: bigalloc evacuate and journal relocate"
exit 0
