#!/bin/sh
# t_undo_ahead.sh - the presave runs ahead of the apply (undo_ahead.c): the
# copy's writes start while old contents further on are still being saved,
# and none of them reaches the device before what it overwrites is durable
# in the undo file.  With commits every 64 KiB (E2L_UNDO_AHEAD_STEP), a
# defrag into free space holding old data is crashed after every k-th
# device write (E2L_FAULT_DEV_WRITES=k: the file cut back to its last
# fdatasync, as a power loss leaves it), and its undo file's filesystem
# fills up at each of its writes in turn (E2L_FAULT_UNDO_WRITES=k); plain
# e2undo restores the image byte for byte every time; and the first copy
# write finds fewer keys durable than the second (with the presave done
# before the first write, as before, both find all of them).
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/undolib.sh"
command -v e2undo >/dev/null 2>&1 || skip "e2undo is not installed: no oracle"
stride=1
case "${E2L_BUILD:-}" in *asan*) stride=2 ;; esac
E2L_UNDO_AHEAD_STEP=65536
export E2L_UNDO_AHEAD_STEP

img=$T/a.img
# the free space holds old data; /big in pieces over it
oldpieces "$img" 16000000 200000 4096
bigfile "$img" big 3 1 3 5 7 9 11

keys_of() {
	e2undo -h "$1" "$T/c.img" 2>/dev/null | awk -F'\t' '/^nr keys/ {print $2}'
}

# the whole apply: its file and how many keys it holds
cp --sparse=always "$img" "$T/c.img"
rm -f "$T/u.e2undo"
"$E2LAYOUT" -w -R "defrag /big --undo $T/u.e2undo" "$T/c.img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "the apply failed"; }
"$E2LAYOUT" -R "cat /big" "$T/c.img" 2>/dev/null | cmp -s - "$T/big" ||
	fail "/big does not hold its data after the defrag"
full=$(keys_of "$T/u.e2undo")
[ "${full:-0}" -ge 6 ] || fail "the whole apply's file holds ${full:-no} keys"
e2undo "$T/u.e2undo" "$T/c.img" > "$T/undo.out" 2>&1 ||
	{ cat "$T/undo.out"; fail "e2undo refused the whole apply's file"; }
cmp -s "$T/c.img" "$img" || fail "the whole apply was not restored byte for byte"

# a power loss after each k-th device write
k=1; n=0
while [ $k -le 400 ]; do
	cp --sparse=always "$img" "$T/c.img"
	rm -f "$T/u.e2undo"
	E2L_FAULT_DEV_WRITES=$k "$E2LAYOUT" -w -R "defrag /big --undo $T/u.e2undo" \
		"$T/c.img" > "$T/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && break
	[ $rc -eq 86 ] || { cat "$T/out"; fail "crash k=$k: exit $rc"; }
	keys=$(keys_of "$T/u.e2undo")
	[ $k -le 2 ] && eval "keys$k=\$keys"
	e2undo "$T/u.e2undo" "$T/c.img" > "$T/undo.out" 2>&1 ||
		{ cat "$T/undo.out"; fail "crash k=$k: e2undo refused the undo file"; }
	cmp -s "$T/c.img" "$img" ||
		fail "crash k=$k ($keys of $full keys): not restored byte for byte"
	n=$((n + 1)); k=$((k + stride))
done
[ $rc -eq 0 ] || fail "the apply never completed under E2L_FAULT_DEV_WRITES"
[ $n -ge 4 ] || fail "only $n crash points"
echo "ok: $n power losses (every $stride), each restored exactly"
# the presave thread may in principle win the race to its end before the
# first write: three tries of the two first crashes
try=1
while [ "${keys1:-0}" -ge "${keys2:-0}" ] && [ $try -lt 3 ]; do
	for k in 1 2; do
		cp --sparse=always "$img" "$T/c.img"
		rm -f "$T/u.e2undo"
		E2L_FAULT_DEV_WRITES=$k "$E2LAYOUT" -w -R \
			"defrag /big --undo $T/u.e2undo" "$T/c.img" >/dev/null 2>&1
		eval "keys$k=\$(keys_of \"\$T/u.e2undo\")"
	done
	try=$((try + 1))
done
[ "${keys1:-0}" -lt "${keys2:-0}" ] ||
	fail "the first two device writes found ${keys1:-?} and ${keys2:-?} keys durable: the writes did not run ahead of the presave"
echo "ok: the first write found $keys1 keys durable, the second $keys2: the presave ran ahead"

# the undo file's filesystem full at each of its writes after the header
undo_full_sweep "$img" $stride
[ $sweep_n -ge 10 ] || fail "only $sweep_n undo write failures before the apply completed"
echo "ok: a full undo filesystem at $sweep_n writes (every $stride), the presave's included: said so, and restored exactly"
exit 0
