#!/bin/sh
# t_live_refresh.sh - the live TUI reads the on-disk state again: files
# written on the mount while it runs show up in the overview's free inode
# and block counts and the status bar's disk count, after r and by the
# periodic refresh alone (it used to keep the state of when it opened, and
# the superblock's totals, which the kernel writes only now and then).
# The oracle is dumpe2fs's per-group counts read from the device.
# e2l: serial - may mount tracefs (livelib), which others read
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/livelib.sh"
command -v dumpe2fs >/dev/null 2>&1 || skip "dumpe2fs is missing: skipped"
. "$(dirname "$0")/../lib/tmux.sh"
live_mount 64M ""
# The device's per-group free counts, summed: "blocks inodes".
disk_free() {
	dumpe2fs "$loop" 2>/dev/null | awk '
		/free blocks, .* free inodes/ {
			match($0, /[0-9]+ free blocks/); b += substr($0, RSTART, RLENGTH) + 0
			match($0, /[0-9]+ free inodes/); n += substr($0, RSTART, RLENGTH) + 0
		} END { print b, n }'
}
tmux_start -x 180 -y 50 "env ASAN_OPTIONS='${ASAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' '$E2LAYOUT' '$mnt' 2>'$T/err'; echo \$? > '$T/rc'; sleep 30"
wait_for "LIVE" "no LIVE mark on the tab bar"
wait_for "owner scan: complete" "the owner scan never completed"
set -- $(disk_free)
wait_for "inodes: $2 free" "the overview does not show the device's $2 free inodes at start"

# Files written while it runs, then r.
mkdir "$mnt/d"
i=0; while [ $i -lt 40 ]; do echo $i > "$mnt/d/f$i"; i=$((i + 1)); done
dd if=/dev/zero of="$mnt/big" bs=1M count=8 status=none
sync
set -- $(disk_free)
keys r
wait_for "inodes: $2 free" "after r, the overview does not show the device's $2 free inodes"
wait_for "blocks: $1 free" "after r, the overview does not show the device's $1 free blocks"
wait_for "disk $1 (r)" "after r, the status bar does not show the device's $1 free blocks"

# More files, no key: the periodic refresh (every 5 s) catches up.
i=0; while [ $i -lt 25 ]; do echo $i > "$mnt/d/g$i"; i=$((i + 1)); done
rm -f "$mnt/big"
sync
set -- $(disk_free)
wait_for "inodes: $2 free" "the periodic refresh never showed the device's $2 free inodes"
wait_for "disk $1 (r)" "the periodic refresh never showed the device's $1 free blocks"
keys q
wait_file "$T/rc" "q did not end the TUI" 10
[ "$(cat "$T/rc" 2>/dev/null)" = 0 ] || fail "q exited with '$(cat "$T/rc" 2>/dev/null)': $(cat "$T/err")"
exit 0
