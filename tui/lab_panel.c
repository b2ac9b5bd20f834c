/* lab_panel.c - the training lab's panel: the text `e2layout lab start`
 * hands over (goal and steps), drawn by the help screen's pager (keys.c)
 * when the inspector starts and on the L key. */
#include "tui_int.h"

static const char *lab_text;

void tui_set_lab(const char *text)
{
	lab_text = text;
}

const char *tui_lab_text(void)
{
	return lab_text;
}
