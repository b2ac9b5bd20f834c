/* fs_probe.h - naming what a device holds when it is not ext2/3/4. */
#ifndef E2L_FS_PROBE_H
#define E2L_FS_PROBE_H

#include "sink.h"

/*
 * After "Bad magic number in super-block": tells what libblkid finds on
 * device, as debugfs, e2fsck and tune2fs do ("IMG contains a xfs file
 * system labelled 'X'" on standard output, or "Found a dos partition table
 * in IMG" on the error channel).  Says nothing when blkid finds nothing.
 */
void fs_probe_report(struct sink *out, const char *device);

#endif
