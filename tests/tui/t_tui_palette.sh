#!/bin/sh
# t_tui_palette.sh - the map's colours and glyphs on each kind of terminal,
# read from tmux's cells with their escape sequences (capture-pane -e):
# xterm-256color gives each owner class its own colour of tui/palette.c, in
# the legend and on the map; xterm and linux (8 colours) draw each class's
# own letter in its colour, so classes that share a colour still differ;
# vt100 and NO_COLOR keep the plain letter map; while the owner scan runs
# the cells whose owner is not known yet show "?", named in the legend.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/tmux.sh"
img=$E2L_IMAGES/demo.img
[ -f "$img" ] || skip "no demo image"
pal=$(dirname "$0")/../../tui/palette.c
[ -f "$pal" ] || skip "tui/palette.c not found beside the tests"
ESC=$(printf '\033')
tmux_on_fail_e() { tmux_on_fail; echo "--- cells:"; head -c 3000 "$T/cells"; }
on_fail() { tmux_on_fail_e; }

# the legend's names of the classes, by palette.c's enum names
names='FREE:free
UNINIT:free (uninit group)
SUPER:superblock
GDT:group descriptors
RSV_GDT:reserved GDT
BBITMAP:block bitmap
IBITMAP:inode bitmap
ITABLE:inode table
JOURNAL:journal
MAPPING:mapping
FILE:file data
DIR:directory
XATTR:xattr block
OTHER:other metadata
UNKNOWN:used, owner unknown'

n=0
# run NAME ENV...: the TUI on the demo image in a fresh server; the cells
# (each SGR as <...>) in $T/cells once the owner scan is complete
run() {
	n=$((n + 1))
	TM="tmux -L e2l-pal-$$-$n"
	name=$1; shift
	rm -f "$T/rc"
	tmux_start "env $* LANG=C.UTF-8 ASAN_OPTIONS='$ASAN_OPTIONS' LSAN_OPTIONS='$LSAN_OPTIONS' '$E2LAYOUT' '$img' 2>'$T/err'; echo \$? > '$T/rc'; sleep 60"
	wait_for "owner scan complete" "$name: the owner scan never completed"
	wait_for "file data" "$name: no legend"
	wait_stable	# (the colours are read from one more capture)
	$TM capture-pane -e -p -t e2l |
		sed "s/$ESC\[\([0-9;]*\)m/<\1>/g" > "$T/cells"
}
# quit NAME: the TUI ends with status 0
quit() {
	keys q
	wait_file "$T/rc" "$1: the TUI did not quit"
	[ "$(cat "$T/rc")" = 0 ] ||
		fail "$1: exit status $(cat "$T/rc"): $(cat "$T/err")"
	tmux_stop
}
# the map's rows: lines of cells only (40 or more, no spaces)
map_rows() {
	sed 's/<[0-9;]*>//g' "$T/cells" | grep -E "^[$1]{40,}\$"
}

# --- 256 colours: the palette's colour on each legend entry and map cell
run xterm-256color TERM=xterm-256color
echo "$names" | while IFS=: read -r cls label; do
	col=$(sed -n "s/^	\[OWN_$cls\][	 ]*= \([0-9]*\),.*/\1/p" "$pal")
	[ -n "$col" ] || fail "no colour for $cls in palette.c"
	grep -q "<38;5;$col>[^<]<39> $label" "$T/cells" ||
		fail "256 colours: the legend's $label is not in colour $col"
done || exit 1
legend=$(grep -o '<38;5;[0-9]*>[^<]<39> [a-z]' "$T/cells" | sort -u | wc -l)
cols=$(grep -o '<38;5;[0-9]*>[^<]<39> [a-z]' "$T/cells" |
       sed 's/>.*//' | sort -u | wc -l)
[ "$legend" -ge 15 ] && [ "$cols" = "$legend" ] ||
	fail "256 colours: $legend legend entries in $cols colours"
