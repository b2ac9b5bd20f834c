#!/bin/sh
# t_fsck_gate.sh - consistency before change: on an image with a problem
# e2fsck -fn finds but the superblock does not record (a wrong link count;
# an e2fsprogs corpus image), every layout operation with -w and `apply
# FILE` are refused, quoting e2fsck's problem line and not its banner, and
# the image stays byte-identical.  A filesystem checked since it was last
# written is changed with no e2fsck run (a wrapper named by E2LAYOUT_E2FSCK
# records the runs); one written since is checked first; --no-fsck skips
# the run with a warning; no e2fsck at all is refused; e2fsck's stdin is
# /dev/null and its output is bounded.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/gate_lib.sh"
for tool in mke2fs debugfs e2fsck dumpe2fs; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is missing"
done
mk_wrapper
export E2LAYOUT_E2FSCK="$T/e2fsck-wrap"

mk_small "$T/base.img"
# The damage: f2's link count.  s_state still says clean.
cp "$T/base.img" "$T/bad.img"
debugfs -w -R "sif /f2 links_count 7" "$T/bad.img" >/dev/null 2>&1
fsck_clean "$T/bad.img" && fail "the damaged image is clean for e2fsck"
grep -q "ref count is 7, should be 1" "$T/fsck.out" ||
	{ cat "$T/fsck.out"; fail "e2fsck does not report the link count"; }
dumpe2fs -h "$T/bad.img" 2>/dev/null | grep -q "^Filesystem state: *clean$" ||
	fail "the damaged image does not look clean"
# a plan saved by a read-only session, for `apply FILE`
printf 'plan defrag /big\nplan save %s\n' "$T/big.plan" |
	"$E2LAYOUT" -f - "$T/bad.img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "plan save"; }
first=$(debugfs -R "bmap /big 0" "$T/base.img" 2>/dev/null)
[ -n "$first" ] || fail "no block of /big"

# refused NAME IMG WANT REQUEST: -w REQUEST on a copy of IMG (its time
# kept) is refused, quoting WANT from e2fsck's report, and the copy is
# unchanged.
refused() {
	cp -p "$2" "$T/img"
	cp "$T/img" "$T/img.before"
	"$E2LAYOUT" -w -R "$4" "$T/img" > "$T/out" 2>&1 &&
		{ cat "$T/out"; fail "$1: not refused"; }
	grep -q "e2fsck -fn found problems" "$T/out" ||
		{ cat "$T/out"; fail "$1: no e2fsck verdict"; }
	grep -q "^    .*$3" "$T/out" ||
		{ cat "$T/out"; fail "$1: e2fsck's problem line is not quoted"; }
	grep -q "run e2fsck -f" "$T/out" || { cat "$T/out"; fail "$1: no advice"; }
	grep -q -e "^    Pass [1-5]" -e "^    e2fsck 1" "$T/out" &&
		{ cat "$T/out"; fail "$1: quoted e2fsck's banner"; }
	cmp -s "$T/img" "$T/img.before" || fail "$1: the image was modified"
	echo "ok: refused: $1"
}
problem="ref count is 7, should be 1"
refused "journal relocate" "$T/bad.img" "$problem" "journal relocate"
refused "defrag" "$T/bad.img" "$problem" "defrag /big"
refused "prealloc" "$T/bad.img" "$problem" "prealloc /new 64K"
refused "evacuate" "$T/bad.img" "$problem" "evacuate $first-$((first + 40))"
refused "apply FILE" "$T/bad.img" "$problem" "apply $T/big.plan"
refused "apply FILE --undo" "$T/bad.img" "$problem" \
	"apply $T/big.plan --undo $T/u.e2undo"
[ -e "$T/u.e2undo" ] && fail "a refused apply left an undo file"

# repack-flex needs a flex group whose island is free: a filesystem made
# without flex_bg, the island evacuated first, then damaged.
mkdir -p "$T/d"
head -c 400000 /dev/urandom > "$T/d/a"
E2FSPROGS_FAKE_TIME=1600000000 mke2fs -q -F -t ext4 -O ^flex_bg -b 1024 \
	-d "$T/d" "$T/flex.img" 32M >/dev/null 2>&1 || fail "mke2fs ^flex_bg"
"$E2LAYOUT" -R "repack-flex 0" "$T/flex.img" > "$T/out" 2>&1
range=$(sed -n 's/.*evacuate \([0-9]*-[0-9]*\).*/\1/p' "$T/out")
if [ -n "$range" ]; then
	"$E2LAYOUT" -w -R "evacuate $range --no-undo" "$T/flex.img" \
		> "$T/out" 2>&1 || { cat "$T/out"; fail "evacuate $range"; }
fi
"$E2LAYOUT" -R "repack-flex 0" "$T/flex.img" > "$T/out" 2>&1
grep -q "Nothing is written" "$T/out" || { cat "$T/out"; fail "no repack plan"; }
debugfs -w -R "sif /a links_count 5" "$T/flex.img" >/dev/null 2>&1
refused "repack-flex" "$T/flex.img" "ref count is 5, should be 1" "repack-flex 0"

# An e2fsprogs corpus image with a clean-looking state that e2fsck flags.
corpus=$(dirname "$0")/../../../shared/corpus/e2fsprogs-tests/f_badorphan.img.gz
if [ -f "$corpus" ]; then
	gunzip -c "$corpus" > "$T/corpus.img" || fail "gunzip $corpus"
	refused "corpus f_badorphan" "$T/corpus.img" "orphan" "journal relocate"
else
	echo "note: no e2fsprogs corpus beside the tree; corpus case skipped"
fi
[ "$(calls)" -ge 8 ] || fail "e2fsck ran $(calls) times for 8 refusals"

