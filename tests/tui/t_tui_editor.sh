#!/bin/sh
# t_tui_editor.sh - the layout editor in the real TUI (tmux), on a copy of
# the demo image: a read-only session refuses to apply; a typed "no" writes
# nothing; on a -w session the journal is relocated and a file defragmented
# through the menus (plan screen, typed yes, result), each checked by the
# real debugfs (one extent), e2fsck -fn, the file's checksum and e2undo
# (the original bytes back, cmp).
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/tmux.sh"
for tool in debugfs e2fsck e2undo; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is missing: TUI editor test skipped"
done
orig=$E2L_IMAGES/demo.img
[ -f "$orig" ] || skip "no demo image: TUI editor test skipped"
top=$(cd "$(dirname "$0")/../.." && pwd)
img=$T/fs.img
on_fail() { tmux_on_fail; echo "--- stderr:"; cat "$T/err" 2>/dev/null; }

start() {	# e2layout options...
	: > "$T/rc"
	tmux_start "cd '$T' && env ASAN_OPTIONS='$ASAN_OPTIONS' LSAN_OPTIONS='$LSAN_OPTIONS' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' '$E2LAYOUT' $* 2>'$T/err'; echo \$? > '$T/rc'; sleep 30"
	wait_for "owner scan: complete" "the owner scan never completed"
}
quit() {
	keys q
	wait_file "$T/rc" "the TUI did not quit on q"
	[ "$(cat "$T/rc" 2>/dev/null)" = 0 ] || fail "exit status $(cat "$T/rc" 2>/dev/null), not 0"
	tmux_stop
}
# Leaf extents of an inode, as the real debugfs lists them.
leaves() {
	debugfs -R "ex <$1>" "$img" 2>/dev/null |
		awk 'NR > 1 { l = $1; sub("/", "", l); if (l == $2) n++ } END { print n + 0 }'
}

cp --sparse=always "$orig" "$img" || fail "cannot copy the demo image"
sleep 0.01	# a later write gets another modification time
mtime=$(stat -c %y "$img")
jbefore=$(leaves 8)
[ "$jbefore" -gt 1 ] || fail "the demo journal is in $jbefore extent(s); the test needs a fragmented one"

# 1. Read-only: the plan is shown, apply is refused with how to reopen.
start "'$img'"
keys 4; wait_for "Journal inode <8>" "journal view"
# (each thing checked is waited for: a capture taken while the screen is
# being drawn has its first lines only)
keys e; wait_for "Selection: the journal, inode <8>" "the editor menu for the journal"
wait_for "relocate the journal to the middle" "no relocate --middle in the menu"
keys 3; wait_for "group (0-" "no group prompt"
keys 9 9 9 9 9 Enter; wait_for "The plan could not be made" "a bad group did not give the error screen"
wait_for "no group 99999" "the engine's refusal is not shown"
keys Escape; wait_for "relocate the journal to the middle" "Esc did not go back to the menu"
keys 2; wait_for "Plan: journal_relocate of inode 8" "no plan screen (read-only)"
resize 40 12
wait_for "terminal too small" "no too-small screen in the editor"
resize 160 50
wait_for "Plan: journal_relocate of inode 8" "the plan screen did not come back"
keys a; wait_for "read-only session" "apply was not refused on a read-only session"
wait_for "e2layout -w" "the refusal does not say how to reopen with -w"
keys q; wait_for "Journal inode <8>" "q did not close the editor"
quit
# (nothing written: the file's modification time is unchanged; the bytes
# are compared once, at the end, with the original)
[ "$(stat -c %y "$img")" = "$mtime" ] || fail "the read-only session wrote to the image"

