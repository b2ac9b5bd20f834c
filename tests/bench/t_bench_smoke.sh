#!/bin/sh
# t_bench_smoke.sh - keeps the performance harness (bench/run.sh, `make
# bench`) from rotting: a smoke run on tiny images must give every row a
# number or "not available" and write a complete RESULTS file.
# It runs beside other tests (not "e2l: serial"): it checks that each row
# has a number, never what the number is, so other jobs' load cannot fail
# it (it passed at a load average of 25); its loop mounts and tracefs
# instance are its own, and the tests that check global tracefs state are
# serial, so they never run beside it.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
for t in bash hyperfine jq script; do
	command -v "$t" >/dev/null 2>&1 ||
		{ echo "skip: $t is not installed (make deps)"; exit 77; }
done
[ -x /usr/bin/time ] || { echo "skip: /usr/bin/time is not installed"; exit 77; }
res=$(mktemp "${TMPDIR:-/tmp}/t_bench_smoke.XXXXXX")
trap 'rm -f "$res"' EXIT
E2LAYOUT=${E2LAYOUT:-$top/e2layout} bash "$top/bench/run.sh" --smoke --results "$res" || {
	echo "bench/run.sh --smoke failed"; exit 1; }
fail=0
for want in '## Machine and versions' '## Times' '## Peak memory' \
	    '## Identical outputs' 'hyperfine ' 'e2fsprogs: debugfs'; do
	grep -q "$want" "$res" || { echo "RESULTS lacks: $want"; fail=1; }
done
rows=$(grep -c '^| `' "$res")
[ "$rows" -ge 14 ] || { echo "RESULTS has $rows table rows, want >= 14"; fail=1; }
# Every timing row (10 columns): a time or "not available" for e2layout.
bad=$(sed 's/\\|/:/g' "$res" | awk -F'|' '/^\| `/ && NF >= 12 &&
	$5 !~ /^ [0-9.]+ m?s \(/ && $5 != " not available "')
[ -z "$bad" ] || { echo "rows without a number:"; echo "$bad"; fail=1; }
[ $fail = 0 ] || { cat "$res"; exit 1; }
echo "smoke RESULTS complete ($rows rows)"
