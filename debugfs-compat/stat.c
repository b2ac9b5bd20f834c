/* stat.c - debugfs's show_inode_info/stat: every section debugfs 1.47.0
 * prints for an inode, and the same facts as a JSON result. */
#include "cmd.h"
#include "dfs_util.h"
#include "stat_extra.h"

#include <stddef.h>
#include <stdlib.h>

static const char *inode_type(__u16 mode)
{
	if (LINUX_S_ISDIR(mode))
		return "directory";
	if (LINUX_S_ISREG(mode))
		return "regular";
	if (LINUX_S_ISLNK(mode))
		return "symlink";
	if (LINUX_S_ISBLK(mode))
		return "block special";
	if (LINUX_S_ISCHR(mode))
		return "character special";
	if (LINUX_S_ISFIFO(mode))
		return "FIFO";
	if (LINUX_S_ISSOCK(mode))
		return "socket";
	return "bad type";
}

/* A time with its epoch bits, as a signed number of seconds. */
static __s64 xtime(__u32 t, __u32 extra)
{
	return (__s32)t + ((__s64)(extra & EXT4_EPOCH_MASK) << 32);
}

static void print_times(struct session *s, struct ext2_inode_large *in,
			int extra)
{
	struct sink *o = s->out;

	if (extra) {
		out_printf(o, " ctime: 0x%08x:%08x -- %s", in->i_ctime,
			   in->i_ctime_extra,
			   dfs_inode_time_to_string(in->i_ctime,
						    in->i_ctime_extra));
		out_printf(o, " atime: 0x%08x:%08x -- %s", in->i_atime,
			   in->i_atime_extra,
			   dfs_inode_time_to_string(in->i_atime,
						    in->i_atime_extra));
		out_printf(o, " mtime: 0x%08x:%08x -- %s", in->i_mtime,
			   in->i_mtime_extra,
			   dfs_inode_time_to_string(in->i_mtime,
						    in->i_mtime_extra));
		out_printf(o, "crtime: 0x%08x:%08x -- %s", in->i_crtime,
			   in->i_crtime_extra,
			   dfs_inode_time_to_string(in->i_crtime,
						    in->i_crtime_extra));
		if (in->i_dtime)
			out_printf(o, " dtime: 0x%08x:(%08x) -- %s",
				   in->i_dtime, in->i_ctime_extra,
				   dfs_inode_time_to_string(in->i_dtime,
							    in->i_ctime_extra));
		return;
	}
	out_printf(o, "ctime: 0x%08x -- %s", in->i_ctime,
		   dfs_time_to_string((__s32)in->i_ctime));
	out_printf(o, "atime: 0x%08x -- %s", in->i_atime,
		   dfs_time_to_string((__s32)in->i_atime));
	out_printf(o, "mtime: 0x%08x -- %s", in->i_mtime,
		   dfs_time_to_string((__s32)in->i_mtime));
	if (in->i_dtime)
		out_printf(o, "dtime: 0x%08x -- %s", in->i_dtime,
			   dfs_time_to_string((__s32)in->i_dtime));
}

static void print_inline_symlink(struct session *s, ext2_ino_t ino,
				 struct ext2_inode *inode)
{
	char *buf = NULL;
	size_t size;
	errcode_t err;

	err = ext2fs_inline_data_size(s->fs, ino, &size);
	if (err)
		goto out;
	buf = calloc(1, size + 1);
	if (!buf) {
		err = EXT2_ET_NO_MEMORY;
		goto out;
	}
	err = ext2fs_inline_data_get(s->fs, ino, inode, buf, &size);
	if (err)
		goto out;
	out_printf(s->out, "Fast link dest: \"%.*s\"\n", (int)size, buf);
out:
	free(buf);
	if (err)
		out_error(s->out, "dump_inline_symlink", err,
			  "while dumping link destination");
}

static void print_device(struct session *s, struct ext2_inode *inode)
{
	const char *note = "";
	int major, minor;

	if (inode->i_block[0]) {
		major = (inode->i_block[0] >> 8) & 255;
		minor = inode->i_block[0] & 255;
	} else {
		major = (inode->i_block[1] & 0xfff00) >> 8;
		minor = (inode->i_block[1] & 0xff) |
			((inode->i_block[1] >> 12) & 0xfff00);
		note = "(New-style) ";
	}
	out_printf(s->out, "%sDevice major/minor number: %02d:%02d "
			   "(hex %02x:%02x)\n", note, major, minor, major,
		   minor);
	json_u64(s->out, "device_major", major);
	json_u64(s->out, "device_minor", minor);
}

