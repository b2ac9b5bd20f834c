/* sink.h - where every byte a command produces goes: text or JSON, to stdio
 * or to a callback (the TUI's scrollback, a test's buffer).  core/ prints
 * nothing except through a sink. */
#ifndef E2L_SINK_H
#define E2L_SINK_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <et/com_err.h>

/* A growable byte buffer. */
struct strbuf {
	char *buf;
	size_t len, cap;
};

void strbuf_add(struct strbuf *sb, const char *data, size_t len);
void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void strbuf_reset(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);

enum sink_mode { SINK_TEXT, SINK_JSON };
enum sink_chan { SINK_OUT, SINK_ERR };

#define SINK_JSON_DEPTH 64
/* The "format_version" member of every JSON document: raised when a
 * published member changes meaning or is removed (help json). */
#define SINK_JSON_FORMAT_VERSION 1

/*
 * A sink.  In text mode, out_printf() text goes straight to write().  In JSON
 * mode the dispatcher brackets each command: text printed by the command is
 * collected and emitted as the "text" member, JSON members written with the
 * json_* calls form the "result" member, and errors are collected into
 * "errors" (and still written to the error channel).
 */
struct sink {
	enum sink_mode mode;
	/* Writes len bytes of finished output to channel chan. */
	void (*write)(void *ctx, enum sink_chan chan, const char *buf,
		      size_t len);
	void *ctx;
	/* Reads one line of the user's answer to a prompt as fgets(3) does
	 * (NULL at end of input); NULL when the sink has no input. */
	char *(*read_line)(void *ctx, char *buf, int size);

	/* JSON-mode state for the command in progress. */
	int in_command;
	int streamed;		/* json_flush() has written the head */
	int argc;		/* the command in progress (for json_flush) */
	char **argv;
	struct strbuf text;	/* text printed by the command */
	struct strbuf result;	/* JSON members of "result" */
	struct strbuf errors;	/* JSON array items of "errors" */
	int depth;
	unsigned char need_comma[SINK_JSON_DEPTH];
};

/* A sink writing to stdout/stderr. */
void sink_init_stdio(struct sink *sk, enum sink_mode mode);
/* A sink writing through a callback. */
void sink_init_cb(struct sink *sk, enum sink_mode mode,
		  void (*write)(void *, enum sink_chan, const char *, size_t),
		  void *ctx);
void sink_free(struct sink *sk);
/* An answer to a prompt (modify_inode): fgets(3) on the sink's input, the
 * standard input for a stdio sink.  NULL at its end or without input. */
char *sink_read_line(struct sink *sk, char *buf, int size);
static inline int sink_is_json(const struct sink *sk)
{
	return sk->mode == SINK_JSON;
}

/* Text output (in JSON mode it is gathered into the "text" member). */
void out_printf(struct sink *sk, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void out_vprintf(struct sink *sk, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void out_write(struct sink *sk, const char *buf, size_t len);

/*
 * An error, formatted exactly as com_err(3) formats it:
 * "WHO: MESSAGE-OF-CODE FMT\n" (no "WHO: " when who is NULL, no message when
 * code is 0).  debugfs prints its errors this way, so our output matches.
 */
void out_error(struct sink *sk, const char *who, errcode_t code,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Raw text on the error channel (usage lines and the like). */
void out_errtext(struct sink *sk, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A stdio stream whose output lands in the sink (for libe2p's list_super2
 * and friends).  Close it with sink_stream_end().
 */
FILE *sink_stream_begin(struct sink *sk, char **bufp, size_t *lenp);
void sink_stream_end(struct sink *sk, FILE *f, char **bufp, size_t *lenp);

/* Command brackets, called by the dispatcher only. */
void sink_command_begin(struct sink *sk, int argc, char **argv);
void sink_command_end(struct sink *sk, int status, int argc, char **argv);

/*
 * JSON members for the current command's "result".  key is NULL for array
 * elements.  Outside JSON mode these do nothing, so a command may call them
 * unconditionally, but it usually branches on sink_is_json() instead.
 */
void json_obj_begin(struct sink *sk, const char *key);
void json_obj_end(struct sink *sk);
void json_arr_begin(struct sink *sk, const char *key);
void json_arr_end(struct sink *sk);
void json_str(struct sink *sk, const char *key, const char *val);
void json_u64(struct sink *sk, const char *key, uint64_t val);
void json_i64(struct sink *sk, const char *key, int64_t val);
/* A number; null when val is not finite (JSON has no NaN or infinity). */
void json_double(struct sink *sk, const char *key, double val);
void json_bool(struct sink *sk, const char *key, int val);
void json_null(struct sink *sk, const char *key);
/* An element of the current array already formatted as JSON (text, len
 * bytes): the comma is the sink's business; for long tables of rows. */
void json_raw(struct sink *sk, const char *text, size_t len);

/*
 * Lets a command with a very large result write it out as it goes: when
 * enough JSON has gathered, the document's head and the result so far are
 * written, and "status", "text" and "errors" follow the result at the end
 * (same members, same single line).  Call it between array elements.
 */
void json_flush(struct sink *sk);

/* Appends val to sb as a JSON string literal, quotes included; bytes that
 * are not UTF-8 become "\udcXX" surrogate escapes (reversible). */
void json_quote(struct strbuf *sb, const char *val);

#endif
