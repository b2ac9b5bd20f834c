#!/bin/sh
# t_undo_failed_open.sh - an open that fails (no such image, a bad
# superblock, an image refused for its size) leaves no undo file behind,
# in the e2layout and the debugfs personality; a file already at the -z
# path is refused and left as it was; an open that wrote keeps its file.
. "$(dirname "$0")/../lib/testlib.sh"
[ -f "$E2L_IMAGES/demo.img" ] || skip "no demo image in $E2L_IMAGES"

cp --sparse=always "$E2L_IMAGES/demo.img" "$T/bad.img"
# the primary superblock's magic number (offset 1024 + 56) broken
printf '\377\377' | dd of="$T/bad.img" bs=1 seek=1080 conv=notrunc 2>/dev/null
cp "$T/bad.img" "$T/bad.orig"

# no_undo_left WHAT CMD...: CMD fails (debugfs says so but exits 0, as
# debugfs does) and leaves no file at $T/u.undo.
no_undo_left() {
	what=$1; shift
	rm -f "$T/u.undo"
	"$@" > "$T/out" 2>&1
	rc=$?
	grep -q "while trying to open" "$T/out" ||
		{ cat "$T/out"; check "$what: no open error said"; return; }
	[ "$1 $2" = "$E2LAYOUT --debugfs" ] || [ $rc -ne 0 ] ||
		{ check "$what: exit 0"; return; }
	[ -e "$T/u.undo" ] && {
		check "$what: left an undo file of $(wc -c < "$T/u.undo") bytes"
		return; }
	echo "ok: $what: no undo file left"
}
no_undo_left "no such image" \
	"$E2LAYOUT" -w -z "$T/u.undo" -R stats "$T/none.img"
no_undo_left "bad magic" \
	"$E2LAYOUT" -w -z "$T/u.undo" -R stats "$T/bad.img"
no_undo_left "bad magic, debugfs read-only" \
	"$E2LAYOUT" --debugfs -z "$T/u.undo" -R stats "$T/bad.img"
no_undo_left "bad magic, debugfs -w" \
	"$E2LAYOUT" --debugfs -w -z "$T/u.undo" -R stats "$T/bad.img"
cmp -s "$T/bad.img" "$T/bad.orig" || check "the bad image changed"

# a file already there is never the session's to remove
echo "somebody's file" > "$T/u.undo"
"$E2LAYOUT" -w -z "$T/u.undo" -R stats "$T/bad.img" > "$T/out" 2>&1 &&
	check "an existing undo path: exit 0"
[ "$(cat "$T/u.undo" 2>/dev/null)" = "somebody's file" ] ||
	check "an existing file at the undo path was changed or removed"

# an open that succeeds and writes keeps its undo file, and it restores
cp --sparse=always "$E2L_IMAGES/demo.img" "$T/good.img"
rm -f "$T/u.undo"
"$E2LAYOUT" -w -z "$T/u.undo" -R "prealloc /srv/new.log 2M" "$T/good.img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; check "prealloc with -z failed"; }
[ -s "$T/u.undo" ] || check "a session that wrote kept no undo file"
if command -v e2undo >/dev/null 2>&1 && [ -s "$T/u.undo" ]; then
	e2undo "$T/u.undo" "$T/good.img" > "$T/undo.out" 2>&1 ||
		{ cat "$T/undo.out"; check "e2undo refused the kept file"; }
	cmp -s "$T/good.img" "$E2L_IMAGES/demo.img" ||
		check "the kept undo file did not restore the image"
fi
checks_done