/* The BLOCKS, EXTENTS or inline data part. */
static void print_mapping(struct session *s, ext2_ino_t ino,
			  struct ext2_inode *inode)
{
	struct stat_runs r = {0};
	size_t size;

	if (inode->i_flags & EXT4_EXTENTS_FL) {
		if (stat_collect_extents(s->fs, ino, &r) &&
		    r.n == 0) {
			ext2_extent_handle_t h;

			/* an unopenable tree prints nothing at all */
			if (ext2fs_extent_open(s->fs, ino, &h))
				goto out;
			ext2fs_extent_free(h);
		}
		stat_print_extents(s->out, &r);
		stat_json_runs(s->out, "extents", &r);
	} else if (inode->i_flags & EXT4_INLINE_DATA_FL) {
		if (!ext2fs_inline_data_size(s->fs, ino, &size)) {
			out_printf(s->out, "Size of inline data: %zu\n", size);
			json_u64(s->out, "inline_data_size", size);
		}
	} else {
		stat_collect_blocks(s->fs, ino, &r);
		stat_print_blocks(s->out, &r);
		stat_json_runs(s->out, "blocks", &r);
	}
out:
	stat_runs_free(&r);
}

static void stat_json(struct session *s, ext2_ino_t ino,
		      struct ext2_inode_large *in, int extra)
{
	struct sink *o = s->out;

	json_u64(o, "inode", ino);
	json_str(o, "type", inode_type(in->i_mode));
	json_u64(o, "mode", in->i_mode & 07777);
	json_u64(o, "flags", in->i_flags);
	json_u64(o, "generation", in->i_generation);
	json_u64(o, "uid", inode_uid(*in));
	json_u64(o, "gid", inode_gid(*in));
	json_u64(o, "size", EXT2_I_SIZE(in));
	json_u64(o, "file_acl", ext2fs_file_acl_block(s->fs,
						      EXT2_INODE(in)));
	json_u64(o, "links", in->i_links_count);
	json_u64(o, "blockcount", ((unsigned long long)
				   in->osd2.linux2.l_i_blocks_hi << 32) +
				  in->i_blocks);
	json_i64(o, "ctime", extra ? xtime(in->i_ctime, in->i_ctime_extra)
				   : (__s32)in->i_ctime);
	json_i64(o, "atime", extra ? xtime(in->i_atime, in->i_atime_extra)
				   : (__s32)in->i_atime);
	json_i64(o, "mtime", extra ? xtime(in->i_mtime, in->i_mtime_extra)
				   : (__s32)in->i_mtime);
	if (extra)
		json_i64(o, "crtime", xtime(in->i_crtime, in->i_crtime_extra));
	else
		json_null(o, "crtime");
	json_i64(o, "dtime", (__s32)in->i_dtime);
}

static void dump_inode(struct session *s, ext2_ino_t ino,
		       struct ext2_inode_large *in)
{
	struct ext2_inode *inode = EXT2_INODE(in);
	struct sink *o = s->out;
	unsigned isize = EXT2_INODE_SIZE(s->fs->super);
	int large = isize > EXT2_GOOD_OLD_INODE_SIZE;
	int hurd = s->fs->super->s_creator_os == EXT2_OS_HURD;
	int extra = large && in->i_extra_isize >= 24;

