#!/bin/sh
# t_undo_writer.sh - the paths of apply's own e2undo writer (undo_writer.c)
# that t_undo_crash does not reach, each checked with the real e2undo and
# cmp: more keys than one key block holds (the next key block follows the
# data), blocks whose old contents are data rather than never-written holes
# (read and saved, not left as holes), and a filesystem at an offset in its
# image (IMAGE?offset=N: the header records fs_offset).  Crashes at points
# spread over each apply (E2L_FAULT_WRITES=k) restore too.
. "$(dirname "$0")/../lib/testlib.sh"
command -v e2undo >/dev/null 2>&1 || skip "e2undo is not installed: no oracle"

# pieces IMG N [OFFSET]: a file "big" in about N extents (N small files,
# every other one deleted, big written into the holes); the image's first
# OFFSET bytes are random and the filesystem follows them.
pieces() {
	dev=$1
	rm -f "$1"
	if [ -n "${3:-}" ]; then
		head -c "$3" /dev/urandom > "$1"
		dev="$1?offset=$3"
	fi
	mke2fs -q -F -t ext4 -b 4096 "$T/fs.tmp" 32M >/dev/null 2>&1 ||
		fail "mke2fs"
	cat "$T/fs.tmp" >> "$1"
	rm -f "$T/fs.tmp"
	head -c 4096 /dev/urandom > "$T/one"
	i=1
	while [ $i -le $((2 * $2)) ]; do
		echo "write $T/one f$i"
		i=$((i + 1))
	done | debugfs -w "$dev" >/dev/null 2>&1
	i=1
	while [ $i -le $((2 * $2)) ]; do
		echo "rm f$i"
		i=$((i + 2))
	done | debugfs -w "$dev" >/dev/null 2>&1
	head -c $(($2 * 4096)) /dev/urandom > "$T/big"
	debugfs -w -R "write $T/big big" "$dev" >/dev/null 2>&1
	e2fsck -fn "$dev" > "$T/fsck.out" 2>&1 ||
		{ cat "$T/fsck.out"; fail "the generated $1 is not clean"; }
}

# olddata IMG: the free space filled with random bytes, then freed.
olddata() {
	free=$(dumpe2fs -h "$1" 2>/dev/null | awk -F: '/^Free blocks/ {print $2+0}')
	head -c $(((free - 64) * 4096)) /dev/urandom > "$T/fill"
	debugfs -w -R "write $T/fill fill" "$1" >/dev/null 2>&1
	debugfs -w -R "rm fill" "$1" >/dev/null 2>&1
	rm -f "$T/fill"
	fsck_clean "$1" || { cat "$T/fsck.out"; fail "$1 is not clean after the fill"; }
}

# restores DEV IMG ORIG WHAT [ENV]: defrag /big with an undo file (with ENV
# set), then e2undo must give back ORIG byte for byte.
restores() {
	cp --sparse=always "$3" "$2"
	rm -f "$T/u.e2undo"
	env ${5:-E2L_NONE=1} "$E2LAYOUT" -w -R "defrag /big --undo $T/u.e2undo" \
		"$1" > "$T/out" 2>&1
	rc=$?
	e2undo "$T/u.e2undo" "$2" > "$T/undo.out" 2>&1 ||
		{ cat "$T/out" "$T/undo.out"; fail "$4: e2undo refused the undo file"; }
	cmp -s "$2" "$3" || fail "$4: e2undo did not restore the image byte for byte"
	return $rc
}

# sweep DEV IMG ORIG WHAT STEP: the whole apply, then crashes every STEP
# writes until it completes.
sweep() {
	restores "$1" "$2" "$3" "$4" || { cat "$T/out"; fail "$4: the apply failed"; }
	k=1; n=0
	while :; do
		restores "$1" "$2" "$3" "$4 k=$k" E2L_FAULT_WRITES=$k && break
		[ $rc -eq 86 ] || { cat "$T/out"; fail "$4: k=$k exit $rc"; }
		n=$((n + 1)); k=$((k + $5))
		[ $k -le 2000 ] || fail "$4: never completed"
	done
	[ $n -ge 4 ] || fail "$4: only $n crash points"
	echo "ok: $4: the apply and $n crash points (every $5) restored exactly"
}

