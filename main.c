/* main.c - e2layout's command line: choose the front end (TUI, shell, one
 * request, a command file, mkdemo), open the filesystem, and turn what the
 * commands report into an exit status scripts can trust. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "demo.h"
#include "dfs_open.h"
#include "help.h"
#include "undo_guard.h"
#include "lab.h"
#include "man.h"
#include "shell.h"
#include "tui.h"
#include "version.h"

/* Exit statuses. */
#define EXIT_OK		0
#define EXIT_FAILED	1	/* a command failed */
#define EXIT_USAGE	2	/* bad command line */
#define EXIT_NOOPEN	3	/* the device could not be opened */

/* Long options without a short one. */
#define OPT_PARTITION	0x100
#define OPT_JOURNAL_DEV	0x101

static void usage(FILE *f)
{
	fprintf(f,
"Usage: e2layout [OPTIONS] DEVICE|IMAGE           full-screen inspector\n"
"       (a mounted DEVICE, or its MOUNTPOINT, opens read-only in live mode)\n"
"       e2layout shell [OPTIONS] DEVICE|IMAGE     interactive shell\n"
"       e2layout [OPTIONS] -R REQUEST DEVICE|IMAGE\n"
"       e2layout [OPTIONS] -f FILE|- DEVICE|IMAGE\n"
"       e2layout mkdemo [--seed N] [--force] PATH\n"
"       e2layout lab list | show NAME | start NAME [DIR] | check NAME IMAGE\n"
"                    | hint NAME [N] | reset | validate | class (help labs)\n"
"       e2layout experiment A.img B.img|--change REQUEST --workload NAME ...\n"
"       e2layout --man | --complete-words\n"
"\n"
"Options:\n"
"  -w            open read-write (refused on a mounted filesystem; one\n"
"                writer at a time: held locked until the end)\n"
"  -c            catastrophic mode: do not read bitmaps, ignore errors\n"
"  -z FILE       record every write in a new e2undo(8) undo file\n"
"  -s SUPERBLOCK -b BLOCKSIZE   use a backup superblock (read-only)\n"
"  -i            DEVICE is an e2image file;  -d FILE  its data source\n"
"  -n            open despite checksum errors;  -D  direct I/O (O_DIRECT)\n"
"  --partition N open partition N of a disk image or whole-disk device\n"
"                (IMAGE?offset=BYTES opens the filesystem at that offset)\n"
"  --journal-dev PATH   the external journal's device (else found by UUID)\n"
"  -R REQUEST    run one request and exit\n"
"  -f FILE       run the requests in FILE (- for standard input)\n"
"  --json        one JSON document per request on standard output\n"
"  --keys KEYS   (TUI) play a scripted key sequence, for tests\n"
"  -h, --help    this help;  -V, --version  the version\n"
"  --debugfs     (first) be debugfs 1.47.0: its options, messages and exit\n"
"                statuses, as when run under the name debugfs\n"
"\n"
"Exit status: 0 all requests succeeded, 1 a request failed, 2 usage error,\n"
"3 the device could not be opened.  \"help\" inside lists the requests.\n");
}

struct options {
	unsigned flags;
	int extra_open;		/* -i -n -D: more EXT2_FLAG_* bits */
	const char *undo, *request, *file, *device, *keys, *data;
	const char *journal_dev;	/* --journal-dev PATH */
	int partition;			/* --partition N */
	blk64_t superblock;
	unsigned blocksize;
	int json, shell;
	/* the debugfs personality (argv[0] "debugfs", or --debugfs): it
	 * takes debugfs's command line in dfs_main() and never reaches
	 * e2layout's option checks below */
	int debugfs;
};

