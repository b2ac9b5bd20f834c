/* extent_mode.h - what the extent sub-mode's files share (the navigation
 * requests in extent_inode.c, the tree edits in extent_inode_wr.c). */
#ifndef E2L_EXTENT_MODE_H
#define E2L_EXTENT_MODE_H

#include "session.h"

/* One extent as debugfs prints it ("extent: lblk A--B, len ..."). */
void em_print(struct session *s, const struct ext2fs_extent *e);

/* Outside the mode the sub-mode's requests do not exist: prints debugfs's
 * "Command not found" and returns 1; 0 while an extent handle is open. */
int em_absent(struct session *s, char **argv);

/* Moves the handle by op (EXT2_EXTENT_*) and prints the extent; name, when
 * not NULL, is the usage name checked against argc first. */
int em_goto(struct session *s, int argc, char **argv, const char *name,
	    int op);

#endif
