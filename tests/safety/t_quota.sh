#!/bin/sh
# t_quota.sh - layout changes keep the quota files right.  On a -O quota
# image (user and group, 4 KiB blocks), a -O quota,project one (1 KiB
# blocks) and a bigalloc one, holding fragmented files of several owners:
# defrag, evacuate, prealloc (a new file; one in a project-inherit and one
# in a set-group-ID directory; an existing file) and journal_relocate
# (moved, resized) are applied with -w; then e2fsck -fn is clean with no
# QUOTA warning, every file reads back the same, the owner's record moved
# by exactly the i_blocks change (the journal's by nothing) and e2undo
# restores the image byte for byte.  Damaged quota files and a new file's
# owner without a record are refused, at plan time and by `apply FILE`,
# with nothing written.  Every crash point of a defrag and of a prealloc
# creating its file is clean after journal recovery; without a journal,
# e2fsck -p repairs each one.
. "$(dirname "$0")/../lib/testlib.sh"

stride=1
case "${E2L_BUILD:-}" in *asan*) stride=2 ;; esac

head -c 8192 /dev/urandom > "$T/s8"
head -c 300000 /dev/urandom > "$T/b300"
head -c 150000 /dev/urandom > "$T/m150"

# mkq IMG BLOCKSIZE PROJECT(0|1) [MKE2FS-OPTS]: small files of three owners,
# every other one deleted, then "mid" (uid 2000) and "big" (uid 1000, gid
# 100, project 7) written into the holes: many extents, a leaf block each.
mkq() {
	img=$1; bs=$2; prj=$3; extra=${4:-}
	if [ "$prj" = 1 ]; then
		q="-O quota,project -E quotatype=usrquota:grpquota:prjquota"
	else
		q="-O quota"
	fi
	# shellcheck disable=SC2086
	mke2fs -q -F -t ext4 -b "$bs" -I 256 $q $extra "$img" 32M \
		>/dev/null 2>&1 || fail "mke2fs $q $extra"
	{
		i=1
		while [ $i -le 80 ]; do
			echo "write $T/s8 s$i"
			echo "sif s$i uid $((3000 + i % 3))"
			i=$((i + 1))
		done
		i=1
		while [ $i -le 80 ]; do echo "rm s$i"; i=$((i + 2)); done
		echo "write $T/m150 mid"
		echo "sif mid uid 2000"
		echo "write $T/b300 big"
		echo "sif big uid 1000"
		echo "sif big gid 100"
		echo "mkdir sg"
		echo "sif sg mode 042755"
		echo "sif sg gid 100"
		if [ "$prj" = 1 ]; then
			echo "sif big projid 7"
			echo "mkdir proj"
			echo "sif proj flags 0x20080000"	# PROJINHERIT|EXTENTS
			echo "sif proj projid 9"
		fi
	} | debugfs -w "$img" >/dev/null 2>&1
	# debugfs does not count quota: e2fsck writes the files from scratch
	e2fsck -fy "$img" >/dev/null 2>&1
	fsck_clean "$img" || { cat "$T/fsck.out"; fail "$img is not clean"; }
	for f in big mid; do
		[ "$(debugfs -R "ex $f" "$img" 2>/dev/null |
		     grep -c '^ *1/ *1')" -gt 8 ] || fail "$f is not fragmented"
	done
}

types() {	# IMG: the quota types it counts
	if dumpe2fs -h "$1" 2>/dev/null | grep -q '^Project quota inode'; then
		echo user group project
	else
		echo user group
	fi
}

lq_all() {	# IMG: every quota record
	for t in $(types "$1"); do
		debugfs -R "lq $t" "$1" 2>/dev/null
	done
}

gq() {		# IMG TYPE ID: "space inodes" of a record
	debugfs -R "gq $2 $3" "$1" 2>/dev/null | awk 'NR == 2 { print $2, $5 }'
}

