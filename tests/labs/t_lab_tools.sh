#!/bin/sh
# t_lab_tools.sh - running a class and writing labs: lab check --json,
# lab class (who passed, who copied; both --json documents valid against
# help/schema/lab/), lab reset (asks first), labs loaded
# at run time (--labs DIR, $E2LAYOUT_LABS) and refused at load when they
# name an unknown fact or step, lab validate failing a false claim, the
# prealloc preview naming the new file's inode, help labs.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/solve.sh"
. "$(dirname "$0")/../lib/jsonlib.sh"
command -v jq >/dev/null 2>&1 || skip "no jq"
q() { "$E2LAYOUT" lab "$@" </dev/null; }

# A class of three: alice solves where, bob does not, carol copies
# alice's worked directory.
c=$T/class
USER=alice q start where "$c/alice" >/dev/null || fail "start alice"
USER=bob q start where "$c/bob" >/dev/null || fail "start bob"
lab_solve where "$c/alice" || fail "where: the solution failed"
cp -r "$c/alice" "$c/carol"
q check where "$c/alice/where.img" --json > "$T/alice.json"
[ $? -eq 0 ] || { cat "$T/alice.json"; fail "alice's check fails"; }
jq -e '.passed == true and .trainee == "alice" and (.checks | length) == 5 and all(.checks[]; .met)' "$T/alice.json" >/dev/null ||
	{ cat "$T/alice.json"; fail "lab check --json: not alice's passing result"; }
q check where "$c/bob/where.img" --json > "$T/bob.json"
[ $? -eq 1 ] || fail "bob's check does not exit 1"
jq -e '.passed == false and .failed >= 1 and any(.checks[]; .met == false and (.why | length) > 0)' "$T/bob.json" >/dev/null ||
	{ cat "$T/bob.json"; fail "lab check --json: bob's failures have no reason"; }
q class "$c" > "$T/roster" || fail "lab class failed"
cat "$T/roster"
grep -q "^alice .* passed " "$T/roster" || fail "the roster does not show alice passed"
grep -q "^bob .* not yet " "$T/roster" || fail "the roster does not show bob not passed"
grep "^carol " "$T/roster" | grep -q "started as alice" || fail "the roster does not flag carol's copy"
grep "^carol " "$T/roster" | grep -q "same scenario as alice" || fail "the roster does not flag the shared scenario"
q class "$c" --json > "$T/class.json"
jq -e '.total == 3 and .passed == 2' "$T/class.json" >/dev/null || fail "lab class --json"
schema_check --doc lab/check "$T/alice.json" "$T/bob.json"
schema_check --doc lab/class "$T/class.json"

# lab reset asks; without a terminal it needs --yes
cp "$c/alice/where.img" "$T/alice.before"
q reset where "$c/alice" >/dev/null 2>&1 && fail "lab reset without --yes and without a terminal went ahead"
cmp -s "$c/alice/where.img" "$T/alice.before" || fail "a refused reset changed the image"
q reset where "$c/alice" --yes > "$T/reset.out" 2>&1 || { cat "$T/reset.out"; fail "lab reset --yes"; }
[ -e "$c/alice/where.answers" ] && fail "lab reset kept the answers"
grep -q "^trainee = alice$" "$c/alice/where.state" || fail "lab reset changed the trainee"
q check where "$c/alice/where.img" >/dev/null 2>&1 && fail "the reset scenario passes"

