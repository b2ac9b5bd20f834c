/* set_fields.c - debugfs's set_super_value/ssv, set_inode_field/sif,
 * set_block_group/set_bg and set_mmp_value/smmp: parse a value for one field
 * of the tables in set_fields_tables.c (parsed by set_fields_parse.c) and
 * store it, with debugfs's words. */
#include "cmd.h"
#include "dfs_util.h"
#include "set_fields.h"

#include <stdlib.h>
#include <string.h>


static const char *kind_name(const struct sf_field *f)
{
	switch (f->kind) {
	case SF_UINT: return "unsigned integer";
	case SF_INT: return "integer";
	case SF_STRING: return "string";
	case SF_UUID: return "UUID";
	case SF_HASHALG: return "hash algorithm";
	case SF_TIME: return "date/time";
	case SF_BMAP: return "set physical->logical block map";
	case SF_GD_CSUM: return "unsigned integer OR \"calc\"";
	default: return "unknown";
	}
}

static void list_fields(struct session *s, const struct sf_field *f,
			const char *what, const char *cmd)
{
	char name[64];

	out_printf(s->out, "%s fields supported by the %s command:\n", what,
		   cmd);
	for (; f->name; f++) {
		if (f->flags & SF_ARRAY && f->max_idx)
			snprintf(name, sizeof(name), "%s[%d]", f->name,
				 f->max_idx);
		else if (f->flags & SF_ARRAY)
			snprintf(name, sizeof(name), "%s[]", f->name);
		else if (f->flags & SF_HI)
			snprintf(name, sizeof(name), "%s[_hi|_lo]", f->name);
		else
			snprintf(name, sizeof(name), "%s", f->name);
		out_printf(s->out, "\t%-25s\t%s\n", name, kind_name(f));
	}
}


/* The field a user's spelling names ("s_blocks_count_hi", "block[3]"). */
static const struct sf_field *find_field(const struct sf_field *table,
					 const char *prefix, const char *spec,
					 long *idx)
{
	size_t plen = strlen(prefix);
	const struct sf_field *f;
	char *arg, *open, *close = NULL, *end;
	int has_idx = 0, suffix;

	if (!strncmp(spec, prefix, plen))
		spec += plen;
	arg = strdup(spec);
	if (!arg)
		return NULL;
	open = strchr(arg, '[');
	if (open) {
		*open++ = 0;
		close = open + strlen(open) - 1;
		if (*open && *close == ']') {
			*close = 0;
			*idx = strtol(open, &end, 0);
			has_idx = 1;
			if (*end) {	/* "block[IND]" is a name */
				open[-1] = '[';
				*close = ']';
				has_idx = 0;
			}
		}
	}
	suffix = sf_name_suffix(arg);
	if (suffix)
		arg[strlen(arg) - 3] = 0;
	for (f = table; f->name; f++) {
		if (suffix && !(f->flags & SF_HI))
			continue;
		if (strcmp(f->name, arg))
			continue;
		if (f->flags & SF_ARRAY) {
			/* a negative index would write outside the field */
			if (!has_idx || *idx < 0 ||
			    (f->max_idx && *idx >= f->max_idx))
				continue;
		}
		free(arg);
		return f;
	}
	free(arg);
	return NULL;
}


static int is_list(int argc, char **argv)
{
	return argc == 2 && !strcmp(argv[1], "-l");
}

static int do_ssv(struct session *s, int argc, char **argv)
{
	struct ext2_super_block sb;
	struct sf_target t = { s, (unsigned char *)&sb, 0, 0, 0 };
	const struct sf_field *f;

	if (is_list(argc, argv)) {
		list_fields(s, sf_super_fields, "Superblock",
			    "set_super_value");
		return CMD_OK;
	}
	if (dfs_args(s, argc, argv, 3, 3, "set_super_value",
		     "<field> <value>\n\t\"set_super_value -l\" will list the "
		     "names of superblock fields\n\twhich can be set.",
		     DFS_CHECK_RW))
		return CMD_FAIL;
	f = find_field(sf_super_fields, "s_", argv[1], &t.idx);
	if (!f) {
		out_error(s->out, argv[0], 0, "invalid field specifier: %s",
			  argv[1]);
		return CMD_FAIL;
	}
	sb = *s->fs->super;
	if (sf_parse(&t, f, argv[1], argv[2]))
		return CMD_FAIL;
	session_invalidate(s);
	*s->fs->super = sb;
	ext2fs_mark_super_dirty(s->fs);
	return CMD_OK;
}

