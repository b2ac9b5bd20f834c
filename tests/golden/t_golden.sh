#!/bin/sh
# t_golden.sh - what e2layout's own text requests print, as a specification:
# each tests/golden/NAME.cmd (requests, one a line) runs with -f on the
# seeded demo image (e2layout mkdemo --seed 1, tests/lib/mkimages.sh) and
# its output, stdout and stderr in order, must equal NAME.expect byte for
# byte (the e2fsprogs expect-file style).  A change of output is a change
# of the specification: regenerate with `make golden-update` (which sets
# E2L_GOLDEN_UPDATE=1) and review the diff before committing it.
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
here=$(cd "$(dirname "$0")" && pwd)
img=$E2L_IMAGES/demo.img
[ -f "$img" ] || skip "no demo image ($img): e2layout mkdemo failed"
# one private copy: nothing may change the shared image
cp "$img" "$T/demo.img" || fail "cannot copy $img"
before=$(md5sum < "$T/demo.img")

bad=0 n=0
for c in "$here"/*.cmd; do
	name=$(basename "$c" .cmd)
	n=$((n + 1))
	(cd "$T" && "$E2LAYOUT" -f "$c" demo.img) > "$T/$name.out" 2>&1
	echo "exit status $?" >> "$T/$name.out"
	if [ "${E2L_GOLDEN_UPDATE:-}" = 1 ]; then
		cp "$T/$name.out" "$here/$name.expect"
		echo "wrote tests/golden/$name.expect"
	elif [ ! -f "$here/$name.expect" ]; then
		echo "FAIL: $name: no $name.expect (make golden-update)"
		bad=$((bad + 1))
	elif ! diff -u "$here/$name.expect" "$T/$name.out" > "$T/$name.diff"
	then
		echo "FAIL: $name: output differs from $name.expect:"
		head -40 "$T/$name.diff"
		bad=$((bad + 1))
	fi
done
[ "$n" -gt 0 ] || fail "no cases in $here"
[ "$(md5sum < "$T/demo.img")" = "$before" ] ||
	fail "a read-only request changed the image"
[ "$bad" -eq 0 ] || fail "$bad of $n golden case(s) differ"
[ "${E2L_GOLDEN_UPDATE:-}" = 1 ] || echo "$n golden cases identical"
