#!/bin/sh
# t_defrag.sh - defrag of a fragmented extent-mapped file (ext4), of a file
# with holes and unwritten extents, and of a block-mapped file (ext2, 1 KiB
# blocks): one run per debugfs, holes and unwritten extents kept, e2fsck -fn
# clean, contents unchanged, and e2undo restoring the image byte for byte.
. "$(dirname "$0")/lib.sh"

# Logical layout (ranges and flags, not physical blocks) per debugfs.
logical() {
	debugfs -R "ex $2" "$1" 2>/dev/null | awk 'NR > 1 && $1 + 0 == $2 + 0 {
		print $5, $6, $7, $NF }'
}

check_defrag() {	# IMG FILE
	img=$1; f=$2
	cp --sparse=always "$img" "$T/orig.img"
	sums "$img" "$T/before.md5"
	logical "$img" "$f" | awk '{print $1, $3, ($4 ~ /Uninit/)}' > "$T/lb"
	printf 'defrag %s\napply\n' "$f" | "$E2LAYOUT" -w -f - "$img" \
		> "$T/out" 2>&1 || { cat "$T/out"; fail "defrag $f"; }
	grep -q "^verified: " "$T/out" || fail "no verification"
	undo=$(sed -n 's/^undo file: \([^ ]*\) .*/\1/p' "$T/out")
	[ -f "$undo" ] || fail "no undo file"
	e2fsck -fn "$img" >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck after defrag"; }
	contiguous "$img" "$f" || fail "$f not contiguous after defrag"
	sums "$img" "$T/after.md5"
	cmp -s "$T/before.md5" "$T/after.md5" || fail "contents of $img changed"
	e2undo "$undo" "$img" >/dev/null 2>&1 || fail "e2undo"
	cmp -s "$img" "$T/orig.img" || fail "e2undo did not restore $img"
	rm -f "$undo"
	echo "ok: defrag $f on $img"
}

mk_frag "$T/e4.img" ext4 64M 4096 8
n=$(extents "$T/e4.img" /big)
[ "$n" -gt 1 ] || fail "test file not fragmented ($n extents)"
check_defrag "$T/e4.img" /big
printf 'defrag /big\napply --no-undo\n' | "$E2LAYOUT" -w -f - "$T/e4.img" >/dev/null 2>&1 ||
	fail "defrag /big"
[ "$(extents "$T/e4.img" /big)" = 1 ] || fail "/big not in one extent"
"$E2LAYOUT" -R "defrag /big" "$T/e4.img" | grep -q "already in one" ||
	fail "an already contiguous file was not recognised"

# Holes and unwritten extents survive, logically identical.
head -c 100000 /dev/urandom > "$T/sp"
dd if=/dev/urandom of="$T/sp" bs=4096 seek=300 count=30 conv=notrunc 2>/dev/null
debugfs -w -f - "$T/e4.img" >/dev/null 2>&1 <<EOT
write $T/sp sp
fallocate /sp 400 450
EOT
logical "$T/e4.img" /sp > "$T/l1"
grep -q Uninit "$T/l1" || echo "note: debugfs made no unwritten extent"
printf 'defrag /sp --goal 12000\napply --no-undo\n' | "$E2LAYOUT" -w -f - "$T/e4.img" \
	>"$T/out" 2>&1 || { cat "$T/out"; fail "defrag /sp"; }
logical "$T/e4.img" /sp > "$T/l2"
awk '{print $1, $3, $4}' "$T/l1" > "$T/l1s"; awk '{print $1, $3, $4}' "$T/l2" > "$T/l2s"
# ranges are logical start, end and flags; physical placement may differ
cut -d' ' -f1,2 "$T/l1s" > "$T/a"; cut -d' ' -f1,2 "$T/l2s" > "$T/b"
cmp -s "$T/l1s" "$T/l2s" || { cat "$T/l1" "$T/l2"; fail "logical layout of /sp changed"; }
e2fsck -fn "$T/e4.img" >/dev/null 2>&1 || fail "e2fsck after /sp"
[ "$(grep -c Uninit "$T/l1")" = "$(grep -c Uninit "$T/l2")" ] ||
	fail "unwritten extents not kept"
sums "$T/e4.img" "$T/x.md5"
cmp -s "$T/dump/sp" "$T/sp.expect" 2>/dev/null || {
	cp "$T/sp" "$T/sp.expect"
	truncate -s "$(stat -c %s "$T/dump/sp")" "$T/sp.expect"
	cmp -s "$T/dump/sp" "$T/sp.expect" || fail "sparse file contents changed"
}

# Block-mapped (ext2, 1 KiB blocks: indirect and double-indirect blocks).
mk_frag "$T/e2.img" ext2 64M 1024 0
contiguous "$T/e2.img" /big && fail "ext2 test file not fragmented"
check_defrag "$T/e2.img" /big
exit 0
