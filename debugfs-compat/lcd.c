/* lcd.c - `lcd DIR`: changes the host's working directory (where dump and
 * rdump write). */
#include "cmd.h"
#include "dfs_util.h"
#include "rdump.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

static int do_lcd(struct session *s, int argc, char **argv)
{
	if (argc != 2) {
		out_error(s->out, argv[0], 0, "Usage: %s %s", argv[0],
			  "<native dir>");
		return CMD_FAIL;
	}
	if (chdir(argv[1]) == -1) {
		out_error(s->out, argv[0], errno,
			  "while trying to change native directory to %s",
			  argv[1]);
		return CMD_FAIL;
	}
	return CMD_OK;
}

const struct cmd_entry cmd_lcd = {
	.name = "lcd",
	.synopsis = "lcd <native dir>",
	.summary = "Change the host's current working directory",
	.flags = CMD_DEBUGFS,
	.complete = COMPLETE_HOST_PATH,
	.run = do_lcd,
};
