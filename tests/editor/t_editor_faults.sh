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

. "$(dirname "$0")/sweep.sh"

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
