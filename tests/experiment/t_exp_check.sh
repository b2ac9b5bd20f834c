#!/bin/sh
# t_exp_check.sh - an experiment mounts copies of its images in the kernel,
# so it refuses, before any copy or loop device, an image that e2fsck -fn
# finds damaged (a corpus image with a bad inode table), one whose journal
# needs recovery, one marked with errors and one with an external journal
# (the kernel would write the real device), each with a clear reason and
# exit 1; --no-check skips e2fsck but not the superblock's flags; a clean
# image passes, and as B of a damaged-free A the check names B.
# e2l: serial - mounts loop copies of images
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/explib.sh"
need_loop
command -v debugfs >/dev/null 2>&1 || skip "debugfs is missing: skipped"

corpus=$(dirname "$0")/../../../shared/corpus/e2fsprogs-tests
[ -r "$corpus/f_badtable.img.gz" ] || skip "no corpus image f_badtable: skipped"
zcat "$corpus/f_badtable.img.gz" > "$T/bad.img" || fail "zcat"
e2fsck -fn "$T/bad.img" >/dev/null 2>&1 && fail "f_badtable is clean here"
mkfs.ext4 -q -F -E nodiscard "$T/ok.img" 32M >/dev/null 2>&1 || fail "mkfs.ext4"
cp "$T/ok.img" "$T/rec.img"
debugfs -w -R "feature needs_recovery" "$T/rec.img" >/dev/null 2>&1 || fail "debugfs feature"
# an external journal on device 8:1 (the superblock says so; the kernel
# would open that device and write its journal)
cp "$T/ok.img" "$T/ext.img"
debugfs -w -f - "$T/ext.img" >/dev/null 2>&1 <<'EOF2' || fail "debugfs ext"
ssv journal_inum 0
ssv journal_dev 0x0801
ssv journal_uuid 1b4e28ba-2fa1-11d2-883f-b9a761bde3fb
EOF2
cp "$T/ok.img" "$T/err.img"
debugfs -w -R "ssv state 3" "$T/err.img" >/dev/null 2>&1 || fail "debugfs ssv"

W="--workload smallcreate --dirs 1 --files 2 --runs 2 --warmup 0 --no-counters --workdir $T"
# refuse IMAGE_A IMAGE_B WHAT [OPTIONS]: exit 1, the reason, nothing mounted
refuse() {
	a=$1 b=$2 what=$3; shift 3
	# shellcheck disable=SC2086
	"$E2LAYOUT" experiment "$a" "$b" $W "$@" >"$T/out" 2>&1
	rc=$?
	[ $rc = 1 ] || fail "$what: exit $rc, not 1: $(cat "$T/out")"
	grep -q "$what" "$T/out" || fail "no reason \"$what\": $(cat "$T/out")"
	grep -q " on /dev/loop" "$T/out" && fail "$what: a copy was mounted: $(cat "$T/out")"
	left_behind
}
refuse "$T/bad.img" "$T/bad.img" "A ($T/bad.img) is not clean: e2fsck -fn exits 4"
refuse "$T/ok.img" "$T/bad.img" "B ($T/bad.img) is not clean"
refuse "$T/rec.img" "$T/ok.img" "needs journal recovery"
refuse "$T/rec.img" "$T/ok.img" "needs journal recovery" --no-check
refuse "$T/err.img" "$T/ok.img" "marked with errors" --no-check
refuse "$T/ok.img" "$T/ext.img" "B ($T/ext.img) has an external journal (device 8:1)" --no-check
# a clean image passes, the check shown on the progress lines
"$E2LAYOUT" experiment "$T/ok.img" "$T/ok.img" $W >"$T/out" 2>&1 ||
	fail "a clean image refused: $(cat "$T/out")"
grep -q "checking A (e2fsck -fn" "$T/out" || fail "the check is not shown: $(cat "$T/out")"
left_behind
echo "damaged, needing recovery and error-marked images refused before any mount"
