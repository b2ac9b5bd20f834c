/* dfs_util.h - argument helpers shared by the debugfs-compatible commands:
 * inode specs (<ino> or a path), numbers and usage checks, each reporting
 * errors in exactly the words debugfs uses. */
#ifndef E2L_DFS_UTIL_H
#define E2L_DFS_UTIL_H

#include "session.h"

/* Flags for dfs_args(). */
#define DFS_CHECK_NOTOPEN	0x01	/* fail when a filesystem IS open */
#define DFS_CHECK_RW		0x02	/* need a read-write filesystem */
#define DFS_CHECK_BITMAPS	0x04	/* need block and inode bitmaps */

/*
 * Checks argc against [min,max] ("CMD: Usage: CMD USAGE") and the state the
 * flags ask for.  Returns 0 when the command may go on, 1 after printing why
 * it may not.
 */
int dfs_args(struct session *s, int argc, char **argv, int min, int max,
	     const char *cmd, const char *usage, int flags);

/* Filesystem state checks, each printing debugfs's message on failure and
 * returning 1 (0 when met); the only copies of these messages (the
 * dispatcher prints through them). */
int dfs_check_open(struct session *s, const char *who);
int dfs_check_rw(struct session *s, const char *who);
int dfs_check_bitmaps(struct session *s, const char *who);
/* Says "Filesystem bitmaps not loaded"; returns 1. */
int dfs_not_loaded(struct session *s, const char *who);
/* "Filesystem X is still open.  Close it first." when one is open. */
int dfs_check_notopen(struct session *s, const char *who);
/* The bitmaps need asks for (NEED_*_BITMAP) loaded: "not loaded" in
 * catastrophic mode, the read's error when it fails. */
int dfs_check_loaded(struct session *s, const char *who, unsigned need);
/* "WHO: Usage: NAME USAGE", as debugfs's common_args_process says it. */
void dfs_usage(struct session *s, const char *who, const char *name,
	       const char *usage);

/*
 * Turns "<ino>" or a path (relative to cwd, under root) into an inode
 * number.  Returns 0 after printing an error when there is no such file.
 */
ext2_ino_t dfs_string_to_inode(struct session *s, const char *str);

/* An inode argument (<ino> or a path; its count is the entry's, checked by
 * the dispatcher).  Returns 0 on success, 1 after saying why not. */
int dfs_arg_inode(struct session *s, const char *arg, ext2_ino_t *ino);

/* The "<block> [count]" of testb/setb/freeb, counted by the dispatcher
 * (entries declare 2..3, "<block> [count]", the block bitmap): parsed as
 * debugfs's common_block_args_process does.  0 on success, 1 on error. */
int dfs_block_args(struct session *s, int argc, char **argv, blk64_t *block,
		   blk64_t *count);

/* Numbers: "Bad DESCR - STR" on failure, *err set to 1 (0 on success). */
unsigned long dfs_parse_ulong(struct session *s, const char *str,
			      const char *cmd, const char *descr, int *err);
unsigned long long dfs_parse_ulonglong(struct session *s, const char *str,
				       const char *cmd, const char *descr,
				       int *err);
/* A count ("Bad DESCR - STR"): dfs_parse_ulong, but a negative number is
 * refused rather than read as nearly 2^64. */
unsigned long dfs_parse_count(struct session *s, const char *str,
			      const char *cmd, const char *descr, int *err);
/*
 * A count of blocks or inodes from first: unchanged when no more than the
 * filesystem's size (at least 65536) of them lie past last, the last block
 * or inode (libext2fs then reports each one past the end, as in debugfs);
 * a longer one is cut at last, saying so on the error channel.
 */
unsigned long long dfs_clamp_count(struct session *s, const char *cmd,
				   unsigned long long first,
				   unsigned long long count,
				   unsigned long long last, const char *what);
/* A block number ("Bad block number - STR"); 0 on success, 1 on failure. */
int dfs_strtoblk(struct session *s, const char *cmd, const char *str,
		 blk64_t *ret);
/* The same with debugfs's description of the number ("logical block"). */
int dfs_strtoblk2(struct session *s, const char *cmd, const char *str,
		  const char *descr, blk64_t *ret);

/*
 * getopt(3) for a handler, after cmd_reset_getopt(): the same parsing, but
 * glibc's complaint about a bad option goes through the sink.
 */
int dfs_getopt(struct session *s, int argc, char **argv, const char *opts);

/* Reads an inode, printing "CMD: ERR while reading inode N" on failure. */
int dfs_read_inode(struct session *s, ext2_ino_t ino,
		   struct ext2_inode *inode, const char *cmd);
int dfs_read_inode_full(struct session *s, ext2_ino_t ino,
			struct ext2_inode *inode, const char *cmd, int size);

/* Formats a time the way debugfs does (asctime, GMT when TZ is GMT). */
const char *dfs_time_to_string(__s64 t);
/* An inode time with its _extra word (epoch bits), as debugfs 1.47.0 shows. */
const char *dfs_inode_time_to_string(__u32 xtime, __u32 extra);
/* debugfs's time syntax: "now" (the real clock), @SECONDS, YYYYMMDD with
 * as much of HHMMSS as follows (GMT), or a plain number; -1 when none. */
long long dfs_parse_time(const char *arg);
/* The value of a hexadecimal digit, or -1. */
int dfs_hex_digit(int c);
/* A path as JSON gives it: debugfs's "//name" for an entry of the root
 * directory (its text output keeps that) becomes "/name". */
const char *dfs_json_path(const char *path);

#endif
