/* fs_bound.c - does the opened filesystem fit the partition or block
 * device holding it?  -w is refused when it does not. */
#include "fs_source.h"
#include "e2l_err.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* The bytes device holds and what to call it: the partition fs_source
 * chose, else a block device's size; 0 when not known (an image file,
 * whose end a write only moves). */
static unsigned long long holder_bytes(struct session *s, const char *device,
				       char *what, size_t len)
{
	blk64_t n;
	struct stat st;

	if (s->source_bytes) {
		snprintf(what, len, "partition %d", s->source_part);
		return s->source_bytes;
	}
	if (strchr(device, '?') || stat(device, &st) || !S_ISBLK(st.st_mode) ||
	    ext2fs_get_device_size2(device, 512, &n))
		return 0;
	snprintf(what, len, "%s", device);
	return (unsigned long long)n * 512;
}

errcode_t fs_bound_check(struct session *s, ext2_filsys fs,
			 const char *device, unsigned flags)
{
	unsigned long long want, have;
	char what[PATH_MAX];

	if (!fs || (fs->flags & EXT2_FLAG_IMAGE_FILE))
		return 0;
	have = holder_bytes(s, device, what, sizeof(what));
	want = (unsigned long long)ext2fs_blocks_count(fs->super) *
	       fs->blocksize;
	if (!have || want <= have)
		return 0;
	out_error(s->out, "e2layout", 0, "%s%s: the filesystem says it has "
		  "%llu blocks of %u bytes (%llu bytes), but %s holds %llu "
		  "bytes: %s", flags & SESSION_RW ? "" : "warning: ", device,
		  (unsigned long long)ext2fs_blocks_count(fs->super),
		  fs->blocksize, want, what, have, flags & SESSION_RW ?
		  "a write could land past its end, in what follows it; "
		  "refusing to open it read-write (check the partition "
		  "table, or the superblock, with e2fsck -n)" :
		  "reads past its end see what follows it");
	return flags & SESSION_RW ? E2L_ERR_UNSAFE : 0;
}
