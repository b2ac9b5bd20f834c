#!/bin/sh
# t_qcow2.sh - a qcow2 dump (e2image -Q, made here) opens read-only through
# a raw copy made by the real e2image -r: it is named as qcow2, its reads
# equal those of the original image, the temporary copy is gone after the
# run (also after a failed request and after SIGTERM), and -w is refused.
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
command -v e2image >/dev/null 2>&1 || skip "e2image is not installed"
TMPDIR=$T/tmp; export TMPDIR; mkdir -p "$TMPDIR"
leftover() { [ -z "$(ls -A "$TMPDIR")" ] || fail "$1: left $(ls "$TMPDIR")"; }

for n in ext4 ext2-1k bigalloc; do
	img=$E2L_IMAGES/$n.img
	e2image -Q "$img" "$T/$n.qcow2" 2>/dev/null || fail "e2image -Q $n"
	for r in stats "ls -l /etc" "stat /home/user/blob" "ls -l /manyfiles" \
		 groups "icheck 1000"; do
		"$E2LAYOUT" -R "$r" "$img" > "$T/want" 2>&1
		"$E2LAYOUT" -R "$r" "$T/$n.qcow2" > "$T/got" 2> "$T/err" ||
			fail "$n: $r on the qcow2 dump failed: $(cat "$T/err")"
		cmp -s "$T/want" "$T/got" || {
			diff "$T/want" "$T/got" | head; fail "$n: $r differs"; }
		grep -q "this is a qcow2 image" "$T/err" ||
			fail "$n: not named as qcow2: $(cat "$T/err")"
	done
	leftover "$n"
done

# -w is refused, and nothing is written or left
cp "$T/ext4.qcow2" "$T/keep.qcow2"
"$E2LAYOUT" -w -R "mkdir /x" "$T/ext4.qcow2" > "$T/out" 2>&1 &&
	fail "-w on a qcow2 image was not refused"
grep -q "opens read-only" "$T/out" || fail "no reason given: $(cat "$T/out")"
cmp -s "$T/ext4.qcow2" "$T/keep.qcow2" || fail "-w changed the qcow2 image"
leftover "-w"

# a failing request, then a signal while the shell waits for input
"$E2LAYOUT" -R "stat /nothere" "$T/ext4.qcow2" >/dev/null 2>&1
leftover "a failed request"
mkfifo "$T/in"
"$E2LAYOUT" shell "$T/ext4.qcow2" < "$T/in" > "$T/sh.out" 2>&1 &
pid=$!
exec 3> "$T/in"
echo "stats" >&3
wait_until 30 "the shell never answered" grep -q "Filesystem UUID" "$T/sh.out"
kill -TERM $pid; wait $pid 2>/dev/null
exec 3>&-
leftover "SIGTERM"

# a qcow2 file that e2image cannot convert: a clear error, no copy left
printf 'QFI\373garbage' > "$T/bad.qcow2"
"$E2LAYOUT" -R stats "$T/bad.qcow2" > "$T/out" 2>&1 &&
	fail "a broken qcow2 file opened"
grep -q "e2image -r could not convert" "$T/out" ||
	fail "no clear error for a broken qcow2: $(cat "$T/out")"
leftover "a broken qcow2"
exit 0
