/* test_journal.c - the journal model against debugfs and dumpe2fs: data
 * runs and mapping blocks equal what `debugfs -R "stat <8>"` lists, the
 * superblock fields equal dumpe2fs's "Journal ..." lines; external and
 * missing journals, damaged ones, and the `journal` request. */
#include "testlib.h"
#include "journal.h"

#include <e2p/e2p.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const images[] = {
	"ext2-1k", "ext3", "ext4", "bigalloc", "metabg", "inline", "noflex",
	NULL
};

static char tmpdir[] = "/tmp/e2l-journal-XXXXXX";
static char frag[300];	/* extent-mapped, 9 pieces, an extent-tree block */
static char dind[300];	/* block-mapped with double-indirect blocks */
static char fc[300];	/* fast-commit area, metadata_csum */
static char ext[300];	/* external journal */

#define MKFS "MKE2FS_CONFIG=/dev/null mke2fs -q -F -T default "

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(frag, sizeof(frag), "%s/frag.img", tmpdir);
	snprintf(dind, sizeof(dind), "%s/dind.img", tmpdir);
	snprintf(fc, sizeof(fc), "%s/fc.img", tmpdir);
	snprintf(ext, sizeof(ext), "%s/ext.img", tmpdir);
	free(tl_sh(MKFS "-t ext4 -b 1024 -g 1024 -O extent,^flex_bg,"
		   "^resize_inode -J size=8 %s 64M >/dev/null 2>&1", frag));
	free(tl_sh(MKFS "-t ext3 -b 1024 -J size=16 %s 64M >/dev/null 2>&1",
		   dind));
	free(tl_sh(MKFS "-t ext4 -O extent,fast_commit,metadata_csum -J "
		   "size=8 %s 64M >/dev/null 2>&1", fc));
	free(tl_sh(MKFS "-t ext2 %s 8M >/dev/null 2>&1 && "
		   "debugfs -w -f - %s >/dev/null 2>&1 <<EOF\n"
		   "feature has_journal\n"
		   "ssv journal_uuid 11111111-2222-3333-4444-555555555555\n"
		   "ssv journal_dev 0x0803\nEOF", ext, ext));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(tl_sh("rm -rf %s", tmpdir));
	return 0;
}

static int cmp_blk(const void *a, const void *b)
{
	blk64_t x = *(const blk64_t *)a, y = *(const blk64_t *)b;

	return x < y ? -1 : x > y;
}

/* Checks the runs and mapping blocks against debugfs's stat listing. */
static void compare_blocks(const char *path, const struct e2l_journal *j)
{
	char *out = tl_sh("debugfs -R 'stat <8>' %s 2>/dev/null", path);
	char *p = strstr(out, j->uses_extents ? "EXTENTS:\n" : "BLOCKS:\n");
	unsigned long long l1, l2, p1, p2;
	struct e2l_jextent want[4096];
	blk64_t map[4096], mine[4096];
	unsigned nwant = 0, nmap = 0, entries = 0, i;
	blk64_t total = 0;
	char name[16], *tok, *save;

	assert_non_null(p);
	p = strchr(p, '\n') + 1;
	for (tok = strtok_r(p, ", \n", &save); tok;
	     tok = strtok_r(NULL, ", \n", &save)) {
		if (!strncmp(tok, "TOTAL:", 6))
			break;
		if (sscanf(tok, "(%llu-%llu):%llu-%llu", &l1, &l2, &p1,
			   &p2) == 4) {
			assert_int_equal(l2 - l1, p2 - p1);
		} else if (sscanf(tok, "(%llu):%llu", &l1, &p1) == 2) {
			l2 = l1;
		} else if (sscanf(tok, "(%15[A-Z0-9]):%llu", name, &p1) == 2) {
			assert_true(nmap < 4096);
			map[nmap++] = p1;
			continue;
		} else {
			continue;	/* "[uninit]" and the like */
		}
		entries++;
		total += l2 - l1 + 1;
		if (nwant && want[nwant - 1].lblk + want[nwant - 1].len == l1 &&
		    want[nwant - 1].pblk + want[nwant - 1].len == p1) {
			want[nwant - 1].len += l2 - l1 + 1;
			continue;
		}
		assert_true(nwant < 4096);
		want[nwant].lblk = l1;
		want[nwant].pblk = p1;
		want[nwant++].len = l2 - l1 + 1;
	}
	assert_true(nwant > 0);
	assert_int_equal(j->next, nwant);
	for (i = 0; i < nwant; i++) {
		assert_int_equal(j->ext[i].lblk, want[i].lblk);
		assert_int_equal(j->ext[i].pblk, want[i].pblk);
		assert_int_equal(j->ext[i].len, want[i].len);
	}
	assert_int_equal(j->data_blocks, total);
	if (j->uses_extents)
		assert_int_equal(j->nentries, entries);
	assert_int_equal(j->nmap, nmap);
	if (nmap)
		memcpy(mine, j->map_blocks, nmap * sizeof(blk64_t));
	qsort(mine, nmap, sizeof(blk64_t), cmp_blk);
	qsort(map, nmap, sizeof(blk64_t), cmp_blk);
	for (i = 0; i < nmap; i++)
		assert_int_equal(mine[i], map[i]);
	free(out);
}

