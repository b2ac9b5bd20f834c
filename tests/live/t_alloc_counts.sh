#!/bin/sh
# t_alloc_counts.sh - alloc watch's counts are exact: on a nodelalloc mount,
# (1) four writers at once (also counted --from-stream, as without BPF),
# and (2) 600,000 one-byte appends, whose mark_inode_dirty events overflow
# the 8 MiB per-CPU buffer the stream used to be counted from; each time
# the per-inode mark_inode_dirty counts, allocations and blocks equal an
# independent lossless reading (a tracefs instance of our own with a
# buffer large enough, checked for overruns).
# Also: --by caller names kernel functions, paths sit next to inodes,
# --buffer-kb is checked, and the --json documents (each --by) are valid
# against help/schema/.
# e2l: serial - counts tracepoint events exactly against its own instance
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/jsonlib.sh"
. "$(dirname "$0")/livelib.sh"
live_mount 256M nodelalloc
live_tracefs

# The independent reading: our own instance, both events, a big buffer.
ref=/sys/kernel/tracing/instances/e2l-test-$$
live_extra_cleanup='rmdir "$ref" 2>/dev/null'
ref_start() {	# KB per CPU
	mkdir "$ref" || skip "cannot create a tracing instance: skipped"
	echo 0 > "$ref/tracing_on"
	echo "$1" > "$ref/buffer_size_kb" || skip "no $1 KiB trace buffer here: skipped"
	for e in ext4_mark_inode_dirty ext4_allocate_blocks; do
		echo "dev == $kdev" > "$ref/events/ext4/$e/filter"
		echo 1 > "$ref/events/ext4/$e/enable"
	done
	echo 1 > "$ref/tracing_on"
}
# ref_stop: the reading as "ino dirtied allocs blocks" lines, sorted.
ref_stop() {
	echo 0 > "$ref/tracing_on"
	lost=$(cat "$ref"/per_cpu/cpu*/stats | awk '/^overrun:/ { s += $2 } END { print s + 0 }')
	[ "$lost" = 0 ] || fail "the reference reading lost $lost events: its buffer is too small"
	awk '/ext4_mark_inode_dirty:|ext4_allocate_blocks:/ {
		ino = ""; len = 0
		for (i = 1; i < NF; i++) {
			if ($i == "ino") ino = $(i + 1)
			if ($i == "len") len = $(i + 1)
		}
		if (/ext4_mark_inode_dirty:/) d[ino]++; else { a[ino]++; b[ino] += len }
		seen[ino] = 1
	} END { for (k in seen) print k, d[k] + 0, a[k] + 0, b[k] + 0 }' "$ref/trace" |
		sort -n > "$1"
	for e in ext4_mark_inode_dirty ext4_allocate_blocks; do
		echo 0 > "$ref/events/ext4/$e/enable"
	done
	rmdir "$ref"
}
# ours JSON: e2layout's per-inode counts as "ino dirtied allocs blocks".
ours() {
	tr '{' '\n' < "$1" | sed -n '/"mark_inode_dirty":[0-9]*,"allocations"/s/.*"inode":\([0-9]*\),.*"mark_inode_dirty":\([0-9]*\),"allocations":\([0-9]*\),"blocks":\([0-9]*\).*/\1 \2 \3 \4/p' |
		sort -n > "$2"
	# inodes that only allocated (no mark_inode_dirty) are in the second table
	tr '{' '\n' < "$1" | sed -n '/"path"/s/^"inode":\([0-9]*\),"path":[^,]*,"allocations":\([0-9]*\),"blocks":\([0-9]*\).*/\1 0 \2 \3/p' |
		while read -r i z a b; do grep -q "^$i " "$2" || echo "$i $z $a $b"; done >> "$2"
	sort -n -o "$2" "$2"
}
watch() {	# OUT ARGS...: alloc watch --json into OUT
	out=$1; shift
	$E2LAYOUT --json -R "alloc watch --top 100000 --limit 0 $*" "$mnt" > "$out" 2>"$T/err" ||
		fail "alloc watch $*: $(cat "$T/err")"
	grep -q '"counted_in_kernel":true' "$out" ||
		skip "the kernel cannot count here ($(sed -n 's/.*"why_not_counted":"\([^"]*\)".*/\1/p' "$out")): skipped"
}
sync

# (1) Four writers at once, fsync'd.
cat > "$T/four.sh" <<SH
for i in 1 2 3 4; do
	dd if=/dev/zero of="$mnt/w\$i" bs=4k count=1500 conv=fsync status=none &
done
wait
SH
ref_start 32768
watch "$T/w1.json" --run "\"sh $T/four.sh\""
ref_stop "$T/ref1"
ours "$T/w1.json" "$T/ours1"
[ -s "$T/ref1" ] || fail "the reference saw no events"
cmp -s "$T/ref1" "$T/ours1" || { echo "reference:"; cat "$T/ref1"; echo "alloc watch:"; cat "$T/ours1"
	fail "four writers: alloc watch's counts differ from the reference"; }
for i in 1 2 3 4; do
	ino=$(stat -c %i "$mnt/w$i")
	grep -q "\"inode\":$ino,\"path\":\"/w$i\"" "$T/w1.json" || fail "no path /w$i next to inode $ino"
	awk -v i="$ino" '$1 == i && $3 >= 1500 && $4 >= 1500 && $4 <= 1502 { f = 1 } END { exit !f }' "$T/ours1" ||
		fail "w$i: not 1500 blocks allocated: $(grep "^$ino " "$T/ours1")"
done
[ "$(num dropped_counts < "$T/w1.json")" = 0 ] || fail "counts dropped"

# (1b) The same from the event stream alone (--from-stream, as a kernel
# without BPF counts): exact too while its buffer holds everything.
ref_start 32768
$E2LAYOUT --json -R "alloc watch --from-stream --buffer-kb 32768 --top 100000 --limit 0 --run \"sh $T/four.sh\"" \
	"$mnt" > "$T/s1.json" 2>"$T/err" || fail "alloc watch --from-stream: $(cat "$T/err")"
ref_stop "$T/refs"
grep -q '"counted_in_kernel":false' "$T/s1.json" || fail "--from-stream counted in the kernel"
[ "$(num lost_events < "$T/s1.json")" = 0 ] || skip "the stream lost events here: --from-stream not compared"
ours "$T/s1.json" "$T/ourss"
cmp -s "$T/refs" "$T/ourss" || { echo "reference:"; cat "$T/refs"; echo "--from-stream:"; cat "$T/ourss"
	fail "--from-stream counts differ from the reference"; }

# (2) 600,000 one-byte appends: more mark_inode_dirty events than an
# 8 MiB per-CPU buffer holds on both CPUs (a record takes at least 36 bytes).
ref_start 65536
watch "$T/w2.json" --run "\"dd if=/dev/zero of=$mnt/small bs=1 count=600000 conv=fsync status=none\""
ref_stop "$T/ref2"
ours "$T/w2.json" "$T/ours2"
cmp -s "$T/ref2" "$T/ours2" || { echo "reference:"; cat "$T/ref2"; echo "alloc watch:"; cat "$T/ours2"
	fail "one-byte appends: alloc watch's counts differ from the reference"; }
total=$(num mark_inode_dirty < "$T/w2.json")
cpus=$(ls -d /sys/kernel/tracing/per_cpu/cpu* | wc -l)
[ "$total" -gt $((cpus * 8388608 / 36)) ] ||
	skip "only $total events on $cpus CPUs: too few to overflow the old buffer here"

# --by caller: kernel function names, adding up to the total.
watch "$T/w3.json" --by caller --run "\"dd if=/dev/zero of=$mnt/c bs=4k count=200 conv=fsync status=none\""
grep -q '"caller":"ext4_[a-z_]*"' "$T/w3.json" || fail "no ext4 caller named: $(head -c 600 "$T/w3.json")"
sum=$(tr '{' '\n' < "$T/w3.json" | sed -n 's/.*"caller":"[^"]*","mark_inode_dirty":\([0-9]*\).*/\1/p' |
	awk '{ s += $1 } END { print s + 0 }')
[ "$sum" = "$(num mark_inode_dirty < "$T/w3.json")" ] || fail "callers add up to $sum"
$E2LAYOUT -R "alloc watch --seconds 0 --buffer-kb 1" "$mnt" >/dev/null 2>&1 && fail "--buffer-kb 1 accepted"
$E2LAYOUT -R "alloc watch --seconds 0 --by nothing" "$mnt" >/dev/null 2>&1 && fail "--by nothing accepted"
$E2LAYOUT --json -R "alloc watch --seconds 0 --by inode,caller" "$mnt" \
	> "$T/w4.json" 2>/dev/null || fail "alloc watch --by inode,caller"
schema_check "$T"/[ws][0-9].json
# an e2layout-PID instance whose process is gone was left behind (others
# may belong to e2layouts still running elsewhere)
for d in /sys/kernel/tracing/instances/e2layout-*; do
	[ -d "$d" ] || continue
	kill -0 "${d##*-}" 2>/dev/null || fail "a tracing instance was left behind: $d"
done
exit 0
