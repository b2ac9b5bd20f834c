#!/bin/sh
# t_fsck_gate_mmp.sh - the consistency gate on an MMP filesystem, which
# e2fsck -fn cannot check while the -w session holds its MMP block: written
# since its last check, the apply is refused with that reason (and how to
# proceed), the image unchanged but for the MMP block; after e2fsck -f it
# applies with no e2fsck run, verified and clean.  (Each -w open of an MMP
# filesystem waits about 11 s: two here.)
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/gate_lib.sh"
for tool in mke2fs debugfs e2fsck tune2fs; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is missing"
done
mk_wrapper
export E2LAYOUT_E2FSCK="$T/e2fsck-wrap"

img=$T/mmp.img
mk_small "$img"
# MMP added afterwards (debugfs -w would wait ~11 s per open with it on)
tune2fs -O mmp "$img" >/dev/null 2>&1 ||
	skip "tune2fs cannot add MMP here"
mmp=$(debugfs -R dump_mmp "$img" 2>/dev/null | sed -n 's/^block_number: *//p')
[ -n "$mmp" ] || fail "no MMP block"
fsck_clean "$img" || { cat "$T/fsck.out"; fail "the MMP image is not clean"; }
# written since its check: mk_small's clock was set back
debugfs -R "stats" "$img" 2>/dev/null | grep -q "^Last checked:.*2020" ||
	fail "the image's last check is not mke2fs's"
# only_mmp_differs A B: the images differ at most in the MMP block and in
# the superblock's write stamps (s_wtime, s_kbytes_written, the checksum),
# which libext2fs rewrites when it closes a -w open of an MMP filesystem.
only_mmp_differs() {
	cmp -l "$1" "$2" | awk -v b="$mmp" '{ o = $1 - 1; blk = int(o / 1024)
		sb = o - 1024
		if (blk == b) next
		if (blk == 1 && ((sb >= 48 && sb < 52) || (sb >= 376 && sb < 384) ||
				 (sb >= 628 && sb < 629) || sb >= 1020)) next
		bad = 1 } END { exit bad }'
}

# written since its check (by debugfs): refused, with the MMP reason
cp "$img" "$T/before.img"
"$E2LAYOUT" -w -R "defrag /big --no-undo" "$img" > "$T/out" 2>&1 &&
	{ cat "$T/out"; fail "applied without a check"; }
grep -q "uses MMP.*e2fsck -fn cannot check it now.*e2fsck -f" "$T/out" ||
	{ cat "$T/out"; fail "no MMP reason"; }
[ "$(calls)" = 0 ] || fail "e2fsck was run against the held MMP block"
only_mmp_differs "$img" "$T/before.img" ||
	fail "the refused apply wrote more than the MMP block and write stamps"
echo "ok: MMP, written since checked: refused with the reason"

# checked first: applied, no e2fsck run by e2layout
e2fsck -fy "$img" > "$T/fsck.out" 2>&1 || { cat "$T/fsck.out"; fail "e2fsck -fy"; }
"$E2LAYOUT" -w -R "defrag /big --no-undo" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "MMP, checked: not applied"; }
grep -q "^verified" "$T/out" || { cat "$T/out"; fail "not verified"; }
[ "$(calls)" = 0 ] || fail "e2fsck ran on a checked MMP filesystem"
[ "$(extents_of "$img" /big)" = 1 ] || fail "big not defragmented"
debugfs -R "cat /big" "$img" 2>/dev/null | cmp -s - "$T/payload/big" ||
	fail "big's contents"
fsck_clean "$img" || { cat "$T/fsck.out"; fail "e2fsck after the MMP apply"; }
echo "ok: MMP, checked since written: applied"
exit 0
