/* e2l_err.c - the messages of e2layout's own error codes (e2l_err.h),
 * registered with com_err so that error_message() and out_error() know them. */
#include "e2l_err.h"

static const char *const e2l_err_msgs[] = {
	"The filesystem changed on disk since the plan was made",
	"Refusing a write that could lose data",
	"A block the plan touches belongs to something else",
	"The filesystem is not known to be consistent",
	"Another writer holds the filesystem",
	"The plan file is damaged or was edited",
	"Unsafe undo file path",
	"Argument out of range",
	"The quota files could not be updated",
	"The experiment result file is damaged or not one",
	"The undo file is finished: this write would change the filesystem "
	"behind it",
};

static struct error_table e2l_err_table = {
	e2l_err_msgs, E2L_ERR_BASE,
	sizeof(e2l_err_msgs) / sizeof(e2l_err_msgs[0]),
};

void e2l_err_init(void)
{
	/* com_err's list is process-wide and the table constant: registering
	 * it is not session state.  A second add returns an error, ignored. */
	if (error_message(E2L_ERR_STALE_PLAN) != e2l_err_msgs[0])
		add_error_table(&e2l_err_table);
}
