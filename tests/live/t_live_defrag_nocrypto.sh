#!/bin/sh
# t_live_defrag_nocrypto.sh - without libcrypto (loaded with dlopen when a
# digest is first asked for, sha256.c) a live move cannot check the file's
# content: --apply refuses before any move, says why and exits non-zero,
# the file as it was; the plan alone still works.  libcrypto is hidden in a
# private mount namespace (an empty file bound over each copy the loader
# knows), which ends with the command: nothing outside it changes.
. "$(dirname "$0")/ldf_lib.sh"
command -v unshare >/dev/null 2>&1 || skip "unshare is missing"
command -v ldconfig >/dev/null 2>&1 || skip "ldconfig is missing"
libs=$(ldconfig -p | sed -n 's/^[[:space:]]*libcrypto\.so[.0-9]* (.*) => //p' |
	while read -r l; do readlink -f "$l"; done | sort -u)
[ -n "$libs" ] || skip "no libcrypto known to the loader: nothing to hide"
: > "$T/empty"
# nocrypto CMD...: runs CMD with every libcrypto the loader knows empty
nocrypto() {
	unshare -m --propagation private sh -c '
		e=$1; shift; libs=$1; shift
		for l in $libs; do mount --bind "$e" "$l" || exit 90; done
		exec "$@"' sh "$T/empty" "$libs" "$@"
}
nocrypto true || skip "cannot bind-mount in a private namespace here"

ldf_mount 64M "-b 4096"
ldf_frag 12 4 "$mnt/f" "$mnt/g"
n=$(nextents "$mnt/f")
sum=$(sha256sum < "$mnt/f")
[ "$n" -ge 4 ] || fail "setup: f has $n extents"
nocrypto $E2LAYOUT -R "defrag f" "$mnt" > "$T/plan" 2>"$T/err" ||
	fail "the plan alone failed without libcrypto: $(cat "$T/err")"
nocrypto $E2LAYOUT -R "defrag f --apply" "$mnt" > "$T/out" 2>"$T/err"
rc=$?
[ "$rc" -ne 0 ] || check "--apply without libcrypto exited 0: $(cat "$T/out")"
grep -q "SHA-256" "$T/err" ||
	check "--apply without libcrypto: no SHA-256 reason: $(cat "$T/err")"
[ "$(nextents "$mnt/f")" = "$n" ] ||
	check "f moved without libcrypto: $(nextents "$mnt/f") extents, was $n"
[ "$(sha256sum < "$mnt/f")" = "$sum" ] || check "f's content changed"
! grep -q "written during the move" "$T/out" ||
	check "says the file was written during the move: nobody wrote it"
# with libcrypto, the same move is made and its content checked
$E2LAYOUT -R "defrag f --apply" "$mnt" > "$T/out" 2>"$T/err" ||
	fail "defrag f --apply: $(cat "$T/err")"
grep -q "content by SHA-256" "$T/out" ||
	check "with libcrypto the content was not checked: $(cat "$T/out")"
ldf_umount
e2fsck -fn "$T/img" > "$T/fsck" 2>&1 || fail "e2fsck -fn: $(cat "$T/fsck")"
checks_done
