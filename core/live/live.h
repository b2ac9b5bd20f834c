/* live.h - the kernel's view of a mounted ext4: which mount and device a
 * session is looking at, its /sys/fs/ext4 tunables, the mballoc group table
 * (/proc/fs/ext4/DEV/mb_groups), the physical map (FS_IOC_GETFSMAP) and file
 * extents (FIEMAP).  Read-only towards the device. */
#ifndef E2L_LIVE_H
#define E2L_LIVE_H

#include <ext2fs/ext2fs.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct live_info {
	char mnt[PATH_MAX];	/* the mount point */
	char source[PATH_MAX];	/* the device as mountinfo names it */
	char sysname[64];	/* NAME in /sys/fs/ext4/NAME, /proc/fs/ext4/NAME */
	unsigned major, minor;
	dev_t dev;		/* st_dev of the mount (fsmap's fmr_device) */
	__u64 kdev;		/* as the ext4 tracepoints encode dev_t */
};

/*
 * Finds the ext2/3/4 mount holding directory dir (via /proc/self/mountinfo):
 * copies its device into dev and its mount point into mnt, and sets
 * *is_mount_point when dir is that mount point itself (a mount's root, a
 * bind mount's too) rather than a directory somewhere below it.  ENOENT
 * when dir is on no ext* mount.
 */
errcode_t live_device_of_dir(const char *dir, char *dev, size_t len,
			     char *mnt, size_t mlen, bool *is_mount_point);

/* Sets up *lp for the filesystem mounted on mnt.  Free with live_free. */
errcode_t live_attach(const char *mnt, struct live_info **lp);
void live_free(struct live_info *l);

/* Reads /sys/fs/ext4/NAME/attr into buf (trailing newline removed). */
errcode_t live_sysfs_read(const struct live_info *l, const char *attr,
			  char *buf, size_t len);
/* Writes val to /sys/fs/ext4/NAME/attr. */
errcode_t live_sysfs_write(const struct live_info *l, const char *attr,
			   const char *val);

/* One line of /proc/fs/ext4/NAME/mb_groups (counts are clusters). */
#define LIVE_MB_ORDERS 24
struct live_mbgroup {
	dgrp_t group;
	__u32 free, frags, first;
	__u32 order[LIVE_MB_ORDERS];	/* free extents of 2^i clusters */
	int norders;
};

/* Reads the kernel's mballoc table; *gp is malloc'd (*np entries). */
errcode_t live_mbgroups_read(const struct live_info *l,
			     struct live_mbgroup **gp, dgrp_t *np);

/* What FS_IOC_GETFSMAP reports, summed; blocks are filesystem blocks. */
struct live_fsmap_sum {
	blk64_t free, free_extents, largest_free;
	blk64_t inodes;		/* inode tables */
	blk64_t meta;		/* superblocks, descriptors, bitmaps */
	blk64_t log;		/* the journal */
	blk64_t files;		/* owned by inodes (data and extent blocks) */
	blk64_t other;
	size_t records;
};

/*
 * Walks the mount's physical map.  When group_free is not NULL it gets, for
 * each of fs's groups, the free clusters the map reports.  cb (may be NULL)
 * sees every record: start and length in blocks, owner as in linux/fsmap.h.
 */
errcode_t live_fsmap(const struct live_info *l, ext2_filsys fs,
		     struct live_fsmap_sum *sum, blk64_t *group_free,
		     int (*cb)(void *ctx, blk64_t start, blk64_t len,
			       __u64 owner),
		     void *ctx);

/* One extent of a file as FIEMAP reports it, in bytes. */
struct live_extent {
	__u64 logical, physical, length;
	__u32 flags;		/* FIEMAP_EXTENT_* */
};

/* The extents of path (synced first); *ep is malloc'd. */
errcode_t live_fiemap(const char *path, struct live_extent **ep, size_t *np);
/* The same for an open file (an unlinked one too). */
errcode_t live_fiemap_fd(int fd, struct live_extent **ep, size_t *np);

#endif
