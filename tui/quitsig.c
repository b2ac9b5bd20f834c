/* quitsig.c - SIGHUP, SIGTERM and SIGINT caught while the TUI holds
 * something the kernel keeps after we die (a tracing instance, a running
 * experiment): the idle loop then quits, or cancels, and cleans up.  Shared
 * by every holder, counted, so that the last one puts curses' handlers
 * back whatever order they stop in. */
#include "tui_int.h"

#include <signal.h>
#include <string.h>

static const int quit_signals[] = {SIGHUP, SIGTERM, SIGINT};
#define NQUIT ((int)(sizeof(quit_signals) / sizeof(quit_signals[0])))
/* a signal handler's flag and what it replaced: the statics a C signal
 * interface forces (DEVELOPERS.md "State") */
static struct sigaction saved_sa[NQUIT];
static volatile sig_atomic_t got_signal;
static int holders;

static void on_quit_signal(int sig)
{
	got_signal = sig;
}

void tui_signals_catch(void)
{
	struct sigaction sa;
	int i;

	if (holders++)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_quit_signal;
	sigemptyset(&sa.sa_mask);
	got_signal = 0;
	for (i = 0; i < NQUIT; i++)
		sigaction(quit_signals[i], &sa, &saved_sa[i]);
}

void tui_signals_release(void)
{
	int i;

	if (!holders || --holders)
		return;
	for (i = 0; i < NQUIT; i++)
		sigaction(quit_signals[i], &saved_sa[i], NULL);
}

int tui_signal_pending(void)
{
	return got_signal;
}

int tui_signal_take(void)
{
	int sig = got_signal;

	got_signal = 0;
	return sig;
}
