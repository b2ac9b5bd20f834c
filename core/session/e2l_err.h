/* e2l_err.h - e2layout's own error codes (a com_err table of their own), so
 * that a refusal says what it is ("the plan is stale") instead of borrowing
 * a libext2fs code that means something else (EXT2_ET_RO_FILSYS). */
#ifndef E2L_ERR_H
#define E2L_ERR_H

#include <et/com_err.h>

/* The table's base: com_err's encoding of the name "e2lo". */
#define E2L_ERR_BASE	0x5a5a0000L

enum e2l_err {
	E2L_ERR_STALE_PLAN = E2L_ERR_BASE,	/* disk changed since planning */
	E2L_ERR_UNSAFE,			/* refused: writing could lose data */
	E2L_ERR_OWNER_CONFLICT,		/* a block the plan touches is owned */
	E2L_ERR_NOT_CLEAN,		/* e2fsck -fn reported problems */
	E2L_ERR_LOCKED,			/* another writer holds the filesystem */
	E2L_ERR_BAD_PLAN_FILE,		/* a saved plan is damaged or edited */
	E2L_ERR_UNDO_PATH,		/* the undo file path is unsafe */
	E2L_ERR_BAD_ARGUMENT,		/* an argument is out of range */
	E2L_ERR_QUOTA,			/* the quota files could not be kept */
	E2L_ERR_BAD_RESULT_FILE,	/* a saved experiment result is not one */
	E2L_ERR_UNDO_SEALED,		/* a write behind a finished undo file */
	E2L_ERR_MAX
};

/* Registers the table with com_err (once per process; cheap after). */
void e2l_err_init(void);

#endif
