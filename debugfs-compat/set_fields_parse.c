/* set_fields_parse.c - parses a value typed for one field of the set_*
 * tables (numbers with debugfs's limits and _hi/_lo halves, strings, UUIDs,
 * hash names, times, block maps, checksums) and stores it in place, with
 * debugfs's error messages. */
#include "cmd.h"
#include "dfs_util.h"
#include "set_fields.h"

#include <e2p/e2p.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 1 for a "_lo" ending, 2 for "_hi", else 0. */
int sf_name_suffix(const char *name)
{
	size_t n = strlen(name);

	if (n < 3)
		return 0;
	if (!strcmp(name + n - 3, "_lo"))
		return 1;
	if (!strcmp(name + n - 3, "_hi"))
		return 2;
	return 0;
}

static void put_uint(unsigned char *p, int size, unsigned long long v)
{
	switch (size) {
	case 8: { __u64 x = v; memcpy(p, &x, 8); break; }
	case 4: { __u32 x = v; memcpy(p, &x, 4); break; }
	case 2: { __u16 x = v; memcpy(p, &x, 2); break; }
	case 1: *p = v; break;
	}
}

static unsigned long long bits(int bytes)
{
	return bytes >= 8 ? ~0ULL : (1ULL << (bytes * 8)) - 1;
}

/* An unsigned value into the low part and, unless the spelling picked one
 * part, the high part; the limits and widths are debugfs's. */
static int parse_uint(struct sf_target *t, const struct sf_field *f,
		      const char *spec, const char *arg)
{
	int suffix = sf_name_suffix(spec);
	int size = f->size == 6 ? 4 : f->size;
	unsigned char *p1 = t->base + f->off, *p2 = NULL;
	unsigned long long num, limit;
	char *end;

	if (f->flags & SF_HI)
		p2 = t->base + f->off2;
	if (suffix == 1)
		p2 = NULL;
	if (suffix == 2) {
		p1 = p2;
		p2 = NULL;
	}
	if (f->flags & SF_ARRAY)
		p1 += t->idx * f->size;
	errno = 0;
	num = strtoull(arg, &end, 0);
	if (*end || errno) {
		out_errtext(t->s->out, "Couldn't parse '%s' for field %s.\n",
			    arg, f->name);
		return 1;
	}
	limit = bits(f->size);
	if (p2 && f->size != 6)
		limit = bits(f->size * 2);
	if (num > limit) {
		out_errtext(t->s->out,
			    "Value '%s' exceeds field %s maximum %llu.\n",
			    arg, f->name, limit);
		return 1;
	}
	put_uint(p1, size, num & bits(size));
	if (p2)
		put_uint(p2, f->size == 6 ? 2 : size,
			 size == 8 ? 0 : num >> (size * 8));
	return 0;
}

static int parse_int(struct sf_target *t, const struct sf_field *f,
		     const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 0);

	if (*end) {
		out_errtext(t->s->out, "Couldn't parse '%s' for field %s.\n",
			    arg, f->name);
		return 1;
	}
	put_uint(t->base + f->off, f->size, (unsigned long long)v);
	return 0;
}

static int parse_string(struct sf_target *t, const struct sf_field *f,
			const char *arg)
{
	size_t n = strlen(arg);

	if (n >= f->size) {
		out_errtext(t->s->out, "Error maximum size for %s is %d.\n",
			    f->name, f->size);
		return 1;
	}
	memcpy(t->base + f->off, arg, n + 1);
	return 0;
}

static int parse_time(struct sf_target *t, const struct sf_field *f,
		      const char *spec, const char *arg)
{
	long long v;
	__u32 lo, hi, extra;

	if (sf_name_suffix(spec))
		return parse_uint(t, f, spec, arg);
	v = dfs_parse_time(arg);
	if (v == -1) {
		out_errtext(t->s->out, "Couldn't parse '%s' for field %s.\n",
			    arg, f->name);
		return 1;
	}
	lo = (__u32)v;
	put_uint(t->base + f->off, 4, lo);
	if (f->flags & SF_HI) {
		hi = ((v - (__s32)v) >> 32) & EXT4_EPOCH_MASK;
		memcpy(&extra, t->base + f->off2, 4);
		extra = (extra & ~EXT4_EPOCH_MASK) | hi;
		memcpy(t->base + f->off2, &extra, 4);
	}
	return 0;
}

/* xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, "null"/"clear", "random"/"time". */
static int parse_uuid(struct sf_target *t, const struct sf_field *f,
		      const char *arg)
{
	unsigned char u[16], *p = t->base + f->off;
	int i, j, fd, hi, lo;

	if (!strcasecmp(arg, "null") || !strcasecmp(arg, "clear")) {
		memset(p, 0, 16);
		return 0;
	}
	if (!strcasecmp(arg, "random") || !strcasecmp(arg, "time")) {
		fd = open("/dev/urandom", O_RDONLY);
		if (fd < 0 || read(fd, u, 16) != 16) {
			if (fd >= 0)
				close(fd);
			out_errtext(t->s->out, "Invalid UUID format: %s\n",
				    arg);
			return 1;
		}
		close(fd);
		u[6] = (u[6] & 0x0f) | 0x40;
		u[8] = (u[8] & 0x3f) | 0x80;
		memcpy(p, u, 16);
		return 0;
	}
	if (strlen(arg) != 36)
		goto bad;
	for (i = 0, j = 0; i < 36; ) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (arg[i++] != '-')
				goto bad;
			continue;
		}
		hi = dfs_hex_digit(arg[i]);
		lo = dfs_hex_digit(arg[i + 1]);
		if (hi < 0 || lo < 0)
			goto bad;
		u[j++] = hi << 4 | lo;
		i += 2;
	}
	memcpy(p, u, 16);
	return 0;
bad:
	out_errtext(t->s->out, "Invalid UUID format: %s\n", arg);
	return 1;
}

static int parse_bmap(struct sf_target *t, const struct sf_field *f,
		      const char *arg)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 0);
	blk64_t blk = v;
	errcode_t err;

	if (*end) {
		out_errtext(t->s->out, "Couldn't parse '%s' for field %s.\n",
			    arg, f->name);
		return 1;
	}
	err = ext2fs_bmap2(t->s->fs, t->ino, (struct ext2_inode *)t->base,
			   NULL, BMAP_ALLOC | BMAP_SET, t->idx, NULL, &blk);
	if (err)
		out_error(t->s->out, "set_inode", err,
			  "while setting block map");
	return err ? 1 : 0;
}

static int parse_inode_csum(struct sf_target *t, const struct sf_field *f,
			    const char *spec, const char *arg)
{
	struct ext2_inode_large *inode = (struct ext2_inode_large *)t->base;
	struct ext2_inode_large back;
	errcode_t err;
	__u32 crc;

	if (strcmp(arg, "calc"))
		return parse_uint(t, f, spec, arg);
	/* the library computes it on a normal write; read it back */
	err = ext2fs_write_inode2(t->s->fs, t->ino, (struct ext2_inode *)inode,
				  sizeof(*inode), 0);
	if (!err)
		err = ext2fs_read_inode2(t->s->fs, t->ino,
					 (struct ext2_inode *)&back,
					 sizeof(back), 0);
	if (err) {
		out_error(t->s->out, "set_inode", err,
			  "while computing the checksum");
		return 1;
	}
	inode->i_checksum_lo = back.i_checksum_lo;
	crc = back.i_checksum_lo;
	if (EXT2_INODE_SIZE(t->s->fs->super) > EXT2_GOOD_OLD_INODE_SIZE &&
	    inode->i_extra_isize >= EXT4_INODE_CSUM_HI_EXTRA_END) {
		inode->i_checksum_hi = back.i_checksum_hi;
		crc |= (__u32)back.i_checksum_hi << 16;
	}
	out_printf(t->s->out, "Checksum set to 0x%08x\n", crc);
	return 0;
}

/* The value for field f (spelled spec) from arg: 0, or 1 after a message. */
int sf_parse(struct sf_target *t, const struct sf_field *f,
		    const char *spec, const char *arg)
{
	int v;

	switch (f->kind) {
	case SF_INT:
		return parse_int(t, f, arg);
	case SF_STRING:
		return parse_string(t, f, arg);
	case SF_UUID:
		return parse_uuid(t, f, arg);
	case SF_HASHALG:
		v = e2p_string2hash((char *)arg);
		if (v < 0) {
			out_errtext(t->s->out,
				    "Invalid hash algorithm: %s\n", arg);
			return 1;
		}
		t->base[f->off] = v;
		return 0;
	case SF_TIME:
		return parse_time(t, f, spec, arg);
	case SF_BMAP:
		return parse_bmap(t, f, arg);
	case SF_GD_CSUM:
		if (!strcmp(arg, "calc")) {
			__u16 c = ext2fs_group_desc_csum(t->s->fs, t->group);

			put_uint(t->base + f->off, 2, c);
			out_printf(t->s->out, "Checksum set to 0x%04x\n", c);
			return 0;
		}
		return parse_uint(t, f, spec, arg);
	case SF_INODE_CSUM:
		return parse_inode_csum(t, f, spec, arg);
	case SF_ENCODING:
		v = e2p_str2encoding(arg);
		if (v < 0)
			return parse_uint(t, f, spec, arg);
		put_uint(t->base + f->off, 2, v);
		return 0;
	default:
		return parse_uint(t, f, spec, arg);
	}
}
