#!/bin/sh
# t_tui_experiment.sh - the TUI's experiment panel on a saved result
# (tests/tui/exp_result.json, a real `experiment --json` output): opened by
# `:experiment show FILE`, it shows each comparison's numbers as the JSON
# holds them (means, sd, delta %, the 95% CI, p, the detectable effect),
# each side's image and runs, the runs' means on the plot and the counters'
# means per side; it scrolls, q closes it and X opens it again.  Hostile
# files (empty, truncated, not JSON, nested 100000 deep, wrong types, one
# side, a number out of range, a directory, binary) each get a clear error
# on the message line, and the TUI goes on; a terminal escape spelled in a
# string is shown defused.
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
command -v jq >/dev/null 2>&1 || skip "jq is missing: skipped"
. "$(dirname "$0")/../lib/tmux.sh"
demo=$E2L_IMAGES/demo.img
res=$(cd "$(dirname "$0")" && pwd)/exp_result.json
[ -r "$res" ] || fail "no $res"

tmux_start -x 170 -y 34 "env ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' '$E2LAYOUT' '$demo' 2>'$T/err'; echo \$? > '$T/rc'; sleep 30"
wait_for " 1 Overview" "the TUI never started"

# show FILE: types it at the prompt
show() {
	keys ':'
	keys -l "experiment show $1"
	keys Enter
}

show "$res"
wait_for "^ *Experiment: smallcreate" "the panel did not open"
# the status line is drawn after the panel; then wait for the screen to
# settle (a loaded machine showed the panel cut off mid-row)
wait_for 'result: lines 1-' "the status line never showed the panel's lines"
wait_stable
d=$(jq -r .result.workload.description "$res")
grep -qF "Experiment: $d" "$SCREEN" || fail "the description is not shown"
for s in 0 1; do
	n=$(jq -r ".result.sides[$s].name" "$res")
	img=$(jq -r ".result.sides[$s].image" "$res")
	runs=$(jq ".result.sides[$s].runs | length" "$res")
	grep -q "^ *$n  $img  (mount options: -; $runs runs)" "$SCREEN" ||
		fail "side $n ($img, $runs runs) is not shown"
done

# every comparison with statistics: its row holds the JSON's numbers
ncmp=$(jq '.result.comparisons | length' "$res")
[ "$ncmp" -gt 2 ] || fail "the fixture has too few comparisons"
i=0; checked=0
while [ $i -lt "$ncmp" ]; do
	c=".result.comparisons[$i]"
	m=$(jq -r "$c.metric" "$res")
	if [ "$(jq "$c.delta_pct == null" "$res")" = true ]; then
		v=$(jq -r "$c.verdict" "$res")
		grep -qF "$m" "$SCREEN" && grep -qF "$v" "$SCREEN" ||
			fail "$m: its verdict \"$v\" is not shown"
		i=$((i + 1)); continue
	fi
	row=$(printf '%-22s %11.6g %9.4g %11.6g %9.4g %+8.1f %19s %8.4f %8.1f%%' \
		"$m" $(jq -r "$c | .mean_a, .sd_a, .mean_b, .sd_b, .delta_pct" "$res") \
		"$(printf '[%+.1f, %+.1f]' $(jq -r "$c.ci95[]" "$res"))" \
		$(jq -r "$c | .p_value, .detectable_pct" "$res"))
	grep -qF -- "$row" "$SCREEN" || fail "$m: no row \"$row\""
	v=$(jq -r "$c.verdict" "$res")
	grep -A1 -F -- "$row" "$SCREEN" | grep -qF -- "$v" ||
		fail "$m: the verdict \"$v\" is not under its row"
	checked=$((checked + 1)); i=$((i + 1))
done
[ $checked -ge 2 ] || fail "fewer than two comparisons were checked"