# More keys than a key block's 255 (each extent's copy is its own write).
pieces "$T/k.img" 300
cp --sparse=always "$T/k.img" "$T/c.img"
rm -f "$T/u.e2undo"
"$E2LAYOUT" -w -R "defrag /big --undo $T/u.e2undo" "$T/c.img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "defrag of 300 extents failed"; }
keys=$(e2undo -h "$T/u.e2undo" "$T/c.img" 2>/dev/null | awk -F'\t' '/^nr keys/ {print $2}')
[ "${keys:-0}" -gt 255 ] ||
	fail "the undo file holds ${keys:-no} keys: not more than one key block"
sweep "$T/c.img" "$T/c.img" "$T/k.img" "$keys keys" 41

# Old contents that are data, not holes: the file holds them (its size on
# disk is at least the blocks the copy overwrote).
pieces "$T/o.img" 40
olddata "$T/o.img"
restores "$T/c.img" "$T/c.img" "$T/o.img" "old data" ||
	{ cat "$T/out"; fail "defrag over old data failed"; }
cp --sparse=always "$T/o.img" "$T/c.img"
rm -f "$T/u.e2undo"
"$E2LAYOUT" -w -R "defrag /big --undo $T/u.e2undo" "$T/c.img" >/dev/null 2>&1
[ "$(du -k "$T/u.e2undo" | cut -f1)" -ge 160 ] ||
	fail "old data: the undo file keeps only $(du -k "$T/u.e2undo" | cut -f1) KiB on disk"
sweep "$T/c.img" "$T/c.img" "$T/o.img" "old data" 5

# The old contents go to the file with O_DIRECT, each write in flight while
# the next is read: none of the data stays in the page cache.  A direct
# write the kernel refuses (E2L_FAULT_UNDO_DIRECT=k: the k-th made
# misaligned) is made again buffered, and so is every later one; the file
# restores the image byte for byte either way, crashes included.
if [ "$(stat -f -c %T "$T")" = tmpfs ] || ! command -v fincore >/dev/null 2>&1; then
	echo "ok: page cache check skipped: $T is on tmpfs or there is no fincore"
else
	cp --sparse=always "$T/o.img" "$T/c.img"
	rm -f "$T/u.e2undo"
	"$E2LAYOUT" -w -R "defrag /big --undo $T/u.e2undo" "$T/c.img" >/dev/null 2>&1 ||
		fail "direct: the apply failed"
	cached=$(fincore --bytes --noheadings --output RES "$T/u.e2undo")
	[ "${cached:-999999}" -lt 65536 ] ||
		fail "direct: $cached bytes of the undo file are in the page cache"
	echo "ok: direct: $cached bytes of the undo file's $(du -k "$T/u.e2undo" | cut -f1) KiB in the page cache"
fi
for k in 1 3; do
	restores "$T/c.img" "$T/c.img" "$T/o.img" "direct refused k=$k" \
		E2L_FAULT_UNDO_DIRECT=$k ||
		{ cat "$T/out"; fail "direct refused k=$k: the apply failed"; }
done
echo "ok: a refused direct write, then buffered ones: restored exactly"

# A filesystem 1 MiB into its image.
pieces "$T/p.img" 40 1048576
sweep "$T/c.img?offset=1048576" "$T/c.img" "$T/p.img" "offset 1 MiB" 5
e2undo -h "$T/u.e2undo" "$T/c.img" 2>/dev/null | grep -q '^fs offset:.1048576' ||
	fail "offset: the header does not record the filesystem's offset"
# the restore hint is a command e2undo runs (it opens no IMAGE?offset=N)
cp --sparse=always "$T/p.img" "$T/c.img"
rm -f "$T/u.e2undo"
"$E2LAYOUT" -w -R "defrag /big --undo $T/u.e2undo" "$T/c.img?offset=1048576" \
	> "$T/out" 2>&1 || { cat "$T/out"; fail "offset: the apply failed"; }
hint=$(sed -n 's/^undo file: .* (restore with: \(.*\))$/\1/p' "$T/out")
[ "$hint" = "e2undo -o 1048576 $T/u.e2undo $T/c.img" ] ||
	fail "offset: the restore hint is '$hint'"
$hint > "$T/undo.out" 2>&1 || { cat "$T/undo.out"; fail "offset: '$hint' failed"; }
cmp -s "$T/c.img" "$T/p.img" || fail "offset: '$hint' did not restore the image"
echo "ok: offset: the restore hint's command restores the image"
exit 0
