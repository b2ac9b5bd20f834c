/* flex.c - the `flex [N]` request: the flex group size and, per flex
 * group, the groups it serves, its metadata islands and free counts. */
#include "cmd.h"
#include "flex.h"

#include <errno.h>
#include <stdlib.h>

static void flex_text(struct session *s, const struct e2l_flex *fx)
{
	char groups[32];
	unsigned i;

	snprintf(groups, sizeof(groups), "%u-%u", fx->first_group,
		 fx->last_group);
	out_printf(s->out, "%5lu  %-13s %9llu %9llu %7llu  ", fx->index,
		   groups, (unsigned long long)fx->free_blocks,
		   (unsigned long long)fx->free_inodes,
		   (unsigned long long)fx->used_dirs);
	if (!fx->nislands)
		out_printf(s->out, "(none)");
	for (i = 0; i < fx->nislands; i++)
		out_printf(s->out, "%s%llu-%llu (%llu)", i ? ", " : "",
			   (unsigned long long)fx->islands[i].start,
			   (unsigned long long)(fx->islands[i].start +
						fx->islands[i].len - 1),
			   (unsigned long long)fx->islands[i].len);
	out_printf(s->out, "\n");
}

static void flex_json(struct session *s, const struct e2l_flex *fx)
{
	unsigned i;

	json_obj_begin(s->out, NULL);
	json_u64(s->out, "flex_group", fx->index);
	json_u64(s->out, "first_group", fx->first_group);
	json_u64(s->out, "last_group", fx->last_group);
	json_u64(s->out, "free_blocks", fx->free_blocks);
	json_u64(s->out, "free_inodes", fx->free_inodes);
	json_u64(s->out, "used_dirs", fx->used_dirs);
	json_arr_begin(s->out, "islands");
	for (i = 0; i < fx->nislands; i++) {
		json_obj_begin(s->out, NULL);
		json_u64(s->out, "start", fx->islands[i].start);
		json_u64(s->out, "length", fx->islands[i].len);
		json_obj_end(s->out);
	}
	json_arr_end(s->out);
	json_obj_end(s->out);
}

static int parse_index(struct session *s, const char *who, const char *arg,
		       unsigned long count, unsigned long *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || errno || *end) {
		out_error(s->out, who, 0, "bad flex group number '%s'", arg);
		return -1;
	}
	if (v >= count) {
		out_error(s->out, who, 0, "flex group %s out of range (the "
			  "filesystem has flex groups 0-%lu)", arg, count - 1);
		return -1;
	}
	*out = v;
	return 0;
}

static int do_flex(struct session *s, int argc, char **argv)
{
	ext2_filsys fs = s->fs;
	unsigned long per = flex_groups_per(fs), count = flex_count(fs), n;
	unsigned long first = 0, last = count ? count - 1 : 0;
	int json = sink_is_json(s->out);
	int has_flex = ext2fs_has_feature_flex_bg(fs->super);
	int bigalloc = ext2fs_has_feature_bigalloc(fs->super);
	struct e2l_flex fx;
	errcode_t err;

	if (!count) {
		out_error(s->out, argv[0], 0, "the filesystem has no groups");
		return CMD_FAIL;
	}
	if (argc == 2) {
		if (parse_index(s, argv[0], argv[1], count, &first))
			return CMD_FAIL;
		last = first;
	}
	if (json) {
		json_bool(s->out, "flex_bg", has_flex);
		json_u64(s->out, "groups_per_flex", per);
		json_u64(s->out, "flex_count", count);
		json_str(s->out, "free_blocks_unit",
			 bigalloc ? "clusters" : "blocks");
		json_arr_begin(s->out, "flex_groups");
	} else {
		if (has_flex)
			out_printf(s->out, "flex_bg: %lu groups per flex group "
				   "(log %u), %lu flex groups\n", per,
				   fs->super->s_log_groups_per_flex, count);
		else
			out_printf(s->out, "flex_bg is not enabled: each "
				   "group is its own flex group (%lu)\n",
				   count);
		out_printf(s->out, "%5s  %-13s %9s %9s %7s  %s\n", "Flex",
			   "Groups", bigalloc ? "FreeClust" : "FreeBlks",
			   "FreeInos", "Dirs", "Metadata islands (blocks)");
	}
	for (n = first; n <= last; n++) {
		err = flex_get(fs, n, &fx);
		if (err) {
			if (json)
				json_arr_end(s->out);
			out_error(s->out, argv[0], err,
				  "while reading flex group %lu", n);
			return CMD_FAIL;
		}
		if (json) {
			flex_json(s, &fx);
			json_flush(s->out);
		} else {
			flex_text(s, &fx);
		}
		flex_release(&fx);
	}
	if (json)
		json_arr_end(s->out);
	return CMD_OK;
}

const struct cmd_entry cmd_flex = {
	.name = "flex",
	.synopsis = "flex [N]",
	.summary = "Show flex groups and their metadata islands",
	.flags = CMD_NEEDS_FS | CMD_JSON,
	.run = do_flex,
	.min_args = 1,
	.max_args = 2,
	.usage = "[N]",
	.usage_name = "flex",
};
