#!/bin/sh
# t_editor_faults.sh - crash safety: applies journal_relocate (ext4 and
# block-mapped ext3), defrag and prealloc (creating its file) with
# E2L_FAULT_WRITES=k for every k until the apply completes.  After each simulated crash, the standard journal recovery
# runs first (e2fsck -E journal_only -y, as a mount would); then e2fsck -fn
# must find the filesystem clean, every file must read back unchanged, and
# the file's (or the journal's) blocks must be either the old or the new
# layout.  On ext2 (no journal) the ordered writes keep a window of a few
# writes in which the only finding allowed is leaked blocks (in use per the
# bitmap, owned by nobody), which e2fsck -fy repairs.
. "$(dirname "$0")/lib.sh"

# The plain build tries every crash point; the sanitizer build (slower, and
# run after it) every other one.
stride=1
case "${E2L_BUILD:-}" in *asan*) stride=2 ;; esac

layout() {	# IMG FILE
	debugfs -c -R "blocks $2" "$1" 2>/dev/null
}

sweep() {	# IMG REQUEST UNDOOPT FILE
	img=$1; req=$2; undo=$3; file=$4
	journaled=0
	dumpe2fs -h "$img" 2>/dev/null | grep -q '^Filesystem features:.*has_journal' &&
		journaled=1
	sums "$img" "$T/want.md5"
	old=$(layout "$img" "$file")
	cp --sparse=always "$img" "$T/n.img"
	printf 'plan %s\napply %s\n' "$req" "$undo" |
		"$E2LAYOUT" -w -f - "$T/n.img" > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "$req: the uninterrupted apply failed"; }
	new=$(layout "$T/n.img" "$file")
	[ "$old" != "$new" ] || fail "$req: the layout did not change"
	k=1; leaked=0; clean=0; olds=0; news=0; replays=0
	while [ $k -le 400 ]; do
		cp --sparse=always "$img" "$T/c.img"
		printf 'plan %s\napply %s\n' "$req" "$undo" |
			E2L_FAULT_WRITES=$k "$E2LAYOUT" -w -f - "$T/c.img" \
			> "$T/out" 2>&1
		rc=$?
		if [ $rc -eq 0 ]; then
			break
		fi
		[ $rc -eq 86 ] || { cat "$T/out"; fail "$req: k=$k exit $rc"; }
		if [ $journaled = 1 ]; then
			# a committed transaction not yet fully checkpointed
			debugfs -R "logdump" "$T/c.img" 2>/dev/null |
				grep -q 'type 2 (commit block)' && replays=$((replays + 1))
			e2fsck -E journal_only -y "$T/c.img" > "$T/rec.out" 2>&1
			[ $? -le 1 ] || { cat "$T/rec.out"; fail "$req: k=$k journal recovery failed"; }
		fi
		fsck_verdict "$T/c.img"
		v=$?
		[ $v -eq 2 ] && { cat "$T/fsck.out"; fail "$req: k=$k e2fsck found damage"; }
		[ $v -eq 1 ] && [ $journaled = 1 ] &&
			{ cat "$T/fsck.out"; fail "$req: k=$k not clean after journal recovery"; }
		sums "$T/c.img" "$T/got.md5"
		case $req in prealloc*)	# the new file may exist (whole)
			grep -v " \./${file#/}\$" "$T/got.md5" > "$T/g2"
			mv "$T/g2" "$T/got.md5" ;;
		esac
		cmp -s "$T/want.md5" "$T/got.md5" || fail "$req: k=$k contents changed"
		got=$(layout "$T/c.img" "$file")
		if [ "$got" = "$old" ]; then
			olds=$((olds + 1))
		elif [ "$got" = "$new" ]; then
			news=$((news + 1))
		else
			fail "$req: k=$k neither the old nor the new layout of $file"
		fi
		if [ $v -eq 1 ]; then
			leaked=$((leaked + 1))
			e2fsck -fy "$T/c.img" >/dev/null 2>&1
			e2fsck -fn "$T/c.img" >/dev/null 2>&1 ||
				fail "$req: k=$k not repaired by e2fsck -fy"
		else
			clean=$((clean + 1))
		fi
		k=$((k + stride))
	done
	[ $rc -eq 0 ] || fail "$req never completed"
	e2fsck -fn "$T/c.img" >/dev/null 2>&1 || fail "$req: complete apply not clean"
	echo "ok: $req $undo: crash points up to $((k - 1)) (every $stride), $clean clean, $leaked with leaked blocks only ($olds old layout, $news new; $replays replayed a committed transaction)"
	[ $journaled = 0 ] || [ $replays -gt 0 ] ||
		fail "$req: no crash point left a transaction to replay"
	[ $leaked -le 8 ] || fail "crash window too wide ($leaked writes)"
}

# Journal checksums as a kernel would have turned them on: v3 on the ext4
# (metadata_csum), the v1 commit checksum on the ext3.
jcsum() {
	printf 'jo -c\njc\n' | debugfs -w -f - "$1" >/dev/null 2>&1
	dumpe2fs -h "$1" 2>/dev/null | grep -q "^Journal features:.*$2" ||
		fail "no $2 on the test journal"
}

NFILES=12
mk_frag "$T/e4.img" ext4 32M 4096 4
jcsum "$T/e4.img" journal_checksum_v3
sweep "$T/e4.img" "journal_relocate" "--no-undo" "<8>"
sweep "$T/e4.img" "defrag /big" "" /big
# prealloc creating its file: the new inode, its bitmap and the directory
# entry are one transaction too (the file exists, empty or preallocated, or
# not at all).
cp "$E2L_IMAGES/ext4.img" "$T/p.img"
sweep "$T/p.img" "prealloc /newfile 8M" "--no-undo" /newfile
mk_frag "$T/e3.img" ext3 32M 1024 2
jcsum "$T/e3.img" journal_checksum
sweep "$T/e3.img" "journal_relocate --start" "--no-undo" "<8>"
mk_frag "$T/e2.img" ext2 32M 4096 0
sweep "$T/e2.img" "defrag /big" "--no-undo" /big
exit 0
