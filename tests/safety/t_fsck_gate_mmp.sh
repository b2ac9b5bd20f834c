#!/bin/sh
# t_fsck_gate_mmp.sh - the consistency gate on an MMP filesystem, which
# e2fsck refuses to check while a -w session's MMP block says "being
# checked": the session releases the block for e2fsck -fn and takes it
# again.  Damaged (an inode edited in place), the apply is refused quoting
# e2fsck, the image unchanged but for the MMP block and the superblock's
# write stamps; clean, it is checked, applied and verified, and e2fsck
# finds the MMP block released at the end.  (Each MMP open, and each retake,
# waits about 11 s: four here, two at a time: the cases run at once.  No
# mmp_update_interval shortens it: libext2fs waits 2 x max(interval, 5) + 1.)
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/gate_lib.sh"
for tool in mke2fs debugfs e2fsck tune2fs; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is missing"
done
mk_wrapper
export E2LAYOUT_E2FSCK="$T/e2fsck-wrap"

img=$T/mmp.img
mk_small "$img"
# a damaged copy: an inode edited in place (the superblock's stamps stay)
cp "$img" "$T/bad.img"
debugfs -w -R "sif /f2 links_count 7" "$T/bad.img" >/dev/null 2>&1
# MMP added afterwards (debugfs -w would wait ~11 s per open with it on)
tune2fs -O mmp "$img" >/dev/null 2>&1 ||
	skip "tune2fs cannot add MMP here"
tune2fs -O mmp "$T/bad.img" >/dev/null 2>&1 || fail "tune2fs -O mmp"
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

# calls_on IMG: how many times the wrapper ran e2fsck on IMG.
calls_on() { grep -c -- "$1" "$T/fsck.calls"; }

# damaged: refused (in the background, beside the clean case)
damaged() {
	cp -p "$T/bad.img" "$T/before.img"
	"$E2LAYOUT" -w -R "defrag /big --no-undo" "$T/bad.img" > "$T/bad.out" 2>&1 &&
		{ cat "$T/bad.out"; fail "applied to a damaged MMP filesystem"; }
	grep -q "^    .*ref count is 7, should be 1" "$T/bad.out" ||
		{ cat "$T/bad.out"; fail "e2fsck's problem is not quoted"; }
	grep -q "MMP" "$T/bad.out" && { cat "$T/bad.out"; fail "e2fsck met the held MMP block"; }
	[ "$(calls_on "$T/bad.img")" = 1 ] ||
		fail "e2fsck ran $(calls_on "$T/bad.img") times on the damaged image, not once"
	only_mmp_differs "$T/bad.img" "$T/before.img" ||
		fail "the refused apply wrote more than the MMP block and write stamps"
	echo "ok: MMP, damaged: checked by e2fsck -fn and refused"
}
damaged > "$T/damaged.log" 2>&1 &
damaged_pid=$!

# clean, written since its check: checked, applied, the MMP block released
"$E2LAYOUT" -w -R "defrag /big --no-undo" "$img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "MMP, clean: not applied"; }
grep -q "^verified" "$T/out" || { cat "$T/out"; fail "not verified"; }
[ "$(calls_on "$img")" = 1 ] ||
	fail "e2fsck ran $(calls_on "$img") times on the clean image, not once"
[ "$(extents_of "$img" /big)" = 1 ] || fail "big not defragmented"
debugfs -R "cat /big" "$img" 2>/dev/null | cmp -s - "$T/payload/big" ||
	fail "big's contents"
fsck_clean "$img" || { cat "$T/fsck.out"; fail "e2fsck after the MMP apply"; }
echo "ok: MMP, clean: checked, applied, MMP block released"
wait $damaged_pid; rc=$?
cat "$T/damaged.log"
[ $rc -eq 0 ] || fail "the damaged case failed (above)"
exit 0
