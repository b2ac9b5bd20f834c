#!/bin/sh
# t_exp_counters.sh - the counters of every run equal independent readings
# taken in the same run: a --hook opens a tracefs instance of the test's own
# before the workload (block_rq_issue, jbd2_run_stats, ext4_mark_inode_dirty
# filtered on the run's loop device) and reads /proc/fs/jbd2/DEV-8/info,
# then after it reads both again as text.  jbd2 commits, blocks logged,
# block write requests, mark_inode_dirty events and their top caller must match
# exactly, with no event lost; the result is valid against help/schema/.
# e2l: serial - counts block and jbd2 tracepoints exactly
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/explib.sh"
. "$(dirname "$0")/../lib/jsonlib.sh"
need_loop
need_tracefs
tr=/sys/kernel/tracing
[ -d $tr/instances ] || tr=/sys/kernel/debug/tracing
[ -r $tr/events/ext4/ext4_mark_inode_dirty/format ] ||
	skip "no ext4_mark_inode_dirty tracepoint: skipped"
trap 'for d in $tr/instances/e2l-test-$$-*; do [ -d "$d" ] && rmdir "$d"; done; rm -rf "$T"' EXIT
trap 'exit 2' INT TERM

cat > "$T/hook.sh" <<'HOOK'
# hook.sh OUTDIR TRACEFS TAG - an independent reading of one run
out=$1 tr=$2 tag=$3
inst=$tr/instances/e2l-test-$tag-$E2L_EXP_SIDE$E2L_EXP_RUN
id=$E2L_EXP_SIDE$E2L_EXP_RUN
dev=$(cat /sys/block/$E2L_EXP_DEV/dev)
kdev=$(( ${dev%:*} * 1048576 + ${dev#*:} ))
evs="block/block_rq_issue jbd2/jbd2_run_stats ext4/ext4_mark_inode_dirty"
commits() { sed -n 's/^\([0-9]*\) transactions.*/\1/p' /proc/fs/jbd2/$E2L_EXP_DEV-8/info; }
if [ "$E2L_EXP_PHASE" = before ]; then
	mkdir "$inst" || exit 1
	echo 0 > "$inst/tracing_on"
	echo 16384 > "$inst/buffer_size_kb"
	for e in $evs; do
		echo "dev == $kdev" > "$inst/events/$e/filter" || exit 1
		echo 1 > "$inst/events/$e/enable" || exit 1
	done
	commits > "$out/c0-$id"
	echo 1 > "$inst/tracing_on"
	exit 0
fi
echo 0 > "$inst/tracing_on"
c1=$(commits)
cat "$inst/trace" > "$out/trace-$id"
lost=$(cat "$inst"/per_cpu/cpu*/stats | sed -n 's/^overrun: //p' | awk '{ s += $1 } END { print s + 0 }')
for e in $evs; do echo 0 > "$inst/events/$e/enable"; done
rmdir "$inst"
t=$out/trace-$id
grep -q LOST "$t" && lost=$((lost + 1))
# writes with data: another process may read the loop device between the
# two windows (the hook's opens before ours and closes after), none writes
rq=$(sed -n 's/.*block_rq_issue: //p' "$t" | awk '{ n = 0
	for (i = 1; i < NF; i++) if ($i == "+") n = $(i + 1)
	if ($2 ~ /W/ && n > 0) c++ } END { print c + 0 }')
jc=$(grep -c 'jbd2_run_stats:' "$t")
jb=$(sed -n 's/.*jbd2_run_stats:.* blocks_logged \([0-9]*\).*/\1/p' "$t" | awk '{ s += $1 } END { print s + 0 }')
dirty=$(grep -c 'ext4_mark_inode_dirty:' "$t")
top=$(sed -n 's/.*ext4_mark_inode_dirty:.* caller \([A-Za-z0-9_.]*\).*/\1/p' "$t" |
	LC_ALL=C sort | uniq -c | LC_ALL=C sort -k1,1nr -k2 | head -1 | awk '{ print $2 " " $1 }')
echo "$E2L_EXP_SIDE $E2L_EXP_RUN $((c1 - $(cat "$out/c0-$id"))) $jc $jb $rq $dirty $lost $top" >> "$out/independent"
HOOK

mkfs.ext4 -q -F -E nodiscard "$T/a.img" 64M >/dev/null 2>&1 || fail "mkfs.ext4"
# the engine's own choice (a histogram trigger or a BPF program in the
# kernel where it can, else the ring buffer), then the ring buffer forced
for mode in kernel ring; do
rm -f "$T/independent"
if [ $mode = ring ]; then E2LAYOUT_NO_HIST=1; else E2LAYOUT_NO_HIST=; fi
export E2LAYOUT_NO_HIST
"$E2LAYOUT" experiment "$T/a.img" "$T/a.img" --workload smallcreate --dirs 2 \
	--files 16 --runs 2 --warmup 0 --json --quiet --workdir "$T" \
	--hook "sh $T/hook.sh $T $tr $$" >"$T/r.json" 2>"$T/err" ||
	fail "experiment: $(cat "$T/err")"
schema_check "$T/r.json"
[ "$(wc -l < "$T/independent")" = 4 ] || fail "the hook ran $(wc -l < "$T/independent") times, not 4: $(cat "$T/err")"
while read -r side run commits jc jb rq dirty lost caller ccount; do
	i=$((run - 1)); s=0; [ "$side" = B ] && s=1
	got=$(jq -r ".result.sides[$s].runs[$i].counters | [.jbd2_commits,
		.jbd2_traced_commits, .jbd2_blocks, .io_writes,
		.events.ext4_mark_inode_dirty.total, .lost_events,
		.events.ext4_mark_inode_dirty.by.ip.top[0].key,
		.events.ext4_mark_inode_dirty.by.ip.top[0].count] | @tsv" "$T/r.json")
	want=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$commits" "$jc" "$jb" "$rq" "$dirty" 0 "$caller" "$ccount")
	[ "$lost" = 0 ] || fail "$side$run: the independent reading lost $lost events"
	[ "$got" = "$want" ] || fail "$side #$run: experiment [$got], independent [$want] (commits, traced commits, blocks logged, write requests, dirty, lost, top caller, its count)"
	[ "$dirty" -gt 0 ] && [ "$rq" -gt 0 ] && [ "$commits" -gt 0 ] || fail "$side #$run: nothing counted"
done < "$T/independent"
by=$(jq -r '.result.sides[0].runs[0].counters.events.ext4_mark_inode_dirty.counted_by' "$T/r.json")
case $mode/$by in kernel/*|ring/ring*) ;; *) fail "$mode: counted by $by" ;; esac
echo "note: counted by $by: equal"
done
left_behind
echo "jbd2, block and tracepoint counters equal independent readings ($(wc -l < "$T/independent") runs)"
