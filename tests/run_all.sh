#!/bin/sh
# run_all.sh - runs every test tier: the cmocka unit binaries and each
# tests/*/t_*.sh script (exit 0 pass, 77 skip, anything else fail), E2L_JOBS
# at a time; then, one at a time, the tests that declare "e2l: serial".
# Needs E2LAYOUT, E2L_IMAGES and E2L_BUILD (the Makefile sets them).
# Set E2L_TESTS to a pattern to run only matching tests, E2L_JOBS to a job
# count (default: the number of CPUs + 1; 1 runs everything in turn).
#
# A test needs the machine to itself (it times something, counts
# tracepoints or reads global tracefs state) when its file has a line
#	# e2l: serial - WHY
# (a unit test: a comment "e2l: serial" in tests/unit/NAME.c).  Each
# result line is printed whole when its test ends, with its wall and CPU
# seconds (user+sys of the test and the children it waited for), a
# failure's log with it; each section ends with its wall time and its
# tests' CPU total; the last run's times ($E2L_BUILD/test-times, "WALL
# NAME CPU" lines) start the slow first.
# The parallel tests' temporary files ($T) go to a tmpfs (/dev/shm) when it
# has 4 GiB free (E2L_TMPFS=0: not), off a disk the jobs would share; the
# serial ones keep TMPDIR, the disk their timings were made for.
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}" "${E2L_BUILD:?}"
export E2LAYOUT E2L_IMAGES E2L_BUILD
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=99}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=98}"
pattern=${E2L_TESTS:-}
jobs=${E2L_JOBS:-$(( $(nproc 2>/dev/null || echo 1) + 1 ))}
case "$jobs" in ''|*[!0-9]*|0) echo "run_all: E2L_JOBS must be a positive number" >&2; exit 2 ;; esac
pass=0; fail=0; skip=0; failed=""
top=$(cd "$(dirname "$0")/.." && pwd)
tests=${E2L_TEST_ROOT:-$top/tests}	# another tree: tests/layout/t_run_all.sh
log=$(mktemp -d "${TMPDIR:-/tmp}/e2l-run.XXXXXX")
times="$E2L_BUILD/test-times"
order_by=$times	# a first sanitizer run goes by the plain build's times
[ -f "$order_by" ] || order_by="$top/build/test-times"
# a first run anywhere (CI's clean clone): the slowest known tests first,
# or they start last and one core idles while they finish
[ -f "$order_by" ] || order_by="$tests/slow-first"
shm=""
if [ "${E2L_TMPFS:-1}" != 0 ] && [ -d /dev/shm ] && [ -w /dev/shm ] &&
   [ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')" -ge 4194304 ] 2>/dev/null; then
	shm=$(mktemp -d /dev/shm/e2l-tests.XXXXXX) || shm=""
fi
trap 'rm -rf "$log" ${shm:+"$shm"}' EXIT
trap 'exit 2' INT TERM

# The job list: "KIND NAME PATH" per line, parallel and serial apart.
: > "$log/par"; : > "$log/ser"
for t in "$E2L_BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	name=unit/$(basename "$t")
	case "$name" in *"$pattern"*) ;; *) continue ;; esac
	src="$tests/unit/$(basename "$t").c"
	if [ -f "$src" ] && grep -q 'e2l: serial' "$src"; then
		echo "unit $name $t" >> "$log/ser"
	else
		echo "unit $name $t" >> "$log/par"
	fi
