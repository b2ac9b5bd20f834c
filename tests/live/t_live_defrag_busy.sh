#!/bin/sh
# t_live_defrag_busy.sh - a file read and appended to while it is
# defragmented ends whole: its old bytes are what they were (SHA-256), every
# appended record is there once and in order, the readers saw no error; the
# run says the content was not compared (the file was written) but its
# blocks were checked by FIEMAP; e2fsck -fn is clean after umount.
. "$(dirname "$0")/ldf_lib.sh"
ldf_mount 64M "-b 4096"
ldf_frag 24 4 "$mnt/f" "$mnt/g"
size0=$(stat -c %s "$mnt/f")
sum0=$(sha256sum < "$mnt/f" | cut -c1-64)
n0=$(nextents "$mnt/f")

# A writer appending numbered 16-byte records, a reader reading it all.
(i=0; while [ ! -e "$T/stop" ]; do printf '%015d\n' $i >> "$mnt/f"; i=$((i + 1)); done) &
wpid=$!
(while [ ! -e "$T/stop" ]; do cat "$mnt/f" > /dev/null || echo "read failed" >> "$T/rerr"; done) &
rpid=$!
ldf_pids="$wpid $rpid"
until [ "$(stat -c %s "$mnt/f")" -gt $((size0 + 4096)) ]; do
	kill -0 $wpid 2>/dev/null || fail "the writer died"
	sleep 0.05
done
$E2LAYOUT -R "defrag f --chunk 4 --rate 256K --apply" "$mnt" > "$T/out" 2>"$T/err"
rc=$?
touch "$T/stop"
wait $wpid $rpid
ldf_pids=""
[ $rc = 0 ] || fail "defrag under load failed ($rc): $(cat "$T/err") $(cat "$T/out")"
grep -q "^Moved $mnt/f: .*blocks checked by FIEMAP; written during the move, so the content was not compared" "$T/out" ||
	fail "no check result: $(cat "$T/out")"
[ -e "$T/rerr" ] && fail "the reader failed: $(cat "$T/rerr")"
[ "$(head -c "$size0" "$mnt/f" | sha256sum | cut -c1-64)" = "$sum0" ] ||
	fail "the file's old bytes changed"
tail -c +$((size0 + 1)) "$mnt/f" > "$T/tail"
[ -s "$T/tail" ] || fail "nothing was appended"
awk 'length($0) != 15 || $0 + 0 != NR - 1 { bad = NR; exit 1 } END { if (!NR) exit 1 }' "$T/tail" ||
	fail "appended records lost, doubled or out of order (line $(awk 'length($0) != 15 || $0 + 0 != NR - 1 { print NR; exit }' "$T/tail"))"
n1=$(nextents "$mnt/f")
echo "extents of f: $n0 before, $n1 after (with the appended tail)"
ldf_umount
e2fsck -fn "$T/img" > "$T/fsck" 2>&1 || fail "e2fsck -fn after: $(cat "$T/fsck")"
echo "live defrag busy: read and appended while moved, whole, fsck: ok"
exit 0
