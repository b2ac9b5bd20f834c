#!/bin/sh
# t_frag_special.sh - frag shows the reserved inodes (journal, quota files)
# in a "Special inodes" section of their own, text and JSON, with extent
# counts equal to debugfs's: the demo's journal in 11 pieces first (the
# worst-files list leaves reserved inodes out, so a fragmented journal was
# invisible there).
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
command -v debugfs >/dev/null || skip "debugfs is missing: skipped"
leaves() {	# IMG INO: leaf extents debugfs lists
	debugfs -R "ex <$2>" "$1" 2>/dev/null | awk 'match($0, /^ *[0-9]+\/ *[0-9]+/) {
		v = substr($0, RSTART, RLENGTH); gsub(/ /, "", v)
		split(v, l, "/"); if (l[1] == l[2]) n++ } END { print n + 0 }'
}
demo=$E2L_IMAGES/demo.img
$E2LAYOUT -R "frag" "$demo" > "$T/frag.txt" 2>"$T/err" || fail "frag: $(cat "$T/err")"
grep -q '^Special inodes' "$T/frag.txt" || fail "no special inodes section: $(cat "$T/frag.txt")"
want=$(leaves "$demo" 8)
[ "$want" -gt 1 ] || fail "the demo's journal is not fragmented ($want extents)"
line=$(awk '/^Special inodes/ { s = 1; next } s && $1 == 8' "$T/frag.txt")
[ -n "$line" ] || fail "no journal line: $(cat "$T/frag.txt")"
set -- $line
[ "$2" = "$want" ] || fail "journal extents $2, debugfs says $want"
[ "$5" = "journal" ] || fail "journal not named: $line"
# The worst-files list still holds files only.
awk '/^ *Inode/ && !s { s = 1; next } s && /^$/ { exit } s && $1 < 11' "$T/frag.txt" | grep -q . &&
	fail "a reserved inode in the worst-files list"

$E2LAYOUT --json -R "frag" "$demo" > "$T/frag.json" 2>"$T/err" || fail "frag --json: $(cat "$T/err")"
grep -q "\"special\":\[{\"inode\":8,\"name\":\"journal\",\"extents\":$want," "$T/frag.json" ||
	fail "JSON special: $(cat "$T/frag.json")"

# Quota inodes too (dfs1k has the quota feature).
img=$E2L_IMAGES/dfs1k.img
$E2LAYOUT -R "frag" "$img" > "$T/q.txt" 2>"$T/err" || fail "frag dfs1k: $(cat "$T/err")"
for i in 3 4; do
	n=$(leaves "$img" $i)
	awk -v i=$i -v n="$n" '/^Special inodes/ { s = 1; next }
		s && $1 == i && $2 == n && /quota/ { f = 1 } END { exit !f }' "$T/q.txt" ||
		fail "quota inode $i (debugfs: $n extents): $(cat "$T/q.txt")"
done
exit 0
