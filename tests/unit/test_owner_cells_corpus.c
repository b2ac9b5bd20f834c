/* test_owner_cells_corpus.c - the map's class counts (owner_cells.c)
 * against owner_class_counts on e2fsprogs's corrupted images (cross-links,
 * blocks past the end, bigalloc, 1 KiB blocks, meta_bg...): every image of
 * ../shared/corpus/e2fsprogs-tests that opens, after its scan, over cells
 * of several sizes and random ranges.  Skips without the corpus. */
#include "testlib.h"
#include "owner.h"
#include "owner_int.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned long long rnd_state = 0x2545f4914f6cdd1dULL;

static unsigned long long rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static void capture(void *ctx, enum sink_chan chan, const char *buf,
		    size_t len)
{
	(void)ctx;
	(void)chan;
	(void)buf;
	(void)len;
}

static int differs;

static void same_range(struct session *s, const char *img, blk64_t first,
		       blk64_t count)
{
	blk64_t a[OWN_CLASS_MAX] = {0}, b[OWN_CLASS_MAX] = {0};
	errcode_t ea, eb;
	int k;

	ea = owner_class_counts(s, first, count, a);
	eb = owner_class_counts_quick(s, first, count, b);
	if (ea != eb) {
		print_message("%s [%llu +%llu): errors %ld and %ld\n", img,
			      (unsigned long long)first,
			      (unsigned long long)count, (long)ea, (long)eb);
		differs++;
		return;
	}
	for (k = 0; k < OWN_CLASS_MAX; k++)
		if (a[k] != b[k]) {
			print_message("%s [%llu +%llu): %s %llu, the map's "
				      "count %llu\n", img,
				      (unsigned long long)first,
				      (unsigned long long)count,
				      owner_class_key(k),
				      (unsigned long long)a[k],
				      (unsigned long long)b[k]);
			differs++;
			return;
		}
}

/* One image: 0 checked, 1 it did not open or scan (not this test's). */
static int check_image(const char *path, const char *label)
{
	static const blk64_t sizes[] = {1, 7, 8, 64, 1000, 8193};
	struct session s;
	struct sink sink;
	blk64_t total, b, bpc;
	int done = 0, r;
	size_t i, cells;

	sink_init_cb(&sink, SINK_TEXT, capture, NULL);
	session_init(&s, &sink);
	if (session_open(&s, path, 0, NULL, 0, 0) || !s.fs) {
		session_close(&s);
		sink_free(&sink);
		return 1;
	}
	if (owner_scan_begin(&s)) {
		session_close(&s);
		sink_free(&sink);
		return 1;
	}
	while (!done)
		if (owner_scan_step(&s, 1000, &done))
			break;
	total = ext2fs_blocks_count(s.fs->super);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]) + 1; i++) {
		bpc = i < sizeof(sizes) / sizeof(sizes[0]) ? sizes[i] :
		      total / 61 + 1;
		for (b = 0, cells = 0; b < total && cells < 1500;
		     b += bpc, cells++)
			same_range(&s, label, b, bpc);
	}
	for (r = 0; r < 150 && total; r++)
		same_range(&s, label, rnd() % total,
			   1 + rnd() % (total / 4 + 1));
	same_range(&s, label, 0, (blk64_t)-1);
	session_close(&s);
	sink_free(&sink);
	return 0;
}

static void t_corpus(void **state)
{
	const char *env = getenv("E2L_CORPUS"), *images = getenv("E2L_IMAGES");
	const char *td = getenv("TMPDIR");
	char dir[4096], tmp[4096], img[4200];
	char *out;
	struct dirent *d;
	DIR *dp;
	int checked = 0, skipped = 0;

	(void)state;
	if (env) {
		snprintf(dir, sizeof(dir), "%s", env);
	} else {	/* beside the clone: E2L_IMAGES is TOP/build/testimg */
		char *slash;
		int up;

		snprintf(dir, sizeof(dir), "%s", images ? images : "x/x");
		for (up = 0; up < 2; up++) {
			slash = strrchr(dir, '/');
			if (slash)
				*slash = 0;
			else
				snprintf(dir, sizeof(dir), ".");
		}
		snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir),
			 "/../shared/corpus/e2fsprogs-tests");
	}
	dp = opendir(dir);
	if (!dp) {
		print_message("no corpus at %s\n", dir);
		skip();
	}
	snprintf(tmp, sizeof(tmp), "%s/e2l-cells-XXXXXX", td ? td : "/tmp");
	assert_non_null(mkdtemp(tmp));
	snprintf(img, sizeof(img), "%s/image", tmp);
	while ((d = readdir(dp))) {
		size_t len = strlen(d->d_name);

		if (len < 8 || strcmp(d->d_name + len - 7, ".img.gz"))
			continue;
		out = tl_sh("gzip -dc '%s/%s' > '%s' 2>/dev/null && echo ok",
			    dir, d->d_name, img);
		if (out && !strncmp(out, "ok", 2)) {
			if (check_image(img, d->d_name))
				skipped++;
			else
				checked++;
		}
		free(out);
	}
	closedir(dp);
	unlink(img);
	rmdir(tmp);
	print_message("%d images checked, %d did not open\n", checked,
		      skipped);
	assert_true(checked > 100);
	if (differs)
		fail_msg("%d ranges where the map's counts differ", differs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_corpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
