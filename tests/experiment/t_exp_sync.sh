#!/bin/sh
# t_exp_sync.sh - a large known effect is found: B mounted -o sync (every
# 4 KiB append of the parallel workload becomes a synchronous write) is
# reported significantly slower (its time), with a verdict that says so,
# an interval entirely above 0, lower throughput, and more jbd2 commits
# on B in every run.
# e2l: serial - times workloads and compares the times
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/explib.sh"
need_loop

mkfs.ext4 -q -F -E nodiscard "$T/a.img" 64M >/dev/null 2>&1 || fail "mkfs.ext4"
"$E2LAYOUT" experiment "$T/a.img" "$T/a.img" --workload parallel \
	--threads 2 --size 1M --runs 8 --mount-opts-b sync --json \
	--workdir "$T" >"$T/r.json" 2>"$T/err" || fail "experiment: $(cat "$T/err")"
grep -q "run 16/16" "$T/err" || fail "no progress on stderr: $(cat "$T/err")"
jq -e '.result.sides[1].mount_options == "sync" and
	.result.sides[0].mount_options == ""' "$T/r.json" >/dev/null ||
	fail "mount options not reported"
sec=$(jq -c '.result.comparisons[] | select(.metric == "seconds")' "$T/r.json")
echo "$sec" | jq -e '.significant == true and .p_value < 0.05 and
	.ci95[0] > 0 and .delta_pct > 0 and
	(.verdict | startswith("B is slower by"))' >/dev/null ||
	fail "-o sync not reported significantly slower: $sec"
mb=$(jq -c '.result.comparisons[] | select(.metric == "mib_per_second")' "$T/r.json")
echo "$mb" | jq -e '.delta_pct < 0' >/dev/null ||
	fail "throughput under -o sync not reported lower: $mb"
jq -e '([.result.sides[0].runs[].counters.jbd2_commits] | max) <
	([.result.sides[1].runs[].counters.jbd2_commits] | min)' "$T/r.json" >/dev/null ||
	fail "B (sync) does not commit more: $(jq -c '[.result.sides[].runs[].counters.jbd2_commits]' "$T/r.json")"
# the text report says it in words
"$E2LAYOUT" experiment "$T/a.img" "$T/a.img" --workload parallel \
	--threads 2 --size 1M --runs 6 --mount-opts-b sync --quiet \
	--no-counters --workdir "$T" >"$T/r.txt" 2>"$T/err" || fail "text: $(cat "$T/err")"
grep -q "^  \(seconds\|mib_per_second\)  *B is slower by" "$T/r.txt" || fail "no verdict: $(cat "$T/r.txt")"
grep -q "^  A  *|.*| mean" "$T/r.txt" || fail "no plot of the runs"
left_behind
echo "-o sync on B is found significantly slower"