static int parse_number(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return (errno || !*s || *end) ? -1 : 0;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'J'},
		{"keys", required_argument, NULL, 'K'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{"partition", required_argument, NULL, OPT_PARTITION},
		{"journal-dev", required_argument, NULL, OPT_JOURNAL_DEV},
		{NULL, 0, NULL, 0},
	};
	unsigned long long v;
	const char *libver;
	int c;

	while ((c = getopt_long(argc, argv, "+wcz:R:f:s:b:hVid:nD", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'i':
			o->extra_open |= EXT2_FLAG_IMAGE_FILE;
			break;
		case 'd':
			o->data = optarg;
			break;
		case 'n':
			o->extra_open |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
			break;
		case 'D':
			o->extra_open |= EXT2_FLAG_DIRECT_IO;
			break;
		case 'w':
			o->flags |= SESSION_RW;
			break;
		case 'c':
			o->flags |= SESSION_CATASTROPHIC;
			break;
		case 'z':
			o->undo = optarg;
			break;
		case 'R':
			o->request = optarg;
			break;
		case 'f':
			o->file = optarg;
			break;
		case 's':
			if (parse_number(optarg, &v)) {
				fprintf(stderr, "e2layout: bad superblock "
						"number: %s\n", optarg);
				return EXIT_USAGE;
			}
			o->superblock = v;
			break;
		case 'b':
			if (parse_number(optarg, &v) || v > 65536) {
				fprintf(stderr, "e2layout: bad block size: "
						"%s\n", optarg);
				return EXIT_USAGE;
			}
			o->blocksize = v;
			break;
		case 'J':
			o->json = 1;
			break;
		case OPT_PARTITION:
			if (parse_number(optarg, &v) || !v || v > 65535) {
				fprintf(stderr, "e2layout: bad partition "
						"number: %s\n", optarg);
				return EXIT_USAGE;
			}
			o->partition = v;
			break;
		case OPT_JOURNAL_DEV:
			o->journal_dev = optarg;
			break;
		case 'K':
			o->keys = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_OK);
		case 'V':
			ext2fs_get_library_version(&libver, NULL);
			printf("e2layout %s (libext2fs %s)\n", E2LAYOUT_VERSION,
			       libver);
			exit(EXIT_OK);
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	return -1;
}

static int run_mkdemo(int argc, char **argv)
{
	unsigned long long seed = 1;
	const char *path = NULL;
	struct sink log;
	errcode_t err;
	int i, force = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--force")) {
			force = 1;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			if (parse_number(argv[++i], &seed)) {
				fprintf(stderr, "e2layout mkdemo: bad seed: "
						"%s\n", argv[i]);
				return EXIT_USAGE;
			}
		} else if (argv[i][0] == '-' || path) {
			fprintf(stderr, "Usage: e2layout mkdemo [--seed N] "
					"[--force] PATH\n");
			return EXIT_USAGE;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		fprintf(stderr, "Usage: e2layout mkdemo [--seed N] [--force] "
				"PATH\n");
		return EXIT_USAGE;
	}
	sink_init_stdio(&log, SINK_TEXT);
	err = demo_make(path, seed, force, &log);
	sink_free(&log);
	if (err) {
		if (err != EEXIST)
			fprintf(stderr, "e2layout mkdemo: %s: %s\n", path,
				error_message(err));
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

/* `e2layout lab ...`; `lab start` on a terminal opens the TUI with the
 * lab panel. */
static int run_lab(int argc, char **argv)
{
	char *img = NULL, *text = NULL;
	struct session s;
	struct sink out;
	int rc;

	sink_init_stdio(&out, SINK_TEXT);
	rc = lab_cli(argc, argv, &out, isatty(STDIN_FILENO) &&
		     isatty(STDOUT_FILENO), &img, &text);
	if (rc < 0) {
		int flags = rc == -2 ? SESSION_RW : 0;

		session_init(&s, &out);
		rc = EXIT_NOOPEN;
		if (!session_open(&s, img, flags, NULL, 0, 0)) {
			tui_set_lab(text);
			rc = tui_main(&s, NULL);
			if (session_close(&s))
				rc = EXIT_FAILED;
		}
		free(img);
		free(text);
	}
	sink_free(&out);
	return rc;
}

/* `e2layout experiment ...`: the request, with no filesystem open (it
 * opens copies of its images itself); --json anywhere selects JSON. */
static int run_experiment(int argc, char **argv)
{
	struct session s;
	struct sink out;
	int i, json = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			const char *h = help_find("cmd", "experiment");

			fputs(h ? h : "see: help experiment\n", stdout);
			return EXIT_OK;
		}
	}
	sink_init_stdio(&out, json ? SINK_JSON : SINK_TEXT);
	session_init(&s, &out);
	cmd_run_argv(&s, argc, argv);
	sink_free(&out);
	return s.failed ? EXIT_FAILED : EXIT_OK;
}

/* Request names and aliases, one a line, for shell completion. */
static void complete_words(void)
{
	const struct cmd_entry *const *c;
	const char *const *a;

	for (c = cmd_table; *c; c++) {
		printf("%s\n", (*c)->name);
		for (a = (*c)->aliases; a && *a; a++)
			printf("%s\n", *a);
	}
}

/* Run as "debugfs" (a link, exec -a) or with --debugfs first: the debugfs
 * personality.  --debugfs is taken out and argv[0] becomes "debugfs", the
 * name debugfs's own messages carry. */
