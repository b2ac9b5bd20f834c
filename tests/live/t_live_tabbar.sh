#!/bin/sh
# t_live_tabbar.sh - the live tab bar keeps the kernel's and the disk's
# free counts as it narrows: at 160, 100 and 80 columns line 1 holds all
# seven tabs and both counts whole (as at 160 columns; the disk's is
# dumpe2fs's), their labels shortened before the counts go (below about
# 120 columns they used to drop out, leaving " LIVE "); at 60 columns the
# seven tabs and the LIVE mark stay.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/livelib.sh"
command -v dumpe2fs >/dev/null 2>&1 || skip "dumpe2fs is missing: skipped"
. "$(dirname "$0")/../lib/tmux.sh"
live_mount 64M ""
disk=$(dumpe2fs "$loop" 2>/dev/null | awk '/free blocks, .* free inodes/ {
	match($0, /[0-9]+ free blocks/); b += substr($0, RSTART, RLENGTH) + 0 } END { print b }')
tmux_start -x 160 -y 40 "env ASAN_OPTIONS='${ASAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' '$E2LAYOUT' '$mnt' 2>'$T/err'; echo \$? > '$T/rc'; sleep 30"
wait_for "owner scan: complete" "the owner scan never completed"
wait_for "^.*LIVE free: kernel [0-9]*, disk $disk (r)" "no live counts (disk $disk) at 160 columns"
kernel=$(head -1 "$SCREEN" | sed -n 's/.*LIVE free: kernel \([0-9]*\),.*/\1/p')
# tabs_ok: line 1 of the screen holds " 1 " ... " 7 " in order, uncut
tabs_ok() {
	head -1 "$SCREEN" | awk '{ pos = 0
		for (i = 1; i <= 7; i++) {
			k = index(substr($0, pos + 1), " " i " ")
			if (!k) exit 1
			pos += k + 2
		} }' && ! head -1 "$SCREEN" | grep -q '…'
}
tabs_ok || fail "160 columns: not every tab is on the tab bar"
for cols in 100 80; do
	keys 7; wait_for "^Console:" "no console view"
	resize "$cols" 30
	keys 1
	wait_for "^ 1 Over.*LIVE.* $kernel.* $disk " "$cols columns: the tab bar lost the counts (kernel $kernel, disk $disk)"
	head -1 "$SCREEN" | grep -q "LIVE \(free: kernel $kernel, disk $disk (r)\|k $kernel d $disk\) *$" ||
		fail "$cols columns: the counts are not whole at the right: $(head -1 "$SCREEN")"
	tabs_ok || fail "$cols columns: not every tab is on the tab bar: $(head -1 "$SCREEN")"
done
keys 7; wait_for "^Console:" "no console view"
resize 60 20
keys 1
wait_for "^ 1 .*LIVE" "60 columns: no LIVE mark"
tabs_ok || fail "60 columns: not every tab is on the tab bar: $(head -1 "$SCREEN")"
keys q
wait_file "$T/rc" "q did not end the TUI" 10
[ "$(cat "$T/rc" 2>/dev/null)" = 0 ] || fail "q exited with '$(cat "$T/rc" 2>/dev/null)': $(cat "$T/err")"
exit 0
