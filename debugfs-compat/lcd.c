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
	(void)argc;	/* counted by the dispatcher */
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
	.min_args = 2,
	.max_args = 2,
	.usage = "<native dir>",
};
