/* test_exp_parse.c - the experiment's readers of tool output: fio's JSON
 * (sums over jobs, only directions that did I/O), bonnie++'s 1.98 CSV line
 * (measured rates, "+++++" skipped) and dbench's throughput line; and
 * hostile input (garbage, truncation at every byte, deep nesting, numbers
 * out of range or not numbers) refused, not crashed. */
#include "testlib.h"
#include "exp_trace.h"
#include "exp_workload.h"

#include <stdlib.h>
#include <string.h>

static const struct exp_metric *find(const struct exp_run *r, const char *n)
{
	size_t i;

	for (i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].name, n))
			return &r->m[i];
	return NULL;
}

static const char fio_json[] =
		"fio: note a warning line before the document\n"
		"{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\","
		"\"read\":{\"io_bytes\":0,\"bw\":0,\"iops\":0.0,"
		"\"lat_ns\":{\"mean\":0.0}},\"write\":{\"io_bytes\":4194304,"
		"\"bw\":2048,\"iops\":512.5,\"lat_ns\":{\"min\":1,\"mean\":"
		"2000000.0},\"clat_ns\":{\"percentile\":{\"99.000000\":5}}}},"
		"{\"jobname\":\"b\",\"read\":{\"io_bytes\":0},\"write\":"
		"{\"io_bytes\":4194304,\"bw\":1024,\"iops\":256.5,\"lat_ns\":"
		"{\"mean\":4000000.0}}}],\"disk_util\":[]}";

static void t_fio(void **state)
{
	struct exp_run r;
	char why[256];

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(expw_parse_fio(fio_json, &r, why, sizeof(why)), 0);
	assert_null(find(&r, "read_iops"));
	assert_non_null(find(&r, "write_iops"));
	assert_true(find(&r, "write_iops")->value == 769.0);
	assert_true(find(&r, "write_kib_per_second")->value == 3072.0);
	assert_true(find(&r, "write_latency_us")->value == 3000.0);
	assert_false(find(&r, "write_latency_us")->higher_better);
	memset(&r, 0, sizeof(r));
	assert_int_equal(expw_parse_fio("no json here", &r, why, sizeof(why)),
			 -1);
	assert_int_equal(expw_parse_fio("{\"jobs\":[{\"write\":{\"iops\":",
					&r, why, sizeof(why)), -1);
	assert_int_equal(expw_parse_fio("{\"jobs\":[]}", &r, why,
					sizeof(why)), -1);
	assert_non_null(strstr(why, "no I/O"));
}

static void t_fio_deep(void **state)
{
	char deep[4096];
	struct exp_run r;
	char why[256];
	int i;

	(void)state;
	strcpy(deep, "{\"jobs\":");
	for (i = 8; i < 4000; i++)
		deep[i] = '[';
	deep[4000] = 0;
	memset(&r, 0, sizeof(r));
	assert_int_equal(expw_parse_fio(deep, &r, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "nested too deeply"));
	assert_int_equal(r.nm, 0);
}

/* fio's document cut short anywhere, a number out of range or not a
 * number: refused with the byte, no metric recorded, no read past the
 * text (each cut is its own allocation, for ASan). */
static void t_fio_hostile(void **state)
{
	static const char *const bad_num[] = {
		"{\"jobs\":[{\"write\":{\"io_bytes\":1e999,\"iops\":1}}]}",
		"{\"jobs\":[{\"write\":{\"io_bytes\":4096,\"iops\":-1e400}}]}",
		"{\"jobs\":[{\"write\":{\"io_bytes\":4096,\"iops\":nan}}]}",
		"{\"jobs\":[{\"write\":{\"io_bytes\":4096,\"iops\":inf}}]}",
		NULL
	};
	size_t full = strlen(fio_json), cut;
	struct exp_run r;
	char why[256], *text;
	int i;

	(void)state;
	for (cut = 0; cut < full; cut++) {
		text = malloc(cut + 1);
		assert_non_null(text);
		memcpy(text, fio_json, cut);
		text[cut] = 0;
		memset(&r, 0, sizeof(r));
		assert_int_equal(expw_parse_fio(text, &r, why, sizeof(why)),
				 -1);
		assert_int_equal(r.nm, 0);
		free(text);
	}
	for (i = 0; bad_num[i]; i++) {
		memset(&r, 0, sizeof(r));
		assert_int_equal(expw_parse_fio(bad_num[i], &r, why,
						sizeof(why)), -1);
		assert_int_equal(r.nm, 0);
		assert_non_null(strstr(why, "at byte"));
	}
	memset(&r, 0, sizeof(r));
	assert_int_equal(expw_parse_fio(bad_num[0], &r, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "out of range"));
}

