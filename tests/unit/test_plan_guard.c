/* test_plan_guard.c - the ownership guard's parts on images made by the
 * real mke2fs/debugfs: owner_claims reports every claimant of a cross-linked
 * block (owner_for_range shows one) and each group's own metadata in
 * flex_bg's packed runs, plan_guard refuses plans that free a
 * shared block or write an owned one and passes honest ones, and the plan
 * reader refuses bad lines with their numbers. */
#include "testlib.h"
#include "owner.h"
#include "plan.h"
#include "e2l_err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/e2l-guard-XXXXXX";

/* An ext3 of 1 KiB blocks: A (fragmented), B, C; A's block 1 made B's
 * block 2 too (sif), so that block belongs to both. */
static const char *mk_image(blk64_t *shared)
{
	static char img[64];
	char *out;

	snprintf(img, sizeof(img), "%s/x.img", dir);
	free(tl_sh("set -e; cd %s; "
		   "for i in 1 2 3 4 5 6; do head -c 30000 /dev/urandom > f$i; "
		   "done; head -c 90000 /dev/urandom > A; "
		   "head -c 40000 /dev/urandom > B; cp B C; "
		   "head -c 1000 /dev/urandom > E; cp E F; "
		   "mke2fs -q -F -t ext3 -b 1024 x.img 16M >/dev/null 2>&1; "
		   "(for i in 1 2 3 4 5 6; do echo \"write f$i f$i\"; done; "
		   "for i in 1 3 5; do echo \"rm f$i\"; done; "
		   "echo 'write A A'; echo 'write B B'; echo 'write C C'; "
		   "echo 'write E E'; echo 'write F F') | "
		   "debugfs -w x.img >/dev/null 2>&1", dir));
	out = tl_sh("debugfs -R 'blocks B' %s 2>/dev/null | cut -d' ' -f3",
		    img);
	*shared = strtoull(out, NULL, 10);
	free(out);
	assert_true(*shared > 0);
	free(tl_sh("debugfs -w -R 'sif A block[1] %llu' %s >/dev/null 2>&1",
		   (unsigned long long)*shared, img));
	/* F's only block made E's: two runs exactly alike */
	free(tl_sh("debugfs -w -R \"sif F block[0] $(debugfs -R 'blocks E' "
		   "%s 2>/dev/null)\" %s >/dev/null 2>&1", img, img));
	return img;
}

struct seen {
	ext2_ino_t ino[8];
	size_t k[8];
	size_t n;
};

static int seen_cb(size_t k, const struct owner_run *run, void *arg)
{
	struct seen *s = arg;

	if (s->n < 8 && run->ino) {
		s->ino[s->n] = run->ino;
		s->k[s->n++] = k;
	}
	return 0;
}

static int count_cb(const struct owner_run *run, void *arg)
{
	(void)run;
	++*(int *)arg;
	return 0;
}

static ext2_ino_t ino_of(struct tsession *t, const char *name)
{
	ext2_ino_t ino = 0;

	assert_int_equal(ext2fs_namei(t->s.fs, EXT2_ROOT_INO, EXT2_ROOT_INO,
				      name, &ino), 0);
	return ino;
}

static void test_claims_and_guard(void **state)
{
	struct owner_query q[2];
	struct seen s = {0};
	struct tsession t;
	struct plan *p;
	ext2_ino_t a, b;
	blk64_t x;
	int once = 0;
	size_t k;

	(void)state;
	tl_open_path(&t, mk_image(&x), SINK_TEXT);
	a = ino_of(&t, "A");
	b = ino_of(&t, "B");
	/* the range query shows one owner of block x ... */
	assert_int_equal(owner_index_build(&t.s), 0);
	assert_int_equal(owner_for_range(&t.s, x, 1, count_cb, &once), 0);
	assert_int_equal(once, 1);
	/* ... the claims show both, for each of two overlapping queries */
	q[0] = (struct owner_query){x, 1};
	q[1] = (struct owner_query){x - 1, 3};
	assert_int_equal(owner_claims(&t.s, q, 2, seen_cb, &s), 0);
	assert_int_equal(s.n, 4);	/* A and B, for each query */
	for (k = 0; k < 2; k++) {
		size_t i, ka = 0, kb = 0;

		for (i = 0; i < s.n; i++) {
			ka += s.k[i] == k && s.ino[i] == a;
			kb += s.k[i] == k && s.ino[i] == b;
		}
		assert_int_equal(ka, 1);
		assert_int_equal(kb, 1);
	}
	/* two runs exactly alike (E's block, F's block): both claimants,
	 * also after the range query sorted the index */
	{
		struct ext2_inode e;
		struct seen s2 = {0};

		assert_int_equal(ext2fs_read_inode(t.s.fs, ino_of(&t, "E"), &e),
				 0);
		q[0] = (struct owner_query){e.i_block[0], 1};
		assert_int_equal(owner_claims(&t.s, q, 1, seen_cb, &s2), 0);
		assert_int_equal(s2.n, 2);
		assert_int_not_equal(s2.ino[0], s2.ino[1]);
	}
	/* defrag of A frees x, which B claims too: refused */
	assert_int_equal(plan_build_move(&t.s, "defrag", a, 0, 0, &p), 0);
	assert_int_equal(plan_guard(&t.s, p, "defrag"), E2L_ERR_OWNER_CONFLICT);
	assert_non_null(strstr(t.err.buf, "claims them too"));
	plan_free(p);
	/* C shares nothing: its plan passes */
	assert_int_equal(plan_build_move(&t.s, "defrag", ino_of(&t, "C"), 0, 0,
					 &p), 0);
	strbuf_reset(&t.err);
	assert_int_equal(plan_guard(&t.s, p, "defrag"), 0);
	/* the same plan with its target moved onto A's first block: refused
	 * (the target is no longer the one e2layout would choose) */
	p->target = x;
	assert_int_not_equal(plan_guard(&t.s, p, "defrag"), 0);
	plan_free(p);
	tl_close(&t);
}

