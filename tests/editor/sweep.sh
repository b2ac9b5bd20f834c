# sweep.sh - the crash-point sweep shared by the editor tests (sourced
# after lib.sh, not run): sweep IMG REQUEST UNDOOPT FILE applies the plan
# with E2L_FAULT_WRITES=k for every k until the apply completes and checks
# each crash as a mount would see it (journal replay, then e2fsck -fn, every
# file's contents, FILE's old or new layout).  For prealloc, FILE's contents
# are checked against $SWEEP_KEEP (a copy of its old bytes) when set.

# Every crash point, plain and under the sanitizers alike (the sanitizer
# build tried every other one while the tests ran one at a time).
stride=1

layout() {	# IMG FILE
	debugfs -c -R "blocks $2" "$1" 2>/dev/null
}

# prealloc on an existing file: its old bytes unchanged, the rest zeros
keep_check() {	# IMG FILE WHAT
	[ -n "${SWEEP_KEEP:-}" ] || return 0
	rm -f "$T/keep.out"
	debugfs -c -R "dump $2 $T/keep.out" "$1" >/dev/null 2>&1
	n=$(stat -c %s "$SWEEP_KEEP")
	head -c "$n" "$T/keep.out" | cmp -s - "$SWEEP_KEEP" ||
		fail "$3: the old bytes of $2 changed"
	tail -c +$((n + 1)) "$T/keep.out" | tr -d '\0' | grep -q . &&
		fail "$3: the preallocated part of $2 is not zeros"
	return 0
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
			grep -v " \./${file#/}\$" "$T/want.md5" > "$T/w2"
			grep -v " \./${file#/}\$" "$T/got.md5" > "$T/g2"
			mv "$T/g2" "$T/got.md5"
			keep_check "$T/c.img" "$file" "$req k=$k" ;;
		*--size*)	# a resized journal's superblock differs
			grep -v '<8>$' "$T/want.md5" > "$T/w2"
			grep -v '<8>$' "$T/got.md5" > "$T/g2"
			mv "$T/g2" "$T/got.md5" ;;
		*) cp "$T/want.md5" "$T/w2" ;;
		esac
		cmp -s "$T/w2" "$T/got.md5" || fail "$req: k=$k contents changed"
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

