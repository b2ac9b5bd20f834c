#!/bin/sh
# t_tui_columns.sh - at 80x24 and 60x20 the tabular views drop whole columns
# by priority, never a part of a number: every number the overview, the flex
# view (its groups and flex groups), the journal's extent table, the files
# view (sizes and the stat pane), the editor's plan for the journal and the
# experiment panel's comparisons show
# is the number debugfs or the -R requests give, whole; a table's rows hold
# the columns its header names and no "…"; what matters most stays (the
# overview's inode total, each group's free counts, each extent's physical
# blocks and length, each comparison's delta and p).
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
command -v jq >/dev/null 2>&1 || skip "jq is missing: skipped"
. "$(dirname "$0")/../lib/tmux.sh"
img=$E2L_IMAGES/demo.img
res=$(cd "$(dirname "$0")" && pwd)/exp_result.json
[ -f "$img" ] || skip "no demo image"

# the oracles
stats=$(debugfs -R stats "$img" 2>/dev/null)
fb=$(echo "$stats" | sed -n 's/^Free blocks: *//p')
fi=$(echo "$stats" | sed -n 's/^Free inodes: *//p')
ic=$(echo "$stats" | sed -n 's/^Inode count: *//p')
per=$(echo "$stats" | sed -n 's/^Flex block group size: *//p')
[ -n "$fb" ] && [ -n "$ic" ] && [ -n "$per" ] || fail "debugfs stats: $stats"
# "gN bb ib it+len free/free" per group, "fN free" per flex group
"$E2LAYOUT" --json -R groups "$img" > "$T/groups.json" ||
	fail "groups --json failed"
jq -r '.result as $r | $r.groups[] |
	"g\(.[0]) \(.[8]) \(.[10]) \(.[12])+\($r.inode_table_blocks) \(.[14])/\(.[15])"' \
	"$T/groups.json" > "$T/groups"
jq -r --argjson per "$per" '[.result.groups[] | {f: (.[0] / $per | floor),
	b: .[14]}] | group_by(.f)[] | "f\(.[0].f) \(map(.b) | add)"' \
	"$T/groups.json" > "$T/flex"
# the journal's leaf extents: "lblk pblk-last len"
debugfs -R "ex <8>" "$img" 2>/dev/null | sed 's|/ *|/|g; s/ *- */-/g' |
	awk 'NR > 1 { split($1, l, "/"); if (l[1] == l[2]) {
		split($3, lg, "-"); print lg[1], $4, $5 } }' > "$T/jext"
[ "$(wc -l < "$T/jext")" -gt 1 ] || fail "the demo's journal is not fragmented"
stat2=$(debugfs -R "stat <2>" "$img" 2>/dev/null)

# view V MARK: shows view V and waits for its mark, then for the screen to
# settle (what is checked is read from the settled screen)
view() {
	keys "$1"
	wait_for "$2" "no view $1 (\"$2\") at $size"
	wait_stable
}

# left N, right N: the first N columns of each screen line, what follows
# them (characters, not bytes: the map's glyphs are UTF-8)
left() { LC_ALL=C.UTF-8 sed -E "s/^(.{0,$1}).*/\1/" "$SCREEN"; }
right() { LC_ALL=C.UTF-8 sed -E "s/^.{0,$1}//" "$SCREEN"; }

# nocut: no number (or range of two) on the screen stops at an ellipsis
# (below the tab bar, whose tabs are cut after their key: "6…")
nocut() {
	! sed 1d "$SCREEN" | grep -n '[0-9]-\{0,1\}…' > "$T/cut" ||
		fail "$size, $1: a number cut at an ellipsis: $(head -2 "$T/cut")"
}

for size in 80x24 60x20; do
cols=${size%x*}
tmux_stop
tmux_start -x "$cols" -y "${size#*x}" "env TERM=xterm-256color LANG=C.UTF-8 ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' '$E2LAYOUT' '$img' 2>'$T/err'; sleep 60"
wait_for "owner scan:\{0,1\} complete" "$size: the owner scan never completed"

# the overview: the free counts and the inode total, whole
view 1 "fragmentation score: [0-9]"
nocut overview
grep -q "blocks: $fb free" "$SCREEN" || fail "$size: free blocks are not $fb"
grep -q "inodes: $fi free of $ic\\b" "$SCREEN" ||
	fail "$size: the overview's inode line is not \"inodes: $fi free of $ic\""

