#!/bin/sh
# t_optional_libs.sh - ncurses, readline and libtracefs (with libtraceevent)
# are loaded by the one face that needs each (core/session/dynlib.h), not at
# the start: with all of them missing a request still runs; the full-screen
# view says it needs ncurses and exits 1; the shell says it has no line
# editing and still runs requests; the experiment counters say libtracefs is
# missing.  The libraries are hidden in a private mount namespace (an empty
# file bound over each copy the loader knows), which ends with the command:
# nothing outside it changes.
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
. "$(dirname "$0")/../lib/testlib.sh"
for t in unshare ldconfig script; do
	command -v $t >/dev/null 2>&1 || skip "$t is missing"
done
img=$E2L_IMAGES/ext4.img
libs=$(ldconfig -p |
	sed -n 's/^[[:space:]]*lib\(ncursesw\|readline\|tracefs\)\.so[.0-9]* (.*) => //p' |
	while read -r l; do readlink -f "$l"; done | sort -u)
for l in ncursesw readline tracefs; do
	echo "$libs" | grep -q "/lib$l\.so" ||
		skip "no lib$l known to the loader: nothing to hide"
done
: > "$T/empty"
# hidden CMD...: runs CMD with every copy of those libraries empty
hidden() {
	unshare -m --propagation private sh -c '
		e=$1; shift; libs=$1; shift
		for l in $libs; do mount --bind "$e" "$l" || exit 90; done
		exec "$@"' sh "$T/empty" "$libs" "$@"
}
hidden true || skip "cannot bind-mount in a private namespace here"

# a request: none of them is needed (the loader refused to start before)
hidden "$E2LAYOUT" -R stats "$img" > "$T/out" 2>"$T/err" ||
	fail "-R stats without the optional libraries: $(cat "$T/err")"
grep -q "^Block count:" "$T/out" || check "-R stats printed: $(head -3 "$T/out")"

# the full-screen view: a clear refusal, status 1, no crash
TERM=xterm-256color hidden script -qec \
	"'$E2LAYOUT' '$img'; echo \$? > '$T/rc'" /dev/null > "$T/tui" 2>&1
[ "$(cat "$T/rc" 2>/dev/null)" = 1 ] ||
	check "the view without ncurses: status $(cat "$T/rc" 2>/dev/null), $(cat "$T/tui")"
grep -q "full-screen view needs ncurses: cannot load libncursesw" "$T/tui" ||
	check "the view without ncurses said: $(cat "$T/tui")"

# the interactive shell (on a terminal): plain lines, requests still run
printf 'stats\nquit\n' | TERM=xterm-256color hidden script -qec \
	"'$E2LAYOUT' shell '$img'; echo \$? > '$T/rc'" /dev/null > "$T/sh" 2>&1
[ "$(cat "$T/rc" 2>/dev/null)" = 0 ] ||
	check "the shell without readline: status $(cat "$T/rc" 2>/dev/null), $(cat "$T/sh")"
grep -q "no line editing, completion or history: cannot load libreadline" \
	"$T/sh" || check "the shell without readline said: $(cat "$T/sh")"
grep -q "Block count:" "$T/sh" ||
	check "the shell without readline ran no request: $(cat "$T/sh")"

# the experiment counters (root only: they stop at the root check before)
if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null 2>&1; then
	mkfs.ext4 -q -F -E nodiscard "$T/a.img" 8M >/dev/null 2>&1 ||
		fail "mkfs.ext4"
	hidden "$E2LAYOUT" experiment "$T/a.img" "$T/a.img" \
		--workload smallcreate --runs 2 > "$T/exp" 2>&1 &&
		check "the counters without libtracefs: exit 0"
	grep -q "counters cannot be recorded: cannot load libtracefs" \
		"$T/exp" || check "the counters without libtracefs said: $(cat "$T/exp")"
fi
checks_done
