#!/bin/sh
# t_head_read.sh - before the open, the image's first bytes are read once
# (the journal-device question and the qcow2/partition sniff share it)
# through a descriptor told its reads are random, and the group descriptor
# blocks ext2fs_open reads next are asked for ahead, exactly (strace: a
# separate plain read used to widen the kernel's readahead of the image).
# The open's own checks and output are the same.
. "$(dirname "$0")/../lib/testlib.sh"
export MKE2FS_CONFIG=/dev/null
img=$T/a.img
truncate -s 64G "$img"
# 512 groups of 64-byte descriptors: the table is blocks 1-8
mke2fs -q -F -O extent,64bit,^resize_inode -b 4096 "$img" >/dev/null 2>&1 ||
	fail "mke2fs"
"$E2LAYOUT" -R groups "$img" > "$T/out" 2>&1 || { cat "$T/out"; fail "groups"; }
grep -q "^511 " "$T/out" || fail "group 511 not listed"
command -v strace >/dev/null 2>&1 || skip "strace not installed"
strace -o "$T/trace" -e trace=openat,pread64,fadvise64 "$E2LAYOUT" \
	-R groups "$img" > "$T/out2" 2>&1 || skip "strace not usable here"
cmp -s "$T/out" "$T/out2" || fail "the output differs under strace"
n=$(grep -c "openat(.*\"$img\"" "$T/trace")
[ "$n" = 2 ] || { cat "$T/trace"; fail "image opened $n times, not 2"; }
# the first open: RANDOM, then one read of 2048 bytes at 0, then the hint
awk -v img="\"$img\"" '
	index($0, img) && /openat/ { o++; fd = $NF; next }
	o == 1 && !done {
		if ($0 ~ "^fadvise64\\(" fd ", 0, 0, POSIX_FADV_RANDOM\\)") r = 1
		else if ($0 ~ "^pread64\\(" fd ",.*, 2048, 0\\) = 2048") p = r
		else if ($0 ~ "^fadvise64\\(" fd ", 4096, 32768, POSIX_FADV_WILLNEED\\)") { w = p; done = 1 }
	}
	END { exit !(r && p && w) }' "$T/trace" ||
	{ cat "$T/trace"; fail "the head read: not RANDOM, one read, the hint"; }
echo "ok: one head read (random), descriptors hinted, same output"
