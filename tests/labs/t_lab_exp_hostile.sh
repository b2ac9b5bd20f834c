#!/bin/sh
# t_lab_exp_hostile.sh - exp() facts from hostile saved results beside the
# image (a lab loaded from E2LAYOUT_LABS): a FIFO named NAME.json does not
# hang lab check, terminal escapes in a result's strings never reach the
# output, and a mean of 1e999 or nan is no number rather than undefined.
. "$(dirname "$0")/../lib/testlib.sh"

mkdir "$T/labs"
cat > "$T/labs/expx.lab" <<'EOL'
name: expx
title: hostile experiment results
goal: none
step: none
recipe: mkfs size=8M blocksize=4096
claim: groups > 0 -- the goal
check: exp(evil).change == "journal relocate" -- the change
check: exp(fifo).runs >= 3 -- runs
check: exp(evil).seconds.mean_a == 3 -- a mean
check: exp(nan).seconds.mean_a == 3 -- a mean
EOL
E2LAYOUT_LABS=$T/labs USER=alice; export E2LAYOUT_LABS USER
"$E2LAYOUT" lab start expx "$T/a" </dev/null > "$T/start.out" 2>&1 ||
	{ cat "$T/start.out"; fail "lab start expx"; }
img=$T/a/expx.img
esc=$(printf '\033]0;pwned\007\033[2J\302\233')
printf '{"command":"experiment","change":"%s","result":{"comparisons":[' \
	"$esc" > "$T/a/evil.json"
printf '{"metric":"seconds","mean_a":1e999}]}}\n' >> "$T/a/evil.json"
sed 's/1e999/nan/' "$T/a/evil.json" > "$T/a/nan.json"
mkfifo "$T/a/fifo.json" || skip "no mkfifo"
# the check ends by itself (a FIFO without a writer would block an open)
"$E2LAYOUT" lab check expx "$img" > "$T/check.out" 2>&1 &
pid=$!
i=0
while kill -0 $pid 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 300 ]; then
		kill $pid
		# release the reader so it can end
		: > "$T/a/fifo.json" &
		fail "lab check hangs on a FIFO named fifo.json"
	fi
	sleep 0.1
done
wait $pid
grep -q "$(printf '\033')" "$T/check.out" &&
	fail "an escape reaches the output: $(cat -A "$T/check.out")"
grep -q "$(printf '\302\233')" "$T/check.out" &&
	fail "a C1 CSI reaches the output: $(cat -A "$T/check.out")"
grep -q "exp(evil).change is" "$T/check.out" ||
	{ cat "$T/check.out"; fail "the change check is not reported"; }
grep -q "not a regular file" "$T/check.out" ||
	{ cat "$T/check.out"; fail "the FIFO is not refused by name"; }
n=$(grep -c "mean_a.*no such mean" "$T/check.out")
[ "$n" = 2 ] || { cat "$T/check.out"; fail "1e999 or nan taken as a mean"; }
echo "hostile experiment results test passed"
exit 0
