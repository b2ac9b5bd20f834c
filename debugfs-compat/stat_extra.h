/* stat_extra.h - the parts of debugfs's inode dump shared by stat, blocks and
 * dump_extents: block runs (block-mapped or extent-mapped), their text and
 * JSON forms, and the extended attributes listing. */
#ifndef E2L_STAT_EXTRA_H
#define E2L_STAT_EXTRA_H

#include "session.h"

/* Run kinds besides data. */
#define RUN_DATA	0
#define RUN_IND		(-1)	/* indirect block (block-mapped files) */
#define RUN_DIND	(-2)
#define RUN_TIND	(-3)
#define RUN_ETB		1	/* extent tree block; level in .level */

struct stat_run {
	long long logical;		/* first logical block (data runs) */
	unsigned long long physical;	/* first physical block */
	unsigned long long length;	/* blocks */
	int kind;			/* RUN_* */
	int level;			/* extent tree level (RUN_ETB) */
	int uninit;			/* unwritten extent */
};

struct stat_runs {
	struct stat_run *v;
	size_t n, cap;
	long long total;		/* blocks the iterator reported */
};

/*
 * The blocks of ino as ext2fs_block_iterate3 reports them, merged into
 * runs of consecutive logical and physical blocks exactly as debugfs's
 * BLOCKS listing merges them.
 */
errcode_t stat_collect_blocks(ext2_filsys fs, ext2_ino_t ino,
			      struct stat_runs *r);
/* The extent tree of ino: index blocks (RUN_ETB) and leaf extents. */
errcode_t stat_collect_extents(ext2_filsys fs, ext2_ino_t ino,
			       struct stat_runs *r);
void stat_runs_free(struct stat_runs *r);

/* The BLOCKS: and EXTENTS: sections of debugfs's stat. */
void stat_print_blocks(struct sink *out, const struct stat_runs *r);
void stat_print_extents(struct sink *out, const struct stat_runs *r);

/* The runs as a JSON array named key. */
void stat_json_runs(struct sink *out, const char *key,
		    const struct stat_runs *r);

/* debugfs's "Extended attributes:" section (nothing when there are none). */
void stat_print_xattrs(struct session *s, ext2_ino_t ino);

#endif
