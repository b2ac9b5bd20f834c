/* demo.h - the built-in demo filesystem, written with libext2fs alone. */
#ifndef E2L_DEMO_H
#define E2L_DEMO_H

#include <ext2fs/ext2fs.h>

#include "sink.h"

/*
 * Writes an ext4 image of about 1 GiB (sparse) at path, laid out as
 * `mke2fs -t ext4 -G 512` would, holding a small tree, files of mixed sizes,
 * fragmented files and a journal in at least 8 extents.  The same seed gives
 * the same image.  Progress and errors go to log.
 */
errcode_t demo_make(const char *path, unsigned long seed, struct sink *log);

#endif
