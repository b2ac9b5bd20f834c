/* tui.h - the full-screen front end's entry point. */
#ifndef E2L_TUI_H
#define E2L_TUI_H

#include "session.h"

/*
 * Runs the full-screen inspector on an open session until the user quits.
 * keys, when not NULL, is a scripted key sequence (tests' deterministic
 * mode).  Returns the process exit status.
 */
int tui_main(struct session *s, const char *keys);

/*
 * A training lab's text (goal and steps, from labs/lab.c) for the lab
 * panel: shown when the inspector starts and on the L key.  NULL (the
 * default) means no lab.  The text must outlive tui_main().
 */
void tui_set_lab(const char *text);

#endif
