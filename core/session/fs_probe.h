/* fs_probe.h - naming what a device holds when it is not ext2/3/4. */
#ifndef E2L_FS_PROBE_H
#define E2L_FS_PROBE_H

#include <ext2fs/ext2fs.h>

#include "sink.h"

/*
 * After "Bad magic number in super-block": tells what libblkid finds on
 * device, as debugfs, e2fsck and tune2fs do ("IMG contains a xfs file
 * system labelled 'X'" on standard output, or "Found a dos partition table
 * in IMG" on the error channel).  Says nothing when blkid finds nothing.
 */
void fs_probe_report(struct sink *out, const char *device);

/*
 * The device holding fs's external journal, as debugfs looks for it: the
 * block device libblkid knows by the journal's UUID, else the one with
 * s_journal_dev's number.  A malloc'd path (free it), or NULL.
 */
char *fs_probe_journal_dev(ext2_filsys fs);

/*
 * True when fs was opened from an e2image file (-i) with no data source
 * (-d): it holds the superblock, descriptors, bitmaps and inode tables,
 * and no other block's content.
 */
int fs_probe_metadata_only(ext2_filsys fs);

/*
 * A descriptor of device for readahead hints (posix_fadvise WILLNEED) of
 * fs's blocks, or -1 when hints there would be wasted or wrong: no device,
 * an e2image file (its blocks do not lie at block x blocksize, and the
 * data may come from another source), direct I/O (libext2fs's reads skip
 * the page cache the hints fill).  The caller closes it.
 */
int fs_probe_readahead_fd(ext2_filsys fs, const char *device);

#endif
