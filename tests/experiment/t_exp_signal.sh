#!/bin/sh
# t_exp_signal.sh - SIGTERM and SIGINT in the middle of a run (the copy
# mounted, the workload writing; for fio, a child process running) stop the
# experiment: it exits non-zero saying it was interrupted, and leaves no
# mount, no loop device, no work directory, no tracing instance and no
# child behind.  So does a reader of its output that goes away (SIGPIPE).
# e2l: serial - checks that no tracing instance is left (global tracefs state)
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/explib.sh"
need_loop
tr=/sys/kernel/tracing
[ -d $tr/instances ] || tr=/sys/kernel/debug/tracing

mkfs.ext4 -q -F -E nodiscard "$T/a.img" 64M >/dev/null 2>&1 || fail "mkfs.ext4"
cat > "$T/long.fio" <<'JOB'
[long]
rw=randwrite
bs=4k
size=4m
time_based
runtime=120
fsync=1
JOB

# wait_for CMD...: polls (0.1 s) up to 30 s for CMD to succeed
wait_for() {
	i=0
	while ! "$@"; do
		i=$((i + 1))
		[ $i -lt 300 ] || return 1
		sleep 0.1
	done
}
mounted() { grep -q "$T/e2layout-exp" /proc/mounts; }
gone() { ! kill -0 "$pid" 2>/dev/null; }
running_fio() { pgrep -P "$pid" -x fio >/dev/null 2>&1; }

n=0
for sig in TERM INT; do
	for wl in "--workload randwrite --ops 10000000 --size 1M" "--fio $T/long.fio"; do
		case $wl in *fio*) command -v fio >/dev/null 2>&1 || continue ;; esac
		n=$((n + 1))
		# shellcheck disable=SC2086
		"$E2LAYOUT" experiment "$T/a.img" "$T/a.img" $wl --runs 2 \
			--warmup 0 --workdir "$T" >"$T/out" 2>"$T/err" &
		pid=$!
		wait_for mounted || { kill -9 $pid; fail "$sig: never mounted: $(cat "$T/err")"; }
		case $wl in *fio*) wait_for running_fio || fail "fio never started" ;; esac
		kill -$sig $pid
		wait_for gone || { kill -9 $pid; fail "SIG$sig: still running after 30 s"; }
		wait $pid
		rc=$?
		[ $rc -ne 0 ] || fail "SIG$sig ($wl): exit status 0"
		grep -q "interrupted" "$T/err" || fail "SIG$sig ($wl): no word of the interruption: $(cat "$T/err")"
		left_behind
		[ -d "$tr/instances/e2layout-exp-$pid" ] && fail "SIG$sig: tracing instance left"
		pgrep -x fio >/dev/null 2>&1 && pgrep -a fio | grep -q "$T" && fail "SIG$sig: fio left running"
	done
done
# the reader of its output goes away (SIGPIPE) while it runs
"$E2LAYOUT" experiment "$T/a.img" "$T/a.img" --workload randwrite --ops 2000 \
	--size 1M --runs 3 --workdir "$T" 2>&1 | head -1 >/dev/null
left_behind
n=$((n + 1))
echo "interrupted experiments ($n) left nothing behind"
