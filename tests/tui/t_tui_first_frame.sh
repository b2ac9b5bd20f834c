#!/bin/sh
# t_tui_first_frame.sh - E2L_TUI_EXIT_AFTER_FIRST_FRAME=1 (the bench's hook):
# the TUI draws one complete overview from the superblock and descriptors,
# quits with status 0 before the owner scan has begun, and leaves no
# scripted key unplayed that could have mattered.
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
. "$(dirname "$0")/../lib/testlib.sh"
command -v script >/dev/null 2>&1 || skip "script(1) is missing: skipped"
img=$E2L_IMAGES/ext4.img
tmp=$T
on_fail() { echo "--- dump:"; cat "$tmp/dump" 2>/dev/null; }

TERM=xterm-256color LINES=50 COLUMNS=160 E2L_TUI_EXIT_AFTER_FIRST_FRAME=1 \
E2L_TUI_DUMP="$tmp/dump" script -qec "'$E2LAYOUT' --keys 2 '$img'; echo \$? > '$tmp/rc'" \
	/dev/null > "$tmp/out" 2>&1
[ "$(cat "$tmp/rc" 2>/dev/null)" = 0 ] || fail "exit status $(cat "$tmp/rc" 2>/dev/null)"
[ -s "$tmp/dump" ] || fail "no screen dump"
grep -q "Whole device" "$tmp/dump" || fail "no whole-device map in the first frame"
grep -q "file data" "$tmp/dump" || fail "no legend in the first frame"
grep -q "owner scan: incomplete" "$tmp/dump" ||
	fail "the owner scan ran before the first frame"
# The key '2' (group map) was never played: the frame is the overview.
grep -q "one row per" "$tmp/dump" && fail "a scripted key ran before the exit"
free=$(debugfs -R stats "$img" 2>/dev/null | sed -n 's/^Free blocks: *//p')
grep -q "blocks: $free free" "$tmp/dump" || fail "free blocks differ from debugfs ($free)"
exit 0
