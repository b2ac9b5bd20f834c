/* test_frag.c - fragmentation against the real tools: the free-extent
 * histogram against e2freefrag, per-file extent counts against debugfs's
 * "ex" (extents) and "blocks"/"stat" (block-mapped files). */
#include "testlib.h"
#include "frag.h"
#include "owner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Histogram rows of e2freefrag IMG versus frag_free_hist over all groups. */
static void check_hist(const char *img)
{
	char *out = tl_sh("e2freefrag %s 2>/dev/null", tl_image(img));
	char *line, *save = NULL;
	unsigned long long n, blocks, num = 0, minkb = 0;
	struct tsession t;
	struct frag_hist h;
	int b = 0, rows = 0;

	tl_open(&t, img);
	assert_int_equal(frag_free_hist(&t.s, 0, t.s.fs->group_desc_count - 1,
					&h), 0);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		sscanf(line, "Num. free extent: %llu", &num);
		sscanf(line, "Min. free extent: %llu", &minkb);
		if (!strstr(line, "...") ||
		    sscanf(strstr(line, ":"), ":  %llu %llu", &n, &blocks) != 2)
			continue;
		while (b < FRAG_BUCKETS && !h.count[b])
			b++;
		assert_true(b < FRAG_BUCKETS);
		assert_int_equal(h.count[b], n);
		assert_int_equal(h.blocks[b], blocks);
		b++;
		rows++;
	}
	assert_true(rows > 0);
	assert_int_equal(h.free_extents, num);
	assert_int_equal(h.min_extent * (t.s.fs->blocksize / 1024), minkb);
	assert_int_equal(h.free_blocks,
			 ext2fs_free_blocks_count(t.s.fs->super));
	free(out);
	tl_close(&t);
}

/* Leaf extents that "ex FILE" lists equal frag_file_get's count. */
static void check_extents(const char *img, const char *file)
{
	char *out = tl_sh("debugfs -R 'ex %s' %s 2>/dev/null", file,
			  tl_image(img));
	char *line, *save = NULL;
	unsigned lvl, depth, leaves = 0;
	struct tsession t;
	struct frag_file ff;
	ext2_ino_t ino;

	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, " %u/ %u", &lvl, &depth) == 2 &&
		    lvl == depth)
			leaves++;
	free(out);
	tl_open(&t, img);
	assert_int_equal(ext2fs_namei(t.s.fs, EXT2_ROOT_INO, EXT2_ROOT_INO,
				      file, &ino), 0);
	assert_int_equal(frag_file_get(&t.s, ino, &ff), 0);
	if (ff.extents != leaves)
		fail_msg("%s %s: %llu extents, debugfs ex lists %u", img, file,
			 (unsigned long long)ff.extents, leaves);
	assert_int_equal(ff.ideal, (ff.blocks + 32767) / 32768);
	tl_close(&t);
}

/* Block-mapped: physically contiguous runs of "blocks FILE", where the
 * file's own indirect blocks (from "stat") do not break a run. */
static void check_runs(const char *img, const char *file)
{
	char *blocks = tl_sh("debugfs -R 'blocks %s' %s 2>/dev/null", file,
			     tl_image(img));
	char *ind = tl_sh("debugfs -R 'stat %s' %s 2>/dev/null | grep -oE "
			  "'\\((IND|DIND|TIND)\\):[0-9]+' | cut -d: -f2 | "
			  "tr '\\n' ' '", file, tl_image(img));
	unsigned long long b, prev = 0, x;
	unsigned long runs = 0;
	char *p = blocks, *end, *q;
	struct tsession t;
	struct frag_file ff;
	ext2_ino_t ino;

	for (;;) {
		b = strtoull(p, &end, 10);
		if (end == p)
			break;
		p = end;
		/* "blocks" lists the indirect blocks too: leave them out */
		for (q = ind;; q = end) {
			x = strtoull(q, &end, 10);
			if (end == q || x == b)
				break;
		}
		if (end != q)
			continue;
		if (runs) {
			/* skip this file's indirect blocks after prev */
			for (q = ind;;) {
				x = strtoull(q, &end, 10);
				if (end == q)
					break;
				q = end;
				if (x == prev + 1) {
					prev = x;
					q = ind;
				}
			}
		}
		if (!runs || b != prev + 1)
			runs++;
		prev = b;
	}
	free(blocks);
	free(ind);
	tl_open(&t, img);
	assert_int_equal(ext2fs_namei(t.s.fs, EXT2_ROOT_INO, EXT2_ROOT_INO,
				      file, &ino), 0);
	assert_int_equal(frag_file_get(&t.s, ino, &ff), 0);
	if (ff.extents != runs)
		fail_msg("%s %s: %llu runs, debugfs shows %lu", img, file,
			 (unsigned long long)ff.extents, runs);
	tl_close(&t);
}

static void t_hist(void **state)
{
	(void)state;
	check_hist("ext2-1k");
	check_hist("ext4");
	check_hist("inline");
	check_hist("metabg");
	check_hist("noflex");
}

static void t_extents(void **state)
{
	static const char *const files[] = {"/home/user/blob",
		"/usr/share/doc/big.txt", "/var/log/messages", "/manyfiles",
		"/home/user/sparse", "/etc/conf1", NULL};
	int i;

	(void)state;
	for (i = 0; files[i]; i++) {
		check_extents("ext4", files[i]);
		check_extents("bigalloc", files[i]);
		check_extents("metabg", files[i]);
		check_runs("ext2-1k", files[i]);
		check_runs("ext3", files[i]);
	}
}

/* The fs-wide numbers hold together and the worst list is sorted. */
static void t_files(void **state)
{
	struct tsession t;
	struct frag_files f;
	size_t i;

	(void)state;
	tl_open(&t, "ext2-1k");
	assert_int_equal(frag_files_get(&t.s, 5, &f), 0);
	assert_true(f.files > 300);
	assert_true(f.total_extents >= f.total_ideal);
	assert_true(f.score >= 0 && f.score <= 100);
	assert_true(f.nworst <= 5 && f.nworst <= f.fragmented_files);
	for (i = 0; i < f.nworst; i++) {
		assert_true(f.worst[i].extents > f.worst[i].ideal);
		if (i)
			assert_true(f.worst[i - 1].extents -
				    f.worst[i - 1].ideal >=
				    f.worst[i].extents - f.worst[i].ideal);
	}
	frag_files_release(&f);
	assert_int_equal(tl_run(&t, "frag --top 3 --per-group"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "Fragmentation score"));
	assert_int_equal(tl_run(&t, "frag --per-flex"), CMD_OK);
	assert_int_equal(tl_run(&t, "frag --top x"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "frag --bogus"), CMD_FAIL);
	tl_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_hist),
		cmocka_unit_test(t_extents),
		cmocka_unit_test(t_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
