#!/bin/sh
# t_e2image_rw.sh - an e2image file (-i) never opens read-write: libext2fs
# would write the superblock and every changed block at their filesystem
# offsets in the dump, over its header and tables (debugfs 1.47.0 -i -w
# destroys the file that way), and with -d the data blocks would go to the
# data source.  -w with -i is refused in every mode and personality (-R,
# -f, the shell's open, --debugfs, with -z and -d), naming the reason, and
# the dump, the data source and the undo path are left as they were.
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
command -v e2image >/dev/null 2>&1 || skip "e2image is not installed"
img=$E2L_IMAGES/ext4.img
cp "$img" "$T/data.img"
e2image "$img" "$T/orig.e2i" 2>/dev/null || fail "e2image"
cp "$T/orig.e2i" "$T/fs.e2i"

refused() {	# LABEL: the last run was refused, nothing changed (debugfs
	# exits 0 after a failed open, and so does its personality)
	case "$1" in
	*--debugfs*) ;;
	*) [ "$rc" -ne 0 ] || fail "$1: -w on an e2image file was not refused" ;;
	esac
	grep -q "an e2image file opens read-only" "$T/out" ||
		fail "$1: no reason given: $(head -3 "$T/out")"
	cmp -s "$T/fs.e2i" "$T/orig.e2i" || fail "$1: the e2image file changed"
	cmp -s "$T/data.img" "$img" || fail "$1: the data source changed"
	[ ! -e "$T/u.e2undo" ] || fail "$1: an undo file was made"
}

"$E2LAYOUT" -i -w -R "mkdir /x" "$T/fs.e2i" > "$T/out" 2>&1; rc=$?
refused "-R"
[ "$rc" -eq 3 ] || fail "-R: exit $rc, not 3 (could not be opened)"
printf 'sif <12> mode 0\nmkdir /y\n' > "$T/req"
"$E2LAYOUT" -i -w -f "$T/req" "$T/fs.e2i" > "$T/out" 2>&1; rc=$?
refused "-f"
"$E2LAYOUT" -i -w -d "$T/data.img" -R "mkdir /x" "$T/fs.e2i" > "$T/out" 2>&1
rc=$?
refused "-d"
"$E2LAYOUT" -i -w -z "$T/u.e2undo" -R "mkdir /x" "$T/fs.e2i" > "$T/out" 2>&1
rc=$?
refused "-z"
"$E2LAYOUT" --debugfs -i -w -R "mkdir /x" "$T/fs.e2i" > "$T/out" 2>&1; rc=$?
refused "--debugfs"
# open -i -w inside a session (the shell and -f read requests alike)
printf 'close\nopen -i -w %s\nmkdir /x\n' "$T/fs.e2i" |
	"$E2LAYOUT" -f - "$T/data.img" > "$T/out" 2>&1; rc=$?
refused "open -i -w"
printf 'open -i -w %s\nmkdir /x\n' "$T/fs.e2i" |
	"$E2LAYOUT" --debugfs -f - > "$T/out" 2>&1; rc=$?
refused "--debugfs open -i -w"
# read-only, the same file still opens and reads as before
"$E2LAYOUT" -i -R "stat <2>" "$T/fs.e2i" > "$T/out" 2>&1 ||
	fail "the e2image file no longer opens: $(head -3 "$T/out")"
exit 0
