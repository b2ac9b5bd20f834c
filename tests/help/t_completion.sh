#!/bin/sh
# t_completion.sh - bash completion as a shell user expects: registered with
# -o filenames (a host directory completes with "/", not a space), and
# inside a quoted -R "REQUEST PATH" the path completes from the image named
# on the same line (directories with "/"), the request name from the table.
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
top=$(cd "$(dirname "$0")/../.." && pwd)
comp=$top/help/e2layout.bash-completion
command -v bash >/dev/null 2>&1 || skip "bash is not installed"
img=$E2L_IMAGES/demo.img
[ -f "$img" ] || fail "no $img"
bindir=$(cd "$(dirname "$E2LAYOUT")" && pwd)
mkdir "$T/hostdir"

# comp CWORD CUR WORD...: what _e2layout offers, one per line, as bash
# calls it (COMP_WORDS keeps the opening quote, $2 is readline's text).
comp() {
	E2LAYOUT=$E2LAYOUT bash -c '
		e2layout() { "$E2LAYOUT" "$@"; }
		. "$1"; shift
		cw=$1 cur=$2; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$cw
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_e2layout e2layout "$cur" "${COMP_WORDS[cw-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$@" 2>&1
}

reg=$(bash -c '. "$1"; complete -p e2layout' sh "$comp")
case $reg in
*"-o filenames"*) ;;
*) fail "completion not registered with -o filenames: $reg" ;;
esac

out=$(cd "$T" && comp 1 hostd e2layout hostd)
[ "$out" = hostdir ] || fail "host directory: got '$out'"

out=$(comp 2 'stat /e' e2layout -R '"stat /e' "$img")
[ "$out" = "stat /etc/" ] || fail "-R \"stat /e: got '$out'"
first=$(debugfs -R "ls -p /etc" "$img" 2>/dev/null | awk -F/ '$6 !~ /^\.\.?$/ && NF > 5 { print $6 }' | sort | head -1)
[ -n "$first" ] || fail "debugfs lists nothing in /etc"
out=$(comp 4 "ls /etc/$(printf %.1s "$first")" e2layout "$img" -w -R "'ls /etc/$(printf %.1s "$first")")
echo "$out" | grep -qx "ls /etc/$first/\{0,1\}" ||
	fail "-R 'ls /etc/${first%"${first#?}"}' (image first): got '$out'"
out=$(comp 2 'journal_r' e2layout -R '"journal_r' "$img")
[ "$(echo "$out" | sort | paste -sd' ')" = "journal_relocate journal_run" ] ||
	fail "-R \"journal_r: got '$out'"
out=$(comp 2 'stat /nonexistent/x' e2layout -R '"stat /nonexistent/x' "$img")
[ -z "$out" ] || fail "a path that is not there offered '$out'"
echo "ok: -o filenames, and -R paths from the image"
