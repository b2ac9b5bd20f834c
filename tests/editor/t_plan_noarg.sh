#!/bin/sh
# t_plan_noarg.sh - `plan` alone is `plan show` (help plan: show is the
# default): in a read-only session it previews the current plan exactly as
# `plan show` does, and says there is none when there is none.
. "$(dirname "$0")/lib.sh"

img=$T/e.img
cp "$E2L_IMAGES/ext4.img" "$img" || skip "no shared ext4 image"
printf 'journal_relocate\nplan\n' | "$E2LAYOUT" -f - "$img" > "$T/a" 2>&1 ||
	{ cat "$T/a"; fail "plan with no argument failed"; }
printf 'journal_relocate\nplan show\n' | "$E2LAYOUT" -f - "$img" > "$T/b" 2>&1 ||
	{ cat "$T/b"; fail "plan show failed"; }
grep -q "Usage" "$T/a" && { cat "$T/a"; fail "plan printed a usage"; }
# (the echoed request lines aside)
grep -v "^debugfs: plan" "$T/a" > "$T/a2"; grep -v "^debugfs: plan" "$T/b" > "$T/b2"
cmp -s "$T/a2" "$T/b2" || { diff "$T/a2" "$T/b2"; fail "plan and plan show differ"; }
grep -q "^Steps:" "$T/a" || { cat "$T/a"; fail "plan did not show the plan's steps"; }
"$E2LAYOUT" -R "plan" "$img" > "$T/c" 2>&1 && fail "plan without a plan succeeded"
grep -q "there is no current plan" "$T/c" || { cat "$T/c"; fail "plan without a plan: message"; }
echo "ok: plan alone shows the current plan as plan show does"
exit 0