done
for t in "$tests"/*/t_*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$(dirname "$t")")/$(basename "$t" .sh)
	case "$name" in *"$pattern"*) ;; *) continue ;; esac
	if grep -q '^# e2l: serial' "$t"; then
		echo "sh $name $t" >> "$log/ser"
	else
		echo "sh $name $t" >> "$log/par"
	fi
done

# order FILE: the jobs of FILE, the slowest of the last run first (the
# rest, new tests, keep their order after them).
order() {
	if [ -s "$order_by" ]; then	# (an empty one would swallow the list)
		awk 'NR == FNR { if ($1 !~ /^#/) secs[$2] = $1; next }
		     { print (($2 in secs) ? secs[$2] : -1), NR, $0 }' \
			"$order_by" "$1" | sort -k1,1nr -k2,2n | cut -d' ' -f3-
	else
		cat "$1"
	fi
}

# run_one KIND NAME PATH ID: runs the test, its output to $log/ID.out, then
# "RC SECS CPU" to $log/ID.rc (written last: its presence means done).  CPU
# is the user+sys seconds of the test and the children it waited for (the
# subshell's "times"), which other jobs' load does not inflate as it does
# the wall time.
run_one() {
	ro_start=$(date +%s)
	ro_rc=0
	(
		if [ "$1" = unit ]; then
			TMPDIR=$tmp "$3" > "$log/$4.out" 2>&1
		else
			TMPDIR=$tmp sh "$3" > "$log/$4.out" 2>&1
		fi
		rc=$?
		times > "$log/$4.cpu"
		exit $rc
	) || ro_rc=$?
	ro_cpu=$(cpu_secs < "$log/$4.cpu")
	echo "$ro_rc $(( $(date +%s) - ro_start )) $ro_cpu" > "$log/$4.tmp"
	mv "$log/$4.tmp" "$log/$4.rc"
}

# cpu_secs: the sum of the user and sys times of "times" output (lines of
# "0m1.230000s 0m0.040000s"), in seconds with one decimal.
cpu_secs() {
	tr -s ' \n' '\n\n' | awk -F'[ms]' 'NF >= 2 { t += $1 * 60 + $2 }
		END { printf "%.1f\n", t }'
}

# report NAME ID: the result line of a finished test (a failure's log
# with it), counted.
report() {
	read -r rp_rc rp_secs rp_cpu < "$log/$2.rc"
	echo "$rp_secs $1 $rp_cpu" >> "$log/times"
	if [ "$rp_rc" -eq 0 ]; then
		pass=$((pass + 1)); echo "PASS  $1 (${rp_secs}s, ${rp_cpu}s CPU)"
	elif [ "$rp_rc" -eq 77 ]; then
		skip=$((skip + 1)); echo "SKIP  $1: $(tail -1 "$log/$2.out")"
	else
		fail=$((fail + 1)); failed="$failed $1"
		echo "FAIL  $1 (exit $rp_rc, ${rp_secs}s, ${rp_cpu}s CPU)"
		sed 's/^/      /' "$log/$2.out" | tail -60
	fi
}

# reap: reports every running test that has finished; sets reaped to how
# many did.
reap() {
	still=""; reaped=0
	for r in $running; do
		id=${r%%:*}
		if [ -f "$log/$id.rc" ]; then
			report "${r#*:}" "$id"
			reaped=$((reaped + 1))
		else
			still="$still $r"
		fi
	done
	running=$still; nrunning=$((nrunning - reaped))
}

# pool FILE N: runs FILE's jobs N at a time.
pool() {
	running=""; nrunning=0
	order "$1" > "$log/list"
	while read -r kind name path; do
		n=$((n + 1))
		while [ "$nrunning" -ge "$2" ]; do
			reap
			[ "$reaped" -gt 0 ] || sleep 0.1
		done
		run_one "$kind" "$name" "$path" "$n" < /dev/null &
		running="$running $n:$name"; nrunning=$((nrunning + 1))
	done < "$log/list"
	while [ "$nrunning" -gt 0 ]; do
		reap
		[ "$reaped" -gt 0 ] || sleep 0.1
	done
	wait
}

# section WHAT START: the wall seconds since START and the CPU seconds of
# the tests that ended since the last call, for the budget
section() {
	sc_cpu=$(awk -v from="${sc_line:-0}" 'NR > from { t += $3 }
		END { printf "%.0f\n", t }' "$log/times")
	sc_line=$(wc -l < "$log/times")
	echo "--- times: $1 $(( $(date +%s) - $2 ))s wall, ${sc_cpu}s CPU"
}

n=0
: > "$log/times"
tmp=${shm:-${TMPDIR:-/tmp}}
start=$(date +%s)
pool "$log/par" "$jobs"
[ -s "$log/par" ] && section "parallel ($jobs at a time):" "$start"
[ -s "$log/ser" ] && [ "$jobs" -gt 1 ] && echo "--- serial: the tests that need the machine to themselves"
tmp=${TMPDIR:-/tmp}
start=$(date +%s)
pool "$log/ser" 1
[ -s "$log/ser" ] && section "serial:" "$start"
# the times of this run, for the next one's order (a partial run keeps
# the others' times)
if [ -w "$E2L_BUILD" ]; then
	{ cat "$log/times"; [ -f "$times" ] && cat "$times"; } |
		awk '!seen[$2]++' > "$log/times.new" && mv "$log/times.new" "$times"
fi
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
