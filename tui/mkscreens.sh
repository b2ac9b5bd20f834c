#!/bin/sh
# mkscreens.sh - regenerates tui/SCREENS.md: text captures of the main views
# (scripted keys + E2L_TUI_DUMP in a detached tmux).  Usage: mkscreens.sh
# E2LAYOUT IMAGE > tui/SCREENS.md
set -u
e2l=$1; img=$2; tmp=$(mktemp -d); sock=e2l-screens-$$
shot() {	# title keys
	: > "$tmp/rc"
	tmux -L $sock new-session -d -s s -x 110 -y 32 \
		"env LC_ALL=C.UTF-8 E2L_TUI_DUMP='$tmp/dump' '$e2l' --keys '$2q' '$img'; echo \$? > '$tmp/rc'"
	i=0
	while [ ! -s "$tmp/rc" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	tmux -L $sock kill-server 2>/dev/null
	printf '## %s\n\nKeys: `%s`\n\n```\n' "$1" "$2"
	cat "$tmp/dump"
	printf '```\n\n'
}
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
	f=$img d=.
	if [ "${3:-}" = -w ]; then
		cp --sparse=always "$img" "$tmp/copy.img"
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
rm -rf "$tmp"