# the flex view: each group's labelled numbers are the group's
view 3 "^f0 "
nocut flex
lw=$((cols * 2 / 5))
right $((lw + 1)) | grep '^g[0-9]' > "$T/grows" ||
	fail "$size: no group rows"
awk -v size="$size" '
FNR == NR { bb[$1] = $2; ib[$1] = $3; it[$1] = $4; fr[$1] = $5; next }
{
	g = $1; seen = ""
	if (!(g in bb)) { printf "%s: no group %s\n", size, g; bad = 1; next }
	for (i = 2; i <= NF; i++) {
		if ($i == "bb" && $(i + 1) != bb[g] || $i == "ib" && $(i + 1) != ib[g] ||
		    $i == "it" && $(i + 1) != it[g] || $i == "free" && $(i + 1) != fr[g]) {
			printf "%s: %s %s %s, not %s %s %s %s\n", size, g, $i, $(i + 1),
				bb[g], ib[g], it[g], fr[g]; bad = 1
		}
		if ($i ~ /^(it|free)$/) seen = seen $i
	}
	if (seen != "itfree") { printf "%s: %s lacks its inode table or free counts: %s\n", size, g, $0; bad = 1 }
}
END { exit bad }' "$T/groups" "$T/grows" > "$T/bad" || fail "$(head -3 "$T/bad")"
left "$lw" | grep '^f[0-9]' | awk -v size="$size" '
FNR == NR { free[$1] = $2; next }
{ for (i = 2; i < NF; i++) if ($i == "free" && $(i + 1) != free[$1]) {
	printf "%s: %s free %s, not %s\n", size, $1, $(i + 1), free[$1]; bad = 1 } }
END { exit bad }' "$T/flex" - > "$T/bad" || fail "$(head -3 "$T/bad")"

# the journal's extents: the header's columns, each row's numbers those
view 4 " physical"
nocut journal
awk -v size="$size" '
FNR == NR { lb[NR - 1] = $1; ph[NR - 1] = $2; ln[NR - 1] = $3; next }
/ physical/ && !nh {
	split("# logical physical length group gap_before to_metadata", names, " ")
	l = $0; gsub(/gap before/, "gap_before", l); gsub(/to metadata/, "to_metadata", l)
	n = split(l, hd, " ")
	for (i = 1; i <= n; i++) col[hd[i]] = i
	nh = n; next
}
nh && /^ *[0-9]/ {
	rows++
	if (NF != nh) { printf "%s: %d cells under %d headers: %s\n", size, NF, nh, $0; bad = 1; next }
	k = $(col["#"])
	if (!("physical" in col) || !("length" in col)) { printf "%s: no physical or length column\n", size; bad = 1 }
	if ($(col["physical"]) != ph[k] || $(col["length"]) != ln[k] ||
	    ("logical" in col) && $(col["logical"]) != lb[k]) {
		printf "%s: extent %s is \"%s\", not %s %s (%s)\n", size, k, $0, lb[k], ph[k], ln[k]; bad = 1 }
	next
}
nh { nh = 0 }
END { if (!rows) { printf "%s: no extent rows\n", size; bad = 1 }; exit bad }' \
	"$T/jext" "$SCREEN" > "$T/bad" || fail "$(head -3 "$T/bad")"

# the files view: each entry's size, and the stat pane of the first (..)
view 6 "<2> (the parent"
nocut files
grep -q "^ *[0-9]*K  *\.\./" "$SCREEN" || fail "$size: the files view lacks the size of .."
fw=$((cols / 2))
left "$fw" | grep '^ *[0-9]*K ' | awk '{ print $1, $NF }' |
while read -r sz name; do
	case $name in *…) continue ;; ../) name=.. ;; esac
	bc=$(debugfs -R "stat \"/${name%/}\"" "$img" 2>/dev/null |
		sed -n 's/.*Blockcount: *\([0-9]*\).*/\1/p')
	[ "$sz" = "$((bc / 2))K" ] || fail "$size: $name shows $sz, not $((bc / 2))K"
done
pane=$(right $((fw + 1)))
for pair in "links $(echo "$stat2" | sed -n 's/^Links: *\([0-9]*\).*/\1/p')" \
	"uid $(echo "$stat2" | sed -n 's/^User: *\([0-9]*\).*/\1/p')" \
	"gid $(echo "$stat2" | sed -n '/^User:/s/.*Group: *\([0-9]*\).*/\1/p')" \
	"size $(echo "$stat2" | sed -n '/^User:/s/.*Size: *\([0-9]*\).*/\1/p')" \
	"blocks $(echo "$stat2" | sed -n 's/.*Blockcount: *\([0-9]*\).*/\1/p')" \
	"flags $(echo "$stat2" | sed -n 's/.*Flags: *\(0x[0-9a-f]*\).*/\1/p')"; do
	set -- $pair
	shown=$(echo "$pane" | grep -o "\\b$1 [0-9a-fx]*" | head -1)
	[ -z "$shown" ] || [ "$shown" = "$pair" ] ||
		fail "$size: the stat pane shows \"$shown\", not \"$pair\""
