#!/bin/sh
# t_repack_bigalloc_gate.sh - repack-flex's gate asks per cluster on
# bigalloc: a saved plan whose temporary place is a block no file maps, in a
# cluster a file holds (the bitmap bit flipped free, as by a bad freeb), is
# refused naming the file, and nothing is written.
. "$(dirname "$0")/lib.sh"

img=$T/g.img
mkdir -p "$T/d"
i=1
while [ $i -le 6 ]; do head -c $((70000 * i + 1234)) /dev/urandom > "$T/d/f$i"; i=$((i + 1)); done
mke2fs -q -F -t ext4 -O bigalloc,^flex_bg -b 4096 -C 16384 -g 512 -N 2048 \
	-J size=4 -d "$T/d" "$img" 96M >/dev/null 2>&1 ||
	skip "mke2fs cannot make a bigalloc filesystem here"
# empty the island (around the resize inode's block, which the repack moves)
"$E2LAYOUT" -R "repack-flex 0" "$img" > "$T/out" 2>&1
range=$(sed -n 's/.*free it first with: evacuate \([0-9-]*\)$/\1/p' "$T/out")
dind=$(debugfs -R "stat <7>" "$img" 2>/dev/null | sed -n 's/.*(DIND):\([0-9]*\).*/\1/p')
[ -n "$range" ] && [ -n "$dind" ] || { cat "$T/out"; fail "no island to empty"; }
c0=$((dind - dind % 4))
for r in "${range%-*}-$((c0 - 1))" "$((c0 + 4))-${range#*-}"; do
	"$E2LAYOUT" -w -R "evacuate $r --no-undo" "$img" > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "evacuate $r"; }
done
# the root directory's block, and a free block in its cluster
root=$(debugfs -R "ex <2>" "$img" 2>/dev/null | awk 'NR == 2 { print $8 }')
slack=$((root - root % 4 + 3))
[ "$slack" != "$root" ] || fail "the root's block ends its cluster"
debugfs -R "icheck $slack" "$img" 2>/dev/null | grep -q "$slack.*not found" ||
	fail "block $slack is mapped by a file"
debugfs -w -R "freeb $root" "$img" >/dev/null 2>&1
printf 'repack-flex 0\nplan save %s\n' "$T/p.plan" | "$E2LAYOUT" -f - "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "plan"; }
line=$(grep -n '^ritem [0-9]* 1 ' "$T/p.plan" | awk -F'[: ]' '$6 != 0 { print $1; exit }')
[ -n "$line" ] || { cat "$T/p.plan"; fail "no inode bitmap with a temporary place"; }
sed -i "${line}s/^\(ritem [0-9]* 1 [0-9]*\) [0-9]* /\1 $slack /" "$T/p.plan"
cp "$img" "$T/before.img"
"$E2LAYOUT" -w -R "apply $T/p.plan --no-fsck --no-undo" "$img" > "$T/out" 2>&1 &&
	{ cat "$T/out"; fail "a temporary place in the root's cluster was accepted"; }
grep -q "belong to inode 2" "$T/out" || { cat "$T/out"; fail "the refusal does not name the root"; }
cmp -s "$img" "$T/before.img" || fail "the refused plan wrote"
echo "ok: a temporary place in a file's cluster (block $slack, the root's $root) refused, nothing written"
exit 0