# Checked since last written (s_lastcheck 2024, s_wtime 2020, the image
# file last modified in 2023): applied with no e2fsck run.
cp "$T/base.img" "$T/checked.img"
printf 'set_current_time 20200101\nssv lastcheck 20240101\n' |
	debugfs -w -f - "$T/checked.img" >/dev/null 2>&1
touch -d "2023-06-01 00:00:00" "$T/checked.img"
cp -p "$T/checked.img" "$T/img"
: > "$T/fsck.calls"
"$E2LAYOUT" -w -R "defrag /big" "$T/img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "defrag of a checked filesystem"; }
[ "$(calls)" = 0 ] || fail "e2fsck ran on a filesystem checked since written"
grep -q "checked since it was last written" "$T/out" || { cat "$T/out"; fail "no note"; }
[ "$(extents_of "$T/img" /big)" = 1 ] || fail "big not defragmented"
fsck_clean "$T/img" || { cat "$T/fsck.out"; fail "e2fsck after defrag"; }
echo "ok: s_lastcheck >= s_wtime: no e2fsck run"

# The same superblock, but the image file written since (here only its
# time: a copy): e2fsck -fn runs.
cp "$T/checked.img" "$T/img"
: > "$T/fsck.calls"
"$E2LAYOUT" -w -R "defrag /big --no-undo" "$T/img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "defrag of a copied checked image"; }
[ "$(calls)" = 1 ] || fail "e2fsck did not run on an image newer than its check"
echo "ok: an image file modified after its check is checked again"

# An inode edited in place leaves the superblock's stamps as they were
# (checked since written) but not the image file's time: refused.
cp -p "$T/checked.img" "$T/sif.img"
debugfs -w -R "sif /f4 links_count 3" "$T/sif.img" >/dev/null 2>&1
dumpe2fs -h "$T/sif.img" 2>/dev/null | grep -q "^Last write time:.*2020" ||
	fail "debugfs sif moved the write time: the case proves nothing"
refused "inode edited in place" "$T/sif.img" "ref count is 3, should be 1" \
	"defrag /big"

# Written since its last check: e2fsck -fn runs first (with -C), then apply.
cp "$T/base.img" "$T/img"
: > "$T/fsck.calls"
"$E2LAYOUT" -w -R "defrag /big" "$T/img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "defrag of a clean filesystem"; }
[ "$(calls)" = 1 ] || fail "e2fsck ran $(calls) times, not once"
grep -q "^-fn -C [0-9][0-9]* $T/img\$" "$T/fsck.calls" ||
	{ cat "$T/fsck.calls"; fail "e2fsck's arguments"; }
grep -q "checking the filesystem (e2fsck -fn" "$T/out" || fail "no check line"
[ "$(extents_of "$T/img" /big)" = 1 ] || fail "big not defragmented"
fsck_clean "$T/img" || { cat "$T/fsck.out"; fail "e2fsck after defrag"; }
echo "ok: written since checked: e2fsck -fn ran, then the plan"

# --no-fsck: no e2fsck run, a warning, the plan applied.
cp "$T/bad.img" "$T/img"
: > "$T/fsck.calls"
"$E2LAYOUT" -w -R "defrag /big --no-fsck" "$T/img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "defrag --no-fsck"; }
[ "$(calls)" = 0 ] || fail "e2fsck ran despite --no-fsck"
grep -q "warning: --no-fsck" "$T/out" || { cat "$T/out"; fail "no warning"; }
[ "$(extents_of "$T/img" /big)" = 1 ] || fail "big not defragmented"
cp "$T/bad.img" "$T/img"
"$E2LAYOUT" -w -R "apply $T/big.plan --no-fsck" "$T/img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "apply FILE --no-fsck"; }
[ "$(calls)" = 0 ] || fail "e2fsck ran despite apply --no-fsck"
echo "ok: --no-fsck"

# No e2fsck to run (and no --no-fsck): refused, unchanged.
mkdir -p "$T/nopath"
cp "$T/base.img" "$T/img"
cp "$T/img" "$T/img.before"
env -u E2LAYOUT_E2FSCK PATH="$T/nopath" "$E2LAYOUT" -w -R "defrag /big" \
	"$T/img" > "$T/out" 2>&1 && { cat "$T/out"; fail "applied without e2fsck"; }
grep -q "e2fsck not found" "$T/out" || { cat "$T/out"; fail "no reason"; }
cmp -s "$T/img" "$T/img.before" || fail "modified without e2fsck"
echo "ok: no e2fsck: refused"

# e2fsck's stdin is /dev/null (not the request stream), its output bounded.
cat > "$T/noisy" <<EOF
#!/bin/sh
cat > "$T/stdin.seen"
i=0
while [ \$i -lt 5000 ]; do
	echo "a problem line \$i of many, and a long one too: ........................"
	i=\$((i + 1))
done
exit 4
EOF
chmod +x "$T/noisy"
cp "$T/base.img" "$T/img"
printf 'defrag /big\nstats\n' | E2LAYOUT_E2FSCK="$T/noisy" \
	"$E2LAYOUT" -w -f - "$T/img" > "$T/out" 2>&1 && fail "noisy: not refused"
[ -s "$T/stdin.seen" ] && fail "e2fsck read the requests on stdin"
grep -q "Block count:" "$T/out" || { cat "$T/out"; fail "stats did not run after"; }
n=$(grep -c "^    a problem line" "$T/out")
[ "$n" -ge 1 ] && [ "$n" -le 5 ] || fail "$n problem lines quoted"
grep -q "^    a problem line 0 " "$T/out" || fail "not the first problem line"
cmp -s "$T/img" "$T/base.img" || fail "noisy: modified"
echo "ok: stdin /dev/null, output bounded"
exit 0
