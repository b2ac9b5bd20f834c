#!/bin/sh
# t_lab_live.sh - the live lab on real loop mounts with tracing: its
# documented solution (a control run, a prediction, the tunable, the saved
# traces) passes; the offline shortcut of issue #19 (prealloc on the
# unmounted image, no mount, no trace) fails naming the evidence; a trace
# of another filesystem fails.
# e2l: serial - records traces of live mounts through tracefs
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/solve.sh"
[ "$(id -u)" = 0 ] || skip "the live lab needs root (loop mounts)"
command -v jq >/dev/null 2>&1 || skip "no jq"
[ -d /sys/kernel/tracing/events/ext4 ] ||
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
	skip "no tracefs at /sys/kernel/tracing"
[ -d /sys/kernel/tracing/events/ext4/ext4_allocate_blocks ] || skip "no ext4 tracepoints"
trap 'umount "$T/d/work/m" 2>/dev/null; umount "$T/probe" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
mkdir -p "$T/probe"
truncate -s 8M "$T/probe.img" && mke2fs -q -t ext4 "$T/probe.img" >/dev/null 2>&1 &&
	mount -o loop "$T/probe.img" "$T/probe" 2>/dev/null ||
	skip "this machine refuses loop mounts"
umount "$T/probe"
export USER=alice E2LAYOUT_STATE_DIR=$T/state
d=$T/d
"$E2LAYOUT" lab start live "$d" </dev/null >/dev/null || fail "lab start live"
[ -f "$d/live-control.img" ] || fail "no control image"
lab_solve live "$d" || { mountpoint -q "$d/work/m" && umount "$d/work/m"; fail "the live lab's solution failed"; }
mountpoint -q "$d/work/m" && fail "the solution left an image mounted"
"$E2LAYOUT" lab check live "$d/live.img" > "$d/check" 2>&1 || { cat "$d/check" "$d/live.answers"; fail "the live lab's solution does not pass"; }
cat "$d/live.answers"
# the trace's first block of /big2 is where debugfs finds it
b=$(debugfs -R "ex -l /big2" "$d/live.img" 2>/dev/null | sed -En 's/^ *[0-9]+\/ *[0-9]+ +[0-9]+\/ *[0-9]+ +[0-9]+ *- *[0-9]+ +([0-9]+) .*/\1/p' | head -1)
ino=$(debugfs -R "stat /big2" "$d/live.img" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
t=$(jq --argjson i "$ino" '[.result.allocations[] | select(.inode == $i and .logical == 0)][0].block' "$d/live-big2.json")
[ "$b" = "$t" ] || fail "live-big2.json says /big2 began at $t, debugfs at $b"

# the offline shortcut: no mount, no trace, no control run
USER=bob "$E2LAYOUT" lab start live "$T/o" </dev/null >/dev/null || fail "lab start live (bob)"
"$E2LAYOUT" -w -f - "$T/o/live.img" >/dev/null 2>&1 <<EOT || fail "prealloc offline"
prealloc /big 64M
prealloc /big2 64M
EOT
for k in big big2; do
	b=$(debugfs -R "ex -l /$k" "$T/o/live.img" 2>/dev/null | sed -En 's/^ *[0-9]+\/ *[0-9]+ +[0-9]+\/ *[0-9]+ +[0-9]+ *- *[0-9]+ +([0-9]+) .*/\1/p' | head -1)
	echo "${k}_group = $((b / 32768))"
done > "$T/o/live.answers"
echo "predict_big2_group = 0" >> "$T/o/live.answers"
"$E2LAYOUT" lab check live "$T/o/live.img" > "$T/o/check" 2>&1 && { cat "$T/o/check"; fail "the offline shortcut passes the live lab"; }
grep -q "NOT MET trace(live-big).uuid" "$T/o/check" || { cat "$T/o/check"; fail "the offline shortcut's failure does not name the missing trace"; }
# alice's traces next to bob's image: another filesystem's
cp "$d"/*.json "$T/o/"
"$E2LAYOUT" lab check live "$T/o/live.img" > "$T/o/check2" 2>&1 && fail "another filesystem's traces pass"
grep -q "NOT MET trace(live-big).uuid == fs.uuid" "$T/o/check2" || { cat "$T/o/check2"; fail "a foreign trace is not named"; }
echo "live lab test passed"
exit 0
