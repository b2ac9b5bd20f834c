#!/bin/sh
# t_lab_metabg.sh - the meta_bg lab: its scenario is what mke2fs -O
# meta_bg,^resize_inode makes (dumpe2fs: meta_bg, no reserved GDT blocks,
# one descriptor block in a meta group's first, second and last groups),
# the documented solution (read from dumpe2fs) passes, and the answer of
# the classic layout (the table after the superblock) and another
# trainee's answers fail, naming the check.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/solve.sh"

lab_begin metabg
dumpe2fs -h "$img" 2>/dev/null > "$T/h"
grep -q "^Filesystem features:.*meta_bg" "$T/h" || fail "dumpe2fs shows no meta_bg"
grep -q "^Filesystem features:.*resize_inode" "$T/h" && fail "the scenario has a resize inode"
grep -q "^Reserved GDT blocks" "$T/h" && fail "dumpe2fs shows reserved GDT blocks"
# group 16 (the second meta group's first) holds one descriptor block
dumpe2fs "$img" 2>/dev/null | awk '/^Group 16:/ { g = 1; next } /^Group / { g = 0 } g && /Group descriptor at/ { print }' > "$T/g16"
grep -q "Group descriptor at [0-9]*$" "$T/g16" || { cat "$T/g16"; fail "group 16 holds no single descriptor block"; }
lab_passes metabg

# the classic layout's answer: the table right after the superblock
n=$(sed -n 's/^meta = //p' "$T/a/metabg.answers")
sed "s/^desc = .*/desc = $((2 + n))/" "$T/a/metabg.answers" > "$T/classic"
lab_gamed metabg "$img" "$T/classic" "answer desc" "the descriptor block of a table after the superblock"
# only the primary, as copies
p=$(sed -n 's/^desc = //p' "$T/a/metabg.answers")
sed "s/^copies = .*/copies = $p/" "$T/a/metabg.answers" > "$T/one"
lab_gamed metabg "$img" "$T/one" "answer copies" "the primary alone as the copies"

# another trainee's answers
lab_other metabg "answer"
echo "metabg lab test passed"
exit 0
