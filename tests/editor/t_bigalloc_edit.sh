#!/bin/sh
# t_bigalloc_edit.sh - prealloc and journal_relocate --size on bigalloc
# (4 KiB blocks, 16 KiB clusters): prealloc after a file whose last cluster
# is partly used (the holes of that cluster stay in it, the rest takes whole
# new clusters), prealloc of a new file, the journal grown and shrunk to a
# size that is not a whole number of clusters.  Each checked by e2fsck -fn,
# every extent keeping its block's offset in the cluster, md5 of every file,
# e2undo restoring the image byte for byte and the crash-point sweep.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sweep.sh"

R=4	# blocks a cluster

# every extent keeps block offsets within clusters of R blocks
aligned() {	# IMG FILE
	debugfs -R "ex $2" "$1" 2>/dev/null | awk -v r="$R" 'NR > 1 {
		split($1, a, "/"); if (a[1] + 0 < $2 + 0) next
		if ($5 % r != $8 % r) bad = 1 } END { exit bad }'
}
undo_check() {	# IMG ORIG OUT
	undo=$(sed -n 's/^undo file: \([^ ]*\) .*/\1/p' "$3")
	[ -f "$undo" ] || fail "no undo file"
	e2undo "$undo" "$1" >/dev/null 2>&1 || fail "e2undo"
	cmp -s "$1" "$2" || fail "e2undo did not restore $1"
	rm -f "$undo"
}
run() {	# IMG REQUEST: plan, apply with an undo file, verified and clean
	printf 'plan %s\napply\n' "$2" | "$E2LAYOUT" -w -f - "$1" > "$T/out" 2>&1 ||
		{ tail -5 "$T/out"; fail "$2 on bigalloc"; }
	grep -q "^verified: " "$T/out" || { cat "$T/out"; fail "$2 not verified"; }
	e2fsck -fn "$1" > "$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck after $2"; }
}

img=$T/ba.img
mke2fs -q -F -t ext4 -O bigalloc -C 16384 -b 4096 -J size=4 "$img" 64M \
	>/dev/null 2>&1 || skip "mke2fs cannot make a bigalloc filesystem here"
mkdir -p "$T/payload"
i=1
while [ $i -le 8 ]; do	# sizes that end inside a cluster
	head -c $((300000 + i * 7001)) /dev/urandom > "$T/payload/f$i"
	i=$((i + 1))
done
{
	i=1; while [ $i -le 8 ]; do echo "write $T/payload/f$i f$i"; i=$((i + 1)); done
	echo "rm f2"; echo "rm f4"; echo "rm f6"
} | debugfs -w -f - "$img" >/dev/null 2>&1
e2fsck -fn "$img" >/dev/null 2>&1 || fail "the generated $img is not clean"
cp --sparse=always "$img" "$T/orig.img"
sums "$img" "$T/want.md5"

# 1. prealloc after /f3's data: its last cluster keeps the first holes.
size3=$(stat -c %s "$T/payload/f3")
run "$img" "prealloc /f3 2M"
aligned "$img" /f3 || fail "prealloc: an extent of /f3 breaks the cluster offsets"
debugfs -R "ex /f3" "$img" 2>/dev/null | grep -q Uninit || fail "no unwritten extent in /f3"
# the hole blocks of the file's last cluster are mapped in that cluster
last=$(( (size3 + 4095) / 4096 - 1 ))
[ $(( (last + 1) % R )) != 0 ] || fail "/f3 ends on a cluster boundary: the test needs a partial one"
debugfs -R "ex /f3" "$img" 2>/dev/null | awk -v l="$last" -v r="$R" 'NR > 1 {
	if ($5 + 0 <= l && $7 + 0 >= l) c = int(($8 + l - $5) / r)
	if ($5 + 0 == l + 1) n = int($8 / r) } END { exit !(c == n) }' ||
	fail "the holes of /f3's last cluster went to another cluster"
debugfs -R "dump /f3 $T/f3.out" "$img" >/dev/null 2>&1
[ "$(stat -c %s "$T/f3.out")" = 2097152 ] || fail "/f3 is not 2M"
head -c "$size3" "$T/f3.out" | cmp -s - "$T/payload/f3" || fail "/f3's data changed"
tail -c +$((size3 + 1)) "$T/f3.out" | tr -d '\0' | grep -q . &&
	fail "the preallocated part of /f3 is not zeros"
sums "$img" "$T/got.md5"
grep -v ' \./f3$' "$T/want.md5" > "$T/w"; grep -v ' \./f3$' "$T/got.md5" > "$T/g"
cmp -s "$T/w" "$T/g" || fail "prealloc changed another file"
undo_check "$img" "$T/orig.img" "$T/out"
echo "ok: prealloc of an existing file on bigalloc, undone byte for byte"

# 2. prealloc of a new file: whole clusters, the size not a multiple.
run "$img" "prealloc /new 5000001"
aligned "$img" /new || fail "prealloc: /new breaks the cluster offsets"
debugfs -R "stat /new" "$img" 2>/dev/null | grep -q "Size: 5000001" || fail "/new's size"
undo_check "$img" "$T/orig.img" "$T/out"
echo "ok: prealloc of a new file on bigalloc, undone byte for byte"

# 3. The journal grown and shrunk (sizes inside a cluster).
for n in 2049 1499; do
	run "$img" "journal_relocate --size $n"
	aligned "$img" "<8>" || fail "journal --size $n breaks the cluster offsets"
	contiguous "$img" "<8>" || fail "journal --size $n not contiguous"
	dumpe2fs -h "$img" 2>/dev/null | grep -q "^Total journal blocks: *$n$" ||
		fail "journal length is not $n"
	sums "$img" "$T/got.md5"
	grep -v '<8>$' "$T/want.md5" > "$T/w"; grep -v '<8>$' "$T/got.md5" > "$T/g"
	cmp -s "$T/w" "$T/g" || fail "journal --size $n changed a file"
	undo_check "$img" "$T/orig.img" "$T/out"
done
echo "ok: journal_relocate --size 2049 and 1499 on bigalloc, undone byte for byte"

# 4. Crash points: every write of each apply.
cp "$T/payload/f5" "$T/keep5"
SWEEP_KEEP=$T/keep5 sweep "$img" "prealloc /f5 1M" "--no-undo" /f5
sweep "$img" "prealloc /newfile 3M" "--no-undo" /newfile
sweep "$img" "journal_relocate --size 1501" "--no-undo" "<8>"
exit 0
