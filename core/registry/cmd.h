/* cmd.h - commands as data.  Each core/cmd_*.c file defines one or more
 * `const struct cmd_entry cmd_NAME = {...};` at file scope; the build
 * collects every such definition into the command table (see Makefile and
 * tests/lib/gen_cmd_table.sh), which feeds the dispatcher, help, completion,
 * the TUI's `:` prompt and the man page. */
#ifndef E2L_CMD_H
#define E2L_CMD_H

#include "session.h"

/* What a command needs before its handler runs (checked by the dispatcher). */
#define CMD_NEEDS_FS		0x0001	/* an open filesystem */
#define CMD_NEEDS_RW		0x0002	/* opened with -w */
#define CMD_NEEDS_BBITMAP	0x0004	/* the block bitmap loaded */
#define CMD_NEEDS_IBITMAP	0x0008	/* the inode bitmap loaded */
#define CMD_NEEDS_BITMAPS	(CMD_NEEDS_BBITMAP | CMD_NEEDS_IBITMAP)
#define CMD_NEEDS_NOFS		0x0010	/* no filesystem may be open */
#define CMD_WRITES		0x0020	/* writes, but checks -w itself (in
					   debugfs's order, after its usage) */
#define CMD_FEW_GROUPS		0x0040	/* touches the descriptors of a few
					   groups only: they are read on
					   demand instead of the whole table
					   (see NEED_GROUP_DESC) */
#define CMD_JSON		0x0100	/* emits a structured JSON result */
#define CMD_DEBUGFS		0x0200	/* a debugfs request, same output */
#define CMD_LIVE_KERNEL		0x0400	/* on a live session it works through
					   the kernel: the on-disk bitmaps
					   (which lag it) are not loaded */

/* Handler status. */
#define CMD_OK		0
#define CMD_FAIL	1

/* Hint for Tab completion of a command's arguments. */
enum cmd_complete { COMPLETE_NONE, COMPLETE_PATH, COMPLETE_HOST_PATH,
		    COMPLETE_COMMAND, COMPLETE_TOPIC };

struct cmd_entry {
	const char *name;
	const char *const *aliases;	/* NULL-terminated, or NULL */
	const char *synopsis;		/* "stat <file>" */
	const char *summary;		/* one line */
	const char *options;		/* "-l -n --json": for completion */
	unsigned flags;			/* CMD_* */
	enum cmd_complete complete;
	/* argv[0] is the name the user typed.  Returns CMD_OK or CMD_FAIL. */
	int (*run)(struct session *s, int argc, char **argv);
};

/* The table, generated at build time, sorted by name; NULL-terminated. */
extern const struct cmd_entry *const cmd_table[];

/* Finds a command by name or alias; NULL when there is none. */
const struct cmd_entry *cmd_find(const char *name);

/*
 * Splits line into words as debugfs's request parser does (spaces and tabs
 * separate; double quotes group, "" inside quotes is a literal quote).
 * *argvp is one allocation; free it with free().  Returns 0, or EINVAL for
 * an unbalanced quote.
 */
errcode_t cmd_split(const char *line, int *argcp, char ***argvp);

/*
 * Runs one request line: splits it, finds the command, checks what it needs,
 * runs it and brackets it for JSON.  Blank lines and '#' comments do nothing
 * (in the debugfs personality '#' is a request like any other, as it is to
 * debugfs, and "!COMMAND" runs COMMAND through the shell).
 * Returns CMD_OK or CMD_FAIL and sets s->failed on failure.
 */
int cmd_run_line(struct session *s, const char *line);
int cmd_run_argv(struct session *s, int argc, char **argv);

/*
 * debugfs-compatible option parsing: getopt(3) state reset for each command,
 * so handlers use getopt() as debugfs does.
 */
void cmd_reset_getopt(void);

/* debugfs's bound on a request line (fgets into BUFSIZ bytes): longer
 * lines are read as several requests of this many bytes. */
#define CMD_LINE_MAX	8191

#endif
