#!/bin/sh
# t_undo_list.sh - an interactive shell (`e2layout shell -w IMG`) ends by
# listing each undo file its applies wrote and the e2undo command for it,
# newest first; run in that order they give back the image byte for byte;
# a `close` and `open -w` in between do not lose the list.
# (The TUI's list is checked by tests/tui/t_tui_editor.sh.)
. "$(dirname "$0")/../lib/testlib.sh"
command -v script >/dev/null 2>&1 || skip "script(1) is missing: no terminal for the shell"
img=$T/fs.img
cp "$E2L_IMAGES/ext4.img" "$img"
cp "$img" "$T/orig.img"

printf 'journal_relocate --start\nprealloc /new 1M\nquit\n' |
	script -qec "'$E2LAYOUT' shell -w '$img'; echo \$? > '$T/rc'" /dev/null > "$T/out" 2>&1
tr -d '\r' < "$T/out" > "$T/clean"
[ "$(cat "$T/rc" 2>/dev/null)" = 0 ] || { cat "$T/clean"; fail "the shell exited $(cat "$T/rc" 2>/dev/null)"; }
grep -q "this session wrote 2 undo files" "$T/clean" || { cat "$T/clean"; fail "no undo list at exit"; }
grep "^  e2undo " "$T/clean" | sed 's/^  //' > "$T/cmds"
[ "$(wc -l < "$T/cmds")" = 2 ] || fail "not two e2undo commands: $(cat "$T/cmds")"
first=$(sed -n 's/^undo file: \([^ ]*\) .*/\1/p' "$T/clean" | head -1)
second=$(sed -n 's/^undo file: \([^ ]*\) .*/\1/p' "$T/clean" | sed -n 2p)
[ "$(head -1 "$T/cmds")" = "e2undo $second $img" ] || fail "the newest is not first: $(cat "$T/cmds")"
[ "$(tail -1 "$T/cmds")" = "e2undo $first $img" ] || fail "the oldest is not last"
while read -r cmd; do
	$cmd > /dev/null 2>&1 || fail "$cmd failed"
done < "$T/cmds"
cmp -s "$img" "$T/orig.img" || fail "the listed commands did not restore the image"
# a `close` (then `open -w` again) keeps the list: the shell still names
# the undo file at exit
cp "$T/orig.img" "$img"
printf 'prealloc /new 1M\nclose\nopen -w %s\nquit\n' "$img" |
	script -qec "'$E2LAYOUT' shell -w '$img'; echo \$? > '$T/rc'" /dev/null > "$T/out" 2>&1
tr -d '\r' < "$T/out" > "$T/clean"
grep -q "this session wrote an undo file" "$T/clean" ||
	{ cat "$T/clean"; fail "close forgot the undo file: no list at exit"; }
u=$(sed -n 's/^undo file: \([^ ]*\) .*/\1/p' "$T/clean")
grep -qx "  e2undo $u $img" "$T/clean" || { cat "$T/clean"; fail "the listed command is not e2undo $u $img"; }
e2undo "$u" "$img" > /dev/null 2>&1 || fail "e2undo $u after close and open failed"
cmp -s "$img" "$T/orig.img" || fail "the undo file did not restore the image after close and open"
# a script (-f) says each undo file as it goes, and lists nothing at the end
printf 'journal_relocate --start\n' | "$E2LAYOUT" -w -f - "$img" > "$T/out" 2>&1
grep -q "this session wrote" "$T/out" && fail "a script printed the exit list"
echo "ok: the shell listed both undo files, newest first; they restore the image"
exit 0
