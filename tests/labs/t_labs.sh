#!/bin/sh
# t_labs.sh - every training lab, the honest way: lab validate (every
# claim of its text holds on several trainees' scenarios), the scenario
# builds without root, its check fails on the fresh scenario and passes
# once the solution in help/labs/NAME.lab is replayed (its answers
# measured with dumpe2fs and debugfs, not with e2layout); a wrong answer
# fails again; the oracles (dumpe2fs, debugfs, e2fsck) confirm what the
# checks claim; the TUI opens on the lab panel and solves the journal lab.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/solve.sh"
export USER=alice

"$E2LAYOUT" lab list > "$T/list" || fail "lab list failed"
for want in where journal flexbg fragfiles prealloc live repair undelete logdump extents inodes htree metabg fastcommit bigalloc orlov measure; do
	grep -q "^$want " "$T/list" || fail "lab list lacks $want"
done
grep "^live " "$T/list" | grep -q "live system" || fail "live is not marked as needing a live system"
grep "^orlov " "$T/list" | grep -q "needs root and a loop mount" || fail "orlov is not marked as needing a loop mount"
"$E2LAYOUT" lab start nosuchlab "$T" </dev/null >/dev/null 2>&1 && fail "lab start accepted an unknown lab"
"$E2LAYOUT" lab hint journal 1 | grep -q "^Hint 1:" || fail "lab hint journal 1"
"$E2LAYOUT" lab hint journal 99 >/dev/null 2>&1 && fail "a missing hint succeeded"

for lab in $(cut -d' ' -f1 "$T/list"); do
	d=$T/$lab; mkdir -p "$d"
	[ -f "$labs_src/$lab.lab" ] || fail "$lab: no $labs_src/$lab.lab"
	# a recipe that mounts: validated and solved by its own test, which
	# skips where mounts are refused (t_lab_orlov.sh)
	grep "needs: *mount" "$labs_src/$lab.lab" >/dev/null && continue
	# the text's claims, on two trainees' scenarios
	"$E2LAYOUT" lab validate "$labs_src/$lab.lab" --seeds 2 > "$d/validate" 2>&1 ||
		{ cat "$d/validate"; fail "$lab: lab validate fails"; }
	grep "needs: *live" "$labs_src/$lab.lab" >/dev/null && continue	# t_lab_live.sh
	"$E2LAYOUT" lab start "$lab" "$d" </dev/null > "$d/start.out" 2>&1 ||
		{ cat "$d/start.out"; fail "$lab: lab start failed"; }
	img=$d/$lab.img
	[ -f "$img" ] || fail "$lab: no $img"
	grep -q "^Goal:" "$d/start.out" && grep -q "^Steps:" "$d/start.out" ||
		fail "$lab: start did not print the goal and steps"
	grep -q "^trainee = alice$" "$d/$lab.state" || fail "$lab: the state does not name the trainee"
	# clean, unless the recipe damages it on purpose (then e2fsck says so)
	if grep -q "^recipe.*: *corrupt " "$labs_src/$lab.lab"; then
		fsck_clean "$img" && fail "$lab: the damaged scenario is clean"
	elif grep -q "^recipe.*: *dirty_journal " "$labs_src/$lab.lab"; then
		dumpe2fs -h "$img" 2>/dev/null | grep -q "^Filesystem features:.*needs_recovery" ||
			fail "$lab: the journal does not need recovery"
		debugfs -R "logdump -a" "$img" 2>/dev/null | grep -q "logged at" ||
			fail "$lab: debugfs logdump shows no pending transaction"
	else
		fsck_clean "$img" || fail "$lab: the fresh scenario is not clean"
	fi
	"$E2LAYOUT" lab check "$lab" "$img" --answers /dev/null > "$d/check0" 2>&1
	rc=$?
	[ $rc -eq 1 ] || { cat "$d/check0"; fail "$lab: check on the fresh scenario exits $rc, not 1"; }
	grep -q "NOT MET" "$d/check0" || fail "$lab: the failing check gives no account"
	file_sums "$img" > "$d/sums0"
	lab_solve "$lab" "$d" || fail "$lab: the solution failed"
	"$E2LAYOUT" lab check "$lab" "$img" > "$d/check1" 2>&1
	rc=$?
	[ $rc -eq 0 ] || { cat "$d/check1"; fail "$lab: check after the solution exits $rc"; }
	grep -q "Goal met" "$d/check1" || fail "$lab: no 'Goal met'"
	fsck_clean "$img" || fail "$lab: not clean after the solution"
	# every file that was there is still there, byte for byte (debugfs),
	# where the lab says files are kept
	file_sums "$img" > "$d/sums1"
	if grep -q "^check: files kept" "$labs_src/$lab.lab"; then
		join -1 2 -2 2 "$d/sums0" "$d/sums1" | awk '$2 != $3 { exit 1 }' ||
			fail "$lab: the solution changed a file's content"
		[ "$(wc -l < "$d/sums0")" -le "$(wc -l < "$d/sums1")" ] ||
			fail "$lab: the solution lost a file"
	fi
	# A wrong answer fails again.
	if [ -s "$d/$lab.answers" ]; then
		sed '1s/=.*/= 99999/' "$d/$lab.answers" > "$d/wrong"
		"$E2LAYOUT" lab check "$lab" "$img" --answers "$d/wrong" >/dev/null 2>&1 &&
			fail "$lab: a wrong answer passed"
	fi
	echo "ok $lab"