/* Checks the superblock fields against dumpe2fs -h. */
static void compare_super(const char *path, const struct e2l_journal *j,
			  unsigned blocksize)
{
	char *out = tl_sh("dumpe2fs -h %s 2>/dev/null", path), *line, *save;
	char feats[512] = "", want[512] = "", *p;
	unsigned long v;
	int type, seen = 0;
	unsigned bit;

	assert_true(j->sb_valid);
	assert_int_equal(j->sb_blocksize, blocksize);
	assert_true(j->sb_first >= 1);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "Total journal blocks: %lu", &v) == 1)
			assert_int_equal(j->sb_maxlen, v), seen++;
		else if (sscanf(line, "Journal sequence: %lx", &v) == 1)
			assert_int_equal(j->sb_sequence, v), seen++;
		else if (sscanf(line, "Journal start: %lu", &v) == 1)
			assert_int_equal(j->sb_start, v), seen++;
		else if (sscanf(line, "Fast commit length: %lu", &v) == 1)
			assert_int_equal(journal_fc_blocks(j), v), seen++;
		else if (!strncmp(line, "Journal checksum type:", 22))
			assert_true(journal_csum_version(j) >= 2);
		else if (!strncmp(line, "Journal features:", 17))
			snprintf(feats, sizeof(feats), "%s", line + 17), seen++;
	}
	assert_int_equal(seen, 5);
	for (type = 0; type < 3; type++)
		for (bit = 0; bit < 32; bit++)
			if ((type == 0 ? j->sb_feature_compat : type == 1 ?
			     j->sb_feature_incompat :
			     j->sb_feature_ro_compat) & (1U << bit)) {
				p = want + strlen(want);
				snprintf(p, sizeof(want) - (p - want), " %s",
					 e2p_jrnl_feature2string(type,
								 1U << bit));
			}
	for (p = feats; *p == ' ' || *p == '\t'; p++)
		;
	assert_string_equal(p, *want ? want + 1 : "(none)");
	free(out);
}

static void check_image(const char *path)
{
	struct tsession t;
	struct e2l_journal j;

	tl_open_path(&t, path, SINK_TEXT);
	assert_int_equal(journal_load(t.s.fs, &j), 0);
	assert_int_equal(j.present,
			 !!ext2fs_has_feature_journal(t.s.fs->super));
	if (j.present) {
		assert_false(j.external);
		assert_int_equal(j.ino, t.s.fs->super->s_journal_inum);
		assert_int_equal(j.size_bytes,
				 j.data_blocks * t.s.fs->blocksize);
		compare_blocks(path, &j);
		compare_super(path, &j, t.s.fs->blocksize);
	} else {
		assert_null(j.ext);
	}
	journal_release(&j);
	tl_close(&t);
}

static void test_images(void **state)
{
	int i;

	(void)state;
	for (i = 0; images[i]; i++)
		check_image(tl_image(images[i]));
	check_image(frag);
	check_image(dind);
	check_image(fc);
}

static void test_layouts(void **state)
{
	struct tsession t;
	struct e2l_journal j;

	(void)state;
	tl_open_path(&t, frag, SINK_TEXT);
	assert_int_equal(journal_load(t.s.fs, &j), 0);
	assert_true(j.uses_extents && j.next >= 8 && j.nmap >= 1);
	journal_release(&j);
	tl_close(&t);
	tl_open_path(&t, dind, SINK_TEXT);
	assert_int_equal(journal_load(t.s.fs, &j), 0);
	assert_true(!j.uses_extents && j.nmap > 2);
	journal_release(&j);
	tl_close(&t);
	tl_open_path(&t, fc, SINK_TEXT);
	assert_int_equal(journal_load(t.s.fs, &j), 0);
	assert_true(journal_fc_blocks(&j) > 0);
	journal_release(&j);
	tl_close(&t);
	tl_open_path(&t, ext, SINK_TEXT);
	assert_int_equal(journal_load(t.s.fs, &j), 0);
	assert_true(j.present && j.external && !j.next && !j.ino);
	assert_string_equal(j.ext_uuid,
			    "11111111-2222-3333-4444-555555555555");
	assert_int_equal(j.ext_dev, 0x803);
	journal_release(&j);
	tl_close(&t);
}

