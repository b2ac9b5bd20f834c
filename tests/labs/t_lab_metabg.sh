#!/bin/sh
# t_lab_metabg.sh - the meta_bg lab: its scenario is what mke2fs -O
# meta_bg,^resize_inode makes (dumpe2fs: meta_bg, no reserved GDT blocks,
# one descriptor block in a meta group's first, second and last groups),
# the documented solution (read from dumpe2fs) passes, and the answer of
# the classic layout (the table after the superblock) and another
# trainee's answers fail, naming the check.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/solve.sh"
export USER=alice
gamed() {	# IMAGE ANSWERS PATTERN WHAT
	"$E2LAYOUT" lab check metabg "$1" --answers "$2" > "$T/gamed.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || { cat "$T/gamed.out"; fail "$4 passed (lab check exits $rc)"; }
	grep "NOT MET" "$T/gamed.out" | grep -q -- "$3" ||
		{ cat "$T/gamed.out"; fail "$4: no NOT MET naming $3"; }
	echo "ok: $4: $(grep -m1 "NOT MET" "$T/gamed.out" | sed 's/^ *//')"
}

"$E2LAYOUT" lab start metabg "$T/a" </dev/null >/dev/null 2>&1 || fail "lab start metabg"
img=$T/a/metabg.img
fsck_clean "$img" || fail "the meta_bg scenario is not clean"
dumpe2fs -h "$img" 2>/dev/null > "$T/h"
grep -q "^Filesystem features:.*meta_bg" "$T/h" || fail "dumpe2fs shows no meta_bg"
grep -q "^Filesystem features:.*resize_inode" "$T/h" && fail "the scenario has a resize inode"
grep -q "^Reserved GDT blocks" "$T/h" && fail "dumpe2fs shows reserved GDT blocks"
# group 16 (the second meta group's first) holds one descriptor block
dumpe2fs "$img" 2>/dev/null | awk '/^Group 16:/ { g = 1; next } /^Group / { g = 0 } g && /Group descriptor at/ { print }' > "$T/g16"
grep -q "Group descriptor at [0-9]*$" "$T/g16" || { cat "$T/g16"; fail "group 16 holds no single descriptor block"; }
lab_solve metabg "$T/a" || fail "the solution failed"
"$E2LAYOUT" lab check metabg "$img" > "$T/ok" 2>&1 || { cat "$T/ok"; fail "the honest solution fails"; }

# the classic layout's answer: the table right after the superblock
n=$(sed -n 's/^meta = //p' "$T/a/metabg.answers")
sed "s/^desc = .*/desc = $((2 + n))/" "$T/a/metabg.answers" > "$T/classic"
gamed "$img" "$T/classic" "answer desc" "the descriptor block of a table after the superblock"
# only the primary, as copies
p=$(sed -n 's/^desc = //p' "$T/a/metabg.answers")
sed "s/^copies = .*/copies = $p/" "$T/a/metabg.answers" > "$T/one"
gamed "$img" "$T/one" "answer copies" "the primary alone as the copies"

# another trainee's answers
USER=bob "$E2LAYOUT" lab start metabg "$T/b" </dev/null >/dev/null 2>&1 || fail "lab start metabg for bob"
lab_solve metabg "$T/b" || fail "bob's solution failed"
if cmp -s "$T/a/metabg.answers" "$T/b/metabg.answers"; then
	fail "alice and bob have the same answers"
fi
gamed "$img" "$T/b/metabg.answers" "answer" "bob's answers on alice's image"
echo "metabg lab test passed"
exit 0
