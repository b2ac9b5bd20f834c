#!/bin/sh
# t_lab_fastcommit.sh - the fast-commit lab: its scenario is what mke2fs
# -O fast_commit makes (dumpe2fs: fast_commit, a "Fast commit length"
# inside "Total journal blocks"), the documented solution (dumpe2fs and
# debugfs bmap) passes, and a log length that forgets the area, the
# journal's first block as the area's start and another trainee's answers
# fail, naming the check.  e2layout's journal request prints the area's
# length as dumpe2fs does.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/solve.sh"

lab_begin fastcommit
dumpe2fs -h "$img" 2>/dev/null > "$T/h"
grep -q "^Filesystem features:.*fast_commit" "$T/h" || fail "dumpe2fs shows no fast_commit"
fc=$(sed -n 's/^Fast commit length: *//p' "$T/h")
[ -n "$fc" ] && [ "$fc" -gt 0 ] || fail "dumpe2fs shows no fast-commit area"
# e2layout's journal request reads the same jbd2 superblock as dumpe2fs:
# the same fast-commit length and the log's length without the area
"$E2LAYOUT" -R journal "$img" > "$T/j" 2>&1 || { cat "$T/j"; fail "e2layout journal"; }
for k in "Fast commit length" "Max transaction length" "Total journal blocks"; do
	want=$(sed -n "s/^$k: *//p" "$T/h")
	got=$(sed -n "s/^$k: *//p" "$T/j")
	[ "$got" = "$want" ] || fail "journal prints $k \"$got\", dumpe2fs \"$want\""
done
grep -q "^Journal fast commit blks: *$fc$" "$T/j" || { cat "$T/j"; fail "journal's fast commit blks is not $fc"; }
lab_passes fastcommit

t=$(sed -n 's/^Total journal blocks: *//p' "$T/h")
sed "s/^log_blocks = .*/log_blocks = $t/" "$T/a/fastcommit.answers" > "$T/nofc"
lab_gamed fastcommit "$img" "$T/nofc" "answer log_blocks" "the whole journal as the log"
j0=$(debugfs -R "bmap <8> 0" "$img" 2>/dev/null)
sed "s/^fc_start = .*/fc_start = $j0/" "$T/a/fastcommit.answers" > "$T/first"
lab_gamed fastcommit "$img" "$T/first" "answer fc_start" "the journal's first block as the area's start"

lab_other fastcommit "answer"
echo "fastcommit lab test passed"
exit 0
