#!/bin/sh
# t_live_io_overlay.sh - the TUI's block-I/O overlay on a loop-mounted ext4
# made here (without colour, so that the cells are signs): I starts it (a
# tracing instance of its own), a dd with fsync lights the map cell that
# holds the file's first block (filefrag's extents) as a write, the cell
# fades back to its owner's letter within seconds, a read of the file after
# a cache drop lights it as a read; I stops it and removes the instance, and
# q exits 0 leaving none.  On an unmounted image I says there is nothing to
# watch.
# e2l: serial - traces block I/O through tracefs and drops caches to read cold, checks no instance is left
set -u
: "${E2LAYOUT:?}"
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/livelib.sh"
command -v filefrag >/dev/null 2>&1 || skip "filefrag is missing: skipped"
live_mount 64M "" -g 8192
live_tracefs
tr=/sys/kernel/tracing
[ -d $tr/instances ] || tr=/sys/kernel/debug/tracing
[ -d $tr/events/block/block_rq_issue ] && [ -d $tr/events/block/block_rq_complete ] ||
	skip "the block tracepoints are unavailable here: skipped"
. "$(dirname "$0")/../lib/tmux.sh"
io_instance() { ls $tr/instances | grep -qx 'e2layout-io-[0-9][0-9]*'; }
no_io_instance() { ! io_instance; }

tmux_start -x 160 -y 40 "env NO_COLOR=1 ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' '$E2LAYOUT' '$mnt' 2>'$T/err'; echo \$? > '$T/rc'; sleep 30"
wait_for "LIVE" "no LIVE mark on the tab bar"
wait_for "owner scan: complete" "the owner scan never completed"
keys 2
wait_for "Whole device: " "no map"
wait_for "I: light the block I/O" "the legend does not name I"
keys I
wait_for "IO $loop" "I did not start watching: $(sed -n '$p' "$SCREEN")"
io_instance || fail "no e2layout-io tracing instance while watching"
wait_for "<<( read.*>>) write" "the legend does not show the overlay's signs"

dd if=/dev/urandom of="$mnt/f" bs=1M count=8 conv=fsync status=none || fail "dd"
wait_for "IO $loop R [0-9]* W [1-9]" "no write request on the status line"
# where the file's first block is on the map
first=$(filefrag -v -b4096 "$mnt/f" |
	sed -n 's/^ *0: *[0-9]*\.\. *[0-9]*: *\([0-9]*\)\.\..*/\1/p')
[ -n "$first" ] || fail "filefrag gave no first extent"
set -- $(sed -n 's/.*Whole device: \([0-9]*\) groups, one row per block group (\([0-9]*\) blocks), \([0-9]*\) block(s) per cell.*/\1 \2 \3/p' "$SCREEN")
[ $# = 3 ] || fail "cannot read the map's geometry"
groups=$1 rowb=$2 bpc=$3
row=$((first / rowb)) col=$(( (first % rowb) / bpc ))
lw=$(printf 'g%s ' "$groups" | wc -c)
cell() {
	capture
	awk -v r="g$row " -v c=$((lw + col + 1)) \
		'index($0, r) == 1 { print substr($0, c, 1); exit }' "$SCREEN"
}
# wait_cell SIGNS WHAT: until the file's cell shows one of SIGNS
wait_cell() {
	wc_end=$(( $(date +%s) + 15 ))
	while :; do
		ch=$(cell)
		case "$1" in *"$ch"*) [ -n "$ch" ] && return 0 ;; esac
		[ "$(date +%s)" -lt "$wc_end" ] ||
			fail "$2 (block $first: row $row, cell $col shows '$ch')"
		sleep 0.1
	done
}
owner=$(cell)
wait_cell ">)" "the file's cell is not lit as a write"
# it fades: back to a letter of the map (the owner), not a sign
wait_cell "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
	"the write never faded"
faded=$(cell)
case "$faded" in [A-Za-z]) ;; *) fail "the faded cell shows '$faded', not an owner letter" ;; esac

# a read of the file, from the disk
sync
echo 3 > /proc/sys/vm/drop_caches
cat "$mnt/f" > /dev/null
wait_cell "<(" "the file's cell is not lit as a read"
wait_for "IO $loop R [1-9]" "no read request on the status line"

keys I
wait_for "block I/O overlay off: [1-9][0-9]* read and [1-9][0-9]* write" "I did not stop"
wait_until 5 "stopping left the io tracing instance" no_io_instance
keys I
wait_for "IO $loop" "I did not start again"
keys q
wait_file "$T/rc" "q did not end the TUI" 10
[ "$(cat "$T/rc")" = 0 ] || fail "q exited with '$(cat "$T/rc")': $(cat "$T/err")"
no_io_instance || fail "q left the io tracing instance"

# Not live, no experiment: I says there is nothing to watch.
mkfs.ext4 -q -F -b 4096 "$T/plain.img" 8M >/dev/null 2>&1 || fail "mkfs.ext4 (plain)"
tmux_stop
tmux_start "'$E2LAYOUT' '$T/plain.img' 2>/dev/null; sleep 30"
wait_for "owner scan: complete" "the owner scan never completed on the plain image"
keys I
wait_for "no block I/O to watch" "I on an unmounted image gave no clear message"
keys q
echo "io overlay: block $first lit as a write ($owner -> > -> $faded) and as a read"
exit 0
