/* args.h - the layout editor's arguments, checked before any layout work:
 * sizes that cannot overflow, block and group numbers inside the
 * filesystem, placement options that exclude each other, inode specs and
 * entry names.  Each refusal is printed (E2L_ERR_BAD_ARGUMENT) and names
 * the argument. */
#ifndef E2L_ARGS_H
#define E2L_ARGS_H

#include "session.h"

/*
 * A byte count: decimal digits (or 0x and hex digits) with an optional K,
 * M, G or T (powers of 1024).  Refuses a sign, an exponent, an empty
 * number, anything after the suffix, zero, and values past 2^64 - 1.
 * Returns 0, or E2L_ERR_BAD_ARGUMENT after printing why (who: the request,
 * what: the argument's name in the message, "size").
 */
errcode_t arg_bytes(struct session *s, const char *who, const char *what,
		    const char *str, __u64 *bytes);

/* A plain number (decimal or 0x hex, nothing else, no overflow). */
errcode_t arg_number(struct session *s, const char *who, const char *what,
		     const char *str, unsigned long long *v);

/* Where a plan puts its new run. */
struct placement {
	blk64_t goal;		/* the first block to look from */
	const char *opt;	/* the option that set it, or NULL */
};

/* The placement options a request takes. */
#define PLACE_GOAL	0x1	/* --goal BLOCK */
#define PLACE_GROUP	0x2	/* --group G */
#define PLACE_MIDDLE	0x4	/* --middle */
#define PLACE_START	0x8	/* --start */
#define PLACE_ALL	0xf

/*
 * Takes the placement option at argv[*i] (advancing *i past its value).
 * Returns 0 when taken, -1 when argv[*i] is no placement option of those
 * allowed, 1 after printing why it is refused: a second placement option
 * (they exclude each other), a missing or bad number, a block before
 * s_first_data_block or past the end, a group past the last.
 */
int arg_placement(struct session *s, const char *who, int argc, char **argv,
		  int *i, unsigned allowed, struct placement *pl);

/* A block inside the filesystem (s_first_data_block .. last); 0 or
 * E2L_ERR_BAD_ARGUMENT after printing "what BLOCK: ..." */
errcode_t arg_block_in_fs(struct session *s, const char *who,
			  const char *what, unsigned long long blk);

/*
 * An inode spec for e2layout's own requests: "<N>" with N a plain number
 * from 1 to s_inodes_count, or a path.  Returns 0 and sets *ino, or an
 * error after printing why (a bad <N>, or the path's lookup error).
 */
errcode_t arg_inode(struct session *s, const char *who, const char *spec,
		    ext2_ino_t *ino);

/* Is name a valid directory entry name (1..255 bytes)?  0, or
 * ENAMETOOLONG / EXT2_ET_INVALID_ARGUMENT without printing. */
errcode_t arg_entry_name(const char *name);

#endif
