#!/bin/sh
# t_lab_measure.sh - the measuring lab on real loop mounts: the documented
# solution (an A/A experiment, a prediction, the A/B of journal relocate,
# answers read from the saved JSON with jq) passes and leaves the image
# byte for byte as it was; answers without the experiments, another
# trainee's results, an A/A saved as the A/B, a flipped reading of the
# verdict, and relocating the scenario's own journal fail, naming the
# check.  Skips where loop mounts or tracing are refused.
# e2l: serial - runs timed A/A and A/B experiments
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/solve.sh"
. "$(dirname "$0")/../experiment/explib.sh"
need_loop
need_tracefs

lab_begin measure
sum=$(md5sum < "$img")
lab_passes measure
[ "$(md5sum < "$img")" = "$sum" ] || fail "the experiments changed the scenario's image"
cat "$T/a/measure.answers"
left_behind

# answers typed in, no experiment saved
mkdir -p "$T/none"
cp "$img" "$T/a/measure.state" "$T/none/"
lab_gamed measure "$T/none/measure.img" "$T/a/measure.answers" "exp(aa).bound" "answers without the experiments"
# another trainee: alice's results and answers in bob's directory
USER=bob "$E2LAYOUT" lab start measure "$T/b" </dev/null >/dev/null 2>&1 || fail "lab start measure for bob"
cp "$T/a/aa.json" "$T/a/ab.json" "$T/b/"
lab_gamed measure "$T/b/measure.img" "$T/a/measure.answers" "exp(aa).bound" "alice's results on bob's image"
cmp -s "$T/a/measure.img" "$T/b/measure.img" && fail "alice and bob have the same image"
# the A/A saved as the A/B
cp "$T/a/ab.json" "$T/ab.keep"
cp "$T/a/aa.json" "$T/a/ab.json"
lab_gamed measure "$img" "$T/a/measure.answers" "exp(ab).change" "the A/A as the A/B"
cp "$T/ab.keep" "$T/a/ab.json"
# the verdict read the other way round
sed 's/^ab_ci_zero = yes$/ab_ci_zero = X/; s/^ab_ci_zero = no$/ab_ci_zero = yes/; s/^ab_ci_zero = X$/ab_ci_zero = no/' \
	"$T/a/measure.answers" > "$T/flip"
lab_gamed measure "$img" "$T/flip" "answer ab_ci_zero" "the interval read the other way round"
# the journal relocated on the scenario itself (then nothing is measured)
"$E2LAYOUT" -w -R "journal relocate" "$img" > "$T/rel" 2>&1 < /dev/null || { cat "$T/rel"; fail "journal relocate"; }
lab_gamed measure "$img" "$T/a/measure.answers" "unchanged journal.runs" "the scenario's own journal relocated"
echo "measure lab test passed"
exit 0