iblocks() {	# IMG FILE: i_blocks in bytes, as e2fsck charges them
	debugfs -R "stat $2" "$1" 2>/dev/null |
		sed -n 's/.*Blockcount: \([0-9]*\).*/\1/p' | awk '{ print $1 * 512 }'
}

quota_clean() {	# IMG: e2fsck -fn clean and no quota complaint
	fsck_clean "$1" && ! grep -q -e QUOTA -e 'Usage inconsistent' \
		-e 'quota' "$T/fsck.out"
}

# op IMG REQUEST [FILE]: applies REQUEST with -w to $T/w.img, a copy of IMG,
# and checks the result (every file's contents but FILE's, a new or grown
# one); the result stays in $T/done.img, the copy is undone.
op() {
	img=$1; req=$2; new=${3:-}
	cp "$img" "$T/w.img"
	file_sums "$T/w.img" | grep -v " \./${new#/}\$" > "$T/sums.before"
	"$E2LAYOUT" -w -R "$req" "$T/w.img" > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "$req: the apply failed"; }
	grep -q '^verified: ' "$T/out" || { cat "$T/out"; fail "$req: not verified"; }
	quota_clean "$T/w.img" ||
		{ cat "$T/fsck.out"; fail "$req: e2fsck -fn after the apply"; }
	file_sums "$T/w.img" | grep -v " \./${new#/}\$" > "$T/sums.after"
	cmp -s "$T/sums.before" "$T/sums.after" || fail "$req: file contents changed"
	cp "$T/w.img" "$T/done.img"
	undo=$(sed -n 's/^undo file: \([^ ]*\) .*/\1/p' "$T/out")
	[ -f "$undo" ] || { cat "$T/out"; fail "$req: no undo file"; }
	e2undo "$undo" "$T/w.img" >/dev/null 2>&1 || fail "$req: e2undo"
	cmp -s "$T/w.img" "$img" || fail "$req: e2undo did not restore the image"
	rm -f "$undo"
}

# moved IMG REQUEST FILE TYPE ID: op, and the record of ID moved by exactly
# FILE's i_blocks change, which is not zero.
moved() {
	img=$1; req=$2; file=$3; type=$4; id=$5
	b0=$(iblocks "$img" "$file")
	set -- $(gq "$img" "$type" "$id")
	s0=$1
	case $req in
	prealloc*)	# the file grows: its old bytes are kept, zeros follow
		op "$img" "$req" "$file"
		debugfs -R "dump $file $T/grown" "$T/done.img" >/dev/null 2>&1
		cmp -s -n "$(stat -c %s "$T/b300")" "$T/grown" "$T/b300" ||
			fail "$req: the data of $file changed"
		[ "$(tail -c +300001 "$T/grown" | tr -d '\0' | wc -c)" = 0 ] ||
			fail "$req: the preallocated part of $file is not zeros" ;;
	*)	op "$img" "$req" ;;
	esac
	b1=$(iblocks "$T/done.img" "$file")
	set -- $(gq "$T/done.img" "$type" "$id")
	[ "$b0" != "$b1" ] || fail "$req: i_blocks of $file did not change"
	[ $(($1 - s0)) -eq $((b1 - b0)) ] ||
		fail "$req: $type $id moved by $(($1 - s0)), i_blocks by $((b1 - b0))"
}

mkq "$T/u.img" 4096 0
mkq "$T/p.img" 1024 1

