#!/bin/sh
# t_lab_bigalloc.sh - the bigalloc lab: the lab image writer makes what
# mke2fs -O bigalloc -C makes (dumpe2fs: bigalloc, a cluster size, clusters
# per group; e2fsck -fn clean; debugfs: a small file's Blockcount is a
# whole cluster), the documented solution passes, and the answers of
# someone who thinks in blocks (a cluster of 1, 32768 blocks per group,
# the one block the small file maps) and another trainee's answers fail,
# naming the check.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/solve.sh"

lab_begin bigalloc
dumpe2fs -h "$img" 2>/dev/null > "$T/h"
grep -q "^Filesystem features:.*bigalloc" "$T/h" || fail "dumpe2fs shows no bigalloc"
bs=$(sed -n 's/^Block size: *//p' "$T/h")
cs=$(sed -n 's/^Cluster size: *//p' "$T/h")
[ -n "$cs" ] && [ "$cs" -gt "$bs" ] || fail "cluster size $cs is not larger than the block size $bs"
cpg=$(sed -n 's/^Clusters per group: *//p' "$T/h")
[ "$cpg" -eq $((8 * bs)) ] || fail "clusters per group $cpg, not 8 x $bs"
bc=$(debugfs -R "stat /etc/hostname" "$img" 2>/dev/null | sed -n 's/.*Blockcount: *\([0-9]*\).*/\1/p')
[ "$bc" -eq $((cs / 512)) ] || fail "/etc/hostname's Blockcount $bc is not one cluster ($((cs / 512)))"
# file contents as written (debugfs dump reads them through the clusters)
debugfs -R "dump /srv/video/clip.mp4 $T/clip" "$img" >/dev/null 2>&1
[ "$(wc -c < "$T/clip")" -eq "$(debugfs -R "stat /srv/video/clip.mp4" "$img" 2>/dev/null | sed -n 's/^User:.*  Size: *\([0-9]*\).*/\1/p')" ] ||
	fail "debugfs dump does not read clip.mp4 whole"
lab_passes bigalloc

sed "s/^cluster_blocks = .*/cluster_blocks = 1/" "$T/a/bigalloc.answers" > "$T/blocks"
lab_gamed bigalloc "$img" "$T/blocks" "answer cluster_blocks" "a cluster of one block"
sed "s/^blocks_per_group = .*/blocks_per_group = $((8 * bs))/" "$T/a/bigalloc.answers" > "$T/bpg"
lab_gamed bigalloc "$img" "$T/bpg" "answer blocks_per_group" "8 x block size blocks per group"
sed "s/^small = .*/small = 1/" "$T/a/bigalloc.answers" > "$T/small"
lab_gamed bigalloc "$img" "$T/small" "answer small" "the one block the file maps"
# the letter alice's text gives "larger blocks" (each trainee's order differs)
wrong=$("$E2LAYOUT" lab show bigalloc "$T/a" | sed -n 's/^ *\([a-f]\)\. larger blocks.*/\1/p')
[ -n "$wrong" ] || fail "lab show bigalloc DIR does not list the choice \"larger blocks\""
sed "s/^why = .*/why = $wrong/" "$T/a/bigalloc.answers" > "$T/why"
lab_gamed bigalloc "$img" "$T/why" "answer why" "larger blocks as the reason"
lab_other bigalloc "answer"
# a recipe asking for a cluster size that is not the block size times a
# power of two is refused, naming the line
mkdir -p "$T/labs"
sed 's/cluster={16K|32K|64K}/cluster=12K/' "$labs_src/bigalloc.lab" > "$T/labs/bigalloc.lab"
"$E2LAYOUT" lab validate "$T/labs/bigalloc.lab" --seeds 1 > "$T/bad" 2>&1 && fail "cluster=12K was accepted"
grep -q "cluster= must be" "$T/bad" || { cat "$T/bad"; fail "cluster=12K: no reason given"; }
echo "bigalloc lab test passed"
exit 0
