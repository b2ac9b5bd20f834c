#!/bin/sh
# t_lab_orlov.sh - the Orlov lab: its scenario's directories are made by
# the kernel (the recipe loop-mounts the image), so where their inodes are
# is the kernel's choice: lab validate proves the lab's claims about
# Orlov on several trainees' layouts; a libext2fs-made layout (every
# directory in group 0, as debugfs mkdir puts them), the directories
# numbered in order, and another trainee's answers fail, naming the check.
# Skips where loop mounts are refused.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/solve.sh"

USER=alice; export USER
"$E2LAYOUT" lab start orlov "$T/a" </dev/null > "$T/start.out" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
	grep -q "need root and a loop mount" "$T/start.out" &&
		skip "the Orlov lab's recipe needs root and a loop mount: $(grep -m1 'need root' "$T/start.out")"
	cat "$T/start.out"; fail "lab start orlov exits $rc"
fi
img=$T/a/orlov.img
fsck_clean "$img" || fail "the kernel-made scenario is not clean"
"$E2LAYOUT" lab validate "$labs_src/orlov.lab" --seeds 3 > "$T/validate" 2>&1 ||
	{ cat "$T/validate"; fail "lab validate orlov"; }
grep -c "the fresh scenario fails its checks" "$T/validate" | grep -q "^3$" || { cat "$T/validate"; fail "validate did not check 3 trainees"; }
# the kernel's choice, not libext2fs's: /home is outside group 0
ipg=$(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Inodes per group: *//p')
n=$(debugfs -R "stat /home" "$img" 2>/dev/null | sed -n 's/^Inode: *\([0-9]*\).*/\1/p')
[ $(((n - 1) / ipg)) -gt 0 ] || fail "/home's inode $n is in group 0: not spread"
lab_passes orlov

# every directory where debugfs/libext2fs would have put it: group 0
sed 's/^\(home\|srv\|opt\|alice\|notes\) = .*/\1 = 0/' "$T/a/orlov.answers" > "$T/zero"
lab_gamed orlov "$img" "$T/zero" "answer home" "every directory in group 0"
# the top-level directories numbered one group after another
sed 's/^home = .*/home = 1/; s/^srv = .*/srv = 2/; s/^opt = .*/opt = 3/' "$T/a/orlov.answers" > "$T/seq"
lab_gamed orlov "$img" "$T/seq" "answer" "groups 1, 2, 3 in order"
grep -v "^predict" "$T/a/orlov.answers" > "$T/nopredict"
lab_gamed orlov "$img" "$T/nopredict" "answered predict" "no prediction"
lab_other orlov "answer"
echo "orlov lab test passed"
exit 0