done
echo "$pane" | grep -q "size [0-9]" || fail "$size: the stat pane lacks the size"

# the editor's plan for the journal: its summary's extent counts, and
# each copy's source (the journal's extent), target and length agree
view 4 " physical"
keys e
wait_for "relocate the journal" "$size: no editor menu"
keys 2
wait_for "after: *[X#.]" "$size: no plan screen"
wait_stable
nocut "plan screen"
grep -q "extents: $(wc -l < "$T/jext") before, 1 after" "$SCREEN" ||
	fail "$size: the plan's summary lacks its extent counts"
left $((cols * 9 / 20 < 54 ? 54 : cols * 9 / 20)) | grep '^ *[0-9]*\. copy ' |
awk -v size="$size" '
FNR == NR { ph[NR] = $2; next }
{
	k = $1; sub(/\./, "", k); rows++
	for (i = 3; i <= NF; i++) {
		if ($i == "->") {
			if ($(i + 1) !~ /^[0-9]+-[0-9]+$/) {
				printf "%s: move %s: target %s\n", size, k, $(i + 1); bad = 1 }
			split($(i + 1), d, "-"); dl = d[2] - d[1] + 1; i++
		}
		else if ($i ~ /^[0-9]+-[0-9]+$/ && $i != ph[k]) {
			printf "%s: move %s copies %s, not %s\n", size, k, $i, ph[k]; bad = 1 }
		else if ($i ~ /^\([0-9]+\)$/) { l = $i; gsub(/[()]/, "", l) }
	}
	if (!dl) { printf "%s: move %s has no target: %s\n", size, k, $0; bad = 1 }
	if (l != "" && l != dl) { printf "%s: move %s: length %s, target of %s\n", size, k, l, dl; bad = 1 }
	dl = 0; l = ""
}
END { if (!rows) { printf "%s: no copy moves\n", size; bad = 1 }; exit bad }' \
	"$T/jext" - > "$T/bad" || fail "$(head -3 "$T/bad")"
keys q
wait_for " physical" "$size: q did not close the editor"

# the experiment panel's comparisons: the JSON's numbers, delta and p kept
keys ':'
keys -l "experiment show $res"
keys Enter
wait_for "result: lines 1-" "$size: the experiment panel did not open"
wait_stable
nocut "experiment panel"
ncmp=$(jq '.result.comparisons | length' "$res")
i=0; rows=0
while [ "$i" -lt "$ncmp" ]; do
	c=".result.comparisons[$i]"; i=$((i + 1))
	[ "$(jq "$c.delta_pct == null" "$res")" = false ] || continue
	m=$(jq -r "$c.metric" "$res")
	# its row: "metric numbers", or (when the names do not fit their
	# column) the metric alone on a line and the numbers on the next
	row=$(grep "^ *$m " "$SCREEN" | head -1)
	[ -n "$row" ] || row=$(awk -v m="$m" 'got { print m " " $0; exit }
		{ l = $0; sub(/^ +/, "", l); if (l == m) got = 1 }' "$SCREEN")
	[ -n "$row" ] || continue	# scrolled off
	rows=$((rows + 1))
	case $row in *…*) fail "$size: $m's row is cut: $row" ;; esac
	want=$(printf '%.6g %.4g %.6g %.4g %+.1f [%+.1f, %+.1f] %.4f %.1f%%' \
		$(jq -r "$c | .mean_a, .sd_a, .mean_b, .sd_b, .delta_pct, .ci95[0], .ci95[1], .p_value, .detectable_pct" "$res"))
	for v in $(echo "$row" | sed "s/^ *$m //"); do
		case " $want " in *" $v "*) ;; *) fail "$size: $m shows $v (of: $want)" ;; esac
	done
	set -- $want
	case " $(echo "$row" | sed "s/^ *$m //") " in
	*" $5 "*" $8 "*) ;;
	*) fail "$size: $m's row lacks its delta $5 or p $8: $row" ;;
	esac
done
[ "$rows" -gt 0 ] || fail "$size: no comparison rows on the panel"
keys q
done
exit 0
