#!/bin/sh
# t_evacuate.sh - evacuate FIRST-LAST: every file and the journal moved out
# of a range so that debugfs finds every block of it free, e2fsck -fn clean,
# contents unchanged, the saved multi-plan file applying from another
# process, e2undo restoring the image; ranges holding fixed metadata refused.
. "$(dirname "$0")/lib.sh"

NFILES=24
mk_frag "$T/e4.img" ext4 64M 1024 4
cp "$T/e4.img" "$T/orig.img"
sums "$T/e4.img" "$T/before.md5"
# group 2 of a 1 KiB filesystem (no superblock backup there)
first=17000; last=24000
n=$(debugfs -R "testb $first $((last - first + 1))" "$T/e4.img" 2>/dev/null | grep -c "marked in use")
[ "$n" -gt 0 ] || fail "test range already empty"
printf 'evacuate %s-%s\nplan save %s\n' $first $last "$T/ev.plan" |
	"$E2LAYOUT" -f - "$T/e4.img" > "$T/out" 2>&1 || { cat "$T/out"; fail "evacuate plan"; }
grep -q "inodes* to move" "$T/out" || fail "no summary"
"$E2LAYOUT" -w -R "apply $T/ev.plan" "$T/e4.img" > "$T/out" 2>&1 || { cat "$T/out"; fail "apply"; }
n=$(debugfs -R "testb $first $((last - first + 1))" "$T/e4.img" 2>/dev/null | grep -c "marked in use")
[ "$n" = 0 ] || fail "$n blocks of the range still in use"
e2fsck -fn "$T/e4.img" >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck after evacuate"; }
sums "$T/e4.img" "$T/after.md5"
cmp -s "$T/before.md5" "$T/after.md5" || fail "contents changed"
undo=$(sed -n 's/^undo file: \([^ ]*\) .*/\1/p' "$T/out")
e2undo "$undo" "$T/e4.img" >/dev/null 2>&1 || fail "e2undo"
cmp -s "$T/e4.img" "$T/orig.img" || fail "e2undo did not restore the image"
echo "ok: evacuate $first-$last"

# A range with a superblock backup, descriptors and reserved GDT blocks.
"$E2LAYOUT" -R "evacuate 24000-26000" "$T/e4.img" > "$T/out" 2>&1 && fail "fixed metadata moved?"
grep -q "cannot move" "$T/out" || { cat "$T/out"; fail "fixed-metadata message"; }
"$E2LAYOUT" -R "evacuate 5-3" "$T/e4.img" > "$T/out" 2>&1 && fail "bad range accepted"
grep -q "FIRST is after LAST" "$T/out" || fail "bad-range message"
exit 0
