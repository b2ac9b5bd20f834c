#!/bin/sh
# t_exp_fallocate.sh - the second seed investigation in one command:
# randwrite with --overwrite-b writes into a fallocated file on A and into
# a written one on B, so fallocate's cost is measured as a comparison: A
# commits about once per first write of a block (each converts an
# unwritten extent), B almost never; the comparison of jbd2 commits is
# significant with the verdict "B has fewer"; the report and the JSON say
# which side overwrote; --overwrite-b is refused with --overwrite and
# outside randwrite; the result is valid against help/schema/.
# e2l: serial - counts jbd2 commits of loop mounts, times runs
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/explib.sh"
. "$(dirname "$0")/../lib/jsonlib.sh"
need_loop

mkfs.ext4 -q -F -E nodiscard "$T/a.img" 64M >/dev/null 2>&1 || fail "mkfs.ext4"
ops=256
"$E2LAYOUT" experiment "$T/a.img" "$T/a.img" --workload randwrite --ops $ops \
	--size 4M --overwrite-b --runs 3 --json --quiet --no-counters \
	--workdir "$T" >"$T/r.json" 2>"$T/err" || fail "experiment: $(cat "$T/err")"
schema_check "$T/r.json"
jq -e '.result.sides[0].overwrite == false and
	.result.sides[1].overwrite == true' "$T/r.json" >/dev/null ||
	fail "the sides do not say which overwrote: $(jq -c '[.result.sides[].overwrite]' "$T/r.json")"
jq -e '.result.workload.description | test("fallocated.*B: a written")' \
	"$T/r.json" >/dev/null || fail "description: $(jq -c .result.workload "$T/r.json")"
# 256 random 4 KiB writes into 1024 blocks touch about 225 of them
jq -e --argjson ops $ops '([.result.sides[0].runs[].counters.jbd2_commits] | min) >= $ops / 2 and
	([.result.sides[1].runs[].counters.jbd2_commits] | max) <= $ops / 10' \
	"$T/r.json" >/dev/null ||
	fail "commits A $(jq -c '[.result.sides[0].runs[].counters.jbd2_commits]' "$T/r.json") B $(jq -c '[.result.sides[1].runs[].counters.jbd2_commits]' "$T/r.json")"
jq -e '.result.comparisons[] | select(.metric == "jbd2_commits") |
	.significant and (.verdict | startswith("B has fewer"))' "$T/r.json" >/dev/null ||
	fail "no verdict on the commits: $(jq -c '.result.comparisons[] | select(.metric == "jbd2_commits")' "$T/r.json")"
# the text report names each side's file
"$E2LAYOUT" experiment "$T/a.img" "$T/a.img" --workload randwrite --ops 16 \
	--size 1M --overwrite-b --runs 2 --warmup 0 --quiet --no-counters \
	--workdir "$T" >"$T/r.txt" 2>"$T/err" || fail "text: $(cat "$T/err")"
grep -q "fallocated file of 1048576 bytes (B: a written one)" "$T/r.txt" ||
	fail "the text does not say B overwrote: $(head -3 "$T/r.txt")"
# refused combinations
for bad in "--workload randwrite --overwrite --overwrite-b" \
	   "--workload smallcreate --overwrite-b"; do
	"$E2LAYOUT" experiment "$T/a.img" "$T/a.img" $bad --workdir "$T" \
		>"$T/o" 2>&1 && fail "accepted: $bad"
	grep -q "overwrite" "$T/o" || fail "$bad: no reason: $(cat "$T/o")"
done
left_behind
echo "fallocated A against overwritten B in one experiment: B commits fewer"
