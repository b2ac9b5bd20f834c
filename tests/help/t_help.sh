#!/bin/sh
# t_help.sh - help comes from the same sources as the command table: every
# request has help/cmd/NAME.txt with its sections, every topic is shown by
# "help TOPIC", and shell completion offers the table's names (the man page:
# t_man.sh).
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
top=$(cd "$(dirname "$0")/../.." && pwd)
img=$E2L_IMAGES/ext4.img
. "$(dirname "$0")/../lib/testlib.sh"
tmp=$T

"$E2LAYOUT" -R help "$img" > "$tmp/list" 2>&1 || { cat "$tmp/list"; echo "help failed"; exit 1; }
sed -n '3,/^$/s/^  \([^ ]*\) .*/\1/p' "$tmp/list" > "$tmp/names"
[ "$(wc -l < "$tmp/names")" -ge 20 ] || { cat "$tmp/list"; echo "help lists too few requests"; exit 1; }
"$E2LAYOUT" --complete-words > "$tmp/words" || check "--complete-words failed"

while read -r c; do
	f=$top/help/cmd/$c.txt
	if [ ! -f "$f" ]; then check "$c: no help/cmd/$c.txt"; continue; fi
	grep -q '^Synopsis:' "$f" || check "$c: no Synopsis: line"
	grep -q '^Options:' "$f" || check "$c: no Options: section (\"Options: none.\" when it has none)"
	grep -q '^Reads:\|Writes:' "$f" || check "$c: no Reads:/Writes: section"
	grep -q '^Example' "$f" || check "$c: no Example"
	grep -qi 'debugfs' "$f" || check "$c: no word on the debugfs equivalent"
	"$E2LAYOUT" -R "help $c" "$img" > "$tmp/one" 2>&1 || check "help $c failed"
	grep -qF "$(head -1 "$f")" "$tmp/one" || check "help $c does not show help/cmd/$c.txt"
	grep -qx "$c" "$tmp/words" || check "$c: not in --complete-words"
done < "$tmp/names"
# No help file for a request that is not in the table.
for f in "$top"/help/cmd/*.txt; do
	c=$(basename "$f" .txt)
	case $c in mkdemo) continue ;; esac	# e2layout SUBCOMMAND, not a request
	grep -qx "$c" "$tmp/names" || check "help/cmd/$c.txt: no such request"
done
for f in "$top"/help/topics/*.txt; do
	t=$(basename "$f" .txt)
	"$E2LAYOUT" -R "help topic $t" "$img" > "$tmp/one" 2>&1 || check "help topic $t failed"
	cmp -s "$f" "$tmp/one" || check "help $t differs from help/topics/$t.txt"
done
"$E2LAYOUT" -R "help no_such_thing" "$img" >/dev/null 2>&1 && check "help of an unknown name succeeded"

# The man page has its own test: t_man.sh.

# Bash completion: the file parses, and completes -R from the table.
comp=$top/help/e2layout.bash-completion
if command -v bash >/dev/null 2>&1; then
	bash -n "$comp" || check "the bash completion does not parse"
	out=$(PATH="$(dirname "$E2LAYOUT"):$PATH" bash -c '
		e2layout() { "$E2LAYOUT" "$@"; }
		. "$1"
		COMP_WORDS=(e2layout -R journal_r); COMP_CWORD=2
		_e2layout; printf "%s\n" "${COMPREPLY[@]}"
		COMP_WORDS=(e2layout lab start j); COMP_CWORD=3
		_e2layout; printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" 2>&1)
	echo "$out" | grep -qx journal_relocate || { echo "$out"; check "completion of -R journal_r"; }
	echo "$out" | grep -qx journal || { echo "$out"; check "completion of lab start j"; }
fi
rm -rf "$tmp"
checks_done
echo "help test passed"
