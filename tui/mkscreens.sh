#!/bin/sh
# mkscreens.sh - regenerates tui/SCREENS.md: text captures of the main views
# (scripted keys + E2L_TUI_DUMP in a detached tmux), and the README's
# screens.  The image is opened by its base name from its own directory, so
# the screens name it as `make demo` does (demo.img).
# Usage: mkscreens.sh E2LAYOUT IMAGE > tui/SCREENS.md
#        mkscreens.sh --readme README.md E2LAYOUT IMAGE   (rewrites the
#        block between README's "screens: begin/end" markers in place)
set -u
readme=
if [ "${1:-}" = --readme ]; then
	readme=$2
	shift 2
fi
e2l=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
imgdir=$(cd "$(dirname "$2")" && pwd); img=$(basename "$2")
tmp=$(mktemp -d); sock=e2l-screens-$$
trap 'tmux -L $sock kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
dump() {	# keys: the screen after them, in $tmp/dump
	: > "$tmp/rc"
	tmux -L $sock new-session -d -s s -x 110 -y 32 \
		"cd '$imgdir' && env LC_ALL=C.UTF-8 E2L_TUI_DUMP='$tmp/dump' '$e2l' --keys '$1q' '$img'; echo \$? > '$tmp/rc'"
	i=0
	while [ ! -s "$tmp/rc" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	tmux -L $sock kill-server 2>/dev/null
}
shot() {	# title keys
	dump "$2"
	printf '## %s\n\nKeys: `%s`\n\n```\n' "$1" "$2"
	cat "$tmp/dump"
	printf '```\n\n'
}
if [ -n "$readme" ]; then
	{
		for keys in "" "4<Down>"; do
			dump "$keys"
			printf '```\n'
			sed 's/[[:space:]]*$//' "$tmp/dump"
			printf '```\n'
			[ -n "$keys" ] || echo
		done
	} > "$tmp/screens"
	awk -v f="$tmp/screens" '
		/<!-- screens: end -->/ { skip = 0 }
		!skip { print }
		/<!-- screens: begin -->/ {
			while ((getline l < f) > 0) print l
			skip = 1
		}' "$readme" > "$tmp/readme" && cat "$tmp/readme" > "$readme"
	exit 0
fi
echo "# e2layout TUI screens"
echo
echo "Text captures of the full-screen inspector on \`$(basename "$img")\` (110x32),"
echo "made by tui/mkscreens.sh with scripted keys and E2L_TUI_DUMP.  Colours"
echo "are not shown; the fill glyphs (· ░ ▒ ▓ █) are."
echo
shot "1 Overview" ""
shot "2 Group map, whole device" "2"
shot "2 Group map, zoomed into a group" "2<Enter>"
shot "3 Flex groups" "3<Right>"
shot "4 Journal" "4<Down>"
shot "5 Fragmentation" "5"
shot "6 Files" "6"
shot "7 Console after :help" ":help<Enter><Esc>"
# The editor: captured from the pane (q there closes the editor only).
live() {	# title keys [-w: on a copy of the image]
	f=$img d=$imgdir
	if [ "${3:-}" = -w ]; then
		cp --sparse=always "$imgdir/$img" "$tmp/copy.img"
		f=copy.img d=$tmp
	fi
	tmux -L $sock new-session -d -s s -x 110 -y 32 \
		"cd '$d' && env LC_ALL=C.UTF-8 '$e2l' ${3:-} --keys '$2' '$f'; sleep 30"
	sleep 4
	tmux -L $sock capture-pane -p -t s > "$tmp/pane"
	tmux -L $sock kill-server 2>/dev/null
	sleep 0.5
	printf '## %s\n\nKeys: `%s`%s\n\n```\n' "$1" "$2" \
		"${3:+ (on a copy opened with -w)}"
	sed 's/[[:space:]]*$//; s/[0-9]\{8\}-[0-9]\{6\}/YYYYMMDD-HHMMSS/g' \
		"$tmp/pane"
	printf '```\n\n'
}
live "Editor: the operation menu for the journal" "4e"
live "Editor: the plan screen (journal relocate --middle)" "4e2"
live "Editor: the plan overlaid on the map (after)" "4e2oo"
live "Editor: typing yes" "4e2aye" -w
live "Editor: applied (undo file and verification)" "4e2ayes<Enter>" -w
live "Editor: a block range marked on the map (v, v) and its menu" \
	"2/b32897<Enter>v<Down><Down><Down>ve"
