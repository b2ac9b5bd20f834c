#!/bin/sh
# t_lab_htree.sh - the htree lab: its scenario is a real indexed directory
# (debugfs htree reads its root, e2fsck -fn is clean), the documented
# solution passes, and the ways of answering without the filesystem's
# hash seed or from another trainee's scenario fail, naming the check.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/solve.sh"

lab_begin htree
debugfs -R "htree /srv/mail/new" "$img" 2>/dev/null > "$T/htree" || fail "debugfs htree failed"
grep -q "^Root node dump:" "$T/htree" || fail "debugfs does not see an htree root"
n=$(grep -c "^Reading directory block" "$T/htree")
[ "$n" -gt 10 ] || fail "debugfs htree lists $n leaves, not a big directory"
lab_passes htree

# the hash of dx_hash without the filesystem's seed (its default: zeros)
h0=$(debugfs -R "dx_hash inbox.idx" "$img" 2>/dev/null | sed -n 's/^Hash of inbox.idx is \(0x[0-9a-f]*\).*/\1/p')
[ -n "$h0" ] || fail "debugfs dx_hash printed no hash"
grep -q "^hash = $h0$" "$T/a/htree.answers" && fail "the unseeded hash is the seeded one: not a cheat"
sed "s/^hash = .*/hash = $h0/" "$T/a/htree.answers" > "$T/noseed"
lab_gamed htree "$img" "$T/noseed" "answer hash" "dx_hash without -s SEED"

# another trainee's answers (same lab, same name, another seed)
lab_other htree "answer hash"
# and bob's image with alice's answers, under alice's state
cp "$T/b/htree.img" "$T/a/htree.img"
lab_gamed htree "$img" "$T/a/htree.answers" "scenario" "bob's image in alice's directory"
echo "htree lab test passed"
exit 0
