/* dfs_main.c - the debugfs personality's command line (run as "debugfs" or
 * with --debugfs): debugfs 1.47.0's options, banner, open and exit
 * statuses, on e2layout's sessions and requests.  See help/topics/debugfs. */
#include "shell.h"
#include "cmd.h"
#include "dfs_open.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char dfs_usage[] =
	"Usage: %s [-b blocksize] [-s superblock] [-f cmd_file] "
	"[-R request] [-d data_source_device] [-i] [-n] [-D] [-V] ["
	"[-w] [-z undo_file] [-c]] [device]";

/* debugfs's number parsing for -b and -s: the whole argument or nothing. */
static int parse_num(const char *prog, const char *str, const char *descr,
		     unsigned long long *v)
{
	char *end;

	*v = strtoull(str, &end, 0);
	if (*end) {
		com_err(prog, 0, "Bad %s - %s", descr, str);
		return -1;
	}
	return 0;
}

/* debugfs's source_file: a command file that does not open ends the
 * program at once. */
static int run_file(struct session *s, const char *name)
{
	FILE *f = strcmp(name, "-") ? fopen(name, "r") : stdin;

	if (!f) {
		perror(name);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	shell_run_file(s, f, 1);
	if (f != stdin)
		fclose(f);
	return 0;
}

/* debugfs loads readline unless SS_READLINE_PATH says none. */
static int no_readline(void)
{
	const char *p = getenv("SS_READLINE_PATH");

	return p && (!*p || !strcmp(p, "none"));
}

int dfs_main(int argc, char **argv)
{
	struct dfs_open_args a = {0};
	const char *request = NULL, *cmd_file = NULL, *ver, *date;
	unsigned long long v;
	struct session s;
	struct sink out;
	int c, status = 0;

	ext2fs_get_library_version(&ver, &date);
	fprintf(stderr, "debugfs %s (%s)\n", ver, date);
	/* debugfs's getopt: no '+', so options may follow the device */
	while ((c = getopt(argc, argv, "niwcR:f:b:s:Vd:Dz:")) != -1) {
		switch (c) {
		case 'R':
			request = optarg;
			break;
		case 'f':
			cmd_file = optarg;
			break;
		case 'd':
			a.data_source = optarg;
			break;
		case 'i':
			a.extra |= EXT2_FLAG_IMAGE_FILE;
			break;
		case 'n':
			a.extra |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
			break;
		case 'w':
			a.flags |= SESSION_RW;
			break;
		case 'D':
			a.extra |= EXT2_FLAG_DIRECT_IO;
			break;
		case 'b':
			if (parse_num(argv[0], optarg, "block size", &v))
				return 1;
			a.blocksize = v;
			break;
		case 's':
			if (parse_num(argv[0], optarg,
				      "superblock block number", &v))
				return 1;
			a.superblock = v;
			break;
		case 'c':
			a.flags |= SESSION_CATASTROPHIC;
			break;
		case 'V':
			fprintf(stderr, "\tUsing %s\n",
				error_message(EXT2_ET_BASE));
			return 0;
		case 'z':
			a.undo = optarg;
			break;
		default:
			com_err(argv[0], 0, dfs_usage, "debugfs");
			return 1;
		}
	}

	sink_init_stdio(&out, SINK_TEXT);
	session_init(&s, &out);
	s.debugfs = true;
	if (optind < argc) {	/* like debugfs: later arguments unused */
		a.device = argv[optind];
		(void)dfs_open_filesystem(&s, &a);
	}
	/* Requests run whether or not the open worked, each saying
	 * "Filesystem not open" if it needs one.  Only lines the request
	 * library could not run (no such request) count in the exit status:
	 * a failed request does not, in debugfs 1.47.0. */
	if (request) {
		cmd_run_line(&s, request);
		status = s.unknown ? 1 : 0;
	} else if (cmd_file) {
		if (run_file(&s, cmd_file)) {
			session_close(&s);
			sink_free(&out);
			return 1;
		}
		status = (int)s.unknown;
	} else if (no_readline()) {
		shell_run_plain(&s, stdin);
	} else {
		shell_listen(&s);
	}
	session_close(&s);
	sink_free(&out);
	return status;
}
