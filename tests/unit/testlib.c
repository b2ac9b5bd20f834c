/* testlib.c - shared helpers for the unit tests (see testlib.h). */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tl_image(const char *name)
{
	static char path[4096];
	const char *dir = getenv("E2L_IMAGES");

	snprintf(path, sizeof(path), "%s/%s.img", dir ? dir : "build/testimg",
		 name);
	return path;
}

static void capture(void *ctx, enum sink_chan chan, const char *buf,
		    size_t len)
{
	struct tsession *t = ctx;

	strbuf_add(chan == SINK_ERR ? &t->err : &t->out, buf, len);
}

void tl_open_path(struct tsession *t, const char *path, enum sink_mode mode)
{
	errcode_t err;

	memset(t, 0, sizeof(*t));
	add_error_table(&et_ext2_error_table);
	sink_init_cb(&t->sink, mode, capture, t);
	session_init(&t->s, &t->sink);
	err = session_open(&t->s, path, 0, NULL, 0, 0);
	if (err)
		fail_msg("cannot open %s: %s (%s)", path, error_message(err),
			 t->err.buf ? t->err.buf : "");
}

void tl_open_mode(struct tsession *t, const char *name, enum sink_mode mode)
{
	tl_open_path(t, tl_image(name), mode);
}

void tl_open(struct tsession *t, const char *name)
{
	tl_open_mode(t, name, SINK_TEXT);
}

void tl_close(struct tsession *t)
{
	session_close(&t->s);
	sink_free(&t->sink);
	strbuf_free(&t->out);
	strbuf_free(&t->err);
}

int tl_run(struct tsession *t, const char *line)
{
	strbuf_reset(&t->out);
	strbuf_reset(&t->err);
	if (!t->out.buf)
		strbuf_add(&t->out, "", 0);
	if (!t->err.buf)
		strbuf_add(&t->err, "", 0);
	return cmd_run_line(&t->s, line);
}

char *tl_sh(const char *fmt, ...)
{
	struct strbuf cmd = {0}, out = {0};
	char buf[8192];
	va_list ap;
	size_t n;
	FILE *p;

	va_start(ap, fmt);
	strbuf_vprintf(&cmd, fmt, ap);
	va_end(ap);
	p = popen(cmd.buf, "r");
	if (!p)
		fail_msg("cannot run %s", cmd.buf);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		strbuf_add(&out, buf, n);
	pclose(p);
	strbuf_free(&cmd);
	if (!out.buf)
		strbuf_add(&out, "", 0);
	return out.buf;
}
