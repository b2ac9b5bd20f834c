#!/bin/sh
# t_live_tui_palette.sh - the live allocation overlay in the 256-colour
# palette: on a loop-mounted ext4, while `a` records and a dd allocates,
# map cells are lit in the overlay colours of tui/palette.c, which no owner
# class uses, and the legend names both ("allocated now", "allocated
# earlier") in those colours.
# e2l: serial - records allocations through tracefs (and may mount it)
set -u
: "${E2LAYOUT:?}"
. "$(dirname "$0")/../lib/testlib.sh"
[ "$(id -u)" = 0 ] || skip "live tests need root (loop mounts): skipped"
for t in losetup mount umount mkfs.ext4; do
	command -v $t >/dev/null 2>&1 || skip "$t is missing: live TUI test skipped"
done
pal=$(dirname "$0")/../../tui/palette.c
[ -f "$pal" ] || skip "tui/palette.c not found beside the tests"
. "$(dirname "$0")/../lib/tmux.sh"
loop=""; mounted=""; tracefs=""
cleanup() {	# (after the tmux server is gone: testlib's exit trap)
	[ -n "$mounted" ] && umount "$T/mnt" 2>/dev/null
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	[ -n "$tracefs" ] && umount /sys/kernel/tracing 2>/dev/null
	return 0
}
ESC=$(printf '\033')

mkfs.ext4 -q -F -b 4096 -E nodiscard "$T/img" 64M >/dev/null 2>&1 ||
	fail "mkfs.ext4"
mkdir "$T/mnt"
loop=$(losetup -f --show "$T/img" 2>/dev/null) ||
	skip "losetup refused here: live TUI test skipped"
mount -t ext4 "$loop" "$T/mnt" 2>/dev/null ||
	skip "mounting $loop refused here: live TUI test skipped"
mounted=1
if [ ! -d /sys/kernel/tracing/instances ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null && tracefs=1
fi
[ -d /sys/kernel/tracing/events/ext4/ext4_allocate_blocks ] ||
	skip "tracefs or the ext4 tracepoints are unavailable: live TUI test skipped"

new=$(sed -n 's/^	\[PAL_ALLOC_NEW\][	 ]*= \([0-9]*\),.*/\1/p' "$pal")
old=$(sed -n 's/^	\[PAL_ALLOC_OLD\][	 ]*= \([0-9]*\),.*/\1/p' "$pal")
[ -n "$new" ] && [ -n "$old" ] || fail "no overlay colours in palette.c"
sed -n 's/^	\[OWN_[A-Z_]*\][	 ]*= \([0-9]*\),.*/\1/p' "$pal" > "$T/classes"
grep -qx -e "$new" -e "$old" "$T/classes" && fail "a class uses an overlay colour"

tmux_start "env TERM=xterm-256color LANG=C.UTF-8 ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' '$E2LAYOUT' '$T/mnt' 2>'$T/err'; echo \$? > '$T/rc'; sleep 30"
wait_for "LIVE" "no LIVE mark on the tab bar"
wait_for "owner scan: complete" "the owner scan never completed"
wait_for "allocated now" "the legend does not name the overlay"
keys a
wait_for "ALLOC rec" "a did not start recording"
dd if=/dev/zero of="$T/mnt/f" bs=1M count=8 conv=fsync status=none || fail "dd"
wait_for "ALLOC [0-9]* (" "no allocation on the status line"
# the colours, from a capture with its escapes: polled, as the overlay
# redraws the map while it fades (one capture may be taken mid-frame)
cells() {
	$TM capture-pane -e -p -t e2l |
		sed "s/$ESC\[\([0-9;]*\)m/<\1>/g" > "$T/cells"
}
lit() {
	cells
	grep -q "<38;5;$new>[^<]<39> allocated now" "$T/cells" &&
	grep -q "<38;5;$old>[^<]<39> allocated earlier" "$T/cells" &&
	# lit map cells: the overlay colours outside the legend's entries
	sed 's/<38;5;[0-9]*>[^<]<39> allocated [a-z]*//g' "$T/cells" |
		grep -Eq "<38;5;($new|$old)>█"
}
wait_until 20 "the legend's 'allocated now'/'allocated earlier' are not in colours $new/$old, or no map cell is lit in them" lit
keys q
wait_file "$T/rc" "q did not end the TUI" 10
[ "$(cat "$T/rc")" = 0 ] || fail "exit status $(cat "$T/rc"): $(cat "$T/err")"
exit 0
