# undolib.sh - what the undo tests share (sourced after testlib.sh, not
# run): images whose free space held old data, with a file in pieces over
# it, and the sweep of a full undo filesystem at each of its writes.

# oldpieces IMG OLD_BYTES SIZE STEP: a 32 MiB ext4 (4 KiB blocks) whose
# free space first held OLD_BYTES of random data (a file written and
# deleted), then twelve files $T/p1..p12 of SIZE + i * STEP bytes written
# as /f1../f12, the odd ones deleted again (their holes are left for
# bigfile).
oldpieces() {
	mke2fs -q -F -t ext4 -b 4096 "$1" 32M >/dev/null 2>&1 || fail "mke2fs"
	head -c "$2" /dev/urandom > "$T/old"
	debugfs -w -R "write $T/old old" "$1" >/dev/null 2>&1
	debugfs -w -R "rm old" "$1" >/dev/null 2>&1
	rm -f "$T/old"
	i=1
	while [ $i -le 12 ]; do
		head -c $(($3 + i * $4)) /dev/urandom > "$T/p$i"
		echo "write $T/p$i f$i"
		i=$((i + 1))
	done | debugfs -w "$1" >/dev/null 2>&1
	printf 'rm f%s\n' 1 3 5 7 9 11 | debugfs -w "$1" >/dev/null 2>&1
}

# bigfile IMG NAME MIN N...: /NAME written from the pieces $T/pN... (into
# the holes of the deleted ones; its contents kept in $T/NAME), the image
# clean after it and /NAME in at least MIN extents.
bigfile() {
	bf_img=$1 bf_name=$2 bf_min=$3
	shift 3
	: > "$T/$bf_name"
	for bf_n; do cat "$T/p$bf_n" >> "$T/$bf_name"; done
	debugfs -w -R "write $T/$bf_name $bf_name" "$bf_img" >/dev/null 2>&1
	fsck_clean "$bf_img" || fail "the generated $bf_img is not clean"
	bf_n=$(debugfs -R "ex /$bf_name" "$bf_img" 2>/dev/null | grep -c ' - .* - ')
	[ "$bf_n" -ge "$bf_min" ] || fail "/$bf_name is in only $bf_n extents"
}

# undo_full_sweep IMG STRIDE: defrag /big of copies of IMG with the undo
# file's filesystem "full" (E2L_FAULT_UNDO_WRITES=k: ENOSPC) at each k-th
# of its writes after the header, STRIDE apart, until the apply completes:
# each time apply says so and that the file still restores, and e2undo
# gives IMG back byte for byte.  Sets sweep_n to the failures seen.
undo_full_sweep() {
	k=3; sweep_n=0
	while [ $k -le 400 ]; do
		cp --sparse=always "$1" "$T/c.img"
		rm -f "$T/u.e2undo"
		E2L_FAULT_UNDO_WRITES=$k "$E2LAYOUT" -w -R \
			"defrag /big --undo $T/u.e2undo" "$T/c.img" > "$T/out" 2>&1 &&
			return 0
		grep -q "No space left on device while applying the plan" "$T/out" ||
			{ cat "$T/out"; fail "undo write $k: no message about the failure"; }
		grep -qF "records every block written before the failure: \`e2undo $T/u.e2undo $T/c.img\`" "$T/out" ||
			{ cat "$T/out"; fail "undo write $k: the message does not say the file restores"; }
		e2undo "$T/u.e2undo" "$T/c.img" > "$T/undo.out" 2>&1 ||
			{ cat "$T/undo.out"; fail "undo write $k: e2undo refused"; }
		cmp -s "$T/c.img" "$1" || fail "undo write $k: not restored byte for byte"
		sweep_n=$((sweep_n + 1)); k=$((k + $2))
	done
	fail "the apply never completed under E2L_FAULT_UNDO_WRITES"
}
