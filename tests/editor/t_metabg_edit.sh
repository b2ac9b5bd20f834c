#!/bin/sh
# t_metabg_edit.sh - the movers other than repack-flex on meta_bg (1 KiB
# blocks, 64-bit descriptors: two meta groups, descriptor blocks at the
# start of groups 0, 1, 15, 16, 17 and 31; flex groups of 4): the journal
# relocated into the second meta group (past group 17's descriptor block),
# a fragmented file defragmented, prealloc of an existing file, the journal
# resized.  Each applied with an undo file and verified, e2fsck -fn clean,
# md5 of every file, no extent over a descriptor block, e2undo restoring
# the image byte for byte; then the crash-point sweep of each.
# (repack-flex on meta_bg: t_repack_layouts.sh; bigalloc: t_bigalloc_edit.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sweep.sh"

img=$T/mb.img
mke2fs -q -F -t ext4 -O meta_bg,^resize_inode,^has_journal -G 4 -b 1024 \
	"$img" 256M >/dev/null 2>&1 || skip "mke2fs cannot make meta_bg here"
NFILES=30 mk_payload 30
i=1
while [ $i -le 30 ]; do echo "write $T/payload/f$i f$i"; i=$((i + 1)); done |
	debugfs -w "$img" >/dev/null 2>&1
i=1
while [ $i -le 30 ]; do echo "rm f$i"; i=$((i + 2)); done |
	debugfs -w "$img" >/dev/null 2>&1
tune2fs -J size=8 "$img" >/dev/null 2>&1 || fail "tune2fs -J"
cat "$T/payload/f1" "$T/payload/f3" "$T/payload/f5" > "$T/big"
debugfs -w -R "write $T/big big" "$img" >/dev/null 2>&1
e2fsck -fn "$img" >/dev/null 2>&1 || fail "the generated $img is not clean"
[ "$(extents "$img" /big)" -ge 2 ] || fail "/big is not fragmented"
# the descriptor blocks, as dumpe2fs lists them
dumpe2fs "$img" 2>/dev/null |
	sed -n 's/.*Group descriptor at \([0-9]*\).*/\1/p' > "$T/gdt"
[ "$(wc -l < "$T/gdt")" -eq 6 ] || fail "not two meta groups: $(cat "$T/gdt")"
cp --sparse=always "$img" "$T/orig.img"
sums "$img" "$T/want.md5"

off_gdt() {	# IMG FILE: no block of FILE is a descriptor block
	debugfs -R "blocks $2" "$1" 2>/dev/null | tr ' ' '\n' | grep . |
		grep -qxF -f "$T/gdt" && fail "$2 has a block over a descriptor block"
	return 0
}
run() {	# REQUEST FILE: plan, apply with an undo file, checked, undone
	printf 'plan %s\napply --undo %s\n' "$1" "$T/u.e2undo" |
		"$E2LAYOUT" -w -f - "$img" > "$T/out" 2>&1 ||
		{ tail -5 "$T/out"; fail "$1 on meta_bg"; }
	grep -q "^verified: " "$T/out" || { cat "$T/out"; fail "$1 not verified"; }
	e2fsck -fn "$img" > "$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck after $1"; }
	off_gdt "$img" "$2"
	sums "$img" "$T/got.md5"
	case $1 in
	prealloc*) grep -v " \./${2#/}\$" "$T/want.md5" > "$T/w"
		   grep -v " \./${2#/}\$" "$T/got.md5" > "$T/g" ;;
	*--size*) grep -v '<8>$' "$T/want.md5" > "$T/w"
		  grep -v '<8>$' "$T/got.md5" > "$T/g" ;;
	*) cp "$T/want.md5" "$T/w"; cp "$T/got.md5" "$T/g" ;;
	esac
	cmp -s "$T/w" "$T/g" || fail "$1 changed a file's contents"
	e2undo "$T/u.e2undo" "$img" >/dev/null 2>&1 || fail "$1: e2undo"
	cmp -s "$img" "$T/orig.img" || fail "$1: e2undo did not restore the image"
	rm -f "$T/u.e2undo"
	echo "ok: $1 on meta_bg, undone byte for byte"
}

# the second meta group starts at group 16 (descriptor blocks at 131073,
# 139265): a goal just before group 17's takes the journal across it
g17=$(sed -n 5p "$T/gdt")
run "journal_relocate --goal $((g17 - 300))" "<8>"
run "prealloc /f2 3M" /f2
run "journal_relocate --size 5000" "<8>"

sweep "$img" "journal_relocate --goal $((g17 - 300))" "--no-undo" "<8>"
sweep "$img" "defrag /big" "" /big
cp "$T/payload/f2" "$T/keep2"
SWEEP_KEEP=$T/keep2 sweep "$img" "prealloc /f2 3M" "--no-undo" /f2
sweep "$img" "journal_relocate --size 5000" "--no-undo" "<8>"
exit 0