# A trainer's own lab, loaded at run time.
mkdir -p "$T/mylabs"
cat > "$T/mylabs/inodes.lab" <<'EOT'
title: Where does an inode live?
goal: Find the block and the offset of /etc/motd's inode:
goal:   block = N
goal:   offset = N
step: e2layout -R "imap /etc/motd" IMAGE
recipe: mkfs size={64..128:16}M blocksize=4096 flex=16 inode_ratio={4096|8192}
recipe: file /etc/motd size=100
recipe: file /var/a size=20K
claim: file(/etc/motd).exists == 1 -- the goal: /etc/motd exists
claim: inode(file(/etc/motd).ino).group == group_of(inode(file(/etc/motd).ino).table_block) - group_of(inode(file(/etc/motd).ino).table_block) -- the inode is in group 0
check: answer block = inode(file(/etc/motd).ino).table_block
check: answer offset = inode(file(/etc/motd).ino).offset
check: files kept
EOT
"$E2LAYOUT" lab --labs "$T/mylabs" list | grep -q "^inodes " || fail "--labs DIR: the lab is not listed"
E2LAYOUT_LABS=$T/mylabs "$E2LAYOUT" lab show inodes | grep -q "Where does an inode live" || fail "E2LAYOUT_LABS: lab show"
# a labs directory that is not there, or not a directory: refused, naming
# it (a typo gave the trainees the compiled-in inodes lab, exit 0)
: > "$T/notadir"
for d in "$T/mylabz" "$T/notadir"; do
	"$E2LAYOUT" lab --labs "$d" show inodes > "$T/nodir" 2>&1
	rc=$?
	{ [ $rc -eq 2 ] && grep -q "$d" "$T/nodir"; } ||
		{ cat "$T/nodir"; fail "--labs $d: exit $rc, not 2 naming it"; }
	E2LAYOUT_LABS=$d "$E2LAYOUT" lab list > "$T/nodir" 2>&1
	rc=$?
	{ [ $rc -eq 2 ] && grep -q "$d" "$T/nodir"; } ||
		{ cat "$T/nodir"; fail "E2LAYOUT_LABS=$d: exit $rc, not 2 naming it"; }