# the map is drawn in the classes' colours with fill glyphs, no letters
map_rows '·∙░▒▓█?' > "$T/rows" || fail "256 colours: no map rows of fill glyphs"
for cls in FILE ITABLE JOURNAL FREE; do
	col=$(sed -n "s/^	\[OWN_$cls\][	 ]*= \([0-9]*\),.*/\1/p" "$pal")
	grep -q "<38;5;$col>[·∙░▒▓█]" "$T/cells" ||
		fail "256 colours: no map cell of $cls in colour $col"
done
map_rows 'A-Za-z' >/dev/null && fail "256 colours: a map row of letters"
quit xterm-256color

# --- 8 colours: one letter per class, in its colour
for term in xterm linux; do
	run $term TERM=$term
	grep -q '38;5;' "$T/cells" && fail "$term: 256-colour sequences"
	# the legend as text: "L name" items two spaces apart
	sed 's/<[0-9;]*>//g' "$T/cells" | grep -A1 '^F file data' |
		awk '{ n = split($0, it, "  "); for (i = 1; i <= n; i++)
			if (it[i] != "") print it[i] }' > "$T/legend"
	echo "$names" | while IFS=: read -r cls label; do
		grep -q " $label\$" "$T/legend" ||
			fail "$term: no coloured letter for $label in the legend"
	done || exit 1
	[ "$(cut -c1 "$T/legend" | sort -u | wc -l)" = "$(wc -l < "$T/legend")" ] ||
		fail "$term: two classes share a letter"
	while read -r letter label; do
		re=$(printf '%s' "$label" | sed 's/[()]/./g')
		grep -Eq "<3[0-7]>(<[0-9;]*>)*[$letter]<[0-9;]*>(<[0-9;]*>)* $re" \
			"$T/cells" || fail "$term: the letter of $label is not coloured"
	done < "$T/legend"
	map_rows 'A-Za-z?,.' > "$T/rows" || fail "$term: no map rows of letters"
	grep -q '[Ff]' "$T/rows" || fail "$term: no file data on the map"
	grep -q '<3[0-7]>[A-Za-z]' "$T/cells" || fail "$term: map letters uncoloured"
	quit $term
done

# --- no colour: the letter map as it always was
for term in vt100 NO_COLOR; do
	if [ $term = NO_COLOR ]; then
		run $term TERM=xterm-256color NO_COLOR=1
	else
		run $term TERM=vt100
	fi
	grep -Eq '<(3[0-7]|38;5;[0-9]*|4[0-7])>' "$T/cells" && fail "$term: colours"
	grep -q "^F file data  D directory  J journal  I inode table  B block bitmap  N inode bitmap  S superblock" "$T/cells" ||
		fail "$term: the letter legend changed"
	grep -q "letters: the main owner of the used part; UPPER >=50% used" "$T/cells" ||
		fail "$term: no letter key"
	map_rows 'A-Za-z?,.' > "$T/rows" || fail "$term: no map rows of letters"
	quit $term
done

# --- while the scan runs: "?" for owners not known yet, progress shown
n=$((n + 1))
TM="tmux -L e2l-pal-$$-$n"
rm -f "$T/rc"
tmux_start "env TERM=xterm-256color LANG=C.UTF-8 E2L_TUI_SCAN_SLOW=1 ASAN_OPTIONS='$ASAN_OPTIONS' LSAN_OPTIONS='$LSAN_OPTIONS' '$E2LAYOUT' '$img' 2>'$T/err'; echo \$? > '$T/rc'; sleep 60"
wait_for "scan [0-9]*%, [0-9]* files" "no scan progress on the status line"
wait_for "owner not known yet" "the legend does not name the unknown owners"
$TM capture-pane -e -p -t e2l | sed "s/$ESC\[\([0-9;]*\)m/<\1>/g" > "$T/cells"
col=$(sed -n "s/^	\[OWN_UNKNOWN\][	 ]*= \([0-9]*\),.*/\1/p" "$pal")
grep -q "<38;5;$col>?<39> owner not known yet" "$T/cells" ||
	fail "the legend's not-known glyph is not ? in colour $col"
map_rows '·∙░▒▓█?' > "$T/rows" || fail "no map rows while scanning"
grep -q '?' "$T/rows" || fail "no ? cell on the map while the scan runs"
keys Escape
quit scanning
exit 0