static const char *const ssv_aliases[] = {"ssv", NULL};
const struct cmd_entry cmd_set_super_value = {
	.name = "set_super_value",
	.aliases = ssv_aliases,
	.synopsis = "set_super_value FIELD VALUE | set_super_value -l",
	.summary = "Set a superblock value (-l lists the fields)",
	.options = "-l",
	.flags = CMD_WRITES | CMD_DEBUGFS,
	.run = do_ssv,
};

static int do_sif(struct session *s, int argc, char **argv)
{
	struct ext2_inode_large inode;
	struct sf_target t = { s, (unsigned char *)&inode, 0, 0, 0 };
	const struct sf_field *f;
	errcode_t err;
	int csum;

	if (is_list(argc, argv)) {
		list_fields(s, sf_inode_fields, "Inode", "set_inode");
		return CMD_OK;
	}
	if (dfs_args(s, argc, argv, 4, 4, "set_inode",
		     "<inode> <field> <value>\n\t\"set_inode_field -l\" will "
		     "list the names of the fields in an ext2 inode\n\twhich "
		     "can be set.", DFS_CHECK_RW))
		return CMD_FAIL;
	f = find_field(sf_inode_fields, "i_", argv[2], &t.idx);
	if (!f) {
		out_error(s->out, argv[0], 0, "invalid field specifier: %s",
			  argv[2]);
		return CMD_FAIL;
	}
	t.ino = dfs_string_to_inode(s, argv[1]);
	if (!t.ino)
		return CMD_FAIL;
	csum = f->flags & SF_CSUM;
	memset(&inode, 0, sizeof(inode));
	err = ext2fs_read_inode2(s->fs, t.ino, (struct ext2_inode *)&inode,
				 sizeof(inode), csum ? READ_INODE_NOCSUM : 0);
	if (err) {
		out_error(s->out, argv[1], err, "while reading inode %u",
			  t.ino);
		return CMD_FAIL;
	}
	session_invalidate(s);
	if (sf_parse(&t, f, argv[2], argv[3]))
		return CMD_FAIL;
	err = ext2fs_write_inode2(s->fs, t.ino, (struct ext2_inode *)&inode,
				  sizeof(inode), csum ? WRITE_INODE_NOCSUM : 0);
	if (err) {
		out_error(s->out, argv[1], err, "while writing inode %u",
			  t.ino);
		return CMD_FAIL;
	}
	return CMD_OK;
}

static const char *const sif_aliases[] = {"sif", NULL};
const struct cmd_entry cmd_set_inode_field = {
	.name = "set_inode_field",
	.aliases = sif_aliases,
	.synopsis = "set_inode_field FILE FIELD VALUE | set_inode_field -l",
	.summary = "Set an inode field (-l lists the fields)",
	.options = "-l",
	.flags = CMD_WRITES | CMD_DEBUGFS,
	.complete = COMPLETE_PATH,
	.run = do_sif,
};

static const struct sf_field *bg_table(struct session *s)
{
	return s->fs && ext2fs_has_feature_64bit(s->fs->super) ?
		sf_bg64_fields : sf_bg32_fields;
}

static int do_set_bg(struct session *s, int argc, char **argv)
{
	struct ext4_group_desc gd;
	struct sf_target t = { s, (unsigned char *)&gd, 0, 0, 0 };
	const struct sf_field *f;
	unsigned size;
	void *target;
	char *end;

	if (is_list(argc, argv)) {
		list_fields(s, bg_table(s), "Block group descriptor",
			    "set_block_group");
		return CMD_OK;
	}
	if (dfs_args(s, argc, argv, 4, 4, "set_block_group",
		     "<bg number> <field> <value>\n\t\"set_block_group -l\" "
		     "will list the names of the fields in a block group "
		     "descriptor\n\twhich can be set.", DFS_CHECK_RW))
		return CMD_FAIL;
	t.group = strtoul(argv[1], &end, 0);
	if (*end) {
		out_error(s->out, argv[0], 0,
			  "invalid block group number: %s", argv[1]);
		return CMD_FAIL;
	}
	if (t.group >= s->fs->group_desc_count) {
		out_error(s->out, argv[0], 0,
			  "block group number too big: %d", (int)t.group);
		return CMD_FAIL;
	}
	f = find_field(bg_table(s), "bg_", argv[2], &t.idx);
	if (!f) {
		out_error(s->out, argv[0], 0, "invalid field specifier: %s",
			  argv[2]);
		return CMD_FAIL;
	}
	target = ext2fs_group_desc(s->fs, s->fs->group_desc, t.group);
	size = EXT2_DESC_SIZE(s->fs->super);
	if (size > sizeof(gd))
		size = sizeof(gd);
	memset(&gd, 0, sizeof(gd));
	memcpy(&gd, target, size);
	if (sf_parse(&t, f, argv[2], argv[3]))
		return CMD_FAIL;
	session_invalidate(s);
	memcpy(target, &gd, size);
	ext2fs_mark_super_dirty(s->fs);
	return CMD_OK;
}