	if (sink_is_json(o))
		stat_json(s, ino, in, extra);
	out_printf(o, "Inode: %u   Type: %s    ", ino, inode_type(in->i_mode));
	out_printf(o, "Mode:  0%03o   Flags: 0x%x\n", in->i_mode & 07777,
		   in->i_flags);
	if (extra)
		out_printf(o, "Generation: %u    Version: 0x%08x:%08x\n",
			   in->i_generation, in->i_version_hi,
			   in->osd1.linux1.l_i_version);
	else
		out_printf(o, "Generation: %u    Version: 0x%08x\n",
			   in->i_generation, in->osd1.linux1.l_i_version);
	out_printf(o, "User: %5d   Group: %5d", inode_uid(*in),
		   inode_gid(*in));
	if (large && in->i_extra_isize >= 32)
		out_printf(o, "   Project: %5d", in->i_projid);
	out_printf(o, "   Size: ");
	if (LINUX_S_ISREG(in->i_mode) || LINUX_S_ISDIR(in->i_mode))
		out_printf(o, "%llu\n", (unsigned long long)EXT2_I_SIZE(in));
	else
		out_printf(o, "%u\n", in->i_size);
	if (hurd) {
		out_printf(o, "File ACL: %u Translator: %u\n", in->i_file_acl,
			   in->osd1.hurd1.h_i_translator);
		out_printf(o, "Links: %u   Blockcount: %u\n",
			   in->i_links_count, in->i_blocks);
		out_printf(o, "Fragment:  Address: %u    Number: %u    "
			      "Size: %u\n", in->i_faddr,
			   in->osd2.hurd2.h_i_frag, in->osd2.hurd2.h_i_fsize);
	} else {
		out_printf(o, "File ACL: %llu\n", in->i_file_acl |
			   ((unsigned long long)
			    in->osd2.linux2.l_i_file_acl_high << 32));
		out_printf(o, "Links: %u   Blockcount: %llu\n",
			   in->i_links_count,
			   ((unsigned long long)
			    in->osd2.linux2.l_i_blocks_hi << 32) +
			   in->i_blocks);
		out_printf(o, "Fragment:  Address: %u    Number: %u    "
			      "Size: %u\n", in->i_faddr, 0, 0);
	}
	print_times(s, in, extra);
	if (large) {
		out_printf(o, "Size of extra inode fields: %u\n",
			   in->i_extra_isize);
		if (in->i_extra_isize > isize - EXT2_GOOD_OLD_INODE_SIZE)
			out_errtext(o, "invalid inode->i_extra_isize (%u)\n",
				    in->i_extra_isize);
	}
	stat_print_xattrs(s, ino);
	if (ext2fs_has_feature_metadata_csum(s->fs->super)) {
		__u32 crc = in->i_checksum_lo;

		if (large && in->i_extra_isize >=
		    offsetof(struct ext2_inode_large, i_checksum_hi) -
		    EXT2_GOOD_OLD_INODE_SIZE)
			crc |= (__u32)in->i_checksum_hi << 16;
		out_printf(o, "Inode checksum: 0x%08x\n", crc);
	}
	if (LINUX_S_ISLNK(in->i_mode) && ext2fs_is_fast_symlink(inode)) {
		out_printf(o, "Fast link dest: \"%.*s\"\n",
			   (int)EXT2_I_SIZE(in), (char *)in->i_block);
		if (sink_is_json(o)) {
			struct strbuf t = {0};

			strbuf_add(&t, (char *)in->i_block,
				   strnlen((char *)in->i_block,
					   EXT2_I_SIZE(in) <
					   sizeof(in->i_block) ?
					   EXT2_I_SIZE(in) :
					   sizeof(in->i_block)));
			json_str(o, "link_target", t.buf ? t.buf : "");
			strbuf_free(&t);
		}
	} else if (LINUX_S_ISLNK(in->i_mode) &&
		   (in->i_flags & EXT4_INLINE_DATA_FL)) {
		print_inline_symlink(s, ino, inode);
	} else if (LINUX_S_ISBLK(in->i_mode) || LINUX_S_ISCHR(in->i_mode)) {
		print_device(s, inode);
	} else {
		print_mapping(s, ino, inode);
	}
}

static int do_stat(struct session *s, int argc, char **argv)
{
	unsigned size = EXT2_INODE_SIZE(s->fs->super);
	struct ext2_inode_large *in;
	ext2_ino_t ino;
	int status = CMD_FAIL;

	(void)argc;	/* counted by the dispatcher */
	if (size < sizeof(*in))
		size = sizeof(*in);
	in = calloc(1, size);
	if (!in) {
		out_errtext(s->out, "do_stat: can't allocate buffer\n");
		return CMD_FAIL;
	}
	if (dfs_arg_inode(s, argv[1], &ino))
		goto out;
	if (dfs_read_inode_full(s, ino, EXT2_INODE(in), argv[0],
				EXT2_INODE_SIZE(s->fs->super)))
		goto out;
	dump_inode(s, ino, in);
	status = CMD_OK;
out:
	free(in);
	return status;
}

static const char *const stat_aliases[] = {"stat", NULL};
const struct cmd_entry cmd_show_inode_info = {
	.name = "show_inode_info",
	.aliases = stat_aliases,
	.synopsis = "show_inode_info <file>",
	.summary = "Show an inode: mode, owner, size, times, xattrs, blocks",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON | CMD_FEW_GROUPS |
		 CMD_OPEN_FIRST,
	.complete = COMPLETE_PATH,
	.run = do_stat,
	.min_args = 2,
	.max_args = 2,
	.usage = "<file>",
};