static void test_demo(void **state)
{
	struct tsession t;
	struct e2l_journal j;

	(void)state;
	if (access(tl_image("demo"), R_OK)) {
		print_message("demo.img is absent: skipping its 8-extent "
			      "journal check\n");
		return;
	}
	tl_open(&t, "demo");
	assert_int_equal(journal_load(t.s.fs, &j), 0);
	if (j.next < 8)
		fail_msg("demo.img's journal has %u extents, want >= 8",
			 j.next);
	journal_release(&j);
	tl_close(&t);
}

static void test_request(void **state)
{
	struct tsession t;
	struct e2l_journal j;
	char want[64];

	(void)state;
	tl_open_path(&t, frag, SINK_TEXT);
	assert_int_equal(journal_load(t.s.fs, &j), 0);
	assert_int_equal(tl_run(&t, "journal"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "Internal journal: inode 8 "
				"(extent-mapped)"));
	snprintf(want, sizeof(want), "in %u pieces", j.next);
	assert_non_null(strstr(t.out.buf, want));
	snprintf(want, sizeof(want), "Mapping blocks: %llu",
		 (unsigned long long)j.map_blocks[0]);
	assert_non_null(strstr(t.out.buf, want));
	assert_non_null(strstr(t.out.buf, "Journal sequence:"));
	assert_non_null(strstr(t.out.buf, "Journal checksum version: 0"));
	assert_int_equal(tl_run(&t, "journal x"), CMD_FAIL);
	assert_non_null(strstr(t.err.buf, "Usage: journal"));
	journal_release(&j);
	tl_close(&t);

	tl_open(&t, "ext2-1k");
	assert_int_equal(tl_run(&t, "journal"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "No journal"));
	tl_close(&t);

	tl_open_path(&t, ext, SINK_TEXT);
	assert_int_equal(tl_run(&t, "journal"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "External journal: UUID "
				"11111111-2222-3333-4444-555555555555"));
	tl_close(&t);

	tl_open_path(&t, frag, SINK_JSON);
	assert_int_equal(tl_run(&t, "journal"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "\"present\":true,"
				"\"external\":false,\"inode\":8,"));
	assert_non_null(strstr(t.out.buf, "\"contiguous\":false"));
	assert_non_null(strstr(t.out.buf, "\"extents\":[{\"logical\":0,"));
	assert_non_null(strstr(t.out.buf, "\"gap_before\":null},"));
	assert_non_null(strstr(t.out.buf, "\"superblock\":{\"block\":"));
	assert_non_null(strstr(t.out.buf, "\"status\":0"));
	tl_close(&t);
	tl_open_mode(&t, "ext3", SINK_JSON);
	assert_int_equal(tl_run(&t, "journal"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "\"uses_extents\":false"));
	tl_close(&t);
}

/* A journal inode number past the inode table and a zeroed journal
 * superblock: errors, not crashes. */
static void test_damaged(void **state)
{
	struct tsession t;
	struct e2l_journal j;
	char bad[320];
	blk64_t sb;

	(void)state;
	snprintf(bad, sizeof(bad), "%s/bad.img", tmpdir);
	free(tl_sh("cp %s %s && debugfs -w -R 'ssv journal_inum 99999999' "
		   "%s >/dev/null 2>&1", dind, bad, bad));
	tl_open_path(&t, bad, SINK_TEXT);
	assert_int_not_equal(journal_load(t.s.fs, &j), 0);
	assert_null(j.ext);
	assert_int_equal(tl_run(&t, "journal"), CMD_FAIL);
	assert_non_null(strstr(t.err.buf, "journal: "));
	tl_close(&t);

	tl_open_path(&t, dind, SINK_TEXT);
	assert_int_equal(journal_load(t.s.fs, &j), 0);
	sb = j.sb_pblk;
	journal_release(&j);
	tl_close(&t);
	free(tl_sh("cp %s %s && dd if=/dev/zero of=%s bs=1024 seek=%llu "
		   "count=1 conv=notrunc 2>/dev/null", dind, bad, bad,
		   (unsigned long long)sb));
	tl_open_path(&t, bad, SINK_TEXT);
	assert_int_equal(journal_load(t.s.fs, &j), 0);
	assert_false(j.sb_valid);
	journal_release(&j);
	assert_int_equal(tl_run(&t, "journal"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "not a valid jbd2 superblock"));
	tl_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_images),
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_demo),
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_damaged),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
