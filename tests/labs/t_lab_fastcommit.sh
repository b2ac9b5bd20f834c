#!/bin/sh
# t_lab_fastcommit.sh - the fast-commit lab: its scenario is what mke2fs
# -O fast_commit makes (dumpe2fs: fast_commit, a "Fast commit length"
# inside "Total journal blocks"), the documented solution (dumpe2fs and
# debugfs bmap) passes, and a log length that forgets the area, the
# journal's first block as the area's start and another trainee's answers
# fail, naming the check.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/solve.sh"
export USER=alice
gamed() {	# IMAGE ANSWERS PATTERN WHAT
	"$E2LAYOUT" lab check fastcommit "$1" --answers "$2" > "$T/gamed.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || { cat "$T/gamed.out"; fail "$4 passed (lab check exits $rc)"; }
	grep "NOT MET" "$T/gamed.out" | grep -q -- "$3" ||
		{ cat "$T/gamed.out"; fail "$4: no NOT MET naming $3"; }
	echo "ok: $4: $(grep -m1 "NOT MET" "$T/gamed.out" | sed 's/^ *//')"
}

"$E2LAYOUT" lab start fastcommit "$T/a" </dev/null >/dev/null 2>&1 || fail "lab start fastcommit"
img=$T/a/fastcommit.img
fsck_clean "$img" || fail "the fast-commit scenario is not clean"
dumpe2fs -h "$img" 2>/dev/null > "$T/h"
grep -q "^Filesystem features:.*fast_commit" "$T/h" || fail "dumpe2fs shows no fast_commit"
fc=$(sed -n 's/^Fast commit length: *//p' "$T/h")
[ -n "$fc" ] && [ "$fc" -gt 0 ] || fail "dumpe2fs shows no fast-commit area"
lab_solve fastcommit "$T/a" || fail "the solution failed"
"$E2LAYOUT" lab check fastcommit "$img" > "$T/ok" 2>&1 || { cat "$T/ok"; fail "the honest solution fails"; }

t=$(sed -n 's/^Total journal blocks: *//p' "$T/h")
sed "s/^log_blocks = .*/log_blocks = $t/" "$T/a/fastcommit.answers" > "$T/nofc"
gamed "$img" "$T/nofc" "answer log_blocks" "the whole journal as the log"
j0=$(debugfs -R "bmap <8> 0" "$img" 2>/dev/null)
sed "s/^fc_start = .*/fc_start = $j0/" "$T/a/fastcommit.answers" > "$T/first"
gamed "$img" "$T/first" "answer fc_start" "the journal's first block as the area's start"

USER=bob "$E2LAYOUT" lab start fastcommit "$T/b" </dev/null >/dev/null 2>&1 || fail "lab start fastcommit for bob"
lab_solve fastcommit "$T/b" || fail "bob's solution failed"
cmp -s "$T/a/fastcommit.answers" "$T/b/fastcommit.answers" && fail "alice and bob have the same answers"
gamed "$img" "$T/b/fastcommit.answers" "answer" "bob's answers on alice's image"
echo "fastcommit lab test passed"
exit 0
