#!/bin/sh
# t_tui_editor.sh - the layout editor in the real TUI (tmux), on a copy of
# the demo image: a read-only session refuses to apply; a typed "no" writes
# nothing; on a -w session the journal is relocated and a file defragmented
# through the menus (plan screen, typed yes, result), each checked by the
# real debugfs (one extent), e2fsck -fn, the file's checksum and e2undo
# (the original bytes back, cmp).
set -u
command -v tmux >/dev/null 2>&1 || { echo "tmux is missing: TUI editor test skipped"; exit 77; }
for tool in debugfs e2fsck e2undo; do
	command -v $tool >/dev/null 2>&1 || { echo "$tool is missing: TUI editor test skipped"; exit 77; }
done
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
orig=$E2L_IMAGES/demo.img
[ -f "$orig" ] || { echo "no demo image: TUI editor test skipped"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
# libext2fs's own leaks on the apply path (tests/tui/lsan.supp says which)
LSAN_OPTIONS="suppressions=$top/tests/tui/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
tmp=$(mktemp -d)
img=$tmp/fs.img
sock=e2l-ed-$$
T="tmux -L $sock"
fail() { echo "FAIL: $*"; echo "--- screen:"; cat "$tmp/screen" 2>/dev/null; cat "$tmp/err" 2>/dev/null; $T kill-server 2>/dev/null; rm -rf "$tmp"; exit 1; }

capture() { $T capture-pane -p -t e2l > "$tmp/screen" 2>/dev/null; }
wait_for() {	# PATTERN [what]: polls the pane for up to ~20 s
	i=0
	while [ $i -lt 100 ]; do
		capture
		grep -q -- "$1" "$tmp/screen" && return 0
		sleep 0.2
		i=$((i + 1))
	done
	fail "${2:-screen never showed: $1}"
}
keys() { $T send-keys -t e2l "$@"; }
started=0
start() {	# e2layout options...
	: > "$tmp/rc"
	# A server killed a moment ago may still hold the socket: retry.
	n=0
	until $T -f /dev/null new-session -d -s e2l -x 160 -y 50 \
		"cd '$tmp' && env ASAN_OPTIONS='$ASAN_OPTIONS' LSAN_OPTIONS='$LSAN_OPTIONS' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' '$E2LAYOUT' $* 2>'$tmp/err'; echo \$? > '$tmp/rc'; sleep 30" 2>/dev/null; do
		n=$((n + 1))
		if [ $n -ge 10 ]; then
			[ $started = 1 ] && fail "tmux could not start session $((started + 1))"
			echo "tmux could not start a session: TUI editor test skipped"; rm -rf "$tmp"; exit 77
		fi
		$T kill-server 2>/dev/null
		sleep 0.5
	done
	started=1
	wait_for "owner scan: complete" "the owner scan never completed"
}
quit() {
	keys q
	i=0
	while [ ! -s "$tmp/rc" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(cat "$tmp/rc" 2>/dev/null)" = 0 ] || fail "exit status $(cat "$tmp/rc" 2>/dev/null), not 0"
	$T kill-server 2>/dev/null
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
keys e; wait_for "Selection: the journal, inode <8>" "the editor menu for the journal"
grep -q "relocate the journal to the middle" "$tmp/screen" || fail "no relocate --middle in the menu"
keys 3; wait_for "group (0-" "no group prompt"
keys 9 9 9 9 9 Enter; wait_for "The plan could not be made" "a bad group did not give the error screen"
grep -q "no group 99999" "$tmp/screen" || fail "the engine's refusal is not shown"
keys Escape; wait_for "relocate the journal to the middle" "Esc did not go back to the menu"
keys 2; wait_for "Plan: journal_relocate of inode 8" "no plan screen (read-only)"
$T resize-window -t e2l -x 40 -y 12 >/dev/null 2>&1
wait_for "terminal too small" "no too-small screen in the editor"
$T resize-window -t e2l -x 160 -y 50 >/dev/null 2>&1
wait_for "Plan: journal_relocate of inode 8" "the plan screen did not come back"
keys a; wait_for "read-only session" "apply was not refused on a read-only session"
grep -q "e2layout -w" "$tmp/screen" || fail "the refusal does not say how to reopen with -w"
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
ls "$tmp"/*.e2undo >/dev/null 2>&1 && fail "typing no left an undo file"

# 3. -w: relocate the journal, then defragment the worst file.
start "-w '$img'"
keys 4; wait_for "Journal inode <8>" "journal view (apply)"
keys e 2; wait_for "Plan: journal_relocate of inode 8" "no plan screen (apply)"
grep -q "extents: $jbefore before, 1 after" "$tmp/screen" || fail "the plan screen does not show $jbefore extents before, 1 after"
grep -q "^ *1\. copy  *[0-9]*-[0-9]* -> [0-9]*-[0-9]*" "$tmp/screen" || fail "no copy move in the move list"
grep -q "free  " "$tmp/screen" || fail "no free move in the move list"
grep -q "before: *[X#.]*X" "$tmp/screen" || fail "no before map with the journal's blocks"
# (the strips are the last thing drawn: poll for them, a capture taken
# while the screen is being drawn may not have them yet)
wait_for "after: *[X#.]" "no after map"
grep -q "blocks read: [1-9]" "$tmp/screen" || fail "no blocks read"
keys o; wait_for "On the map: BEFORE" "o shows no overlay"
keys o; wait_for "On the map: AFTER" "o shows no after overlay"
keys a; wait_for "Type yes" "no yes prompt (apply)"
keys y e s Enter
wait_for "Applied and verified" "the journal relocation was not applied and verified"
grep -q "progress: 100%, [1-9][0-9]* blocks written" "$tmp/screen" || fail "no progress reported by the engine"
grep -q "verified: inode 8 maps 1 extent" "$tmp/screen" || fail "no verification line"
undo1=$(sed -n 's/.*undo file: \([^ ]*\) .*/\1/p' "$tmp/screen" | head -1)
[ -n "$undo1" ] && [ -f "$undo1" ] || fail "no undo file shown, or it does not exist: '$undo1'"
cp "$undo1" "$tmp/undo-journal" || fail "cannot copy the undo file"
keys Enter 4; wait_for "in 1 extent(s)" "the journal view did not refresh to one extent"

# (the worst files are listed once the owner scan, run again after the
# apply, is complete)
keys 5; wait_for "fragmented, score" "frag view after the apply"
keys e; wait_for "Selection: file <" "the editor menu for the worst file"
ino=$(sed -n 's/.*Selection: file <\([0-9]*\)>.*/\1/p' "$tmp/screen" | head -1)
[ -n "$ino" ] || fail "no inode in the selection"
before=$(leaves "$ino")
[ "$before" -gt 1 ] || fail "inode $ino is in $before extent(s): not fragmented"
sum=$(debugfs -R "cat <$ino>" "$img" 2>/dev/null | md5sum)
keys 1; wait_for "Plan: defrag of inode $ino" "no defrag plan screen"
grep -q "extents: $before before, 1 after" "$tmp/screen" || fail "defrag plan: not $before extents before, 1 after"
keys a; wait_for "Type yes" "no yes prompt (defrag)"
keys y e s Enter
wait_for "Applied and verified" "the defrag was not applied and verified"
undo2=$(sed -n 's/.*undo file: \([^ ]*\) .*/\1/p' "$tmp/screen" | head -1)
[ -n "$undo2" ] && [ -f "$undo2" ] || fail "no undo file for the defrag: '$undo2'"
keys Enter
quit
# After endwin, the TUI listed both undo files, newest first, with the
# e2undo command for each.
grep -q "this session wrote 2 undo files" "$tmp/err" || fail "no list of undo files at exit"
l2=$(grep -n "^  e2undo $undo2 $img\$" "$tmp/err" | cut -d: -f1)
l1=$(grep -n "^  e2undo $undo1 $img\$" "$tmp/err" | cut -d: -f1)
[ -n "$l1" ] && [ -n "$l2" ] && [ "$l2" -lt "$l1" ] ||
	fail "the exit list does not give e2undo for both, newest first"

[ "$(leaves 8)" = 1 ] || fail "debugfs: the journal is in $(leaves 8) extents, not 1"
[ "$(leaves "$ino")" = 1 ] || fail "debugfs: inode $ino is in $(leaves "$ino") extents, not 1"
[ "$(debugfs -R "cat <$ino>" "$img" 2>/dev/null | md5sum)" = "$sum" ] || fail "inode $ino's contents changed"
e2fsck -fn "$img" > "$tmp/fsck" 2>&1 || { cat "$tmp/fsck"; fail "e2fsck -fn is not clean after the TUI applies"; }
e2undo "$undo2" "$img" > "$tmp/undo.out" 2>&1 || { cat "$tmp/undo.out"; fail "e2undo (defrag) failed"; }
e2undo "$tmp/undo-journal" "$img" > "$tmp/undo.out" 2>&1 || { cat "$tmp/undo.out"; fail "e2undo (journal) failed"; }
# Also catches any byte the read-only or "no" sessions changed: no undo
# file holds those.
cmp -s "$img" "$orig" || fail "the image is not the original byte for byte after e2undo"
rm -rf "$tmp"
echo "TUI editor test passed: journal $jbefore -> 1 extent, inode $ino $before -> 1, undone"
exit 0
