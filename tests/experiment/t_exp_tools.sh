#!/bin/sh
# t_exp_tools.sh - fio, bonnie++ and dbench as an experiment's workload, for
# real and small: each runs in the mounted copies, its output is read into
# metrics (fio's write iops, bonnie++'s create latency, dbench's MB/s) in
# every run, and nothing is left behind.  A tool that is not installed is
# reported as such (and that case skipped).
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/explib.sh"
need_loop

mkfs.ext4 -q -F -E nodiscard "$T/a.img" 64M >/dev/null 2>&1 || fail "mkfs.ext4"
printf '[w]\nrw=randwrite\nbs=4k\nsize=1m\nfsync=8\n' > "$T/w.fio"
ran=""
# tool NAME METRIC ARGS...: every run of both sides has METRIC > 0
tool() {
	name=$1 metric=$2; shift 2
	bin=$name; [ "$name" = bonnie ] && bin=bonnie++
	if ! command -v $bin >/dev/null 2>&1 && [ ! -x /usr/sbin/$bin ]; then
		"$E2LAYOUT" experiment "$T/a.img" "$T/a.img" "$@" --quiet \
			>/dev/null 2>"$T/err" && fail "$name missing, yet it ran"
		grep -q "is not installed" "$T/err" || fail "$name: $(cat "$T/err")"
		echo "note: $bin is not installed; its case is not run"
		return 0
	fi
	"$E2LAYOUT" experiment "$T/a.img" "$T/a.img" "$@" --runs 2 --warmup 0 \
		--quiet --json --workdir "$T" >"$T/$name.json" 2>"$T/err" ||
		fail "$name: $(cat "$T/err")"
	jq -e --arg m "$metric" '[.result.sides[].runs[].metrics[$m] | . != null and . > 0] |
		length == 4 and all' "$T/$name.json" >/dev/null ||
		fail "$name: no $metric in every run: $(jq -c '[.result.sides[].runs[].metrics]' "$T/$name.json")"
	jq -e --arg m "$metric" '.result.comparisons[] | select(.metric == $m) |
		has("p_value")' "$T/$name.json" >/dev/null || fail "$name: $metric not compared"
	left_behind
	ran="$ran $name"
}
tool fio write_iops --fio "$T/w.fio"
tool bonnie seq_create_latency_us --bonnie "-s 0 -n 4"
tool dbench mb_per_second --dbench 1 --seconds 2
echo "tool workloads read:${ran:- none installed}"
