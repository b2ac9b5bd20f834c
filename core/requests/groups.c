/* groups.c - the `groups [FIRST[-LAST]]` request: one line (or one JSON
 * object) per block group, built from the groups model without I/O. */
#include "cmd.h"
#include "groups.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FLUSH_AT 65536

static int ndigits(unsigned long long v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Parses an unsigned decimal group number; 0 on success. */
static int parse_group(const char *str, const char **end, dgrp_t *out)
{
	unsigned long long v;
	char *e;

	if (*str < '0' || *str > '9')
		return -1;
	errno = 0;
	v = strtoull(str, &e, 10);
	if (errno || v > (dgrp_t)~0U)
		return -1;
	*out = v;
	*end = e;
	return 0;
}

/* "N" or "N-M" (inclusive), checked against the group count. */
static int parse_range(struct session *s, const char *who, const char *arg,
		       dgrp_t *first, dgrp_t *last)
{
	dgrp_t n = s->fs->group_desc_count;
	const char *p;

	if (parse_group(arg, &p, first))
		goto bad;
	*last = *first;
	if (*p == '-' && parse_group(p + 1, &p, last))
		goto bad;
	if (*p)
		goto bad;
	if (*first > *last) {
		out_error(s->out, who, 0, "bad group range %s: %u is after %u",
			  arg, *first, *last);
		return -1;
	}
	if (*last >= n) {
		out_error(s->out, who, 0, "group %u out of range (the "
			  "filesystem has groups 0-%u)", *last, n - 1);
		return -1;
	}
	return 0;
bad:
	out_error(s->out, who, 0, "bad group range '%s' (expected N or N-M)",
		  arg);
	return -1;
}

/* "LOC" when it lies in group grp, "LOC(gN)" when elsewhere. */
static void fmt_loc(char *buf, size_t len, blk64_t loc, blk_t count,
		    dgrp_t in, dgrp_t grp)
{
	int n;

	if (count > 1)
		n = snprintf(buf, len, "%llu-%llu", (unsigned long long)loc,
			     (unsigned long long)(loc + count - 1));
	else
		n = snprintf(buf, len, "%llu", (unsigned long long)loc);
	if (n < 0 || (size_t)n >= len || in == grp)
		return;
	if (in == GROUPS_NONE)
		snprintf(buf + n, len - n, "(bad)");
	else
		snprintf(buf + n, len - n, "(g%u)", in);
}

static void text_line(struct strbuf *sb, const struct e2l_group *g, int gw,
		      int bw)
{
	char bb[48], ib[48], it[64];

	fmt_loc(bb, sizeof(bb), g->block_bitmap, 1, g->bb_group, g->group);
	fmt_loc(ib, sizeof(ib), g->inode_bitmap, 1, g->ib_group, g->group);
	fmt_loc(it, sizeof(it), g->inode_table, g->inode_table_blocks,
		g->it_group, g->group);
	strbuf_printf(sb, "%*u %*llu-%-*llu %-*s %-*s %-*s %7u %7u %5u "
		      "%s %s %s %-4s",
		      gw, g->group, bw, (unsigned long long)g->first, bw,
		      (unsigned long long)g->last, bw + gw + 4, bb,
		      bw + gw + 4, ib, 2 * bw + gw + 5, it, g->free_blocks,
		      g->free_inodes, g->used_dirs,
		      g->flags & EXT2_BG_INODE_UNINIT ? "IU" : "--",
		      g->flags & EXT2_BG_BLOCK_UNINIT ? "BU" : "--",
		      g->flags & EXT2_BG_INODE_ZEROED ? "IZ" : "--",
		      g->csum < 0 ? "-" : g->csum ? "ok" : "BAD");
	if (g->has_super)
		strbuf_printf(sb, " %s %llu", g->group ? "backup" : "sb",
			      (unsigned long long)g->super_blk);
	if (g->gdt_count)
		strbuf_printf(sb, "%s%s %llu-%llu", g->has_super ? "," : "",
			      g->meta_bg_desc ? " meta-gdt" : " gdt",
			      (unsigned long long)g->gdt_first,
			      (unsigned long long)(g->gdt_first +
						   g->gdt_count - 1));
	if (g->rsv_count)
		strbuf_printf(sb, ", rsv %llu-%llu",
			      (unsigned long long)g->rsv_first,
			      (unsigned long long)(g->rsv_first +
						   g->rsv_count - 1));
	while (sb->len && sb->buf[sb->len - 1] == ' ')
		sb->buf[--sb->len] = 0;
	strbuf_add(sb, "\n", 1);
}

/* The columns of a JSON row, in order (see help/cmd/groups.txt).  Rows, not
 * objects: a 100,000-group filesystem stays a few megabytes. */
static const char *const json_columns[] = {
	"group", "first_block", "last_block", "superblock", "gdt_first",
	"gdt_count", "reserved_gdt_first", "reserved_gdt_count",
	"block_bitmap", "block_bitmap_group", "inode_bitmap",
	"inode_bitmap_group", "inode_table", "inode_table_group",
	"free_blocks", "free_inodes", "used_dirs", "itable_unused", "flags",
	"checksum_ok", NULL
};

/* "00" to "99": two digits a step. */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/* Appends v in decimal (and a comma) at p; returns the new end. */
static char *put_u64(char *p, unsigned long long v)
{
	unsigned long long t = v;
	unsigned d;
	int n = 1;
	char *q;

	/* the length first, by comparisons (a division a digit was a third
	 * of the request), then the digits two at a time, last first, in
	 * place (a copy from a scratch buffer became a memcpy call) */
	for (;;) {
		if (t < 10)
			break;
		if (t < 100) {
			n += 1;
			break;
		}
		if (t < 1000) {
			n += 2;
			break;
		}
		if (t < 10000) {
			n += 3;
			break;
		}
		t /= 10000;
		n += 4;
	}
	p += n;
	q = p;
	while (v >= 100) {
		d = (unsigned)(v % 100) * 2;
		v /= 100;
		q -= 2;
		q[0] = digit_pairs[d];
		q[1] = digit_pairs[d + 1];
	}
	if (v >= 10) {
		q[-2] = digit_pairs[v * 2];
		q[-1] = digit_pairs[v * 2 + 1];
	} else {
		q[-1] = '0' + v;
	}
	*p++ = ',';
	return p;
}

static char *put_opt(char *p, int present, blk64_t val)
{
	if (present)
		return put_u64(p, val);
	memcpy(p, "null,", 5);
	return p + 5;
}

static char *put_loc_group(char *p, dgrp_t g)
{
	if (g != GROUPS_NONE)
		return put_u64(p, g);
	memcpy(p, "-1,", 3);
	return p + 3;
}

/* One row, formatted here in one piece (at 16,384 groups and more, the
 * sink's call per number was most of the time). */
static void json_group(struct sink *o, const struct e2l_group *g)
{
	char row[24 * 21 + 8], *p = row;

	*p++ = '[';
	p = put_u64(p, g->group);
	p = put_u64(p, g->first);
	p = put_u64(p, g->last);
	p = put_opt(p, g->has_super, g->super_blk);
	p = put_opt(p, g->gdt_count, g->gdt_first);
	p = put_u64(p, g->gdt_count);
	p = put_opt(p, g->rsv_count, g->rsv_first);
	p = put_u64(p, g->rsv_count);
	p = put_u64(p, g->block_bitmap);
	p = put_loc_group(p, g->bb_group);
	p = put_u64(p, g->inode_bitmap);
	p = put_loc_group(p, g->ib_group);
	p = put_u64(p, g->inode_table);
	p = put_loc_group(p, g->it_group);
	p = put_u64(p, g->free_blocks);
	p = put_u64(p, g->free_inodes);
	p = put_u64(p, g->used_dirs);
	p = put_u64(p, g->itable_unused);
	p = put_u64(p, g->flags);
	if (g->csum < 0) {
		memcpy(p, "null", 4);
		p += 4;
	} else if (g->csum) {
		memcpy(p, "true", 4);
		p += 4;
	} else {
		memcpy(p, "false", 5);
		p += 5;
	}
	*p++ = ']';
	json_raw(o, row, p - row);
}

static void json_head(struct session *s)
{
	ext2_filsys fs = s->fs;
	const char *const *c;

	json_u64(s->out, "group_count", fs->group_desc_count);
	json_u64(s->out, "block_size", fs->blocksize);
	json_u64(s->out, "blocks_per_group", fs->super->s_blocks_per_group);
	json_u64(s->out, "cluster_ratio", EXT2FS_CLUSTER_RATIO(fs));
	json_str(s->out, "free_blocks_unit",
		 ext2fs_has_feature_bigalloc(fs->super) ? "clusters" :
							  "blocks");
	json_u64(s->out, "inode_table_blocks", fs->inode_blocks_per_group);
	json_bool(s->out, "meta_bg", ext2fs_has_feature_meta_bg(fs->super));
	json_u64(s->out, "first_meta_bg", fs->super->s_first_meta_bg);
	json_u64(s->out, "descs_per_block", EXT2_DESC_PER_BLOCK(fs->super));
	json_obj_begin(s->out, "flag_bits");
	json_u64(s->out, "inode_uninit", EXT2_BG_INODE_UNINIT);
	json_u64(s->out, "block_uninit", EXT2_BG_BLOCK_UNINIT);
	json_u64(s->out, "itable_zeroed", EXT2_BG_INODE_ZEROED);
	json_obj_end(s->out);
	json_arr_begin(s->out, "columns");
	for (c = json_columns; *c; c++)
		json_str(s->out, NULL, *c);
	json_arr_end(s->out);
	json_arr_begin(s->out, "groups");
}

static int do_groups(struct session *s, int argc, char **argv)
{
	ext2_filsys fs = s->fs;
	dgrp_t first = 0, last = fs->group_desc_count - 1, grp;
	int json = sink_is_json(s->out), bigalloc, gw, bw;
	struct strbuf sb = {0};
	struct e2l_group g;
	errcode_t err;

	if (!fs->group_desc_count) {
		out_error(s->out, argv[0], 0, "the filesystem has no groups");
		return CMD_FAIL;
	}
	if (argc == 2 && parse_range(s, argv[0], argv[1], &first, &last))
		return CMD_FAIL;
	bigalloc = ext2fs_has_feature_bigalloc(fs->super);
	gw = ndigits(fs->group_desc_count - 1);
	if (gw < 3)
		gw = 3;
	bw = ndigits(ext2fs_blocks_count(fs->super));
	if (json) {
		json_head(s);
	} else {
		strbuf_printf(&sb, "%*s %-*s %-*s %-*s %-*s %7s %7s %5s "
			      "%-8s %-4s %s\n", gw, "Grp", 2 * bw + 1,
			      "Blocks", bw + gw + 4, "BlkBmap", bw + gw + 4,
			      "InoBmap", 2 * bw + gw + 5, "InodeTable",
			      bigalloc ? "FreeCl" : "FreeBlk", "FreeIno",
			      "Dirs", "Flags", "Csum", "Contents");
	}
	for (grp = first;; grp++) {
		err = groups_get(fs, grp, &g);
		if (err) {
			if (json)
				json_arr_end(s->out);
			out_error(s->out, argv[0], err, "while reading group "
				  "%u", grp);
			strbuf_free(&sb);
			return CMD_FAIL;
		}
		if (json) {
			json_group(s->out, &g);
			json_flush(s->out);
		} else {
			text_line(&sb, &g, gw, bw);
			if (sb.len >= FLUSH_AT) {
				out_write(s->out, sb.buf, sb.len);
				strbuf_reset(&sb);
			}
		}
		if (grp == last)
			break;
	}
	if (json)
		json_arr_end(s->out);
	else if (sb.len)
		out_write(s->out, sb.buf, sb.len);
	strbuf_free(&sb);
	return CMD_OK;
}

const struct cmd_entry cmd_groups = {
	.name = "groups",
	.synopsis = "groups [FIRST[-LAST]]",
	.summary = "Show where each block group's metadata lives",
	.flags = CMD_NEEDS_FS | CMD_JSON,
	.run = do_groups,
	.min_args = 1,
	.max_args = 2,
	.usage = "[FIRST[-LAST]]",
	.usage_name = "groups",
};
