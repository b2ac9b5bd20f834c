/* cmd_prealloc.c - `prealloc FILE SIZE`: plans unwritten extents for the
 * holes of a file's first SIZE bytes in one contiguous run, creating the
 * file when it does not exist. */
#include "cmd.h"
#include "dfs_util.h"
#include "plan.h"

#include <stdlib.h>
#include <string.h>

static int parse_size(const char *str, __u64 *size)
{
	char *end;
	unsigned long long v = strtoull(str, &end, 0);

	switch (*end) {
	case 'K': case 'k': v <<= 10; end++; break;
	case 'M': case 'm': v <<= 20; end++; break;
	case 'G': case 'g': v <<= 30; end++; break;
	}
	if (!*str || *end || !v)
		return -1;
	*size = v;
	return 0;
}

static int do_prealloc(struct session *s, int argc, char **argv)
{
	ext2_filsys fs = s->fs;
	const char *file = NULL, *sz = NULL, *name = NULL;
	blk64_t goal = ~0ULL;
	ext2_ino_t ino = 0, dir;
	struct ext2_inode inode;
	char *copy = NULL, *slash;
	struct plan *p = NULL;
	__u64 size;
	int i, rc = CMD_FAIL;
	struct apply_opts ao;

	if (plan_take_apply_opts(s, &argc, argv, &ao))
		return CMD_FAIL;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--goal") && i + 1 < argc) {
			if (dfs_strtoblk(s, argv[0], argv[++i], &goal))
				return CMD_FAIL;
		} else if (argv[i][0] != '-' && !file) {
			file = argv[i];
		} else if (argv[i][0] != '-' && !sz) {
			sz = argv[i];
		} else {
			file = NULL;
			break;
		}
	}
	if (!file || !sz) {
		out_error(s->out, argv[0], 0, "Usage: prealloc FILE SIZE "
			  "[--goal BLOCK]");
		return CMD_FAIL;
	}
	if (parse_size(sz, &size)) {
		out_error(s->out, argv[0], 0, "bad size: %s (bytes, or with "
			  "K, M or G)", sz);
		return CMD_FAIL;
	}
	if (ext2fs_namei(fs, s->root, s->cwd, file, &ino)) {
		/* a new file: its directory must exist */
		copy = strdup(file);
		if (!copy)
			return CMD_FAIL;
		slash = strrchr(copy, '/');
		name = slash ? slash + 1 : copy;
		if (slash)
			*slash = 0;
		if (!*name || strlen(name) > 255) {
			out_error(s->out, argv[0], 0, "bad file name: %s",
				  file);
			goto out;
		}
		if (ext2fs_namei(fs, s->root, s->cwd,
				 slash ? (*copy ? copy : "/") : ".", &dir)) {
			out_error(s->out, argv[0], 0, "no directory for %s",
				  file);
			goto out;
		}
		ino = dir;
	} else {
		if (dfs_read_inode(s, ino, &inode, argv[0]))
			goto out;
		if (!LINUX_S_ISREG(inode.i_mode)) {
			out_error(s->out, argv[0], 0, "%s is not a regular "
				  "file", file);
			goto out;
		}
	}
	if (goal == ~0ULL)
		goal = ext2fs_group_first_block2(fs,
				ext2fs_group_of_ino(fs, ino));
	if (plan_build_prealloc(s, ino, name, size, goal, &p))
		goto out;
	rc = CMD_OK;
	if (!p)
		goto out;	/* nothing to do */
	if (plan_guard(s, p, argv[0])) {	/* before it is shown */
		plan_free(p);
		rc = CMD_FAIL;
		goto out;
	}
	plan_show(s, p);
	if (name)
		out_printf(s->out, "  (creates %s first)\n", file);
	rc = plan_offer(s, p, 1, &ao);
out:
	free(copy);
	return rc;
}

const struct cmd_entry cmd_prealloc = {
	.name = "prealloc",
	.synopsis = "prealloc FILE SIZE [--goal BLOCK]",
	.summary = "Plan unwritten extents for a file's first SIZE bytes",
	.options = "--goal",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BBITMAP | CMD_JSON,
	.complete = COMPLETE_PATH,
	.run = do_prealloc,
};
