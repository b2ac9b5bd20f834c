#!/bin/sh
# t_live_defrag_stop.sh - Ctrl-C during a live defrag: once the first
# progress line is out, SIGINT stops the run between two chunks; it exits
# non-zero saying how far it got, every file keeps its content, the donors'
# blocks go back (statfs's free count is what it was), the files not reached
# keep their extents; a second run finishes; e2fsck -fn is clean after.
. "$(dirname "$0")/ldf_lib.sh"
ldf_mount 64M "-b 4096"
ldf_frag 24 4 "$mnt/a" "$mnt/b" "$mnt/c"
(cd "$mnt" && sha256sum a b c) > "$T/sums.before"
nb=$(nextents "$mnt/b"); nc=$(nextents "$mnt/c")
sync
free0=$(stat -f -c %f "$mnt")

# 96 blocks a file, 4 a call, 64 KiB a second: about 18 s if not stopped.
$E2LAYOUT -R "defrag a b c --chunk 4 --rate 64K --apply" "$mnt" \
	> "$T/out" 2>"$T/err" &
pid=$!
ldf_pids=$pid
until grep -q "^  moving $mnt/a: " "$T/out"; do
	kill -0 $pid 2>/dev/null || fail "exited before any progress: $(cat "$T/out" "$T/err")"
	sleep 0.05
done
kill -INT $pid
wait $pid && fail "a stopped run exited 0"
ldf_pids=""
grep -q "^Stopped by Ctrl-C (SIGINT) between two moves" "$T/out" ||
	fail "no stop message: $(cat "$T/out")"
grep -q "0 of 3 files done" "$T/out" || fail "wrong count: $(cat "$T/out")"
grep -q "$mnt/a has [0-9]* of its 96 blocks in the new place" "$T/out" ||
	fail "does not say how far a got: $(cat "$T/out")"
grep -q "^Moved $mnt/b\|moving $mnt/b" "$T/out" && fail "b was reached"
(cd "$mnt" && sha256sum a b c) | cmp -s - "$T/sums.before" ||
	fail "content changed by a stopped run"
[ "$(nextents "$mnt/b")" = "$nb" ] && [ "$(nextents "$mnt/c")" = "$nc" ] ||
	fail "files not reached were changed"
sync
free1=$(stat -f -c %f "$mnt")
[ "$free1" = "$free0" ] || fail "free blocks $free0 before, $free1 after: donors kept"

# Again, to the end.
$E2LAYOUT -R "defrag a b c --apply" "$mnt" > "$T/out2" 2>&1 ||
	fail "second run: $(cat "$T/out2")"
grep -q "^Live defrag done: 3 files moved" "$T/out2" || fail "$(cat "$T/out2")"
(cd "$mnt" && sha256sum a b c) | cmp -s - "$T/sums.before" ||
	fail "content changed by the second run"
ldf_umount
e2fsck -fn "$T/img" > "$T/fsck" 2>&1 || fail "e2fsck -fn after: $(cat "$T/fsck")"
echo "live defrag stop: Ctrl-C between chunks, files whole, donors released, rerun finishes, fsck: ok"
exit 0
