/* search.c - the `/` search: <12> or i12 an inode (its blocks highlighted,
 * the cursor on the first), b123 or 123 a block (the map zoomed to one block
 * per cell there), anything else a path. */
#include "tui_int.h"

#include <stdlib.h>
#include <string.h>

static int search_inode(struct tui *t, ext2_ino_t ino, const char *label)
{
	struct owner_run *runs = NULL;
	struct tui_range *r;
	char what[80];
	size_t n = 0, i;
	errcode_t err;

	if (!ino || ino > t->fs->super->s_inodes_count) {
		tui_message(t, 1, "search: no inode %u on this filesystem",
			    ino);
		return -1;
	}
	err = owner_inode_runs(t->s, ino, &runs, &n);
	if (err) {
		tui_message(t, 1, "search: %s", error_message(err));
		return -1;
	}
	r = calloc(n ? n : 1, sizeof(*r));
	for (i = 0; r && i < n; i++) {
		r[i].start = runs[i].start;
		r[i].len = runs[i].len;
	}
	snprintf(what, sizeof(what), "%s", label);
	tui_set_highlight(t, r, r ? n : 0, what);
	tui_select_file(t, ino, NULL);
	if (n) {
		tui_jump(t, 1, runs[0].start);
		tui_message(t, 0, "%s: %zu run(s), first at block %llu "
			    "(highlighted)", label, n,
			    (unsigned long long)runs[0].start);
	} else {
		tui_message(t, 0, "%s owns no blocks%s", label,
			    owner_index_complete(t->s) ? "" :
			    " (the owner scan is not finished)");
	}
	free(r);
	free(runs);
	return 0;
}

int tui_search(struct tui *t, const char *what)
{
	unsigned long long v;
	char *end, label[80];
	ext2_ino_t ino;
	errcode_t err;

	while (*what == ' ')
		what++;
	if (!*what)
		return -1;
	if (*what == '<' || *what == 'i' || *what == '#') {
		v = strtoull(what + 1, &end, 0);
		if (end != what + 1 && (!*end || (*what == '<' && *end == '>'
						  && !end[1]))) {
			snprintf(label, sizeof(label), "<%llu>", v);
			return search_inode(t, (ext2_ino_t)v, label);
		}
	}
	if (*what == 'b' || (*what >= '0' && *what <= '9')) {
		const char *p = what + (*what == 'b');

		v = strtoull(p, &end, 0);
		if (end != p && !*end) {
			if (v >= ext2fs_blocks_count(t->fs->super) ||
			    v < t->fs->super->s_first_data_block) {
				tui_message(t, 1, "search: block %llu is "
					    "outside the filesystem", v);
				return -1;
			}
			view_map_zoom_block(t, v);
			tui_message(t, 0, "block %llu", v);
			return 0;
		}
	}
	err = ext2fs_namei(t->fs, EXT2_ROOT_INO, t->s->cwd, what, &ino);
	if (err) {
		tui_message(t, 1, "search: %s: %s (use 12 or <12> for an "
			    "inode, b123 for a block)", what,
			    error_message(err));
		return -1;
	}
	snprintf(label, sizeof(label), "<%u> %s", ino, what);
	return search_inode(t, ino, label);
}
