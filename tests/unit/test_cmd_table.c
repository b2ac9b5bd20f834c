/* test_cmd_table.c - the command table as the dispatcher's one gate reads it
 * (core/registry/cmd.c): each entry's synopsis is its help page's, its
 * declared argument counts make sense, its phrases never take a line that
 * debugfs reads otherwise, and such lines reach the request debugfs runs. */
#include "testlib.h"
#include "help.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/*
 * The synopsis of help/cmd/NAME.txt, as one line: its "Synopsis:" line and
 * the indented lines under it, each cut where two blanks start a note
 * ("(alias: stat)", "lists the fields"); a line that begins with the
 * request's first word is another form (" | "), any other continues the
 * line before.
 */
static void help_synopsis(const char *help, const char *first, char *buf,
			  size_t len)
{
	const char *p = help + strlen("Synopsis: ");
	size_t n, used = 0, flen = strlen(first);
	const char *note, *sep;
	int line = 0;

	buf[0] = 0;
	for (;;) {
		n = strcspn(p, "\n");
		note = strstr(p, "  ");
		if (note && (size_t)(note - p) < n)
			n = note - p;
		sep = !line ? "" : !strncmp(p, first, flen) &&
			       (p[flen] == ' ' || p[flen] == '\n' ||
				!p[flen]) ? " | " : " ";
		used += snprintf(buf + used, used < len ? len - used : 0,
				 "%s%.*s", sep, (int)n, p);
		p += strcspn(p, "\n");
		if (*p != '\n' || (p[1] != ' ' && p[1] != '\t'))
			break;
		p += strspn(p + 1, " \t") + 1;
		line++;
	}
}

static void test_synopsis_is_the_help_pages(void **state)
{
	const struct cmd_entry *const *c;
	char syn[1024], first[64];
	const char *h;
	int bad = 0;

	(void)state;
	for (c = cmd_table; *c; c++) {
		h = help_find("cmd", (*c)->name);
		if (!h || strncmp(h, "Synopsis: ", 10)) {
			print_error("%s: no help/cmd/%s.txt Synopsis line\n",
				    (*c)->name, (*c)->name);
			bad++;
			continue;
		}
		snprintf(first, sizeof(first), "%.*s",
			 (int)strcspn((*c)->synopsis, " "), (*c)->synopsis);
		help_synopsis(h, first, syn, sizeof(syn));
		if (strcmp(syn, (*c)->synopsis)) {
			print_error("%s: entry \"%s\", help \"%s\"\n",
				    (*c)->name, (*c)->synopsis, syn);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static void test_declared_counts(void **state)
{
	const struct cmd_entry *const *c;

	(void)state;
	for (c = cmd_table; *c; c++) {
		if (!(*c)->usage) {
			/* nothing declared: nothing the gate could check */
			assert_int_equal((*c)->min_args, 0);
			assert_int_equal((*c)->max_args, 0);
			continue;
		}
		if ((*c)->min_args < 1 || (*c)->max_args < (*c)->min_args)
			fail_msg("%s: counts %d..%d", (*c)->name,
				 (*c)->min_args, (*c)->max_args);
	}
}

/* A phrase "A B" must not hide a debugfs request A (debugfs runs A with the
 * argument B), and must name its own entry. */
static void test_phrases_take_no_debugfs_line(void **state)
{
	const struct cmd_entry *const *c, *first, *found;
	const char *const *ph;
	char a[64], b[64], *argv[3];
	int words;

	(void)state;
	for (c = cmd_table; *c; c++)
		for (ph = (*c)->phrases; ph && *ph; ph++) {
			assert_int_equal(sscanf(*ph, "%63s %63s", a, b), 2);
			first = cmd_find(a);
			if (first && (first->flags & CMD_DEBUGFS))
				fail_msg("phrase \"%s\" hides debugfs's %s",
					 *ph, first->name);
			argv[0] = a, argv[1] = b, argv[2] = NULL;
			found = cmd_lookup(2, argv, &words);
			assert_ptr_equal(found, *c);
			assert_int_equal(words, 2);
		}
}

/* Lines debugfs reads word by word: the first word is the request. */
static void test_debugfs_lines_mean_what_debugfs_means(void **state)
{
	static const char *const lines[][3] = {
		{"dump", "inode", "dump_inode"},
		{"dump", "unused", "dump_inode"},
		{"dump", "extents", "dump_inode"},
		{"dump", "mmp", "dump_inode"},
		{"htree", "dump", "htree_dump"},
		{"open", "filesys", "open_filesys"},
		{"close", "filesys", "close_filesys"},
		{"next", "leaf", "next"},
		{"zap", "block", "zap_block"},
	};
	const struct cmd_entry *c;
	char *argv[3];
	size_t i;
	int words;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		argv[0] = (char *)lines[i][0];
		argv[1] = (char *)lines[i][1];
		argv[2] = NULL;
		c = cmd_lookup(2, argv, &words);
		assert_non_null(c);
		assert_string_equal(c->name, lines[i][2]);
		assert_int_equal(words, 1);
	}
	argv[0] = "journal", argv[1] = "relocate";
	c = cmd_lookup(2, argv, &words);
	assert_non_null(c);
	assert_string_equal(c->name, "journal_relocate");
	assert_int_equal(words, 2);
}

/* The gate's order with no filesystem: usage before "not open" where
 * debugfs counts first (mkdir), "not open" first where it checks first
 * (stat), and the handler never runs. */
static void test_gate_order_without_a_filesystem(void **state)
{
	struct tsession t;

	(void)state;
	tl_open(&t, "ext4");
	assert_int_equal(tl_run(&t, "close"), CMD_OK);
	assert_int_equal(tl_run(&t, "mkdir"), CMD_FAIL);
	assert_non_null(strstr(t.err.buf, "mkdir: Usage: mkdir <filename>"));
	assert_int_equal(tl_run(&t, "mkdir a"), CMD_FAIL);
	assert_non_null(strstr(t.err.buf, "mkdir: Filesystem not open"));
	assert_int_equal(tl_run(&t, "stat"), CMD_FAIL);
	assert_non_null(strstr(t.err.buf, "stat: Filesystem not open"));
	tl_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synopsis_is_the_help_pages),
		cmocka_unit_test(test_declared_counts),
		cmocka_unit_test(test_phrases_take_no_debugfs_line),
		cmocka_unit_test(test_debugfs_lines_mean_what_debugfs_means),
		cmocka_unit_test(test_gate_order_without_a_filesystem),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
