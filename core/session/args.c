/* args.c - the layout editor's argument checks (args.h): every number is
 * parsed whole, without wrapping, and checked against the filesystem
 * before anything is planned. */
#include "args.h"
#include "e2l_err.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

/* Digits (decimal, or hex after 0x) into *v; the first byte after them in
 * *end.  -1 when there are none or the value passes 2^64 - 1. */
static int digits(const char *p, unsigned long long *v, const char **end)
{
	unsigned base = 10, d;
	const char *start;

	*v = 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (start = p;; p++) {
		if (isdigit((unsigned char)*p))
			d = *p - '0';
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (tolower((unsigned char)*p) - 'a') + 10;
		else
			break;
		if (*v > (~0ULL - d) / base)
			return -1;
		*v = *v * base + d;
	}
	*end = p;
	return p == start ? -1 : 0;
}

errcode_t arg_number(struct session *s, const char *who, const char *what,
		     const char *str, unsigned long long *v)
{
	const char *end;

	if (digits(str, v, &end) || *end) {
		out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "%s %s: not a "
			  "number (decimal, or hexadecimal after 0x)", what,
			  str);
		return E2L_ERR_BAD_ARGUMENT;
	}
	return 0;
}

errcode_t arg_bytes(struct session *s, const char *who, const char *what,
		    const char *str, __u64 *bytes)
{
	static const char units[] = "KMGT";
	unsigned long long v;
	const char *end, *u;
	unsigned shift = 0;

	if (digits(str, &v, &end))
		goto bad;
	if (*end && (u = strchr(units, toupper((unsigned char)*end)))) {
		shift = 10 * (unsigned)(u - units + 1);
		end++;
	}
	if (*end)
		goto bad;
	if (v > (~0ULL >> shift)) {
		out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "%s %s: more than "
			  "2^64 bytes", what, str);
		return E2L_ERR_BAD_ARGUMENT;
	}
	if (!v) {
		out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "%s %s: must be "
			  "more than 0", what, str);
		return E2L_ERR_BAD_ARGUMENT;
	}
	*bytes = v << shift;
	return 0;
bad:
	out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "%s %s: not a size (bytes "
		  "as digits, or with K, M, G or T; no sign, no exponent)",
		  what, str);
	return E2L_ERR_BAD_ARGUMENT;
}

errcode_t arg_block_in_fs(struct session *s, const char *who,
			  const char *what, unsigned long long blk)
{
	ext2_filsys fs = s->fs;
	unsigned long long first = fs->super->s_first_data_block;
	unsigned long long last = ext2fs_blocks_count(fs->super) - 1;

	if (blk >= first && blk <= last)
		return 0;
	out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "%s %llu: %s (the "
		  "filesystem's blocks are %llu-%llu)", what, blk,
		  blk < first ? "before the first data block" :
		  "past the end of the filesystem", first, last);
	return E2L_ERR_BAD_ARGUMENT;
}

int arg_placement(struct session *s, const char *who, int argc, char **argv,
		  int *i, unsigned allowed, struct placement *pl)
{
	static const char *const names[] = {"--goal", "--group", "--middle",
					    "--start"};
	ext2_filsys fs = s->fs;
	unsigned long long v;
	unsigned k;

	for (k = 0; k < 4; k++)
		if ((allowed & (1U << k)) && !strcmp(argv[*i], names[k]))
			break;
	if (k == 4)
		return -1;
	if (pl->opt) {
		out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "%s and %s exclude "
			  "each other (give one place for the new run)",
			  pl->opt, argv[*i]);
		return 1;
	}
	pl->opt = names[k];
	if (k == 2) {
		pl->goal = ext2fs_blocks_count(fs->super) / 2;
		return 0;
	}
	if (k == 3) {
		pl->goal = fs->super->s_first_data_block;
		return 0;
	}
	if (*i + 1 >= argc) {
		out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "%s needs a %s",
			  names[k], k ? "group number" : "block number");
		return 1;
	}
	if (arg_number(s, who, names[k], argv[++*i], &v))
		return 1;
	if (k == 1) {
		if (v >= fs->group_desc_count) {
			out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "--group "
				  "%llu: no group %llu (the filesystem has "
				  "groups 0-%u)", v, v,
				  fs->group_desc_count - 1);
			return 1;
		}
		v = ext2fs_group_first_block2(fs, v);
	} else if (arg_block_in_fs(s, who, "--goal", v)) {
		return 1;
	}
	pl->goal = v;
	return 0;
}

errcode_t arg_inode(struct session *s, const char *who, const char *spec,
		    ext2_ino_t *ino)
{
	size_t len = strlen(spec);
	unsigned long long n;
	const char *end;
	errcode_t err;

	if (len > 1 && spec[0] == '<' && spec[len - 1] == '>') {
		if (digits(spec + 1, &n, &end) || end != spec + len - 1 ||
		    n < 1 || n > s->fs->super->s_inodes_count) {
			out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "%s: no "
				  "such inode (the filesystem's inodes are "
				  "1-%u)", spec, s->fs->super->s_inodes_count);
			return E2L_ERR_BAD_ARGUMENT;
		}
		*ino = n;
		return 0;
	}
	err = ext2fs_namei(s->fs, s->root, s->cwd, spec, ino);
	if (err) {
		out_error(s->out, who, err, "while looking up %s", spec);
		return err;
	}
	return 0;
}

errcode_t arg_entry_name(const char *name)
{
	size_t len = strlen(name);

	if (len > EXT2_NAME_LEN)
		return ENAMETOOLONG;
	return len ? 0 : EXT2_ET_INVALID_ARGUMENT;
}
