/* live_fsmap.c - the physical map of a mounted ext4 from FS_IOC_GETFSMAP:
 * free space as the kernel knows it now, and what owns the rest (ext4
 * reports fixed metadata by kind and everything else as "unknown"). */
#include "live.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fsmap.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* ext4's special owners (fs/ext4/fsmap.h). */
#define OWN_FS		FMR_OWNER('X', 1)
#define OWN_LOG		FMR_OWNER('X', 2)
#define OWN_INODES	FMR_OWNER('X', 5)
#define OWN_GDT		FMR_OWNER('f', 1)
#define OWN_RESV_GDT	FMR_OWNER('f', 2)
#define OWN_BLKBM	FMR_OWNER('f', 3)
#define OWN_INOBM	FMR_OWNER('f', 4)

/* Adds a free run to the per-group free cluster counts. */
static void add_free(ext2_filsys fs, blk64_t *group_free, blk64_t start,
		     blk64_t len)
{
	blk64_t first = fs->super->s_first_data_block;
	blk64_t per = EXT2_BLOCKS_PER_GROUP(fs->super);
	int shift = fs->cluster_ratio_bits;

	while (len) {
		dgrp_t g;
		blk64_t end, n;

		if (start < first) {
			n = first - start < len ? first - start : len;
			start += n;
			len -= n;
			continue;
		}
		g = (dgrp_t)((start - first) / per);
		if (g >= fs->group_desc_count)
			return;
		end = first + (blk64_t)(g + 1) * per;
		n = end - start < len ? end - start : len;
		group_free[g] += n >> shift;
		start += n;
		len -= n;
	}
}

static void account(struct live_fsmap_sum *sum, __u64 owner, __u32 flags,
		    blk64_t len)
{
	if (!(flags & FMR_OF_SPECIAL_OWNER)) {
		sum->files += len;
		return;
	}
	switch (owner) {
	case FMR_OWN_FREE:
		sum->free += len;
		sum->free_extents++;
		if (len > sum->largest_free)
			sum->largest_free = len;
		break;
	case FMR_OWN_UNKNOWN:
		sum->files += len;
		break;
	case OWN_INODES:
		sum->inodes += len;
		break;
	case OWN_LOG:
		sum->log += len;
		break;
	case OWN_FS: case OWN_GDT: case OWN_RESV_GDT: case OWN_BLKBM:
	case OWN_INOBM:
		sum->meta += len;
		break;
	default:
		sum->other += len;
	}
}

errcode_t live_fsmap(const struct live_info *l, ext2_filsys fs,
		     struct live_fsmap_sum *sum, blk64_t *group_free,
		     int (*cb)(void *ctx, blk64_t start, blk64_t len,
			       __u64 owner),
		     void *ctx)
{
	enum { BATCH = 512 };
	unsigned bs = fs->blocksize;
	struct fsmap_head *h;
	errcode_t err = 0;
	unsigned i, rounds = 0;
	int fd, done = 0;

	memset(sum, 0, sizeof(*sum));
	if (group_free)
		memset(group_free, 0,
		       fs->group_desc_count * sizeof(*group_free));
	fd = open(l->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	h = calloc(1, fsmap_sizeof(BATCH));
	if (!h) {
		close(fd);
		return ENOMEM;
	}
	h->fmh_count = BATCH;
	h->fmh_keys[1].fmr_device = ~0U;
	h->fmh_keys[1].fmr_physical = ~0ULL;
	h->fmh_keys[1].fmr_owner = ~0ULL;
	h->fmh_keys[1].fmr_offset = ~0ULL;
	h->fmh_keys[1].fmr_flags = ~0U;
	while (!done && rounds++ < 1000000) {
		if (ioctl(fd, FS_IOC_GETFSMAP, h) < 0) {
			err = errno;
			goto out;
		}
		if (!h->fmh_entries)
			break;
		for (i = 0; i < h->fmh_entries; i++) {
			struct fsmap *r = &h->fmh_recs[i];
			blk64_t start = r->fmr_physical / bs;
			blk64_t len = r->fmr_length / bs;

			if (r->fmr_flags & FMR_OF_LAST)
				done = 1;
			if (r->fmr_device != (__u32)l->dev)
				continue;	/* an external journal */
			sum->records++;
			account(sum, r->fmr_owner, r->fmr_flags, len);
			if (group_free && r->fmr_owner == FMR_OWN_FREE &&
			    (r->fmr_flags & FMR_OF_SPECIAL_OWNER))
				add_free(fs, group_free, start, len);
			if (cb && cb(ctx, start, len, r->fmr_owner)) {
				done = 1;
				break;
			}
		}
		fsmap_advance(h);
	}
out:
	free(h);
	close(fd);
	return err;
}
