#!/bin/sh
# t_tui_prompt_utf8.sh - the `:` prompt edits characters, not bytes: in a
# writable session, lines typed with two-byte, wide (CJK) and combining
# characters are edited with Left, Backspace and Delete, and the names the
# mkdir requests really made (debugfs stat, byte for byte) hold whole
# characters; the cursor stands at the display width; an ambiguous Tab
# lists the candidates (at once when it cannot complete further, on a second
# Tab when it could) and completes only a common prefix of whole characters.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/tmux.sh"
img=$T/w.img
cp "$E2L_IMAGES/demo.img" "$img" 2>/dev/null || skip "no demo image"
u() { printf "$1"; }	# the bytes of an octal-escaped name

tmux_start -x 120 -y 40 "env TERM=xterm-256color LANG=C.UTF-8 ASAN_OPTIONS='$ASAN_OPTIONS' LSAN_OPTIONS='$LSAN_OPTIONS' '$E2LAYOUT' -w '$img' 2>'$T/err'; echo \$? > '$T/rc'; sleep 60"
wait_for "file data" "no first screen"
cursor() { $TM display -p -t e2l '#{cursor_x}'; }
# line TEXT: waits until the prompt line (the last) is exactly TEXT
line() {
	l_end=$(( $(date +%s) + 20 ))
	while :; do
		capture
		[ "$(tail -1 "$SCREEN" | sed 's/ *$//')" = "$1" ] && return 0
		[ "$(date +%s)" -lt "$l_end" ] ||
			fail "the prompt line is not \"$1\""
		sleep 0.1
	done
}

keys ':'
# two-byte: "äöx", Left, Backspace takes the whole ö
keys -l "mkdir /$(u '\303\244\303\266')x"
keys Left BSpace
line ":mkdir /$(u '\303\244')x"
[ "$(cursor)" = 9 ] || fail "cursor at column $(cursor), not 9 after ä"
keys Enter
line ":"
# wide: "漢字a", Left Left Delete takes 字; the cursor counts 2 columns each
keys -l "mkdir /$(u '\346\274\242\345\255\227')a"
keys Left Left DC
line ":mkdir /$(u '\346\274\242')a"
[ "$(cursor)" = 10 ] || fail "cursor at column $(cursor), not 10 after 漢"
keys Enter
line ":"
# combining: "a" "e"+U+0301 "z": Left Left goes before the whole é,
# Backspace then takes the a
keys -l "mkdir /ae$(u '\314\201')z"
keys Left Left BSpace
line ":mkdir /e$(u '\314\201')z"
[ "$(cursor)" = 8 ] || fail "cursor at column $(cursor), not 8 before é"
keys Enter
line ":"
# names that share only half a character: x + ö / x + ü (both 0xC3 ...)
keys -l "mkdir /x$(u '\303\266')a"; keys Enter; line ":"
keys -l "mkdir /x$(u '\303\274')b"; keys Enter; line ":"
keys -l "mkdir /pqa1"; keys Enter; line ":"
keys -l "mkdir /pqa2"; keys Enter; line ":"
# an ambiguous Tab that cannot go on lists the candidates at once, and
# never takes the shared first byte of ö and ü
keys -l "mkdir /x"; keys Tab
wait_for "^2 candidates" "an ambiguous Tab listed nothing"
# (the names are drawn under the count: wait for them too)
wait_for "/x$(u '\303\266')a/  */x$(u '\303\274')b/" "the list does not show both names"
line ":mkdir /x"
# typing narrows it: ü then Tab completes the one name, and c makes a
# directory inside it
keys -l "$(u '\303\274')"; keys Tab
line ":mkdir /x$(u '\303\274')b/"
grep -q "candidates" "$SCREEN" && fail "the list stayed up after a key"
keys -l c; keys Enter; line ":"
# an ambiguous Tab that can go on completes the common prefix first; the
# list comes with the second Tab, as in readline
keys -l "ls /pq"; keys Tab
line ":ls /pqa"
grep -q "candidates" "$SCREEN" && fail "the first Tab listed (it completed)"
keys Tab
wait_for "^2 candidates" "the second Tab listed nothing"
wait_for "/pqa1/  */pqa2/" "the second Tab's list is wrong"
keys C-u Escape q
wait_file "$T/rc" "the TUI did not quit"
[ "$(cat "$T/rc")" = 0 ] || fail "exit status $(cat "$T/rc"): $(cat "$T/err")"

# what the requests made, byte for byte
for name in "$(u '\303\244')x" "$(u '\346\274\242')a" "e$(u '\314\201')z" \
	    "x$(u '\303\274')b/c"; do
	debugfs -R "stat \"/$name\"" "$img" 2>&1 | grep -q '^Inode:' ||
		fail "no directory /$name: $(debugfs -R 'ls /' "$img" 2>&1 | tail -3)"
done
fsck_clean "$img" || fail "e2fsck -fn finds damage"
exit 0
