#!/bin/sh
# t_live_defrag.sh - live defrag on a loop-mounted ext4 made here: the plan
# counts the file's extents as filefrag does and moves nothing; --apply
# leaves each file in the extent count the plan's donor had, with its
# SHA-256 (as sha256sum says) unchanged; --worst N picks the most fragmented
# files; frag --donors previews and gives the donors back; a file in one
# run is left alone; in one session plan drop gives the donor back and a
# later apply moves the plan; a donor no better than the file
# (free space cut into small holes) is dropped and said; under strace the
# device is never opened for writing nor written; e2fsck -fn is clean after;
# the --json documents (plans, previews, moves) are valid against
# help/schema/.
. "$(dirname "$0")/ldf_lib.sh"
. "$(dirname "$0")/../lib/jsonlib.sh"
command -v strace >/dev/null 2>&1 || skip "strace is missing: live defrag test skipped"
ldf_mount 64M "-b 4096"
mkdir "$mnt/d" "$mnt/fill"
ldf_frag 24 4 "$mnt/d/a" "$mnt/d/b" "$mnt/d/c"
ldf_frag 8 4 "$mnt/d/e" "$mnt/d/b"
dd if=/dev/urandom of="$mnt/one" bs=64k count=4 conv=fsync status=none
sums() { (cd "$mnt" && sha256sum d/a d/b d/c d/e one); }
sums > "$T/sums.before"
na=$(nextents "$mnt/d/a"); nb=$(nextents "$mnt/d/b")
[ "$na" -ge 10 ] && [ "$nb" -ge 10 ] || fail "setup: a has $na extents, b $nb"

# The plan alone: filefrag's counts as "before", nothing moved.
$E2LAYOUT -R "defrag d/a /d/b" "$mnt" > "$T/plan" 2>"$T/err" ||
	fail "defrag (plan): $(cat "$T/err")"
before=$(sed -n 's/^  extents: \([0-9]*\) before.*/\1/p' "$T/plan" | tr '\n' ' ')
[ "$before" = "$na $nb " ] || fail "plan says before '$before', filefrag '$na $nb'"
grep -q "^  before: .*X" "$T/plan" && grep -q "^  after: .*X" "$T/plan" ||
	fail "no before/after map: $(cat "$T/plan")"
grep -q "Nothing is moved yet" "$T/plan" || fail "the plan does not say nothing moved"
[ "$(nextents "$mnt/d/a")" = "$na" ] || fail "the plan alone moved a"

# frag --donors: the worst files' donors counted and given back.
sync; free0=$(stat -f -c %f "$mnt")
$E2LAYOUT -R "frag --donors --top 3" "$mnt" > "$T/donors" 2>"$T/err" ||
	fail "frag --donors: $(cat "$T/err")"
grep -q "^ *$na  *$na  *[0-9]*  $mnt/d/a$" "$T/donors" ||
	fail "frag --donors has no row for d/a ($na extents): $(cat "$T/donors")"
sync
[ "$(stat -f -c %f "$mnt")" = "$free0" ] || fail "frag --donors kept blocks"
[ "$(nextents "$mnt/d/a")" = "$na" ] || fail "frag --donors moved a"

# --apply: each file has the donor's count, fewer than before, same data.
$E2LAYOUT -R "defrag d/a d/b --apply" "$mnt" > "$T/apply" 2>"$T/err" ||
	fail "defrag --apply: $(cat "$T/err") $(cat "$T/apply")"
after=$(sed -n 's/^  extents: [0-9]* before, \([0-9]*\) after.*/\1/p' "$T/apply" | tr '\n' ' ')
got="$(nextents "$mnt/d/a") $(nextents "$mnt/d/b") "
[ "$after" = "$got" ] || fail "the plan's after '$after', filefrag now '$got'"
[ "$(nextents "$mnt/d/a")" -lt "$na" ] || fail "a not defragmented"
for f in a b; do
	s=$(sha256sum < "$mnt/d/$f" | cut -c1-64)
	grep -q "^Moved $mnt/d/$f: .*SHA-256 $s " "$T/apply" ||
		fail "no SHA-256 check of $f matching sha256sum: $(cat "$T/apply")"
done
grep -q "^Live defrag done: 2 files moved" "$T/apply" || fail "no summary"

# --worst 1: c (24 rounds) before e (8); one is never a candidate.
$E2LAYOUT -R "defrag --worst 1" "$mnt" > "$T/worst" 2>"$T/err" ||
	fail "defrag --worst 1: $(cat "$T/err")"
