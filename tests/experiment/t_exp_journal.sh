#!/bin/sh
# t_exp_journal.sh - the first seed investigation in one command: a journal
# in dozens of pieces (fillers set in the free space before tune2fs adds
# it, then freed) against the same image after `journal relocate` (made by
# --change through a plan, applied with its undo file, verified), under a
# data=journal fsync workload: A's journal writes break at the seams, B's
# do not, in every run; A's image is left byte for byte as it was, and
# the B kept (--keep-b) is clean, in one piece, and undone by e2undo to A;
# the result is valid against help/schema/.
# e2l: serial - counts journal writes through tracepoints, times runs
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/explib.sh"
. "$(dirname "$0")/../lib/jsonlib.sh"
need_loop
need_tracefs
command -v tune2fs >/dev/null 2>&1 || skip "tune2fs is missing: skipped"

A=$T/j.img
mkfs.ext4 -q -F -O ^has_journal -b 4096 -E nodiscard "$A" 128M >/dev/null 2>&1 ||
	fail "mkfs.ext4"
first=$(dumpe2fs "$A" 2>/dev/null | sed -n 's/^  Free blocks: .*, \([0-9]*\)-[0-9]*$/\1/p' | head -1)
[ -n "$first" ] || fail "no free run in dumpe2fs's listing"
: > "$T/set"
b=$((first + 40)); i=0
while [ $i -lt 30 ]; do echo "setb $b" >> "$T/set"; b=$((b + 40)); i=$((i + 1)); done
debugfs -w -f "$T/set" "$A" >/dev/null 2>&1 || fail "debugfs setb"
tune2fs -J size=4 "$A" >/dev/null 2>&1 || fail "tune2fs -J"
sed 's/setb/freeb/' "$T/set" | debugfs -w -f - "$A" >/dev/null 2>&1 || fail "debugfs freeb"
fsck_clean "$A" || fail "the fragmented image is not clean: $(cat "$T/fsck.out")"
pieces=$("$E2LAYOUT" --json -R journal "$A" | jq '.result.pieces')
[ "$pieces" -ge 20 ] || fail "the journal is in $pieces pieces, not dozens"
sum=$(md5sum < "$A")

"$E2LAYOUT" experiment "$A" --change "journal relocate" --workload smallcreate \
	--dirs 2 --files 16 --mount-opts data=journal --runs 3 --json \
	--workdir "$T" --keep-b "$T/b.img" >"$T/r.json" 2>"$T/err" || fail "experiment: $(cat "$T/err")"
schema_check "$T/r.json"
grep -q "B made and verified" "$T/err" || fail "B's change not reported: $(cat "$T/err")"
jq -e '.result.change == "journal relocate" and .result.sides[1].image == null and
	.result.sides[0].mount_options == "data=journal"' "$T/r.json" >/dev/null ||
	fail "the change is not in the result"
# every run of A breaks more often than any run of B
jq -e '([.result.sides[0].runs[].counters.journal_breaks] | min) >
	([.result.sides[1].runs[].counters.journal_breaks] | max) and
	([.result.sides[0].runs[].counters.journal_breaks] | min) >= 3' "$T/r.json" >/dev/null ||
	fail "breaks A $(jq -c '[.result.sides[0].runs[].counters.journal_breaks]' "$T/r.json") B $(jq -c '[.result.sides[1].runs[].counters.journal_breaks]' "$T/r.json")"
jq -e '[.result.sides[].runs[].counters | .journal_writes > 0 and
	.io_by_owner.journal >= .journal_writes and .lost_events == 0] | all' \
	"$T/r.json" >/dev/null || fail "journal writes not counted as journal I/O"
jq -e '.result.comparisons[] | select(.metric == "journal_breaks") |
	.significant and (.verdict | startswith("B has fewer"))' "$T/r.json" >/dev/null ||
	fail "no verdict on the breaks: $(jq -c '.result.comparisons[] | select(.metric == "journal_breaks")' "$T/r.json")"
[ "$(md5sum < "$A")" = "$sum" ] || fail "A's image changed"
# the B kept: one piece, clean, and its undo file gives A back byte for byte
"$E2LAYOUT" --json -R journal "$T/b.img" | jq -e '.result.pieces == 1' >/dev/null ||
	fail "B's journal is not in one piece"
fsck_clean "$T/b.img" || fail "B is not clean: $(cat "$T/fsck.out")"
e2undo "$T/b.img.e2undo" "$T/b.img" >/dev/null 2>&1 || fail "e2undo of B failed"
cmp -s "$T/b.img" "$A" || fail "B after e2undo differs from A"
left_behind
echo "journal in $pieces pieces: more journal breaks than after journal relocate"