for img in "$T/u.img" "$T/p.img"; do
	moved "$img" "defrag /big" /big user 1000
	moved "$img" "defrag /mid" /mid user 2000
	moved "$img" "prealloc /big 3M" /big group 100
	first=$(debugfs -R "blocks big" "$img" 2>/dev/null | awk '{ print $1 }')
	moved "$img" "evacuate $first-$((first + 3))" /big user 1000

	# a new file: uid 0 gains its blocks and one inode
	set -- $(gq "$img" user 0)
	op "$img" "prealloc /newf 2M" /newf
	[ "$(gq "$T/done.img" user 0)" = "$(($1 + 2097152)) $(($2 + 1))" ] ||
		fail "prealloc /newf: user 0 not charged 2 MiB and an inode"
	# in a set-group-ID directory it takes the directory's group
	set -- $(gq "$img" group 100)
	op "$img" "prealloc /sg/new 1M" /sg/new
	debugfs -R "stat /sg/new" "$T/done.img" 2>/dev/null |
		grep -q "Group: *100 " || fail "/sg/new is not in group 100"
	[ "$(gq "$T/done.img" group 100)" = "$(($1 + 1048576)) $(($2 + 1))" ] ||
		fail "prealloc /sg/new: group 100 not charged"

	# the journal is a reserved inode: quota does not count it
	for req in "journal_relocate --start" "journal_relocate --size 2048"; do
		lq_all "$img" > "$T/lq.before"
		op "$img" "$req"
		lq_all "$T/done.img" | cmp -s - "$T/lq.before" ||
			fail "$req changed the quota files"
	done
	echo "ok: $(types "$img") quota kept on $(basename "$img")"
done

# Project quota: a new file in a project-inherit directory is project 9's.
set -- $(gq "$T/p.img" project 9)
op "$T/p.img" "prealloc /proj/new 1M" /proj/new
debugfs -R "stat /proj/new" "$T/done.img" 2>/dev/null |
	grep -q "Project: *9 " || fail "/proj/new did not inherit project 9"
[ "$(gq "$T/done.img" project 9)" = "$(($1 + 1048576)) $(($2 + 1))" ] ||
	fail "prealloc /proj/new: project 9 not charged"
moved "$T/p.img" "defrag /big" /big project 7
echo "ok: project quota"

# bigalloc: space is charged in clusters (a leaf block costs 16 KiB).
mkq "$T/b.img" 4096 1 "-O bigalloc -C 16384"
moved "$T/b.img" "defrag /big" /big user 1000
moved "$T/b.img" "defrag /mid" /mid project 0
echo "ok: bigalloc"

# Damaged quota files are refused (read-only and -w, at plan time and by
# apply FILE), naming the damage and e2fsck; nothing is written.
damage() {	# IMG QBLK BYTES(printf): overwrites the start of a 1 KiB block
	pb=$(debugfs -R "bmap <3> $2" "$1" 2>/dev/null)
	[ -n "$pb" ] && [ "$pb" -gt 0 ] || fail "no block $2 in the quota file"
	printf "$3" | dd of="$1" bs=1024 seek="$pb" conv=notrunc 2>/dev/null
}
refused() {	# IMG WHY REQUEST...: each request refused, IMG unchanged
	img=$1; why=$2; shift 2
	cp "$img" "$T/ref.before"
	for req in "$@"; do
		printf '%s\n' "$req" | "$E2LAYOUT" -w -f - "$img" > "$T/out" 2>&1 &&
			{ cat "$T/out"; fail "$req accepted ($why)"; }
		grep -q "The quota files could not be updated because.*$why" \
			"$T/out" || { cat "$T/out"; fail "$req: no message about $why"; }
		cmp -s "$img" "$T/ref.before" || fail "$req ($why) wrote to the image"
	done
}
cp "$T/p.img" "$T/bad.img"
printf 'defrag /big\nplan save %s\nprealloc /newf 1M\nplan save %s\n' \
	"$T/defrag.plan" "$T/new.plan" |
	"$E2LAYOUT" -f - "$T/bad.img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "plan save"; }
damage "$T/bad.img" 0 '\336\255\276\357'		# the header's magic
"$E2LAYOUT" -R "defrag /big" "$T/bad.img" > "$T/out" 2>&1 &&
	fail "read-only defrag planned over a damaged quota file"
grep -q "user quota file (inode 3) is damaged: bad magic.*run e2fsck -f" \
	"$T/out" || { cat "$T/out"; fail "read-only: no reason given"; }