# the plot: each side's mean of each metric, computed here from its runs
for m in seconds files_per_second; do
	for s in 0 1; do
		n=$(jq -r ".result.sides[$s].name" "$res")
		mean=$(printf '%.6g' "$(jq "[.result.sides[$s].runs[].metrics.$m] | add / length" "$res")")
		grep -A2 "^ *$m " "$SCREEN" | grep -q "^ *$n *|[o*·. ]*| mean $mean (" ||
			fail "the plot of $m has no $n line with mean $mean"
	done
done
# the plot has one o per run (or * for several in one place) on each line
grep -A1 "^ *seconds " "$SCREEN" | tail -1 | grep -q '[o*]' ||
	fail "the plot shows no run"

# the counters' means per side, scrolled into view (End)
keys End
# (the counters' first rows may show before End: wait for the last line)
wait_for 'result: lines [0-9]*-\([0-9]*\) of \1 ' "End did not scroll to the end"
wait_for "^ *jbd2 commits " "End did not scroll to the counters"
for k in jbd2_commits:"jbd2 commits" io_requests:"block requests" \
	 journal_breaks:"journal breaks"; do
	f=${k%%:*} label=${k#*:}
	a=$(printf '%.1f' "$(jq "[.result.sides[0].runs[].counters.$f] | add / length" "$res")")
	b=$(printf '%.1f' "$(jq "[.result.sides[1].runs[].counters.$f] | add / length" "$res")")
	grep -q "^ *$label  *$a  *$b\$" "$SCREEN" ||
		fail "counter $label: not $a $b"
done
a=$(jq '[.result.sides[0].runs[].counters.io_by_owner.journal] | add / length' "$res")
grep -q "^ *journal  *$(printf '%.1f' "$a") " "$SCREEN" ||
	fail "the journal's share of the requests is not shown"
keys Home
wait_for "^ *Experiment: smallcreate" "Home did not scroll back"
keys q
wait_gone "^ *Experiment: smallcreate" "q did not close the panel"
keys X
wait_for "^ *Experiment: smallcreate" "X did not open it again"
keys Escape
wait_gone "^ *Experiment: smallcreate" "Esc did not close the panel"

# hostile result files: a clear error each, and the TUI goes on
h=$T/hostile
mkdir "$h"
: > "$h/empty.json"
head -c 700 "$res" > "$h/truncated.json"
echo "hello" > "$h/text.json"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; print "" }' > "$h/deep.json"
jq -c '.result.sides = "x"' "$res" > "$h/sides_type.json"
jq -c '.result.sides |= .[:1]' "$res" > "$h/one_side.json"
jq -c '.result.sides[0].runs[0].seconds = "fast"' "$res" > "$h/run_type.json"
sed 's/"seconds":[0-9.e-]*/"seconds":1e999/' "$res" > "$h/huge.json"
head -c 3000 /dev/urandom > "$h/binary.json"
mkdir "$h/dir.json"
for f in empty:"empty" truncated:"not valid JSON at byte" \
	 text:"not valid JSON at byte 0" deep:"nested too deeply" \
	 sides_type:"no sides" one_side:"two sides" \
	 run_type:"a run has no seconds" huge:"out of range" \
	 binary:"not valid JSON" dir:"not a regular file" \
	 missing:"No such file"; do
	name=${f%%:*} why=${f#*:}
	show "$h/$name.json"
	wait_for "experiment show: $h/$name.json: .*$why" \
		"$name.json: no error saying \"$why\""
	grep -q "Experiment: smallcreate" "$SCREEN" &&
		fail "$name.json replaced the panel"
	keys Escape
done
# a string holding a terminal escape is shown with the escape defused
jq -c '.result.workload.description = "\u001b[31mred\u001b[0m"' "$res" > "$h/esc.json"
show "$h/esc.json"
wait_for "Experiment: ?\[31mred?\[0m" "the escape was not defused"
keys q
wait_gone "Experiment: ?" "q did not close the panel"
keys q
wait_file "$T/rc" "the TUI did not exit"
[ "$(cat "$T/rc")" = 0 ] || { cat "$T/err"; fail "exit status $(cat "$T/rc")"; }
exit 0
