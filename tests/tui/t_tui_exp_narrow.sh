#!/bin/sh
# t_tui_exp_narrow.sh - the experiment panel at 80 columns keeps every
# metric's name whole: a comparison whose name does not fit its column
# takes two lines, the name, then its numbers (at 80 columns the names
# were cut to 10 columns, "files_per…"); each row still holds A's and
# B's means and p as the saved result has them.
. "$(dirname "$0")/../lib/testlib.sh"
command -v jq >/dev/null 2>&1 || skip "jq is missing: skipped"
. "$(dirname "$0")/../lib/tmux.sh"
res=$(cd "$(dirname "$0")" && pwd)/exp_result.json
tmux_start -x 80 -y 45 "env TERM=xterm-256color LANG=C.UTF-8 ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' '$E2LAYOUT' '$E2L_IMAGES/demo.img' 2>'$T/err'; echo \$? > '$T/rc'; sleep 30"
wait_for " 1 Over" "the TUI never started"
keys ':'
keys -l "experiment show $res"
keys Enter
wait_for 'result: lines 1-' "the panel did not open"
wait_stable
# the comparisons: from the table's header to the plots
sed -n '/A mean/,/^ *Runs of each side/p' "$SCREEN" > "$T/cmp"
ncmp=$(jq '.result.comparisons | length' "$res")
i=0; rows=0
while [ $i -lt "$ncmp" ]; do
	c=".result.comparisons[$i]"
	m=$(jq -r "$c.metric" "$res")
	grep -q "^ *$m\( \|$\)" "$T/cmp" || fail "the metric $m is not shown whole"
	if [ "$(jq "$c.delta_pct == null" "$res")" = false ]; then
		set -- $(jq -r "$c | .mean_a, .mean_b, .p_value" "$res")
		row=$(printf '%.6g .* %.6g .* %.4f' "$1" "$2" "$3")
		grep -q " $row" "$T/cmp" || fail "$m: no row with $row"
		rows=$((rows + 1))
	fi
	i=$((i + 1))
done
[ $rows -gt 2 ] || fail "only $rows rows with numbers"
grep '^ *[a-z_0-9]*…' "$T/cmp" && fail "a metric's name is cut"
keys q q
wait_file "$T/rc" "the TUI did not quit"
[ "$(cat "$T/rc")" = 0 ] || fail "exit status $(cat "$T/rc"): $(cat "$T/err")"
exit 0
