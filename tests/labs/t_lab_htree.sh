#!/bin/sh
# t_lab_htree.sh - the htree lab: its scenario is a real indexed directory
# (debugfs htree reads its root, e2fsck -fn is clean), the documented
# solution passes, and the ways of answering without the filesystem's
# hash seed or from another trainee's scenario fail, naming the check.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/solve.sh"
export USER=alice
# gamed IMAGE ANSWERS PATTERN WHAT: lab check must fail, naming PATTERN.
gamed() {
	"$E2LAYOUT" lab check htree "$1" --answers "$2" > "$T/gamed.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || { cat "$T/gamed.out"; fail "$4 passed (lab check exits $rc)"; }
	grep "NOT MET" "$T/gamed.out" | grep -q -- "$3" ||
		{ cat "$T/gamed.out"; fail "$4: no NOT MET naming $3"; }
	echo "ok: $4: $(grep -m1 "NOT MET" "$T/gamed.out" | sed 's/^ *//')"
}

"$E2LAYOUT" lab start htree "$T/a" </dev/null >/dev/null 2>&1 || fail "lab start htree"
img=$T/a/htree.img
fsck_clean "$img" || fail "the htree scenario is not clean"
debugfs -R "htree /srv/mail/new" "$img" 2>/dev/null > "$T/htree" || fail "debugfs htree failed"
grep -q "^Root node dump:" "$T/htree" || fail "debugfs does not see an htree root"
n=$(grep -c "^Reading directory block" "$T/htree")
[ "$n" -gt 10 ] || fail "debugfs htree lists $n leaves, not a big directory"
lab_solve htree "$T/a" || fail "the solution failed"
"$E2LAYOUT" lab check htree "$img" > "$T/ok" 2>&1 || { cat "$T/ok"; fail "the honest solution fails"; }
grep -q "Goal met" "$T/ok" || fail "no Goal met"

# the hash of dx_hash without the filesystem's seed (its default: zeros)
h0=$(debugfs -R "dx_hash inbox.idx" "$img" 2>/dev/null | sed -n 's/^Hash of inbox.idx is \(0x[0-9a-f]*\).*/\1/p')
[ -n "$h0" ] || fail "debugfs dx_hash printed no hash"
grep -q "^hash = $h0$" "$T/a/htree.answers" && fail "the unseeded hash is the seeded one: not a cheat"
sed "s/^hash = .*/hash = $h0/" "$T/a/htree.answers" > "$T/noseed"
gamed "$img" "$T/noseed" "answer hash" "dx_hash without -s SEED"

# another trainee's answers (same lab, same name, another seed)
USER=bob "$E2LAYOUT" lab start htree "$T/b" </dev/null >/dev/null 2>&1 || fail "lab start htree for bob"
lab_solve htree "$T/b" || fail "bob's solution failed"
cmp -s "$T/a/htree.answers" "$T/b/htree.answers" && fail "alice and bob have the same answers"
gamed "$img" "$T/b/htree.answers" "answer hash" "bob's answers on alice's image"
# and bob's image with alice's answers, under alice's state
cp "$T/b/htree.img" "$T/a/htree.img"
gamed "$img" "$T/a/htree.answers" "scenario" "bob's image in alice's directory"
echo "htree lab test passed"
exit 0
