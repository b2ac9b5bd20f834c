# tmux.sh - the tmux driver of the TUI tests (sourced after testlib.sh, not
# run): a private tmux server with one session, "e2l", running a command;
# its keys and its screen; and waits that poll the screen or a file until
# what they wait for is there (never a fixed sleep).  The screen is kept in
# $SCREEN ($T/screen), which a failure shows; the server goes on exit.
command -v tmux >/dev/null 2>&1 || skip "tmux is missing: TUI test skipped"
TM="tmux -L e2l-$(basename "$0" .sh)-$$"	# the private server
SCREEN=$T/screen
tmux_stop() { $TM kill-server 2>/dev/null; return 0; }
trap 'tmux_stop; e2l_exit' EXIT
# (a script's own on_fail replaces this one; it may call tmux_on_fail)
tmux_on_fail() {
	echo "--- screen:"
	grep -v '^ *$' "$SCREEN" 2>/dev/null | tail -40
}
on_fail() { tmux_on_fail; }

# tmux_start [-x COLS] [-y ROWS] CMD: the session running CMD (sh -c) in a
# COLS x ROWS window (default 160 x 50).  Skips the test when tmux cannot
# start a server here, after trying for about 5 s (fails when it could
# before: a later session of the same test).
tmux_start() {
	ts_x=160 ts_y=50
	while [ $# -gt 1 ]; do
		case $1 in
		-x) ts_x=$2; shift 2 ;;
		-y) ts_y=$2; shift 2 ;;
		*) break ;;
		esac
	done
	ts_end=$(( $(date +%s) + 5 ))
	until $TM -f /dev/null new-session -d -s e2l -x "$ts_x" -y "$ts_y" \
			"$1" 2>/dev/null; do
		if [ "$(date +%s)" -ge "$ts_end" ]; then
			[ -z "${tmux_started:-}" ] ||
				fail "tmux could not start another session"
			skip "tmux could not start a session: TUI test skipped"
		fi
		tmux_stop
		sleep 0.2	# (retrying the server, not waiting for a state)
	done
	tmux_started=1
}

keys() { $TM send-keys -t e2l "$@"; }
capture() { $TM capture-pane -p -t e2l > "$SCREEN" 2>/dev/null; }
resize() { $TM resize-window -t e2l -x "$1" -y "$2" >/dev/null 2>&1; }

# wait_for PATTERN [WHAT] [SECONDS]: polls the screen every 0.1 s until a
# line matches the grep PATTERN (it is then in $SCREEN); fails with WHAT
# after SECONDS (default 20).
wait_for() {
	wf_end=$(( $(date +%s) + ${3:-20} ))
	while :; do
		capture
		grep -q -- "$1" "$SCREEN" && return 0
		[ "$(date +%s)" -lt "$wf_end" ] ||
			fail "${2:-the screen never showed: $1}"
		sleep 0.1
	done
}

# wait_gone PATTERN [WHAT] [SECONDS]: until no line matches PATTERN.
wait_gone() {
	wg_end=$(( $(date +%s) + ${3:-20} ))
	while :; do
		capture
		grep -q -- "$1" "$SCREEN" || return 0
		[ "$(date +%s)" -lt "$wg_end" ] ||
			fail "${2:-the screen still shows: $1}"
		sleep 0.1
	done
}

# wait_stable [SECONDS]: until two captures 0.2 s apart are the same (a
# redraw or a request's output has finished); the screen is in $SCREEN.
wait_stable() {
	ws_end=$(( $(date +%s) + ${1:-20} ))
	capture
	while :; do
		cp "$SCREEN" "$SCREEN.prev"
		sleep 0.2
		capture
		cmp -s "$SCREEN" "$SCREEN.prev" && return 0
		[ "$(date +%s)" -lt "$ws_end" ] ||
			fail "the screen never settled"
	done
}

# wait_file FILE [WHAT] [SECONDS]: until FILE is not empty (the exit status
# the session's command writes when the program ends).
wait_file() {
	wfl_end=$(( $(date +%s) + ${3:-20} ))
	until [ -s "$1" ]; do
		[ "$(date +%s)" -lt "$wfl_end" ] ||
			fail "${2:-$1 never written}"
		sleep 0.1
	done
}