# 2. -w, but "no" typed: nothing is written, no undo file.
start "-w '$img'"
keys 4; wait_for "Journal inode <8>" "journal view (-w)"
keys e 2; wait_for "Plan: journal_relocate of inode 8" "no plan screen"
keys a; wait_for "Type yes" "no yes prompt"
keys n o Enter; wait_for "cancelled: nothing was written" "typing no did not cancel"
keys q; quit
[ "$(stat -c %y "$img")" = "$mtime" ] || fail "typing no wrote to the image"
ls "$T"/*.e2undo >/dev/null 2>&1 && fail "typing no left an undo file"

# 3. -w: relocate the journal, then defragment the worst file.
start "-w '$img'"
keys 4; wait_for "Journal inode <8>" "journal view (apply)"
keys e 2; wait_for "Plan: journal_relocate of inode 8" "no plan screen (apply)"
wait_for "extents: $jbefore before, 1 after" "the plan screen does not show $jbefore extents before, 1 after"
wait_for "^ *1\. copy  *[0-9]*-[0-9]* -> [0-9]*-[0-9]*" "no copy move in the move list"
# the free moves follow the copies: scroll the list down to them (a journal
# in more pieces than the list has rows shows only copies at first)
n=0
until grep -q "^ *[0-9]*\. free  " "$T/screen"; do
	[ $n -lt 30 ] || fail "no free move in the move list"
	keys Down; n=$((n + 1)); capture
done
# (the strips are the last thing drawn: poll for them, a capture taken
# while the screen is being drawn may not have them yet)
wait_for "before: *[X#.]*X" "no before map with the journal's blocks"
wait_for "after: *[X#.]" "no after map"
wait_for "blocks read: [1-9]" "no blocks read"
keys o; wait_for "On the map: BEFORE" "o shows no overlay"
keys o; wait_for "On the map: AFTER" "o shows no after overlay"
keys a; wait_for "Type yes" "no yes prompt (apply)"
keys y e s Enter
wait_for "Applied and verified" "the journal relocation was not applied and verified"
wait_for "progress: 100%, [1-9][0-9]* blocks written" "no progress reported by the engine"
wait_for "verified: inode 8 maps 1 extent" "no verification line"
wait_for "undo file: [^ ]* " "no undo file shown"
undo1=$(sed -n 's/.*undo file: \([^ ]*\) .*/\1/p' "$T/screen" | head -1)
[ -n "$undo1" ] && [ -f "$undo1" ] || fail "no undo file shown, or it does not exist: '$undo1'"
cp "$undo1" "$T/undo-journal" || fail "cannot copy the undo file"
keys Enter 4; wait_for "in 1 extent(s)" "the journal view did not refresh to one extent"

# (the worst files are listed once the owner scan, run again after the
# apply, is complete)
keys 5; wait_for "fragmented, score" "frag view after the apply"
keys e; wait_for "Selection: file <[0-9]*>" "the editor menu for the worst file"
ino=$(sed -n 's/.*Selection: file <\([0-9]*\)>.*/\1/p' "$T/screen" | head -1)
[ -n "$ino" ] || fail "no inode in the selection"
before=$(leaves "$ino")
[ "$before" -gt 1 ] || fail "inode $ino is in $before extent(s): not fragmented"
sum=$(debugfs -R "cat <$ino>" "$img" 2>/dev/null | md5sum)
keys 1; wait_for "Plan: defrag of inode $ino" "no defrag plan screen"
wait_for "extents: $before before, 1 after" "defrag plan: not $before extents before, 1 after"
keys a; wait_for "Type yes" "no yes prompt (defrag)"
keys y e s Enter
wait_for "Applied and verified" "the defrag was not applied and verified"
wait_for "undo file: [^ ]* " "no undo file shown for the defrag"
undo2=$(sed -n 's/.*undo file: \([^ ]*\) .*/\1/p' "$T/screen" | head -1)
[ -n "$undo2" ] && [ -f "$undo2" ] || fail "no undo file for the defrag: '$undo2'"
keys Enter
quit
# After endwin, the TUI listed both undo files, newest first, with the
# e2undo command for each.
grep -q "this session wrote 2 undo files" "$T/err" || fail "no list of undo files at exit"
l2=$(grep -n "^  e2undo $undo2 $img\$" "$T/err" | cut -d: -f1)
l1=$(grep -n "^  e2undo $undo1 $img\$" "$T/err" | cut -d: -f1)
[ -n "$l1" ] && [ -n "$l2" ] && [ "$l2" -lt "$l1" ] ||
	fail "the exit list does not give e2undo for both, newest first"

[ "$(leaves 8)" = 1 ] || fail "debugfs: the journal is in $(leaves 8) extents, not 1"
[ "$(leaves "$ino")" = 1 ] || fail "debugfs: inode $ino is in $(leaves "$ino") extents, not 1"
[ "$(debugfs -R "cat <$ino>" "$img" 2>/dev/null | md5sum)" = "$sum" ] || fail "inode $ino's contents changed"
e2fsck -fn "$img" > "$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck -fn is not clean after the TUI applies"; }
e2undo "$undo2" "$img" > "$T/undo.out" 2>&1 || { cat "$T/undo.out"; fail "e2undo (defrag) failed"; }
e2undo "$T/undo-journal" "$img" > "$T/undo.out" 2>&1 || { cat "$T/undo.out"; fail "e2undo (journal) failed"; }
# Also catches any byte the read-only or "no" sessions changed: no undo
# file holds those.
cmp -s "$img" "$orig" || fail "the image is not the original byte for byte after e2undo"
echo "TUI editor test passed: journal $jbefore -> 1 extent, inode $ino $before -> 1, undone"
exit 0
