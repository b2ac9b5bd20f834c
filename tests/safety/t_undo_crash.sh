#!/bin/sh
# t_undo_crash.sh - the undo file left behind by an apply that stopped
# part-way restores the image byte for byte with plain e2undo: after a crash
# at every write (E2L_FAULT_WRITES=k: _exit, no cleanup) of defrag, journal
# relocation and prealloc on a journaled ext4, of defrag on a 1 KiB-block
# ext2, and after the undo file's own filesystem "fills up" at each of its
# writes in turn (E2L_FAULT_UNDO_WRITES=k: ENOSPC), where apply must say
# that nothing was written (before the header) or that the file still
# restores.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/undolib.sh"
command -v e2undo >/dev/null 2>&1 || skip "e2undo is not installed: no oracle"
stride=1
case "${E2L_BUILD:-}" in *asan*) stride=3 ;; esac

# frag IMG TYPE BLOCKSIZE: files written then every other one deleted, and a
# file "big" written into the holes (so in several extents).
frag() {
	mke2fs -q -F -t "$2" -b "$3" "$1" 16M >/dev/null 2>&1 || fail "mke2fs $2"
	i=1
	while [ $i -le 10 ]; do
		head -c $((300000 + i * 1000)) /dev/urandom > "$T/p$i"
		echo "write $T/p$i f$i"
		i=$((i + 1))
	done | debugfs -w "$1" >/dev/null 2>&1
	printf 'rm f%s\n' 1 3 5 7 9 | debugfs -w "$1" >/dev/null 2>&1
	cat "$T/p1" "$T/p3" "$T/p5" > "$T/big"
	debugfs -w -R "write $T/big big" "$1" >/dev/null 2>&1
	fsck_clean "$1" || fail "the generated $1 is not clean"
}

# sweep IMG REQUEST: a crash after each k-th write until the apply
# completes; each time plain e2undo must give back the original.
sweep() {
	k=1; n=0
	while [ $k -le 300 ]; do
		cp --sparse=always "$1" "$T/c.img"
		rm -f "$T/u.e2undo"
		E2L_FAULT_WRITES=$k "$E2LAYOUT" -w -R "$2 --undo $T/u.e2undo" \
			"$T/c.img" > "$T/out" 2>&1
		rc=$?
		[ $rc -eq 0 ] && break
		[ $rc -eq 86 ] || { cat "$T/out"; fail "$2: k=$k exit $rc"; }
		e2undo "$T/u.e2undo" "$T/c.img" > "$T/undo.out" 2>&1 ||
			{ cat "$T/undo.out"; fail "$2: k=$k e2undo refused the undo file"; }
		cmp -s "$T/c.img" "$1" ||
			fail "$2: k=$k e2undo did not restore the image byte for byte"
		n=$((n + 1))
		k=$((k + stride))
	done
	[ $rc -eq 0 ] || fail "$2 never completed"
	[ $n -gt 3 ] || fail "$2: only $n crash points"
	echo "ok: $2: $n crash points (every $stride), each restored exactly"
}

frag "$T/e4.img" ext4 4096
sweep "$T/e4.img" "defrag /big"
cp "$E2L_IMAGES/ext4.img" "$T/j.img"
sweep "$T/j.img" "journal_relocate --start"
sweep "$T/j.img" "prealloc /newfile 2M"
frag "$T/e2.img" ext2 1024
sweep "$T/e2.img" "defrag /big"

# The undo file's filesystem full before its header (write 1 is the
# superblock copy, 2 the header): nothing is written.
for k in 1 2; do
	cp --sparse=always "$T/e4.img" "$T/c.img"
	rm -f "$T/u0.e2undo"
	E2L_FAULT_UNDO_WRITES=$k "$E2LAYOUT" -w -R "defrag /big --undo $T/u0.e2undo" \
		"$T/c.img" > "$T/out" 2>&1 && fail "undo write $k failed, yet apply succeeded"
	grep -qF "nothing was written to $T/c.img" "$T/out" ||
		{ cat "$T/out"; fail "undo write $k: no message that nothing was written"; }
	cmp -s "$T/c.img" "$T/e4.img" || fail "undo write $k: the image changed"
done
# Full part-way, at every later write of the undo file until the apply
# completes: the write that needed it is not made, apply says the file
# still restores, and it does.
undo_full_sweep "$T/e4.img" $stride
[ $sweep_n -ge 5 ] || fail "only $sweep_n undo write failures before the apply completed"
echo "ok: a full undo filesystem at $sweep_n writes part-way (every $stride): said so, and restored exactly"
exit 0
