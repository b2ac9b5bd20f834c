/* nav.c - moving around inside the filesystem: cd, pwd and chroot, as
 * debugfs 1.47.0 does them.  The working and root directories live in the
 * session (s->cwd, s->root); paths resolve relative to them. */
#include "cmd.h"
#include "dfs_util.h"

#include <stdlib.h>

/* The directory named by argv[1], or 0 after printing why not. */
static ext2_ino_t nav_dir_arg(struct session *s, int argc, char **argv)
{
	ext2_ino_t ino;
	errcode_t err;

	(void)argc;	/* counted by the dispatcher */
	if (dfs_arg_inode(s, argv[1], &ino))
		return 0;
	err = ext2fs_check_directory(s->fs, ino);
	if (err) {
		out_error(s->out, argv[1], err, NULL);
		return 0;
	}
	return ino;
}

static int do_cd(struct session *s, int argc, char **argv)
{
	ext2_ino_t ino = nav_dir_arg(s, argc, argv);

	if (!ino)
		return CMD_FAIL;
	s->cwd = ino;
	if (sink_is_json(s->out))
		json_u64(s->out, "cwd", ino);
	return CMD_OK;
}

static int do_chroot(struct session *s, int argc, char **argv)
{
	ext2_ino_t ino = nav_dir_arg(s, argc, argv);

	if (!ino)
		return CMD_FAIL;
	s->root = ino;
	if (sink_is_json(s->out))
		json_u64(s->out, "root", ino);
	return CMD_OK;
}

/* One line of pwd; returns 1 when the path could not be found. */
static int pwd_line(struct session *s, const char *who, const char *label,
		    const char *what, ext2_ino_t ino)
{
	char *path = NULL;
	errcode_t err = ext2fs_get_pathname(s->fs, ino, 0, &path);

	if (err)
		out_error(s->out, who, err, "while trying to get pathname of "
			  "%s", what);
	out_printf(s->out, "%s INODE: %6u  PATH: %s\n", label, ino,
		   path ? path : "NULL");
	if (sink_is_json(s->out)) {
		json_obj_begin(s->out, what);
		json_u64(s->out, "inode", ino);
		json_str(s->out, "path", path);
		json_obj_end(s->out);
	}
	ext2fs_free_mem(&path);
	return err ? 1 : 0;
}

static int do_pwd(struct session *s, int argc, char **argv)
{
	int bad;

	(void)argc;	/* counted by the dispatcher */
	bad = pwd_line(s, argv[0], "[pwd]  ", "cwd", s->cwd);
	bad |= pwd_line(s, argv[0], "[root] ", "root", s->root);
	return bad ? CMD_FAIL : CMD_OK;
}

static const char *const cd_aliases[] = {"cd", NULL};
const struct cmd_entry cmd_change_working_directory = {
	.name = "change_working_directory",
	.aliases = cd_aliases,
	.synopsis = "cd <dir>",
	.summary = "Change working directory",
	.options = "--json",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON | CMD_FEW_GROUPS,
	.complete = COMPLETE_PATH,
	.run = do_cd,
	.min_args = 2,
	.max_args = 2,
	.usage = "<file>",
};

static const char *const chroot_aliases[] = {"chroot", NULL};
const struct cmd_entry cmd_change_root_directory = {
	.name = "change_root_directory",
	.aliases = chroot_aliases,
	.synopsis = "chroot <dir>",
	.summary = "Change root directory",
	.options = "--json",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON | CMD_FEW_GROUPS,
	.complete = COMPLETE_PATH,
	.run = do_chroot,
	.min_args = 2,
	.max_args = 2,
	.usage = "<file>",
};

static const char *const pwd_aliases[] = {"pwd", NULL};
const struct cmd_entry cmd_print_working_directory = {
	.name = "print_working_directory",
	.aliases = pwd_aliases,
	.synopsis = "pwd",
	.summary = "Print current working directory",
	.options = "--json",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON | CMD_FEW_GROUPS,
	.run = do_pwd,
	.min_args = 1,
	.max_args = 1,
	.usage = "",
	.usage_name = "print_working_directory",
};
