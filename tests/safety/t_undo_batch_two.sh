#!/bin/sh
# t_undo_batch_two.sh - a block is never overwritten on the device before its
# old contents are durable in the undo file, with apply's batches (the
# presave of a plan's targets, one fdatasync per batch): a session of two
# defrags, each with its own undo file, into free space that holds old data,
# crashed after every k-th device write (E2L_FAULT_DEV_WRITES=k: the undo
# file cut back to what its last fdatasync made durable, as a power loss
# leaves it), is restored byte for byte by plain e2undo of the second file
# and then the first.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/undolib.sh"
command -v e2undo >/dev/null 2>&1 || skip "e2undo is not installed: no oracle"
stride=1
case "${E2L_BUILD:-}" in *asan*) stride=2 ;; esac

img=$T/two.img
# the free space first holds old data; two files in pieces over it
oldpieces "$img" 12000000 200000 4096
bigfile "$img" big 2 1 3 5
bigfile "$img" big2 2 7 9 11

printf 'defrag /big --undo %s\ndefrag /big2 --undo %s\n' \
	"$T/u1.e2undo" "$T/u2.e2undo" > "$T/session"
k=1; n=0; second=0
while [ $k -le 400 ]; do
	cp --sparse=always "$img" "$T/c.img"
	rm -f "$T/u1.e2undo" "$T/u2.e2undo"
	E2L_FAULT_DEV_WRITES=$k "$E2LAYOUT" -w -f "$T/session" "$T/c.img" \
		> "$T/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && break
	[ $rc -eq 86 ] || { cat "$T/out"; fail "k=$k: exit $rc"; }
	# the second file, once it holds its header, then the first
	if [ -s "$T/u2.e2undo" ]; then
		second=$((second + 1))
		e2undo "$T/u2.e2undo" "$T/c.img" > "$T/undo.out" 2>&1 ||
			{ cat "$T/undo.out"; fail "k=$k: e2undo refused the second undo file"; }
	fi
	if [ -e "$T/u1.e2undo" ]; then
		e2undo "$T/u1.e2undo" "$T/c.img" > "$T/undo.out" 2>&1 ||
			{ cat "$T/undo.out"; fail "k=$k: e2undo refused the first undo file"; }
	fi
	cmp -s "$T/c.img" "$img" ||
		fail "k=$k: e2undo did not restore the image byte for byte"
	n=$((n + 1))
	k=$((k + stride))
done
[ $rc -eq 0 ] || fail "the session never completed"
[ $n -gt 5 ] || fail "only $n crash points"
[ $second -gt 2 ] || fail "only $second crash points in the second apply"
# the session that completed: both files restore, second then first
e2undo "$T/u2.e2undo" "$T/c.img" >/dev/null 2>&1 &&
	e2undo "$T/u1.e2undo" "$T/c.img" >/dev/null 2>&1 ||
	fail "e2undo refused the completed session's files"
cmp -s "$T/c.img" "$img" || fail "the completed session was not restored"
echo "ok: $n crash points (every $stride, $second in the second apply), each restored exactly"
exit 0