[ "$(grep -c '^Live plan: defrag' "$T/worst")" = 1 ] &&
	grep -q "^Live plan: defrag $mnt/d/c " "$T/worst" ||
	fail "--worst 1 did not pick d/c: $(cat "$T/worst")"

# In one session: the plan, plan drop (the donor's blocks back), the plan
# again, then apply.
ne=$(nextents "$mnt/d/e")
sync; free0=$(stat -f -c %f "$mnt")
$E2LAYOUT -f - "$mnt" > "$T/sess" 2>&1 <<REQ || fail "session: $(cat "$T/sess")"
defrag d/e
plan drop
live status
defrag d/e
plan show
apply
REQ
grep -q "^Free blocks, statfs: *$free0$" "$T/sess" ||
	fail "plan drop kept the donor's blocks (free before: $free0): $(cat "$T/sess")"
[ "$(grep -c "^Live plan: defrag $mnt/d/e " "$T/sess")" = 3 ] ||
	fail "plan show did not show the live plan: $(cat "$T/sess")"
grep -q "^Moved $mnt/d/e: " "$T/sess" || fail "apply did not move d/e: $(cat "$T/sess")"
[ "$(nextents "$mnt/d/e")" -lt "$ne" ] || fail "d/e not defragmented by apply"

# One run already: left alone, exit 0.
$E2LAYOUT -R "defrag one --apply" "$mnt" > "$T/one" 2>&1 ||
	fail "defrag of a contiguous file failed: $(cat "$T/one")"
grep -q "already one contiguous run" "$T/one" || fail "one: $(cat "$T/one")"

# The same in JSON: the donors' preview, a live plan shown and applied,
# defrag --apply.
ldf_frag 6 4 "$mnt/d/j" "$mnt/d/k"
$E2LAYOUT --json -f - "$mnt" > "$T/live.jl" 2>"$T/err" <<REQ ||
frag --donors --top 2
defrag d/j
plan show
apply
defrag d/k --apply
REQ
	fail "the JSON session: $(cat "$T/err")"
schema_check "$T/live.jl"

# Under strace, through the device's name: c moves, the device is only read.
# (LeakSanitizer cannot run under ptrace: off for this run)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -f -y -o "$T/strace" -e trace=openat,open,write,pwrite64,pwritev,pwritev2 \
	$E2LAYOUT -R "defrag d/c --apply" "$loop" > "$T/c" 2>&1 ||
	fail "defrag d/c --apply on $loop: $(cat "$T/c")"
[ "$(nextents "$mnt/d/c")" -lt 24 ] || fail "c not defragmented"
real=$(readlink -f "$loop")
grep -q "openat(.*\"$real\"" "$T/strace" || fail "strace did not see the device opened"
grep -E "open(at)?\(.*\"($real|$T/img)\".*O_(WRONLY|RDWR)" "$T/strace" &&
	fail "e2layout opened the device for writing"
grep -E "write(64|v|v2)?\([0-9]+<($real|$T/img)" "$T/strace" &&
	fail "e2layout wrote to the device"

# A donor no better: free space cut into 4-block holes (every other of
# the 16 KiB files that filled it removed), then g written into them.
# (ext4 keeps reserved_clusters free for itself, wherever they are: none)
echo 0 > "/sys/fs/ext4/$(basename "$loop")/reserved_clusters" ||
	skip "reserved_clusters cannot be set here: live defrag test skipped"
head -c 80M /dev/zero 2>/dev/null | split -b 16k - "$mnt/fill/x" 2>/dev/null
ls "$mnt/fill" | awk 'NR % 2' | (cd "$mnt/fill" && xargs rm -f)
sync
dd if=/dev/urandom of="$mnt/g" bs=4k count=32 conv=fsync status=none
ng=$(nextents "$mnt/g")
[ "$ng" -ge 4 ] || fail "setup: g has $ng extents"
$E2LAYOUT -R "defrag g --apply" "$mnt" > "$T/g" 2>&1 ||
	fail "defrag g failed: $(cat "$T/g")"
grep -q "left alone: the kernel.s donor has .*not better" "$T/g" ||
	fail "a donor no better was not dropped: $(cat "$T/g")"
grep -q "0 to move" "$T/g" || fail "g: $(cat "$T/g")"
[ "$(nextents "$mnt/g")" = "$ng" ] || fail "g moved though its donor was no better"

sums > "$T/sums.after"
cmp -s "$T/sums.before" "$T/sums.after" || fail "file contents changed"
ldf_umount
e2fsck -fn "$T/img" > "$T/fsck" 2>&1 || fail "e2fsck -fn after: $(cat "$T/fsck")"
echo "live defrag: plan, apply, verify, worst, contiguous, not better, read-only device, fsck: ok"
exit 0