static void t_bonnie(void **state)
{
	static const char csv[] =
		"Using uid:0, gid:0.\n"
		"1.98,2.00a,vm,1,1796168216,,,,,,,,,,,,,,,,,1,,,,,943,57,"
		"+++++,+++,+++++,+++,1401,86,+++++,+++,+++++,+++,,,,,,,"
		"19513us,71us,4069us,7978us,51us,807us\n";
	struct exp_run r;
	char why[256];

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(expw_parse_bonnie(csv, &r, why, sizeof(why)), 0);
	assert_int_equal(r.nm, 2 + 6);
	assert_true(find(&r, "seq_create_per_second")->value == 943);
	assert_true(find(&r, "seq_create_latency_us")->value == 19513);
	assert_false(find(&r, "seq_create_latency_us")->higher_better);
	assert_true(find(&r, "ran_create_per_second")->value == 1401);
	assert_null(find(&r, "seq_stat_per_second"));	/* +++++ */
	memset(&r, 0, sizeof(r));
	assert_int_equal(expw_parse_bonnie("1.98,2.00a,vm\n", &r, why,
					   sizeof(why)), -1);
	assert_int_equal(expw_parse_bonnie("", &r, why, sizeof(why)), -1);
}

static void t_dbench(void **state)
{
	struct exp_run r;
	char why[256];

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(expw_parse_dbench(" Flush 1333 0.791 13.151\n\n"
		"Throughput 212.259 MB/sec  1 clients  1 procs  "
		"max_latency=13.161 ms\n", &r, why, sizeof(why)), 0);
	assert_true(find(&r, "mb_per_second")->value == 212.259);
	assert_true(find(&r, "max_latency_ms")->value == 13.161);
	memset(&r, 0, sizeof(r));
	assert_int_equal(expw_parse_dbench("Throughput lots", &r, why,
					   sizeof(why)), -1);
	assert_int_equal(expw_parse_dbench(NULL, &r, why, sizeof(why)), -1);
	/* what dbench prints when its clients failed */
	memset(&r, 0, sizeof(r));
	assert_int_equal(expw_parse_dbench("Throughput 0 MB/sec  1 clients  "
		"1 procs  max_latency=0.000 ms\n", &r, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "measured nothing"));
	assert_null(find(&r, "mb_per_second"));
}

/* A histogram trigger's "hist" file, as the kernel prints it. */
static void t_hist(void **state)
{
	static const char hist[] =
		"# event histogram\n#\n# trigger info: hist:keys=ino,ip.sym:"
		"vals=hitcount:sort=hitcount:size=65536 if dev == 7340035 "
		"[active]\n#\n\n"
		"{ ino:         13, ip: [ffffffff817e96f0] ext4_dirty_inode"
		"                    } hitcount:          3\n"
		"{ ino:         12, ip: [ffffffff817c1230] __ext4_new_inode"
		"                    } hitcount:          6\n"
		"{ ino:         13, ip: [ffffffffc07d4560] ext4_ext_insert_extent"
		" [ext4]     } hitcount:          2\n\n"
		"Totals:\n    Hits: 11\n    Entries: 3\n    Dropped: 4\n";
	struct exp_event_spec sp;
	struct exp_event_count ev;
	unsigned long long dropped;
	char trig[256];

	(void)state;
	assert_int_equal(exp_event_parse("ext4:ext4_mark_inode_dirty:ino,ip",
					 &sp), 0);
	expt_hist_trigger(&sp, 1, 7340035, trig, sizeof(trig));
	assert_string_equal(trig, "hist:keys=ino,ip.sym:size=65536 if dev "
			    "== 7340035");
	memset(&ev, 0, sizeof(ev));
	assert_int_equal(expt_hist_parse(hist, &sp, &ev, &dropped), 0);
	assert_int_equal(ev.total, 11);
	assert_int_equal(dropped, 4);
	expt_tally_sort(&ev.by_key[0]);
	expt_tally_sort(&ev.by_key[1]);
	expt_tally_sort(&ev.by_tuple);
	assert_int_equal(ev.by_key[0].n, 2);
	assert_string_equal(ev.by_key[0].e[0].key, "12");
	assert_int_equal(ev.by_key[0].e[0].count, 6);
	assert_int_equal(ev.by_key[0].e[1].count, 5);
	assert_int_equal(ev.by_key[1].n, 3);
	assert_string_equal(ev.by_key[1].e[2].key, "ext4_ext_insert_extent");
	assert_string_equal(ev.by_tuple.e[0].key, "12 __ext4_new_inode");
	expt_counters_free(&(struct exp_counters){ .ev = { ev } });
	memset(&ev, 0, sizeof(ev));
	assert_int_equal(expt_hist_parse("not a histogram\n", &sp, &ev,
					 &dropped), -1);
	assert_int_equal(expt_hist_parse("{ ino: 1 } hitcount:\n", &sp, &ev,
					 &dropped), -1);
	expt_counters_free(&(struct exp_counters){ .ev = { ev } });
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_fio),
		cmocka_unit_test(t_fio_deep),
		cmocka_unit_test(t_fio_hostile),
		cmocka_unit_test(t_bonnie),
		cmocka_unit_test(t_dbench),
		cmocka_unit_test(t_hist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
