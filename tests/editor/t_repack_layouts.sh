#!/bin/sh
# t_repack_layouts.sh - repack-flex --all where the island crosses group
# headers that never move: a backup superblock with its descriptors and
# reserved GDT blocks (ext4 without flex_bg, 1 KiB blocks: sixteen groups'
# inode tables run past group 1's start), and meta_bg's descriptor blocks.
# The island is split around them (an inode table that would cross one goes
# after it).  Each: a crash-point sweep (journal replayed as a mount would,
# then e2fsck clean or leaked blocks only, files intact), applied with an
# undo file and verified, no table or bitmap over a header (dumpe2fs),
# e2fsck -fn clean, files unchanged, e2undo restoring the image byte for
# byte.  (Bigalloc: t_repack_bigalloc.sh.)
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/d/sub"
i=1
while [ $i -le 8 ]; do
	head -c $((150000 * i)) /dev/urandom > "$T/d/f$i"
	head -c $((3000 * i)) /dev/urandom > "$T/d/sub/s$i"
	i=$((i + 1))
done

# headers IMG: "first last" of each group's superblock/descriptor/reserved
# GDT blocks; placed IMG: "first last" of every bitmap and inode table
headers() {
	dumpe2fs "$1" 2>/dev/null | awk '
	/superblock at|Group descriptors? at|Reserved GDT blocks at/ {
		n = split($0, f, ","); for (i = 1; i <= n; i++) {
			l = f[i]; sub(/.* at /, "", l); split(l, d, "-")
			print d[1] + 0, (d[2] == "" ? d[1] : d[2]) + 0 } }'
}
placed() {
	dumpe2fs "$1" 2>/dev/null | awk '
	/Block bitmap at|Inode bitmap at/ { print $4 + 0, $4 + 0 }
	/Inode table at/ { split($4, t, "-"); print t[1] + 0, t[2] + 0 }'
}
# no bitmap or table overlaps a header, and the last table lies past the
# second group's header (the island was split, not refused or shortened)
split_ok() {	# IMG
	headers "$1" > "$T/h"; placed "$1" > "$T/p"
	awk 'NR == FNR { hs[NR] = $1; he[NR] = $2; nh = NR; next }
	{ for (i = 1; i <= nh; i++) if ($1 <= he[i] && hs[i] <= $2) {
		print "overlap", $1, $2, hs[i], he[i]; bad = 1 } }
	END { exit bad }' "$T/h" "$T/p" || return 1
	last=$(tail -1 "$T/p" | cut -d' ' -f1)
	g1=$(sed -n 2p "$T/h" | cut -d' ' -f1)
	[ "$last" -gt "$g1" ] || { echo "last table $last not past $g1"; return 1; }
}

check_layout() {	# NAME MKE2FS_OPTS
	name=$1; img=$T/$1.img
	# shellcheck disable=SC2086
	mke2fs -q -F -t ext4 $2 -b 1024 -d "$T/d" "$img" 128M >/dev/null 2>&1 ||
		fail "$name: mke2fs $2"
	e2fsck -fn "$img" >/dev/null 2>&1 || fail "$name: the generated image is not clean"
	sums "$img" "$T/want.md5"
	headers "$img" > "$T/h.want"
	cp "$img" "$T/orig.img"
	"$E2LAYOUT" -R "repack-flex --all" "$img" > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "$name: repack-flex --all plan refused"; }
	grep -q "^repack_flex --all: 1 flex group to pack" "$T/out" ||
		{ cat "$T/out"; fail "$name: no job summary"; }
	cmp -s "$img" "$T/orig.img" || fail "$name: a read-only session wrote"

	# crash points across the job (moves, then the repack's phases)
	crashes=0; leaked=0
	for k in 1 2 4 7 11 16 24 35 50 70 100 140 200 280 400 560 800 1200 2000 4000; do
		cp "$img" "$T/c.img"
		E2L_FAULT_WRITES=$k "$E2LAYOUT" -w -R "repack-flex --all --no-undo" \
			"$T/c.img" > "$T/out" 2>&1
		rc=$?
		[ $rc -eq 0 ] && break
		[ $rc -eq 86 ] || { cat "$T/out"; fail "$name: k=$k exit $rc"; }
		e2fsck -E journal_only -y "$T/c.img" >/dev/null 2>&1	# as a mount
		fsck_verdict "$T/c.img"
		v=$?
		[ $v -eq 2 ] && { cat "$T/fsck.out"; fail "$name: k=$k e2fsck found damage"; }
		sums "$T/c.img" "$T/got.md5"
		cmp -s "$T/want.md5" "$T/got.md5" || fail "$name: k=$k contents changed"
		if [ $v -eq 1 ]; then
			leaked=$((leaked + 1))
			e2fsck -fy "$T/c.img" >/dev/null 2>&1
			e2fsck -fn "$T/c.img" >/dev/null 2>&1 ||
				fail "$name: k=$k not repaired by e2fsck -fy"
		fi
		crashes=$((crashes + 1))
	done
	[ $rc -eq 0 ] || fail "$name: the job never completed in the sweep"
	[ $crashes -ge 8 ] || fail "$name: only $crashes crash points were exercised"
	split_ok "$T/c.img" || fail "$name: the swept job's layout"
	echo "ok: $name: $crashes crash points, files intact, $leaked with leaked blocks only (repaired), the rest clean"

	"$E2LAYOUT" -w -R "repack-flex --all --undo $T/u.e2undo" "$img" > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "$name: repack-flex --all apply"; }
	grep -q '^verified: flex group 0 packed' "$T/out" || { cat "$T/out"; fail "$name: not verified"; }
	grep "^verified" "$T/out" | grep -qv "agree$" && { cat "$T/out"; fail "$name: a plan not verified"; }
	e2fsck -fn "$img" > "$T/fsck.out" 2>&1 || { cat "$T/fsck.out"; fail "$name: e2fsck"; }
	sums "$img" "$T/got.md5"
	cmp -s "$T/want.md5" "$T/got.md5" || fail "$name: contents changed"
	split_ok "$img" || fail "$name: layout"
	headers "$img" | cmp -s - "$T/h.want" || fail "$name: a group header moved"
	e2undo "$T/u.e2undo" "$img" >/dev/null 2>&1 || fail "$name: e2undo"
	cmp -s "$img" "$T/orig.img" || fail "$name: e2undo did not restore the image"
	rm -f "$T/u.e2undo"
	echo "ok: $name: packed around the group headers, verified, clean, undone byte for byte"
}

check_layout backups "-O ^flex_bg"
check_layout meta_bg "-O ^flex_bg,^resize_inode,meta_bg"

exit 0
