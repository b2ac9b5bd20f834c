#!/bin/sh
# t_labs.sh - every training lab: the scenario builds without root, its
# check fails on the fresh scenario and passes once the solution stored in
# help/labs/NAME.lab (solution: lines) is replayed through e2layout -w -f;
# oracles (dumpe2fs, debugfs, e2fsck) confirm what the checks claim; the
# TUI opens on the lab panel (tmux).
set -u
: "${E2LAYOUT:?}"
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../lib/testlib.sh"	# (its undo dir and LSan settings)
tmp=$T

"$E2LAYOUT" lab list > "$tmp/list" || fail "lab list failed"
for want in where journal flexbg fragfiles prealloc live; do
	grep -q "^$want " "$tmp/list" || fail "lab list lacks $want"
done
grep "^live " "$tmp/list" | grep -q "live system" || fail "live is not marked as needing a live system"
"$E2LAYOUT" lab start nosuchlab "$tmp" </dev/null >/dev/null 2>&1 && fail "lab start accepted an unknown lab"
"$E2LAYOUT" lab hint journal 1 | grep -q "^Hint 1:" || fail "lab hint journal 1"
"$E2LAYOUT" lab hint journal 99 >/dev/null 2>&1 && fail "a missing hint succeeded"

# A live lab needs root, a loop mount, tracefs and jq; live_why says
# which one is missing.
live_ok() {
	live_why=""
	[ "$(id -u)" = 0 ] || { live_why="not root"; return 1; }
	command -v jq >/dev/null 2>&1 || { live_why="no jq"; return 1; }
	[ -d /sys/kernel/tracing/instances ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		{ live_why="no tracefs at /sys/kernel/tracing"; return 1; }
	mkdir -p "$1/probe"
	truncate -s 8M "$1/probe.img" && mke2fs -q -t ext4 "$1/probe.img" >/dev/null 2>&1 &&
		mount -o loop "$1/probe.img" "$1/probe" 2>/dev/null ||
		{ live_why="this machine refuses loop mounts"; return 1; }
	umount "$1/probe"; rm -rf "$1/probe" "$1/probe.img"
	return 0
}

for lab in $(cut -d' ' -f1 "$tmp/list"); do
	d=$tmp/$lab; mkdir -p "$d"
	src=$top/help/labs/$lab.lab
	[ -f "$src" ] || fail "$lab: no $src"
	"$E2LAYOUT" lab start "$lab" "$d" </dev/null > "$d/start.out" 2>&1 ||
		{ cat "$d/start.out"; fail "$lab: lab start failed"; }
	img=$d/$lab.img
	[ -f "$img" ] || fail "$lab: no $img"
	grep -q "^Goal:" "$d/start.out" && grep -q "^Steps:" "$d/start.out" ||
		fail "$lab: start did not print the goal and steps"
	e2fsck -fn "$img" >/dev/null 2>&1 || fail "$lab: the fresh scenario is not clean"
	sed -n 's/^solution: answer //p' "$src" > "$d/answers"
	sed -n 's/^solution: //p' "$src" | grep -v '^answer ' | grep -v '^sh ' > "$d/requests"
	"$E2LAYOUT" lab check "$lab" "$img" --answers /dev/null > "$d/check0" 2>&1
	rc=$?
	[ $rc -eq 1 ] || { cat "$d/check0"; fail "$lab: check on the fresh scenario exits $rc, not 1"; }
	grep -q "NOT MET" "$d/check0" || fail "$lab: the failing check gives no account"
	if grep -q '^needs: *live' "$src"; then
		if ! live_ok "$d"; then
			echo "note: $lab skipped: $live_why"
			continue
		fi
		# The "sh" solution lines, in order, on a real loop mount.
		mkdir -p "$d/mnt" "$d/work"
		sed -n 's/^solution: sh //p' "$src" > "$d/steps"
		while IFS= read -r step; do
			IMAGE=$img MNT=$d/mnt WORK=$d/work ANSWERS=$d/answers \
			E2LAYOUT_STATE_DIR=$d/work E2LAYOUT=$E2LAYOUT \
				sh -c "$step" > "$d/step.out" 2>&1 || {
				cat "$d/step.out"; umount "$d/mnt" 2>/dev/null
				fail "$lab: solution step failed: $step"; }
		done < "$d/steps"
		mountpoint -q "$d/mnt" && { umount "$d/mnt"; fail "$lab: the solution left the image mounted"; }
	elif [ -s "$d/requests" ]; then
		"$E2LAYOUT" -w -f "$d/requests" "$img" > "$d/solve" 2>&1 ||
			{ cat "$d/solve"; fail "$lab: the solution's requests failed"; }
	fi
	"$E2LAYOUT" lab check "$lab" "$img" --answers "$d/answers" > "$d/check1" 2>&1
	rc=$?
	[ $rc -eq 0 ] || { cat "$d/check1"; fail "$lab: check after the solution exits $rc"; }
	grep -q "Goal met" "$d/check1" || fail "$lab: no 'Goal met'"
	e2fsck -fn "$img" >/dev/null 2>&1 || fail "$lab: not clean after the solution"
	# A wrong answer fails again.
	if [ -s "$d/answers" ]; then
		sed '1s/=.*/= 99999/' "$d/answers" > "$d/wrong"
		"$E2LAYOUT" lab check "$lab" "$img" --answers "$d/wrong" >/dev/null 2>&1 &&
			fail "$lab: a wrong answer passed"
	fi
	echo "ok $lab"
done

# Oracles for what the stored answers claim.
a=$tmp/where
want=$(dumpe2fs "$a/where.img" 2>/dev/null | sed -n 's/.*Backup superblock at \([0-9]*\).*/\1/p' | paste -sd, -)
got=$(sed -n 's/^superblock_backups = //p' "$a/answers" | tr -d ' ')
[ "$want" = "$got" ] || fail "where: backups $got, dumpe2fs $want"
want=$(dumpe2fs "$a/where.img" 2>/dev/null | sed -n '/^Group 3:/,/^Group 4:/s/.*Inode table at \([0-9]*-[0-9]*\).*/\1/p')
grep -q "^inode_table_3 = $want\$" "$a/answers" || fail "where: inode table of group 3 is $want for dumpe2fs"
n=$(debugfs -R "ex -l <8>" "$tmp/journal/journal.img" 2>/dev/null | grep -c "^ *[0-9]*/")
[ "$n" = 1 ] || fail "journal: debugfs shows $n extents after the solution"
debugfs -R "ex /srv/db/wal.log" "$tmp/prealloc/prealloc.img" 2>/dev/null | grep -q Uninit ||
	fail "prealloc: debugfs shows no unwritten extent"
"$E2LAYOUT" lab start fragfiles "$tmp" </dev/null >/dev/null 2>&1
n=$(debugfs -R "ex -l /data/logs/app.log" "$tmp/fragfiles.img" 2>/dev/null | grep -c "^ *[0-9]*/")
[ "$n" = 40 ] || fail "fragfiles: app.log has $n extents for debugfs, the answer says 40"
f=$tmp/flexbg
want=$(dumpe2fs "$f/flexbg-g16.img" 2>/dev/null | sed -n '/^Group 5:/,/^Group 6:/s/.*Inode table at \([0-9]*-[0-9]*\).*/\1/p')
grep -q "^itable_5_flex = $want\$" "$f/answers" || fail "flexbg: the -G 16 table of group 5 is $want"
# after repack-flex, dumpe2fs shows flexbg.img's groups laid out as the -G 16
# image's, flex_bg set, the reserved GDT blocks kept, the file unchanged
for img in flexbg flexbg-g16; do
	dumpe2fs "$f/$img.img" 2>/dev/null | grep -E "^Group|Block bitmap at|Inode bitmap at|Inode table at|Reserved GDT" |
		sed 's/, csum.*//; s/ *\[.*//; s/csum 0x[0-9a-f]*//' > "$f/$img.layout"
	debugfs -R "dump /srv/data/a.bin $f/$img.bin" "$f/$img.img" >/dev/null 2>&1
done
cmp -s "$f/flexbg.layout" "$f/flexbg-g16.layout" ||
	{ diff "$f/flexbg.layout" "$f/flexbg-g16.layout" | head; fail "flexbg: dumpe2fs shows another layout than -G 16's"; }
dumpe2fs -h "$f/flexbg.img" 2>/dev/null | grep -q "^Filesystem features:.*flex_bg" || fail "flexbg: no flex_bg"
cmp -s "$f/flexbg.bin" "$f/flexbg-g16.bin" || fail "flexbg: a.bin changed"

# The TUI opens on the lab panel when started on a terminal.
if command -v tmux >/dev/null 2>&1; then
	. "$top/tests/lib/tmux.sh"
	mkdir -p "$tmp/tui"
	tmux_start -x 120 -y 40 "cd '$tmp' && env ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' '$E2LAYOUT' lab start journal tui 2>'$tmp/tui.err'; echo \$? > '$tmp/tui.rc'; sleep 20"
	on_fail() { tmux_on_fail; echo "--- stderr:"; cat "$tmp/tui.err" 2>/dev/null; }
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
	wait_file "$tmp/tui.rc" "the lab TUI did not quit"
	[ "$(cat "$tmp/tui.rc" 2>/dev/null)" = 0 ] || fail "lab TUI exit status $(cat "$tmp/tui.rc" 2>/dev/null)"
	tmux_stop
	"$E2LAYOUT" lab check journal "$tmp/tui/journal.img" > "$tmp/check.tui" 2>&1 ||
		{ cat "$tmp/check.tui"; fail "lab check after solving the journal lab in the TUI"; }
else
	echo "note: no tmux, lab panel not tested"
fi
echo "labs test passed"
exit 0
