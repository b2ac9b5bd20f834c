#!/bin/sh
# t_live_defrag_refuse.sh - what the kernel cannot move is refused before
# anything is made, with the reason, a non-zero exit and the file as it
# was: immutable, append-only, an active swap file, a running executable,
# a directory, a file of another filesystem mounted below, a block-mapped file; and whole
# filesystems: no extent feature, bigalloc, a read-only mount, data=journal.
# A refused file beside a good one: the good one moves, the exit is 1.
. "$(dirname "$0")/ldf_lib.sh"
swap=""; other=""
cleanup_more() {
	[ -n "$swap" ] && swapoff "$swap" 2>/dev/null
	[ -n "$other" ] && umount "$other" 2>/dev/null
	ldf_cleanup
}
trap cleanup_more EXIT

# refused "REQUEST" REASON FILE: fails, says REASON, FILE's extents kept.
refused() {
	n=${3:+$(nextents "$3")}
	$E2LAYOUT -R "$1" "$mnt" > "$T/out" 2>"$T/err" &&
		fail "$1 succeeded: $(cat "$T/out")"
	grep -q "$2" "$T/err" || fail "$1: no reason '$2': $(cat "$T/err")"
	[ -z "${3:-}" ] || [ "$(nextents "$3")" = "$n" ] || fail "$1 moved $3"
}

ldf_mount 64M "-b 4096"
ldf_frag 12 4 "$mnt/i" "$mnt/a" "$mnt/ok" "$mnt/sw" "$mnt/x"
chattr +i "$mnt/i" || skip "chattr +i refused here"
refused "defrag i --apply" "i: refused: it is immutable" "$mnt/i"
chattr -i "$mnt/i"
chattr +a "$mnt/a"
refused "defrag a --apply" "a: refused: it is append-only" "$mnt/a"
# a good file beside a refused one: moved, but the request fails
refused "defrag a ok --apply" "a: refused: it is append-only"
grep -q "^Moved $mnt/ok: " "$T/out" || fail "the good file was not moved: $(cat "$T/out")"
chattr -a "$mnt/a"
mkdir "$mnt/dir"
refused "defrag dir" "dir: not a regular file"
mkdir "$mnt/other"
if mount -t tmpfs tmpfs "$mnt/other" 2>/dev/null; then
	other="$mnt/other"
	echo data > "$mnt/other/f"
	refused "defrag other/f" "other/f: not on the filesystem mounted on"
	umount "$other" && other=""
else
	echo "tmpfs mount refused here: the other-filesystem case not tested"
fi
refused "defrag no/such/file" "No such file or directory"
cp "$(command -v sleep)" "$mnt/busybin"
"$mnt/busybin" 600 &
ldf_pids=$!
refused "defrag busybin --apply" "busybin: refused: cannot open it for writing (Text file busy)"
kill $ldf_pids; wait $ldf_pids 2>/dev/null; ldf_pids=""
if command -v mkswap >/dev/null 2>&1 && command -v swapon >/dev/null 2>&1; then
	dd if=/dev/zero of="$mnt/swap" bs=1M count=8 conv=fsync status=none
	chmod 600 "$mnt/swap"
	mkswap "$mnt/swap" >/dev/null 2>&1
	if swapon "$mnt/swap" 2>/dev/null; then
		swap="$mnt/swap"
		refused "defrag swap --apply" "swap: refused: it is an active swap file" "$mnt/swap"
		swapoff "$swap" && swap=""
	else
		echo "swapon refused here: the swap file case not tested"
	fi
fi
ldf_umount
e2fsck -fn "$T/img" > "$T/fsck" 2>&1 || fail "e2fsck -fn: $(cat "$T/fsck")"

# Read-only, then data=journal.
ldf_mount 64M "-b 4096" ro
refused "defrag lost+found/x --apply" "is mounted read-only"
ldf_umount
ldf_mount 64M "-b 4096" data=journal
ldf_frag 8 4 "$mnt/j" "$mnt/k"
refused "defrag j --apply" "data=journal" "$mnt/j"
ldf_umount
ldf_mount 64M "-b 4096 -O bigalloc"
refused "defrag x" "uses bigalloc"
ldf_umount

# ext3 (no extent feature) under the ext4 driver; then with the feature
# turned on, files written before it are still block-mapped.
ldf_mount 64M "-b 4096" "" mkfs.ext3
ldf_frag 8 4 "$mnt/b" "$mnt/c"
refused "defrag b --apply" "has no extent feature" "$mnt/b"
ldf_umount
tune2fs -O extent "$T/img" >/dev/null 2>&1 || fail "tune2fs -O extent"
loop=$(losetup -f --show "$T/img") || fail "losetup"
mount -t ext4 "$loop" "$mnt" || fail "mount after tune2fs"
mounted=1
refused "defrag b --apply" "b: refused: it is block-mapped" "$mnt/b"
ldf_umount
e2fsck -fn "$T/img" > "$T/fsck" 2>&1 || fail "e2fsck -fn: $(cat "$T/fsck")"
echo "live defrag refusals: immutable, append-only, swap, busy, dir, other fs, block-mapped, no extents, bigalloc, ro, data=journal: ok"
exit 0
