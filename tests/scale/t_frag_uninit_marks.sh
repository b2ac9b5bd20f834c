#!/bin/sh
# t_frag_uninit_marks.sh - `frag` reads the block bitmap a group at a time
# (frag_stream.c): a BLOCK_UNINIT group's own metadata (no flex_bg: its
# bitmaps and inode table lie in it, with a backup superblock in some) is
# in use, as a load of the whole bitmap has it, so its free space is the
# superblock's and e2freefrag's; with bigalloc too.
. "$(dirname "$0")/../lib/testlib.sh"

command -v mke2fs >/dev/null || skip "no mke2fs"
command -v dumpe2fs >/dev/null || skip "no dumpe2fs"

for opts in "-O ^flex_bg -b 1024:201M" "-O bigalloc -C 16384 -b 1024:1100M"; do
	rm -f "$T/fs.img"
	mke2fs -q -F -t ext4 ${opts%:*} "$T/fs.img" "${opts#*:}" \
		>/dev/null 2>&1 || fail "mke2fs $opts"
	dumpe2fs "$T/fs.img" 2>/dev/null | grep -q BLOCK_UNINIT ||
		fail "$opts: no BLOCK_UNINIT group"
	want=$(dumpe2fs -h "$T/fs.img" 2>/dev/null |
	       awk -F: '/^Free blocks:/ { print $2 + 0 }')
	got=$("$E2LAYOUT" -R frag "$T/fs.img" 2>&1 |
	      sed -n 's/^Free space: \([0-9]*\) blocks.*/\1/p')
	[ "$got" = "$want" ] ||
		check "$opts: frag says $got blocks free, the superblock $want"
	if command -v e2freefrag >/dev/null; then
		e2freefrag "$T/fs.img" 2>/dev/null | grep -v '^Device' > "$T/e"
		"$E2LAYOUT" -R freefrag "$T/fs.img" 2>&1 | grep -v '^Device' \
			> "$T/g"
		cmp -s "$T/e" "$T/g" || check "$opts: freefrag is not" \
			"e2freefrag's: $(diff "$T/e" "$T/g" | head -4)"
	fi
done
checks_done
echo "ok: frag's free space with uninit groups' marks"