done
q validate "$T/mylabs/inodes.lab" --seeds 2 > "$T/valid" 2>&1 || { cat "$T/valid"; fail "lab validate of a good lab"; }
E2LAYOUT_LABS=$T/mylabs USER=dave "$E2LAYOUT" lab start inodes "$T/dave" </dev/null >/dev/null || fail "start a run-time lab"
im=$T/dave/inodes.img
ino=$(debugfs -R "stat /etc/motd" "$im" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
loc=$(debugfs -R "imap <$ino>" "$im" 2>/dev/null | sed -n 's/.*located at block \([0-9]*\), offset \(0x[0-9a-f]*\).*/\1 \2/p')
printf 'block = %s\noffset = %d\n' "${loc% *}" "${loc#* }" > "$T/dave/inodes.answers"
E2LAYOUT_LABS=$T/mylabs "$E2LAYOUT" lab check inodes "$im" > "$T/dave.out" 2>&1 ||
	{ cat "$T/dave.out"; debugfs -R "imap <$ino>" "$im"; fail "the run-time lab's check disagrees with debugfs imap"; }
# unknown fact, unknown step, unknown key: refused when loaded
for bad in "check: file(/etc/motd).colour == 1" "recipe: format /dev/sda" "solutoin: x" "check: 1 +" "claim: inode(2).group === 0"; do
	sed '$d' "$T/mylabs/inodes.lab" > "$T/mylabs/bad.lab"
	echo "$bad" >> "$T/mylabs/bad.lab"
	"$E2LAYOUT" lab --labs "$T/mylabs" show bad > "$T/bad.out" 2>&1 &&
		fail "a lab with \"$bad\" loaded"
	grep -q "bad.lab line" "$T/bad.out" || { cat "$T/bad.out"; fail "no line named for \"$bad\""; }
done
rm -f "$T/mylabs/bad.lab"
# hostile labs: a deep expression, a choice spanning every number, a
# broken choice; refused with a message, never a crash
deep=$(awk 'BEGIN { for (i = 0; i < 3000; i++) printf "("; printf "1"; for (i = 0; i < 3000; i++) printf ")" }')
for bad in "claim: $deep == 1" "recipe: file /x size={0..18446744073709551615}" "recipe: file /x size={1..}" "recipe: file /x size={|}"; do
	{ grep -v "^recipe: file\|^claim\|^check" "$T/mylabs/inodes.lab"; echo "$bad"; echo "check: files kept"; } > "$T/hostile.lab"
	"$E2LAYOUT" lab validate "$T/hostile.lab" --seeds 1 > "$T/hostile.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || { cut -c1-300 "$T/hostile.out"; fail "a hostile lab ($(echo "$bad" | cut -c1-40)...) exits $rc, not 1"; }
done
# a garbage state file: the scenario check says so
USER=gus q start where "$T/gus" >/dev/null || fail "start gus"
head -c 3000 /dev/urandom > "$T/gus/where.state"
q check where "$T/gus/where.img" > "$T/gus.out" 2>&1
[ $? -eq 1 ] && grep -q "is not a lab state" "$T/gus.out" || { cat "$T/gus.out"; fail "a garbage state file"; }
# a false claim fails lab validate, naming it
sed 's/^claim: file(\/etc\/motd).exists == 1/claim: groups > 1000/' "$T/mylabs/inodes.lab" > "$T/false.lab"
q validate "$T/false.lab" --seeds 1 > "$T/false.out" 2>&1 && fail "lab validate passed a false claim"
grep -q "NOT MET groups > 1000" "$T/false.out" || { cat "$T/false.out"; fail "lab validate does not name the false claim"; }
# a lab its own fresh scenario passes cannot teach: validate says so
grep -v "^check: answer" "$T/mylabs/inodes.lab" > "$T/lazy.lab"
q validate "$T/lazy.lab" --seeds 1 > "$T/lazy.out" 2>&1 && fail "lab validate passed a lab the fresh scenario passes"
grep -q "without work" "$T/lazy.out" || { cat "$T/lazy.out"; fail "lab validate does not say the lab passes without work"; }

# arithmetic and sets in the fact language (via claims)
cat > "$T/math.lab" <<'EOT'
title: arithmetic
goal: none
recipe: mkfs size=256M blocksize=4096 flex=16
claim: (2 + 3) * 4 == 20
claim: 17 % 5 == 2
claim: 7 - 2 - 1 == 4
claim: blocks_count / blocks_per_group == groups
claim: group_last(0) - group_first(0) + 1 == blocks_per_group
claim: group_of(group_first(1)) == 1
claim: gdt(0) == 1
claim: owner(inode(2).table_block) == "itable"
check: file(/nothing).exists == 1
EOT
q validate "$T/math.lab" --seeds 1 > "$T/math.out" 2>&1 || { cat "$T/math.out"; fail "the fact language's arithmetic"; }

# the prealloc preview names the inode the new file gets
USER=erin q start prealloc "$T/p" >/dev/null || fail "start prealloc"
"$E2LAYOUT" -R "prealloc /srv/db/new.log 1M" "$T/p/prealloc.img" > "$T/prev" 2>&1
want=$(sed -n 's/^Plan: prealloc of a new file, inode \([0-9]*\), in directory inode \([0-9]*\).*/\1 \2/p' "$T/prev")
[ -n "$want" ] || { cat "$T/prev"; fail "the prealloc preview does not name the new file's inode"; }
"$E2LAYOUT" -w -R "prealloc /srv/db/new.log 1M" "$T/p/prealloc.img" >/dev/null 2>&1 || fail "prealloc apply"
got=$(debugfs -R "stat /srv/db/new.log" "$T/p/prealloc.img" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
dir=$(debugfs -R "stat /srv/db" "$T/p/prealloc.img" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
[ "$want" = "$got $dir" ] || fail "the preview named inode/directory $want, debugfs says $got $dir"

"$E2LAYOUT" -R "help labs" "$T/p/prealloc.img" | grep -q "lab show NAME" || fail "help labs does not mention lab show"
echo "lab tools test passed"
exit 0
