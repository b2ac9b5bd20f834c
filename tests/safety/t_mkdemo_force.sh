#!/bin/sh
# t_mkdemo_force.sh - `e2layout mkdemo PATH` never replaces what exists at
# PATH (a file is left byte for byte as it was, a symbolic link is not
# followed); --force replaces a regular file, and only that.
. "$(dirname "$0")/../lib/testlib.sh"

printf 'my filesystem image\n' > "$T/old.img"
cp "$T/old.img" "$T/old.copy"
"$E2LAYOUT" mkdemo "$T/old.img" > "$T/out" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$T/out"; fail "mkdemo over a file: exit $rc, not 1"; }
grep -q "exists; not replacing it (mkdemo --force" "$T/out" || { cat "$T/out"; fail "no message"; }
cmp -s "$T/old.img" "$T/old.copy" || fail "the existing file changed"
ln -s "$T/old.img" "$T/link.img"
"$E2LAYOUT" mkdemo "$T/link.img" > "$T/out" 2>&1 && fail "mkdemo through a symbolic link"
"$E2LAYOUT" mkdemo --force "$T/link.img" > "$T/out" 2>&1 && fail "mkdemo --force through a symbolic link"
cmp -s "$T/old.img" "$T/old.copy" || fail "the file behind the link changed"
ln -s "$T/nothing.img" "$T/dangling.img"
"$E2LAYOUT" mkdemo "$T/dangling.img" > "$T/out" 2>&1 && fail "mkdemo through a dangling link"
[ -e "$T/nothing.img" ] && fail "a file was made through the dangling link"
# --force replaces a regular file
"$E2LAYOUT" mkdemo --force "$T/old.img" > "$T/out" 2>&1 || { cat "$T/out"; fail "mkdemo --force"; }
grep -q "(replaced the existing file)" "$T/out" || fail "no replacement notice"
fsck_clean "$T/old.img" || fail "the forced demo image is not clean"
# a new path needs no --force
"$E2LAYOUT" mkdemo "$T/new.img" > "$T/out" 2>&1 || { cat "$T/out"; fail "mkdemo to a new path"; }
cmp -s "$T/new.img" "$T/old.img" || fail "the same seed gave another image"
echo "ok: mkdemo refuses to replace without --force"
exit 0
