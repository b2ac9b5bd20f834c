#!/bin/sh
# t_exit_status.sh - the exit statuses scripts rely on: 0 all requests
# succeeded, 1 a request failed (the others still ran), 2 bad command line,
# 3 the device could not be opened; --json gives one valid document per
# request; -w is refused on a mounted filesystem.
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
img=$E2L_IMAGES/ext4.img
. "$(dirname "$0")/../lib/testlib.sh"
[ -f "$img" ] || skip "no $img"
tmp=$T
mnt=""
cleanup() { [ -n "$mnt" ] && umount "$mnt" 2>/dev/null; }
note=""

on_fail() {
	[ -s "$tmp/err" ] && sed 's/^/    stderr: /' "$tmp/err" | head -5
	return 0
}

# expect STATUS DESCRIPTION -- COMMAND...: runs it (stdin from $tmp/in when
# present), checks the status; its output stays in $tmp/out and $tmp/err.
expect() {
	want=$1; what=$2; shift 3
	if [ -f "$tmp/in" ]; then
		"$@" < "$tmp/in" > "$tmp/out" 2> "$tmp/err"
	else
		"$@" < /dev/null > "$tmp/out" 2> "$tmp/err"
	fi
	got=$?
	if [ "$got" -ne "$want" ]; then
		check "$what: exit $got, expected $want"
		return 1
	fi
	echo "ok: $what (exit $got)"
	return 0
}

# needs_stderr DESCRIPTION PATTERN: the last command said PATTERN on stderr.
needs_stderr() {
	grep -q -- "$2" "$tmp/err" || check "$1: no \"$2\" on stderr"
}

# --- requests ---
expect 0 "one good request" -- "$E2LAYOUT" -R "ls -l /" "$img"
expect 1 "unknown command" -- "$E2LAYOUT" -R "no_such_request" "$img" &&
	needs_stderr "unknown command" "no_such_request"
[ -s "$tmp/err" ] || check "unknown command: nothing on stderr"
expect 1 "failing request" -- "$E2LAYOUT" -R "ls /no/such/dir" "$img" &&
	needs_stderr "failing request" "File not found"

printf 'pwd\nls /no/such/dir\nno_such_request\ncd /etc\npwd\n' > "$tmp/bad.f"
expect 1 "failing request in -f FILE" -- "$E2LAYOUT" -f "$tmp/bad.f" "$img"
# The requests after the failures still ran: cd /etc then pwd shows /etc.
grep -q 'PATH: /etc' "$tmp/out" ||
	check "-f FILE: the requests after a failure did not run"
grep -q '^debugfs: cd /etc$' "$tmp/out" ||
	check "-f FILE: requests are not echoed as debugfs does"

cp "$tmp/bad.f" "$tmp/in"
expect 1 "failing request on stdin (-f -)" -- "$E2LAYOUT" -f - "$img"
grep -q 'PATH: /etc' "$tmp/out" ||
	check "-f -: the requests after a failure did not run"
expect 1 "failing request on piped stdin" -- "$E2LAYOUT" "$img"
grep -q 'PATH: /etc' "$tmp/out" ||
	check "stdin: the requests after a failure did not run"
rm -f "$tmp/in"

printf '# comment\npwd\n\nls /\ncd /etc\nls -l\nicheck 1\nncheck 12\n' > "$tmp/good.f"
expect 0 "all-success -f FILE" -- "$E2LAYOUT" -f "$tmp/good.f" "$img"
cp "$tmp/good.f" "$tmp/in"
expect 0 "all-success stdin" -- "$E2LAYOUT" -f - "$img"
rm -f "$tmp/in"

# --- opening ---
expect 3 "missing image" -- "$E2LAYOUT" -R pwd "$tmp/does-not-exist.img" &&
	needs_stderr "missing image" "does-not-exist.img"
head -c 1048576 /dev/zero > "$tmp/zero.img"
expect 3 "not an ext2/3/4 image" -- "$E2LAYOUT" -R pwd "$tmp/zero.img" &&
	needs_stderr "not an ext image" "Bad magic number"

# --- command line ---
expect 2 "bad option" -- "$E2LAYOUT" --no-such-option -R pwd "$img"
[ -s "$tmp/err" ] || check "bad option: nothing on stderr"
expect 2 "bad option letter" -- "$E2LAYOUT" -Q -R pwd "$img"
expect 2 "-z without -w" -- "$E2LAYOUT" -z "$tmp/u.undo" -R pwd "$img" &&
	needs_stderr "-z without -w" "-w"
[ -e "$tmp/u.undo" ] && check "-z without -w created the undo file"
expect 2 "no image named" -- "$E2LAYOUT" -R pwd
expect 2 "-R and -f together" -- "$E2LAYOUT" -R pwd -f "$tmp/good.f" "$img"

# --- JSON: one valid document per request, each with "status" ---
check_json() {	# check_json DESCRIPTION WANT_DOCS
	n=$(wc -l < "$tmp/out")
	[ "$n" -eq "$2" ] || { check "$1: $n JSON lines, expected $2"; return; }
	while IFS= read -r line; do
		if command -v python3 >/dev/null 2>&1; then
			printf '%s\n' "$line" | python3 -m json.tool >/dev/null 2>&1 ||
				check "$1: not valid JSON: $line"
		else
			case "$line" in
			"{"*"}") ;;
			*) check "$1: not a JSON object: $line" ;;
			esac
		fi
		case "$line" in
		*'"status":'*) ;;
		*) check "$1: no \"status\": $line" ;;
		esac
	done < "$tmp/out"
}
for req in "ls -l /etc" "ls -d -c /manyfiles" "icheck 1000 0" "ncheck -c 12 13" \
	   "pwd" "cd /etc" "ls /no/such/dir" "no_such_request"; do
	"$E2LAYOUT" --json -R "$req" "$img" > "$tmp/out" 2> "$tmp/err"
	check_json "--json -R \"$req\"" 1
done
grep -q '"status":1' "$tmp/out" || check "--json: failed request without status 1"
expect 1 "--json -f with a failure" -- "$E2LAYOUT" --json -f "$tmp/bad.f" "$img"
check_json "--json -f" 5

# --- -w on a mounted filesystem ---
if [ "$(id -u)" -ne 0 ] || ! command -v mount >/dev/null 2>&1; then
	note="mount test skipped: not root or no mount(8)"
else
	cp "$E2L_IMAGES/ext2-1k.img" "$tmp/m.img"
	mkdir "$tmp/mnt"
	if timeout 20 mount -o loop,ro "$tmp/m.img" "$tmp/mnt" 2>/dev/null; then
		mnt=$tmp/mnt
		expect 3 "-w on a loop-mounted image" -- \
			"$E2LAYOUT" -w -R pwd "$tmp/m.img" &&
			needs_stderr "-w mounted" "mounted"
		expect 0 "read-only on a loop-mounted image" -- \
			"$E2LAYOUT" -R pwd "$tmp/m.img"
		umount "$mnt" && mnt=""
	else
		note="mount test skipped: mount -o loop does not work here"
	fi
fi

[ -n "$note" ] && echo "$note"
checks_done
echo "all exit-status checks passed"
exit 0