static const char *const set_bg_aliases[] = {"set_bg", NULL};
const struct cmd_entry cmd_set_block_group = {
	.name = "set_block_group",
	.aliases = set_bg_aliases,
	.synopsis = "set_block_group BG FIELD VALUE | set_block_group -l",
	.summary = "Set a block group descriptor field (-l lists the fields)",
	.options = "-l",
	.flags = CMD_WRITES | CMD_DEBUGFS,
	.run = do_set_bg,
};

static int do_smmp(struct session *s, int argc, char **argv)
{
	const struct sf_field *f;
	struct sf_target t = { s, NULL, 0, 0, 0 };
	struct mmp_struct *mmp;
	errcode_t err;

	if (is_list(argc, argv)) {
		list_fields(s, sf_mmp_fields, "MMP", "set_mmp_value");
		return CMD_OK;
	}
	if (dfs_check_open(s, argv[0]))
		return CMD_FAIL;
	if (!s->fs->super->s_mmp_block) {
		out_error(s->out, argv[0], 0, "no MMP block allocated\n");
		return CMD_FAIL;
	}
	/* debugfs accepts a missing value and then crashes; we do not */
	if (dfs_args(s, argc, argv, 3, 3, "set_mmp_value",
		     "<field> <value>\n\t\"set_mmp_value -l\" will list the "
		     "names of MMP fields\n\twhich can be set.", DFS_CHECK_RW))
		return CMD_FAIL;
	if (!s->fs->mmp_buf) {
		err = ext2fs_get_mem(s->fs->blocksize, &mmp);
		if (err) {
			out_error(s->out, argv[0], err,
				  "allocating MMP buffer\n");
			return CMD_FAIL;
		}
		err = ext2fs_mmp_read(s->fs, s->fs->super->s_mmp_block, mmp);
		if (err) {
			out_error(s->out, argv[0], err,
				  "reading MMP block %llu.\n",
				  (unsigned long long)s->fs->super->s_mmp_block);
			ext2fs_free_mem(&mmp);
			return CMD_FAIL;
		}
		s->fs->mmp_buf = mmp;
	}
	mmp = s->fs->mmp_buf;
	f = find_field(sf_mmp_fields, "mmp_", argv[1], &t.idx);
	if (!f) {
		out_error(s->out, argv[0], 0, "invalid field specifier: %s",
			  argv[1]);
		return CMD_FAIL;
	}
	if (f->kind == SF_MMP_CLEAR) {
		err = ext2fs_mmp_clear(s->fs);
		if (err) {
			out_error(s->out, "set_mmp_value", err,
				  "while clearing MMP block\n");
			return CMD_FAIL;
		}
		return CMD_OK;
	}
	t.base = malloc(s->fs->blocksize);
	if (!t.base)
		return CMD_FAIL;
	memcpy(t.base, mmp, s->fs->blocksize);
	if (sf_parse(&t, f, argv[1], argv[2])) {
		free(t.base);
		return CMD_FAIL;
	}
	ext2fs_mmp_write(s->fs, s->fs->super->s_mmp_block, t.base);
	memcpy(mmp, t.base, sizeof(*mmp));
	free(t.base);
	return CMD_OK;
}

static const char *const smmp_aliases[] = {"smmp", NULL};
const struct cmd_entry cmd_set_mmp_value = {
	.name = "set_mmp_value",
	.aliases = smmp_aliases,
	.synopsis = "set_mmp_value FIELD VALUE | set_mmp_value -l",
	.summary = "Set a field of the multiple-mount protection block",
	.options = "-l",
	.flags = CMD_WRITES | CMD_DEBUGFS,
	.run = do_smmp,
};
