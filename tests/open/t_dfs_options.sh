#!/bin/sh
# t_dfs_options.sh - debugfs's -i, -d, -n and -D on e2layout's command line
# in every mode: -R, -f, the shell (a pipe) and the TUI (tmux): each gives
# what debugfs gives with the same option (an inode with a bad checksum
# reads with -n only; an e2image file's descriptors read right with -i).
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
command -v e2image >/dev/null 2>&1 || skip "e2image is not installed"
img=$E2L_IMAGES/ext4.img
cp "$img" "$T/bad.img"
debugfs -w -R "sif <12> checksum 0x1234" "$T/bad.img" >/dev/null 2>&1
e2image "$img" "$T/ext4.e2i" 2>/dev/null || fail "e2image"
strip() { sed '1{/^debugfs [0-9.]* (.*)$/d;}'; }

check() {	# LABEL OPTS... -- IMAGE REQUEST
	label=$1; shift
	opts=""
	while [ "$1" != -- ]; do opts="$opts $1"; shift; done
	shift; target=$1 req=$2
	# shellcheck disable=SC2086
	debugfs $opts -R "$req" "$target" 2>&1 | strip > "$T/want"
	# shellcheck disable=SC2086
	"$E2LAYOUT" $opts -R "$req" "$target" > "$T/r" 2>&1
	cmp -s "$T/want" "$T/r" || { diff "$T/want" "$T/r" | head -5;
		fail "$label: -R differs from debugfs"; }
	printf '%s\n' "$req" > "$T/req.f"
	# shellcheck disable=SC2086
	debugfs $opts -f "$T/req.f" "$target" 2>&1 | strip > "$T/wantf"
	# shellcheck disable=SC2086
	"$E2LAYOUT" $opts -f "$T/req.f" "$target" > "$T/f" 2>&1
	cmp -s "$T/wantf" "$T/f" || fail "$label: -f differs from debugfs"
	# shellcheck disable=SC2086
	"$E2LAYOUT" shell $opts "$target" < "$T/req.f" > "$T/s" 2>&1
	grep -qF "$(head -1 "$T/want")" "$T/s" ||
		fail "$label: the shell did not read it: $(head -3 "$T/s")"
}
check "-n" -n -- "$T/bad.img" "stat <12>"
grep -q "^Inode: 12 " "$T/r" || fail "-n: inode 12 unread"
check "none" -- "$T/bad.img" "stat <12>"
grep -q "Inode checksum does not match" "$T/r" || fail "no -n: not refused"
check "-D" -D -- "$img" "stat <2>"
check "-i" -i -- "$T/ext4.e2i" "stats"
check "-i -d" -i -d "$img" -- "$T/ext4.e2i" "stat <2>"

# the TUI: -i shows the group descriptors as they are, -n opens bad.img
command -v tmux >/dev/null 2>&1 || exit 0
# a server of its own for each screen (a new session racing a server that
# is exiting fails), killed on every exit
n=0
trap 'tmux -L "e2l-opt-$$-$n" kill-server 2>/dev/null; rm -rf "$T"' EXIT INT TERM
tui() {	# EXPECTED ARGS...
	want=$1; shift
	n=$((n + 1))
	tm="tmux -L e2l-opt-$$-$n -f /dev/null"
	$tm new-session -d -s s -x 120 -y 30 "$E2LAYOUT $*" || fail "tmux"
	wait_until 15 "TUI $*: no '$want'" pane_has "$tm" "$want"
	$tm kill-server
}
tui "an e2image file: metadata only" -i "$T/ext4.e2i"
tui "state: clean" -n "$T/bad.img"
tui "state: clean" -D "$img"
exit 0