static int debugfs_personality(int *argc, char ***argv)
{
	const char *base = strrchr((*argv)[0], '/');

	base = base ? base + 1 : (*argv)[0];
	if (!strcmp(base, "debugfs"))
		return 1;
	if (*argc > 1 && !strcmp((*argv)[1], "--debugfs")) {
		(*argv)[1] = (char *)"debugfs";
		(*argc)--;
		(*argv)++;
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct options o = {0};
	struct dfs_open_args a = {0};
	struct session s;
	struct sink out;
	errcode_t err;
	int rc;

	add_error_table(&et_ext2_error_table);
	o.debugfs = debugfs_personality(&argc, &argv);
	if (o.debugfs)
		return dfs_main(argc, argv);
	if (argc == 2 && !strcmp(argv[1], "--man")) {
		sink_init_stdio(&out, SINK_TEXT);
		help_write_man(&out);
		sink_free(&out);
		return EXIT_OK;
	}
	if (argc == 2 && !strcmp(argv[1], "--complete-words")) {
		complete_words();
		return EXIT_OK;
	}
	if (argc > 1 && !strcmp(argv[1], "lab"))
		return run_lab(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "mkdemo"))
		return run_mkdemo(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "experiment"))
		return run_experiment(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "shell")) {
		o.shell = 1;
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	rc = parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (optind != argc - 1) {
		fprintf(stderr, optind >= argc ? "e2layout: no device or image "
						 "named\n"
					       : "e2layout: too many "
						 "arguments\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (o.request && o.file) {
		fprintf(stderr, "e2layout: -R and -f exclude each other\n");
		return EXIT_USAGE;
	}
	if (o.undo && !(o.flags & SESSION_RW)) {
		fprintf(stderr, "e2layout: -z needs -w (there is nothing to "
				"undo in a read-only session)\n");
		return EXIT_USAGE;
	}
	o.device = argv[optind];

	sink_init_stdio(&out, o.json ? SINK_JSON : SINK_TEXT);
	/* -w with -s (a backup superblock) would rewrite the primary area */
	if (session_refuse_rw_backup_sb(&out, "e2layout", o.device, o.flags,
					o.superblock, o.blocksize)) {
		sink_free(&out);
		return EXIT_USAGE;
	}
	session_init(&s, &out);
	s.partition = o.partition;
	s.journal_dev = o.journal_dev;
	a.device = o.device;
	a.data_source = o.data;
	a.undo = o.undo;
	a.flags = o.flags;
	a.extra = o.extra_open;
	a.superblock = o.superblock;
	a.blocksize = o.blocksize;
	err = dfs_open_filesystem(&s, &a);
	if (err && !o.request && !o.file && (o.shell ? 0 :
					   isatty(STDIN_FILENO))) {
		sink_free(&out);
		return EXIT_NOOPEN;
	}
	/* Like debugfs, requests still run after a failed open (each one
	 * that needs a filesystem says "Filesystem not open", and "open"
	 * may name another); the exit status says the open failed. */

	if (o.request) {
		cmd_run_line(&s, o.request);
	} else if (o.file) {
		FILE *f = strcmp(o.file, "-") ? fopen(o.file, "r") : stdin;

		if (!f) {
			out_error(&out, "e2layout", errno, "while opening %s",
				  o.file);
			s.failed = 1;
		} else {
			shell_run_file(&s, f, !o.json);
			if (f != stdin)
				fclose(f);
		}
	} else if (o.shell || !isatty(STDIN_FILENO)) {
		if (isatty(STDIN_FILENO))
			shell_interactive(&s);
		else
			shell_run_pipe(&s, stdin, !o.json);
	} else if (!isatty(STDOUT_FILENO)) {
		fprintf(stderr, "e2layout: standard output is not a terminal; "
				"for a script use -R REQUEST, -f FILE, or "
				"-R \"map\" for a text picture of the layout\n");
		s.failed = 1;
	} else {
		rc = tui_main(&s, o.keys);
		if (rc)
			s.failed = 1;
	}

	/* a -z file that cannot restore is said so by session_close */
	if (session_close(&s))
		s.failed = 1;
	else if (o.undo && !err) {
		char *cmd = undo_restore_cmd(o.undo, o.device);

		fprintf(stderr, "e2layout: undo file written to %s "
				"(restore with: %s)\n", o.undo,
			cmd ? cmd : "e2undo");
		free(cmd);
	}
	sink_free(&out);
	if (err)
		return EXIT_NOOPEN;
	return s.failed ? EXIT_FAILED : EXIT_OK;
}
