/* rl_dl.h - the GNU readline functions and variables the interactive shell
 * uses, through a table that rl_dl_load fills with dlopen when the shell
 * starts on a terminal: requests, scripts and the full-screen view never
 * load readline.  repl.c includes this after readline's headers; each name
 * below then means the table's entry. */
#ifndef E2L_RL_DL_H
#define E2L_RL_DL_H

#include <stdio.h>
#include <readline/history.h>
#include <readline/readline.h>

#define RL_DL_FUNCS(X) X(add_history) X(read_history) X(readline) \
	X(rl_completion_matches) X(rl_getc) X(stifle_history) X(using_history) \
	X(write_history)
#define RL_DL_VARS(X) X(rl_attempted_completion_function) \
	X(rl_attempted_completion_over) X(rl_completer_word_break_characters) \
	X(rl_completion_append_character) X(rl_end) X(rl_getc_function) \
	X(rl_line_buffer) X(rl_readline_name)

struct rl_dl {
#define RL_DL_ENTRY(f) __typeof__(f) *f;
	RL_DL_FUNCS(RL_DL_ENTRY)
	RL_DL_VARS(RL_DL_ENTRY)
#undef RL_DL_ENTRY
};

/* The table: filled once, by the first rl_dl_load that succeeds. */
extern struct rl_dl rl_dl;

/* Loads readline (once) and fills the table.  0, or ENOENT with why saying
 * what is missing: the shell reads plain lines then. */
int rl_dl_load(char *why, size_t len);

#ifndef RL_DL_IMPL
#define add_history (rl_dl.add_history)
#define read_history (rl_dl.read_history)
#define readline (rl_dl.readline)
#define rl_completion_matches (rl_dl.rl_completion_matches)
#define rl_getc (rl_dl.rl_getc)
#define stifle_history (rl_dl.stifle_history)
#define using_history (rl_dl.using_history)
#define write_history (rl_dl.write_history)
#define rl_attempted_completion_function (*rl_dl.rl_attempted_completion_function)
#define rl_attempted_completion_over (*rl_dl.rl_attempted_completion_over)
#define rl_completer_word_break_characters (*rl_dl.rl_completer_word_break_characters)
#define rl_completion_append_character (*rl_dl.rl_completion_append_character)
#define rl_end (*rl_dl.rl_end)
#define rl_getc_function (*rl_dl.rl_getc_function)
#define rl_line_buffer (*rl_dl.rl_line_buffer)
#define rl_readline_name (*rl_dl.rl_readline_name)
#endif

#endif
