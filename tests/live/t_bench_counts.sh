#!/bin/sh
# t_bench_counts.sh - bench's columns on a one-group ext4 (64 MiB of 4 KiB
# blocks): 300 one-block files put 300 extents in group 0, and the groups
# column says 1 (an unsigned char counter wrapped to 2 at 256); bench
# files prints files/s (it printed ops/s 0); mark_inode_dirty is totalled
# (at least once per file written, and no more than a reference reading
# of the whole run sees) and split by caller; the --json documents are
# valid against help/schema/.
# e2l: serial - counts mark_inode_dirty events against a reference reading
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/livelib.sh"
. "$(dirname "$0")/../lib/jsonlib.sh"
live_mount 64M ""
[ "$(dumpe2fs -h "$T/img" 2>/dev/null | sed -n 's/^Block count: *//p')" -le 32768 ] ||
	fail "the test filesystem has more than one group"

$E2LAYOUT --json -R "bench files --files 300 --size 4K --threads 2" "$mnt" > "$T/b.json" 2>"$T/err" ||
	fail "bench files: $(cat "$T/err")"
[ "$(num files < "$T/b.json")" = 300 ] || fail "not 300 files: $(cat "$T/b.json")"
[ "$(num extents < "$T/b.json")" -ge 300 ] || fail "fewer than 300 extents: $(cat "$T/b.json")"
g=$(num groups_touched < "$T/b.json")
[ "$g" = 1 ] || fail "groups_touched $g on a one-group filesystem"
fps=$(sed -n 's/.*"files_per_second":\([0-9.e+]*\).*/\1/p' "$T/b.json")
awk -v f="$fps" 'BEGIN { exit !(f > 0) }' || fail "files_per_second '$fps'"

# The text row: files/s column non-zero, groups 1.
$E2LAYOUT -R "bench files --files 300 --size 4K --label x" "$mnt" > "$T/b.txt" 2>"$T/err" ||
	fail "bench files (text): $(cat "$T/err")"
head -1 "$T/b.txt" | grep -q 'files/s' || fail "no files/s column: $(head -1 "$T/b.txt")"
awk 'NR == 2 { exit !($5 > 0 && $8 == 1) }' "$T/b.txt" ||
	fail "files/s or groups wrong: $(sed -n 2p "$T/b.txt")"

# mark_inode_dirty totals need tracing.
live_tracefs
ref=/sys/kernel/tracing/instances/e2l-test-$$
live_extra_cleanup='rmdir "$ref" 2>/dev/null'
mkdir "$ref" || skip "cannot create a tracing instance: skipped"
echo 32768 > "$ref/buffer_size_kb"
echo "dev == $kdev" > "$ref/events/ext4/ext4_mark_inode_dirty/filter"
echo 1 > "$ref/events/ext4/ext4_mark_inode_dirty/enable"
$E2LAYOUT --json -R "bench files --files 300 --size 4K" "$mnt" > "$T/d.json" 2>"$T/err" ||
	fail "bench files (traced): $(cat "$T/err")"
echo 0 > "$ref/events/ext4/ext4_mark_inode_dirty/enable"
grep -q '"traced":true' "$T/d.json" || skip "bench could not trace here: skipped"
refn=$(grep -c 'ext4_mark_inode_dirty:' "$ref/trace")
rmdir "$ref"
d=$(num mark_inode_dirty < "$T/d.json")
[ -n "$d" ] && [ "$d" -ge 300 ] && [ "$d" -le "$refn" ] ||
	fail "mark_inode_dirty '$d' (reference saw $refn over the whole run)"
grep -q '"mark_inode_dirty_by_caller":\[{"caller":"[a-z_0-9]*","count":[0-9]*' "$T/d.json" ||
	grep -q '"counted_in_kernel":false' "$T/d.json" || fail "no callers: $(cat "$T/d.json")"
$E2LAYOUT -R "bench files --files 50 --size 4K" "$mnt" 2>/dev/null | grep -q '^mark_inode_dirty: [0-9]' ||
	fail "no mark_inode_dirty line in the text output"
$E2LAYOUT --json -R "bench randwrite --size 256K --ops 16" "$mnt" > "$T/r.json" \
	2>"$T/err" || fail "bench randwrite: $(cat "$T/err")"
schema_check "$T/b.json" "$T/d.json" "$T/r.json"
exit 0