done

# Oracles for what the checks measured.
n=$(debugfs -R "ex -l <8>" "$T/journal/journal.img" 2>/dev/null | grep -c "^ *[0-9]*/")
[ "$n" = 1 ] || fail "journal: debugfs shows $n extents after the solution"
debugfs -R "ex /srv/db/wal.log" "$T/prealloc/prealloc.img" 2>/dev/null | grep -q Uninit ||
	fail "prealloc: debugfs shows no unwritten extent"
f=$T/flexbg
# after repack-flex, dumpe2fs shows flexbg.img's groups laid out as the -G 16
# image's, flex_bg set, the reserved GDT blocks kept
for img in flexbg flexbg-g16; do
	dumpe2fs "$f/$img.img" 2>/dev/null | grep -E "^Group|Block bitmap at|Inode bitmap at|Inode table at|Reserved GDT" |
		sed 's/, csum.*//; s/ *\[.*//; s/csum 0x[0-9a-f]*//' > "$f/$img.layout"
done
cmp -s "$f/flexbg.layout" "$f/flexbg-g16.layout" ||
	{ diff "$f/flexbg.layout" "$f/flexbg-g16.layout" | head; fail "flexbg: dumpe2fs shows another layout than -G 16's"; }
dumpe2fs -h "$f/flexbg.img" 2>/dev/null | grep -q "^Filesystem features:.*flex_bg" || fail "flexbg: no flex_bg"

# The TUI opens on the lab panel when started on a terminal.
if command -v tmux >/dev/null 2>&1; then
	. "$(dirname "$0")/../lib/tmux.sh"
	mkdir -p "$T/tui"
	tmux_start -x 120 -y 40 "cd '$T' && env USER=alice E2LAYOUT_UNDO_DIR='$T' ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' '$E2LAYOUT' lab start journal tui 2>'$T/tui.err'; echo \$? > '$T/tui.rc'; sleep 20"
	on_fail() { tmux_on_fail; echo "--- stderr:"; cat "$T/tui.err" 2>/dev/null; }
	wait_for "Lab journal" "the TUI did not show the lab panel"
	wait_for "Steps:" "the lab panel shows no steps"
	keys Escape
	wait_stable
	keys L
	wait_for "e2layout lab" "L did not bring the lab panel back"
	wait_for "Goal:" "the lab panel shows no goal"
	# Solve it in the TUI: the journal view, e, relocate to the middle,
	# type yes; then lab check confirms.
	keys Escape 4
	wait_for "Journal inode <8>" "lab TUI: no journal view" 30
	keys e 2
	wait_for "Plan: journal_relocate of inode 8" "lab TUI: no plan screen" 30
	keys a
	wait_for "Type yes" "lab TUI: no yes prompt" 30
	keys y e s Enter
	wait_for "Applied and verified" "lab TUI: the relocation was not applied" 30
	keys Enter q
	wait_file "$T/tui.rc" "the lab TUI did not quit"
	[ "$(cat "$T/tui.rc" 2>/dev/null)" = 0 ] || fail "lab TUI exit status $(cat "$T/tui.rc" 2>/dev/null)"
	tmux_stop
	"$E2LAYOUT" lab check journal "$T/tui/journal.img" > "$T/check.tui" 2>&1 ||
		{ cat "$T/check.tui"; fail "lab check after solving the journal lab in the TUI"; }
else
	echo "note: no tmux, lab panel not tested"
fi
echo "labs test passed"
exit 0
