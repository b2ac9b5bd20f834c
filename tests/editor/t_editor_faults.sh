#!/bin/sh
# t_editor_faults.sh - crash safety: applies journal_relocate (ext4 and
# block-mapped ext3) and defrag with E2L_FAULT_WRITES=k for every k until the
# apply completes; after each simulated crash every file (and the journal)
# must read back unchanged, and e2fsck -fn must find the filesystem clean -
# except inside the few metadata writes between marking the new run in use
# and releasing the old blocks, where the only finding allowed is leaked
# blocks (in use per the bitmap, owned by nobody), which e2fsck -fy repairs.
. "$(dirname "$0")/lib.sh"

sweep() {	# IMG REQUEST UNDOOPT
	img=$1; req=$2; undo=$3
	sums "$img" "$T/want.md5"
	k=1; leaked=0; clean=0
	while [ $k -le 400 ]; do
		cp --sparse=always "$img" "$T/c.img"
		printf '%s\napply %s\n' "$req" "$undo" |
			E2L_FAULT_WRITES=$k "$E2LAYOUT" -w -f - "$T/c.img" \
			> "$T/out" 2>&1
		rc=$?
		if [ $rc -eq 0 ]; then
			break
		fi
		[ $rc -eq 86 ] || { cat "$T/out"; fail "$req: k=$k exit $rc"; }
		fsck_verdict "$T/c.img"
		v=$?
		[ $v -eq 2 ] && { cat "$T/fsck.out"; fail "$req: k=$k e2fsck found damage"; }
		sums "$T/c.img" "$T/got.md5"
		cmp -s "$T/want.md5" "$T/got.md5" || fail "$req: k=$k contents changed"
		if [ $v -eq 1 ]; then
			leaked=$((leaked + 1))
			e2fsck -fy "$T/c.img" >/dev/null 2>&1
			e2fsck -fn "$T/c.img" >/dev/null 2>&1 ||
				fail "$req: k=$k not repaired by e2fsck -fy"
		else
			clean=$((clean + 1))
		fi
		k=$((k + 1))
	done
	[ $rc -eq 0 ] || fail "$req never completed"
	e2fsck -fn "$T/c.img" >/dev/null 2>&1 || fail "$req: complete apply not clean"
	echo "ok: $req $undo: $((k - 1)) crash points, $clean clean, $leaked with leaked blocks only"
	[ $leaked -le 8 ] || fail "crash window too wide ($leaked writes)"
}

NFILES=20
mk_frag "$T/e4.img" ext4 32M 4096 4
sweep "$T/e4.img" "journal_relocate" "--no-undo"
sweep "$T/e4.img" "defrag /big" ""
mk_frag "$T/e3.img" ext3 32M 1024 2
sweep "$T/e3.img" "journal_relocate --start" "--no-undo"
exit 0
