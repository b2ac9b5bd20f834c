/* set_fields.h - the field tables behind set_super_value, set_inode_field,
 * set_block_group and set_mmp_value (debugfs-compat/set_fields_tables.c),
 * as data: name, byte offsets of the low and (optional) high parts, size, kind. */
#ifndef E2L_SET_FIELDS_H
#define E2L_SET_FIELDS_H

#include <stddef.h>

#include "session.h"

enum sf_kind {
	SF_UINT, SF_INT, SF_STRING, SF_UUID, SF_HASHALG, SF_TIME, SF_BMAP,
	SF_GD_CSUM, SF_INODE_CSUM, SF_ENCODING, SF_MMP_CLEAR,
};

#define SF_ARRAY	0x01	/* name[N] */
#define SF_CSUM		0x02	/* a checksum: written without recomputing */
#define SF_HI		0x04	/* off2 is a high part: name_hi, name_lo */

/*
 * size 6 is how debugfs describes a 4-byte low part with a 2-byte high part
 * (i_blocks, i_file_acl); its quirks (a 4-byte write for name_hi) are kept.
 */
struct sf_field {
	const char *name;
	unsigned short off, off2;
	unsigned char size;
	unsigned char kind;	/* enum sf_kind */
	unsigned char flags;	/* SF_* */
	unsigned char max_idx;	/* SF_ARRAY: entries (0: unbounded) */
};

/* NULL-name-terminated tables, in debugfs's order. */
extern const struct sf_field sf_super_fields[];
extern const struct sf_field sf_inode_fields[];
extern const struct sf_field sf_bg32_fields[];	/* 32-byte descriptors */
extern const struct sf_field sf_bg64_fields[];	/* 64-byte descriptors */
extern const struct sf_field sf_mmp_fields[];

/* What a value is being parsed into. */
struct sf_target {
	struct session *s;
	unsigned char *base;	/* the structure being edited */
	long idx;		/* array index from name[N] */
	ext2_ino_t ino;		/* set_inode_field */
	dgrp_t group;		/* set_block_group */
};

/* 1 when a field name ends in _lo, 2 in _hi, else 0. */
int sf_name_suffix(const char *name);
/* Parses arg for field f (spec: the name as typed) into t->base; 0, or 1
 * after printing debugfs's complaint. */
int sf_parse(struct sf_target *t, const struct sf_field *f, const char *spec,
	     const char *arg);

#endif