struct groups_seen {
	dgrp_t next;
	int bad;
};

static int group_cb(size_t k, const struct owner_run *run, void *arg)
{
	struct groups_seen *g = arg;

	(void)k;
	if (run->cls != OWN_BBITMAP || run->len != 1 || run->group != g->next)
		g->bad = 1;
	g->next++;
	return 0;
}

/* flex_bg packs the block bitmaps back to back (one run in the index):
 * the claims name each group's own. */
static void test_claims_per_group(void **state)
{
	struct groups_seen g = {0, 0};
	struct owner_query q;
	struct tsession t;
	blk64_t bb0;
	dgrp_t i, n;

	(void)state;
	tl_open(&t, "demo");	/* 8 groups, their bitmaps packed */
	assert_int_equal(session_need(&t.s, NEED_GROUP_DESC), 0);
	n = t.s.fs->group_desc_count;
	bb0 = ext2fs_block_bitmap_loc(t.s.fs, 0);
	for (i = 1; i < n; i++)
		if (ext2fs_block_bitmap_loc(t.s.fs, i) != bb0 + i)
			break;
	assert_true(i > 1);	/* packed: the case this is about */
	q = (struct owner_query){bb0, i};
	assert_int_equal(owner_claims(&t.s, &q, 1, group_cb, &g), 0);
	assert_int_equal(g.next, i);
	assert_false(g.bad);
	tl_close(&t);
}

/* plan_load of TEXT: the error (0 when accepted) and its reason. */
static errcode_t load_text(const char *text, char *why, size_t whylen)
{
	char path[128];
	struct plan *p = NULL;
	errcode_t err;
	FILE *f;

	snprintf(path, sizeof(path), "%s/t.plan", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	why[0] = 0;
	err = plan_load(path, &p, why, whylen);
	plan_free(p);
	return err;
}

#define HEAD "e2layout-plan 1\nkind defrag\nino 12\nextents 1\n" \
	     "target 100 10\nnew_meta 0\nnew_size 0\nchained 0\n" \
	     "fp 1 2 3 4 5 6 7 8 0123456789abcdef0123456789abcdef\n"

static void test_reader(void **state)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{HEAD "old 0 50 10 0\nnew 0 100 10 0\nstep copy 50 100 10\n"
		 "end\n", NULL},
		{"garbage\n", "line 1: not an e2layout plan"},
		{HEAD "old 0 50 -10 0\n", "line 10: old: bad number"},
		{HEAD "old 0 50 18446744073709551616 0\n",
		 "line 10: old: number"},
		{HEAD "old 0 50 0 0\n", "line 10: a run of length 0"},
		{HEAD "old 0 50 10 2\n", "line 10: old: number 2 is too large"},
		{HEAD "old 5 50 10 0\nold 0 70 2 0\n",
		 "line 11: runs out of logical order"},
		{HEAD "step free 0 0 27\nstep zap 1 2 3\n",
		 "line 11: unknown step kind"},
		{HEAD "step free 5 6 7\n", "line 10: a free step has no "
		 "destination"},
		{HEAD "ino 13\n", "line 10: a second \"ino\" line (the first "
		 "is line 3)"},
		{HEAD "new 0 100 10 0\nstep copy 50 100 10\nend\nend\n",
		 "line 13: more lines after \"end\""},
		{HEAD "new 0 100 10 0\nstep copy 50 100 10\n",
		 "line 11: the file ends without its \"end\" line"},
		{HEAD "frob 1\n", "line 10: unknown line \"frob\""},
		{HEAD "new 0 100 10 0\nstep copy 50 100 10\nnext\nend\n",
		 "line 13: the plan that ends here has no \"kind\" line"},
	};
	char why[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		errcode_t err = load_text(cases[i].text, why, sizeof(why));

		if (!cases[i].why) {
			if (err)
				fail_msg("case %zu refused: %s", i, why);
			continue;
		}
		if (err != E2L_ERR_BAD_PLAN_FILE)
			fail_msg("case %zu accepted (%ld)", i, (long)err);
		if (strncmp(why, cases[i].why, strlen(cases[i].why)))
			fail_msg("case %zu: \"%s\", want \"%s...\"", i, why,
				 cases[i].why);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claims_and_guard),
		cmocka_unit_test(test_claims_per_group),
		cmocka_unit_test(test_reader),
	};
	int rc;

	e2l_err_init();
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	free(tl_sh("rm -rf %s", dir));
	return rc;
}
