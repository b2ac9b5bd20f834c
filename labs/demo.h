/* demo.h - the built-in demo filesystem, written with libext2fs alone. */
#ifndef E2L_DEMO_H
#define E2L_DEMO_H

#include <ext2fs/ext2fs.h>

#include "sink.h"

/*
 * Writes an ext4 image of about 1 GiB (sparse) at path, laid out as
 * `mke2fs -t ext4 -G 512` would, holding a small tree, files of mixed sizes,
 * fragmented files and a journal in at least 8 extents.  The same seed gives
 * the same image.  Anything existing at path is refused (EEXIST) unless
 * force is set, which replaces a regular file (never anything else).
 * Progress and errors go to log.
 */
errcode_t demo_make(const char *path, unsigned long seed, int force,
		    struct sink *log);

#endif