refused "$T/bad.img" "bad magic" "defrag /big --no-fsck" \
	"prealloc /newf 1M --no-fsck" "apply $T/defrag.plan --no-fsck" \
	"apply $T/new.plan --no-fsck" "evacuate $first-$((first + 3)) --no-fsck"
cp "$T/p.img" "$T/bad.img"
damage "$T/bad.img" 1 '\377\377\377\000'	# the root's first pointer
refused "$T/bad.img" "outside 2\.\." "defrag /big --no-fsck" \
	"apply $T/defrag.plan --no-fsck"
# a journal move does not touch the quota files: it still works
"$E2LAYOUT" -w -R "journal_relocate --start --no-undo --no-fsck" \
	"$T/bad.img" > "$T/out" 2>&1 || { cat "$T/out"; fail "journal_relocate"; }

# An id without a record: nothing owned by uid 0 any more, so e2fsck drops
# its record; a new file (uid 0) is refused, an existing one still works.
cp "$T/u.img" "$T/n.img"
printf 'sif / uid 5\nsif /lost+found uid 5\nsif /sg uid 5\n' |
	debugfs -w "$T/n.img" >/dev/null 2>&1
e2fsck -fy "$T/n.img" >/dev/null 2>&1
[ "$(gq "$T/n.img" user 0)" = "0 0" ] || fail "user 0 kept its usage"
refused "$T/n.img" "no record for id 0, the owner the new file would get" \
	"prealloc /newf 1M"
op "$T/n.img" "prealloc /big 3M" /big
echo "ok: damaged quota files and missing records refused"

# Crash points: E2L_FAULT_WRITES=k stops the apply at its k-th write (the
# images are known clean: --no-fsck spares an e2fsck run per point).
# sweep IMG REQUEST NEWFILE JOURNALED
sweep() {
	img=$1; req=$2; new=$3; journaled=$4
	file_sums "$img" > "$T/want"
	k=1; n=0; fixed=0
	while [ $k -le 400 ]; do
		cp "$img" "$T/c.img"
		E2L_FAULT_WRITES=$k "$E2LAYOUT" -w -R "$req --no-undo --no-fsck" \
			"$T/c.img" > "$T/out" 2>&1
		rc=$?
		[ $rc -eq 0 ] && break
		[ $rc -eq 86 ] || { cat "$T/out"; fail "$req: k=$k exit $rc"; }
		n=$((n + 1))
		if [ "$journaled" = 1 ]; then
			e2fsck -E journal_only -y "$T/c.img" > "$T/rec" 2>&1
			[ $? -le 1 ] || { cat "$T/rec"; fail "$req: k=$k recovery"; }
			quota_clean "$T/c.img" ||
				{ cat "$T/fsck.out"; fail "$req: k=$k not clean"; }
		elif ! quota_clean "$T/c.img"; then
			# the ordered writes' window: what e2fsck -p fixes
			e2fsck -fp "$T/c.img" > "$T/rec" 2>&1
			[ $? -le 1 ] || { cat "$T/rec"; fail "$req: k=$k not preen-fixable"; }
			quota_clean "$T/c.img" ||
				{ cat "$T/fsck.out"; fail "$req: k=$k after e2fsck -p"; }
			fixed=$((fixed + 1))
		fi
		file_sums "$T/c.img" | grep -v " \./${new#/}\$" |
			cmp -s - "$T/want" || fail "$req: k=$k contents changed"
		k=$((k + stride))
	done
	[ $rc -eq 0 ] || fail "$req never completed"
	quota_clean "$T/c.img" || fail "$req: the complete apply is not clean"
	[ $n -gt 10 ] || fail "$req: only $n crash points"
	echo "ok: $req: $n crash points (every $stride), $fixed needed e2fsck -p"
}
sweep "$T/p.img" "defrag /big" "" 1
sweep "$T/p.img" "prealloc /proj/new 1M" /proj/new 1
mkq "$T/nj.img" 4096 0 "-O ^has_journal"
sweep "$T/nj.img" "defrag /big" "" 0
exit 0
