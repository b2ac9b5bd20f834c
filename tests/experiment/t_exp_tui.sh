#!/bin/sh
# t_exp_tui.sh - an experiment started at the TUI's prompt: `:experiment
# A.img A.img --workload ...` runs in a child while the screen shows its
# progress; I follows the runs' loop devices with the block-I/O overlay;
# Esc cancels it and the child cleans up as on the command line (no mount,
# loop device, work directory, tracing instance or result file left); run
# again to its end, its result opens in the panel with both sides' runs.
# (The waits for an experiment's stages are long: each run syncs and drops
# the caches of the whole machine, slow when it is busy.)
# e2l: serial - runs experiments (timed runs, caches dropped) and follows their I/O through tracefs, checks no instance is left
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/explib.sh"
need_loop
need_tracefs
. "$(dirname "$0")/../lib/tmux.sh"
mkfs.ext4 -q -F -E nodiscard "$T/a.img" 64M >/dev/null 2>&1 || fail "mkfs.ext4"
mkdir "$T/tmp"
# (this test's instances only: other tests may run experiments meanwhile)
no_instance() { ! ls $tr/instances | grep -qx "e2layout-exp-$exp_pid\|e2layout-io-$tui_pid"; }
exp_pid=none tui_pid=none
clean() { ! grep -q "$T" /proc/mounts && ! losetup -a 2>/dev/null | grep -q "$T" &&
	! ls -a "$T" | grep -q 'e2layout-exp' && [ -z "$(ls "$T/tmp")" ]; }

tmux_start -x 160 -y 40 "cd '$T' && env TMPDIR='$T/tmp' ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' '$E2LAYOUT' a.img 2>'$T/err'; echo \$? > '$T/rc'; sleep 60"
wait_for " 1 Overview" "the TUI never started"
keys I
wait_for "no block I/O to watch" "I with nothing to watch gave no clear message"
keys Escape

# a long run, cancelled with Esc
keys ':'
keys -l "experiment a.img a.img --workload smallcreate --dirs 4 --files 3000 --runs 2 --warmup 0"
keys Enter
wait_for "Experiment running" "no progress panel"
wait_for "runs 0/4" "the panel shows no run count" 120
wait_for "run 1/4: A #1 (smallcreate)" "the panel shows no progress line" 60
exp_pid=$(ps -eo pid=,args= | awk '/experiment a.img a.img --workload smallcreate --dirs 4 --files 3000/ && !/awk/ { print $1; exit }')
[ -n "$exp_pid" ] || fail "no experiment child process"
tui_pid=$(ps -o ppid= -p "$exp_pid" | tr -d ' ')
keys I		# (the panel gives way to the map with the overlay)
wait_for "IO loop[0-9]" "the overlay does not follow the run's device"
keys X
wait_for "Experiment running" "X did not show the run again"
keys Escape
wait_for "cancelling" "Esc did not cancel"
wait_for "experiment cancelled" "the cancel never finished" 120
wait_until 20 "the cancelled experiment left something behind: $(grep "$T" /proc/mounts; losetup -a | grep "$T"; ls -a "$T" "$T/tmp")" clean
wait_until 5 "a tracing instance was left: $(ls $tr/instances)" no_instance
kill -0 "$exp_pid" 2>/dev/null && fail "the experiment's process is still there"
keys I		# the overlay off again
wait_for "block I/O overlay off" "I did not stop the overlay"

# a short run to its end: the result in the panel
keys ':'
keys -l "experiment a.img a.img --workload smallcreate --dirs 1 --files 4 --runs 2 --warmup 0"
keys Enter
wait_for "^ *Experiment: smallcreate: 1 directories x 4 files" "the result panel never opened" 180
wait_for "^ *A  a.img  (mount options: -; 2 runs)" "side A's runs are not shown"
wait_for "^ *B  a.img  (mount options: -; 2 runs)" "side B's runs are not shown"
wait_for "^ *files_per_second " "no files_per_second comparison"
wait_for "experiment done in" "no message that it finished"
wait_until 20 "the finished experiment left something behind" clean
keys q
keys q
wait_file "$T/rc" "q did not end the TUI" 20
[ "$(cat "$T/rc")" = 0 ] || fail "exit status $(cat "$T/rc"): $(cat "$T/err")"
left_behind
no_instance || fail "a tracing instance was left: $(ls $tr/instances)"

# the terminal closing (SIGHUP) in the middle of a run: the TUI cancels it
# and waits for its cleanup before it exits
tmux_stop
rm -f "$T/rc"
tmux_start -x 160 -y 40 "cd '$T' && env TMPDIR='$T/tmp' ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' '$E2LAYOUT' a.img 2>'$T/err'; echo \$? > '$T/rc'"
wait_for " 1 Overview" "the TUI never started (second time)"
keys ':'
keys -l "experiment a.img a.img --workload smallcreate --dirs 4 --files 3000 --runs 2 --warmup 0"
keys Enter
wait_for "run 1/4: A #1 (smallcreate)" "the second run shows no progress" 120
wait_until 20 "the run never mounted its copy" grep -q "$T" /proc/mounts
$TM kill-session -t e2l 2>/dev/null
wait_until 60 "after SIGHUP the experiment left something behind: $(grep "$T" /proc/mounts; losetup -a | grep "$T"; ls -a "$T" "$T/tmp")" clean
left_behind
exit 0
