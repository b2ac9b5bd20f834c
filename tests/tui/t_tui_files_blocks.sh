#!/bin/sh
# t_tui_files_blocks.sh - the files view's sizes count all of i_blocks, as
# libext2fs does (ext2fs_get_stat_i_blocks): a file whose count needs
# i_blocks_hi ("blocks" set past 2^32 with debugfs sif) and one with
# huge_file's EXT4_HUGE_FILE_FL (its count in filesystem blocks) show the
# size debugfs's stat implies, in the list and in the stat pane (the low
# 32 bits alone gave 12K and 1K).
. "$(dirname "$0")/../lib/testlib.sh"
command -v debugfs >/dev/null 2>&1 || skip "debugfs is missing: skipped"
. "$(dirname "$0")/../lib/tmux.sh"
img=$T/img
mkfs.ext4 -q -F -b 4096 -O huge_file -E nodiscard "$img" 16M >/dev/null 2>&1 ||
	fail "mkfs.ext4"
head -c 12288 /dev/zero | tr '\0' x > "$T/data"
debugfs -w -f - "$img" >/dev/null 2>&1 <<DFS || fail "debugfs"
write $T/data big
write $T/data huge
sif big blocks 4294967320
sif huge flags 0xc0000
sif huge blocks 3
DFS
# (debugfs's Blockcount is in 512-byte units, the huge file's in blocks)
bc=$(debugfs -R "stat big" "$img" 2>/dev/null | sed -n 's/.*Blockcount: \([0-9]*\).*/\1/p')
[ "$bc" = 4294967320 ] || fail "debugfs did not set i_blocks_hi ($bc)"
big=$((bc / 2))K
huge=$((3 * 4096 / 1024))K
tmux_start -x 160 -y 40 "env TERM=xterm-256color LANG=C.UTF-8 ASAN_OPTIONS='$ASAN_OPTIONS' LSAN_OPTIONS='$LSAN_OPTIONS' '$E2LAYOUT' '$img' 2>'$T/err'; echo \$? > '$T/rc'; sleep 60"
wait_for " 1 Overview" "the TUI never started"
keys 6
wait_for "entries, by size" "no files view"
wait_for "^ *$big .* big\( \|$\)" "big is not $big in the list"
grep -q "^ *$huge .* huge\( \|$\)" "$SCREEN" || fail "huge is not $huge: $(grep ' huge' "$SCREEN")"
# sorted by size after "..": big, lost+found, huge; the stat pane
keys j
wait_for "blocks $bc (512-byte)" "the stat pane does not count $bc blocks"
keys j j
wait_for "blocks $((3 * 8)) (512-byte)" "the stat pane does not count the huge file's 24 sectors"
keys q
wait_file "$T/rc" "the TUI did not quit"
[ "$(cat "$T/rc")" = 0 ] || fail "exit status $(cat "$T/rc"): $(cat "$T/err")"
exit 0
