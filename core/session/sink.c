/* sink.c - the output sink: text passthrough, com_err-style errors, and the
 * JSON document that wraps each command in --json mode. */
#include "sink.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void strbuf_add(struct strbuf *sb, const char *data, size_t len)
{
	if (sb->len + len + 1 > sb->cap) {
		size_t cap = sb->cap ? sb->cap : 256;
		while (cap < sb->len + len + 1)
			cap *= 2;
		char *nb = realloc(sb->buf, cap);
		if (!nb)
			abort(); /* out of memory: nothing sane to do */
		sb->buf = nb;
		sb->cap = cap;
	}
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = 0;
}

void strbuf_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	char small[512];
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		strbuf_add(sb, small, n);
		return;
	}
	char *big = malloc(n + 1);
	if (!big)
		abort();
	vsnprintf(big, n + 1, fmt, ap);
	strbuf_add(sb, big, n);
	free(big);
}

void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vprintf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = 0;
}

void strbuf_free(struct strbuf *sb)
{
	free(sb->buf);
	memset(sb, 0, sizeof(*sb));
}

static void stdio_write(void *ctx, enum sink_chan chan, const char *buf,
			size_t len)
{
	FILE *f = chan == SINK_ERR ? stderr : stdout;

	(void)ctx;
	if (chan == SINK_ERR)
		fflush(stdout); /* keep the two streams in order on a tty */
	fwrite(buf, 1, len, f);
	if (chan == SINK_ERR)
		fflush(stderr);
}

void sink_init_cb(struct sink *sk, enum sink_mode mode,
		  void (*write)(void *, enum sink_chan, const char *, size_t),
		  void *ctx)
{
	memset(sk, 0, sizeof(*sk));
	sk->mode = mode;
	sk->write = write;
	sk->ctx = ctx;
}

static char *stdio_read_line(void *ctx, char *buf, int size)
{
	(void)ctx;
	fflush(stdout);
	return fgets(buf, size, stdin);
}

void sink_init_stdio(struct sink *sk, enum sink_mode mode)
{
	sink_init_cb(sk, mode, stdio_write, NULL);
	sk->read_line = stdio_read_line;
}

char *sink_read_line(struct sink *sk, char *buf, int size)
{
	return sk->read_line ? sk->read_line(sk->ctx, buf, size) : NULL;
}

void sink_free(struct sink *sk)
{
	strbuf_free(&sk->text);
	strbuf_free(&sk->result);
	strbuf_free(&sk->errors);
}

void out_write(struct sink *sk, const char *buf, size_t len)
{
	if (sk->mode == SINK_JSON && sk->in_command)
		strbuf_add(&sk->text, buf, len);
	else
		sk->write(sk->ctx, SINK_OUT, buf, len);
}

void out_vprintf(struct sink *sk, const char *fmt, va_list ap)
{
	struct strbuf tmp = {0};

	if (sk->mode == SINK_JSON && sk->in_command) {
		strbuf_vprintf(&sk->text, fmt, ap);
		return;
	}
	strbuf_vprintf(&tmp, fmt, ap);
	if (tmp.len)
		sk->write(sk->ctx, SINK_OUT, tmp.buf, tmp.len);
	strbuf_free(&tmp);
}

void out_printf(struct sink *sk, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	out_vprintf(sk, fmt, ap);
	va_end(ap);
}

static void emit_error(struct sink *sk, struct strbuf *msg)
{
	sk->write(sk->ctx, SINK_ERR, msg->buf, msg->len);
	if (sk->mode == SINK_JSON && sk->in_command) {
		size_t n = msg->len;
		if (n && msg->buf[n - 1] == '\n')
			msg->buf[--n] = 0;
		if (sk->errors.len)
			strbuf_add(&sk->errors, ",", 1);
		json_quote(&sk->errors, msg->buf);
	}
}

void out_error(struct sink *sk, const char *who, errcode_t code,
	       const char *fmt, ...)
{
	struct strbuf msg = {0};
	va_list ap;

	if (who)
		strbuf_printf(&msg, "%s: ", who);
	if (code)
		strbuf_printf(&msg, "%s ", error_message(code));
	if (fmt) {
		va_start(ap, fmt);
		strbuf_vprintf(&msg, fmt, ap);
		va_end(ap);
	}
	strbuf_add(&msg, "\n", 1);
	emit_error(sk, &msg);
	strbuf_free(&msg);
}

void out_errtext(struct sink *sk, const char *fmt, ...)
{
	struct strbuf msg = {0};
	va_list ap;

	va_start(ap, fmt);
	strbuf_vprintf(&msg, fmt, ap);
	va_end(ap);
	if (msg.len)
		emit_error(sk, &msg);
	strbuf_free(&msg);
}

FILE *sink_stream_begin(struct sink *sk, char **bufp, size_t *lenp)
{
	(void)sk;
	*bufp = NULL;
	*lenp = 0;
	return open_memstream(bufp, lenp);
}

void sink_stream_end(struct sink *sk, FILE *f, char **bufp, size_t *lenp)
{
	if (!f)
		return;
	fclose(f);
	if (*bufp && *lenp)
		out_write(sk, *bufp, *lenp);
	free(*bufp);
	*bufp = NULL;
	*lenp = 0;
}

/* ---- JSON ---- */

/*
 * Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), 0 when p starts none.
 */
static int utf8_seq_len(const unsigned char *p)
{
	unsigned int cp;
	int n, i;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	cp = p[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * File names are bytes, JSON strings are Unicode: well-formed UTF-8 is
 * copied as it is, and every byte that is not part of it is written as the
 * lone surrogate "\udcXX" (XX the byte, 80-ff), the scheme of Python's
 * "surrogateescape" error handler.  UTF-8 never encodes a surrogate, so the
 * escape is unambiguous and reversible (help json).
 */
void json_quote(struct strbuf *sb, const char *val)
{
	const unsigned char *p = (const unsigned char *)(val ? val : "");
	int n;

	strbuf_add(sb, "\"", 1);
	while (*p) {
		const unsigned char *run = p;

		/* Plain characters go in as one run (keeps big outputs fast). */
		for (;;) {
			if (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\')
				n = 1;
			else if (*p >= 0x80)
				n = utf8_seq_len(p);
			else
				n = 0;
			if (!n)
				break;
			p += n;
		}
		if (p > run)
			strbuf_add(sb, (const char *)run, p - run);
		if (!*p)
			break;
		switch (*p) {
		case '"':
			strbuf_add(sb, "\\\"", 2);
			break;
		case '\\':
			strbuf_add(sb, "\\\\", 2);
			break;
		case '\n':
			strbuf_add(sb, "\\n", 2);
			break;
		case '\t':
			strbuf_add(sb, "\\t", 2);
			break;
		case '\r':
			strbuf_add(sb, "\\r", 2);
			break;
		default:
			if (*p >= 0x80)	/* not UTF-8: surrogate-escaped */
				strbuf_printf(sb, "\\udc%02x", *p);
			else
				strbuf_printf(sb, "\\u%04x", *p);
		}
		p++;
	}
	strbuf_add(sb, "\"", 1);
}

/* Starts a member (or element): comma and key. */
static int json_member(struct sink *sk, const char *key)
{
	if (sk->mode != SINK_JSON)
		return 0;
	if (sk->need_comma[sk->depth])
		strbuf_add(&sk->result, ",", 1);
	sk->need_comma[sk->depth] = 1;
	if (key) {
		json_quote(&sk->result, key);
		strbuf_add(&sk->result, ":", 1);
	}
	return 1;
}

static void json_open(struct sink *sk, const char *key, char c)
{
	if (!json_member(sk, key))
		return;
	strbuf_add(&sk->result, &c, 1);
	if (sk->depth + 1 < SINK_JSON_DEPTH)
		sk->depth++;
	sk->need_comma[sk->depth] = 0;
}

static void json_close(struct sink *sk, char c)
{
	if (sk->mode != SINK_JSON)
		return;
	strbuf_add(&sk->result, &c, 1);
	if (sk->depth > 0)
		sk->depth--;
}

void json_obj_begin(struct sink *sk, const char *key)
{
	json_open(sk, key, '{');
}

void json_obj_end(struct sink *sk)
{
	json_close(sk, '}');
}

void json_arr_begin(struct sink *sk, const char *key)
{
	json_open(sk, key, '[');
}

void json_arr_end(struct sink *sk)
{
	json_close(sk, ']');
}

void json_str(struct sink *sk, const char *key, const char *val)
{
	if (!json_member(sk, key))
		return;
	if (val)
		json_quote(&sk->result, val);
	else
		strbuf_add(&sk->result, "null", 4);
}

/* A number member without printf, comma included in the same append:
 * numbers are most of a big JSON result. */
static void json_num(struct sink *sk, const char *key, uint64_t val, int neg)
{
	char buf[24], *p = buf + sizeof(buf);

	if (sk->mode != SINK_JSON)
		return;
	do {
		*--p = '0' + val % 10;
		val /= 10;
	} while (val);
	if (neg)
		*--p = '-';
	if (key) {
		json_member(sk, key);
	} else {
		if (sk->need_comma[sk->depth])
			*--p = ',';
		sk->need_comma[sk->depth] = 1;
	}
	strbuf_add(&sk->result, p, buf + sizeof(buf) - p);
}

void json_raw(struct sink *sk, const char *text, size_t len)
{
	if (!json_member(sk, NULL))
		return;
	strbuf_add(&sk->result, text, len);
}

void json_u64(struct sink *sk, const char *key, uint64_t val)
{
	json_num(sk, key, val, 0);
}

void json_i64(struct sink *sk, const char *key, int64_t val)
{
	json_num(sk, key, val < 0 ? -(uint64_t)val : (uint64_t)val, val < 0);
}

/* JSON has no NaN or infinity (printf would write "nan", "inf": not JSON):
 * a number that is not finite is null. */
void json_double(struct sink *sk, const char *key, double val)
{
	if (!json_member(sk, key))
		return;
	if (isfinite(val))
		strbuf_printf(&sk->result, "%.6g", val);
	else
		strbuf_add(&sk->result, "null", 4);
}

void json_bool(struct sink *sk, const char *key, int val)
{
	if (json_member(sk, key))
		strbuf_add(&sk->result, val ? "true" : "false", val ? 4 : 5);
}

void json_null(struct sink *sk, const char *key)
{
	if (json_member(sk, key))
		strbuf_add(&sk->result, "null", 4);
}

void sink_command_begin(struct sink *sk, int argc, char **argv)
{
	if (sk->mode != SINK_JSON)
		return;
	sk->streamed = 0;
	sk->argc = argc;
	sk->argv = argv;
	strbuf_reset(&sk->text);
	strbuf_reset(&sk->result);
	strbuf_reset(&sk->errors);
	sk->depth = 0;
	sk->need_comma[0] = 0;
	sk->in_command = 1;
}

/* {"format_version":N,"command":..,"args":[..] */
static void doc_head(struct strbuf *doc, int argc, char **argv)
{
	int i;

	strbuf_printf(doc, "{\"format_version\":%d,\"command\":",
		      SINK_JSON_FORMAT_VERSION);
	json_quote(doc, argc > 0 ? argv[0] : "");
	strbuf_add(doc, ",\"args\":[", 9);
	for (i = 1; i < argc; i++) {
		if (i > 1)
			strbuf_add(doc, ",", 1);
		json_quote(doc, argv[i]);
	}
	strbuf_add(doc, "]", 1);
}

/* ,"text":..,"errors":[..]}\n */
static void doc_tail(struct sink *sk, struct strbuf *doc)
{
	strbuf_add(doc, ",\"text\":", 8);
	if (sk->text.len)
		json_quote(doc, sk->text.buf);
	else
		strbuf_add(doc, "null", 4);
	strbuf_add(doc, ",\"errors\":[", 11);
	if (sk->errors.len)
		strbuf_add(doc, sk->errors.buf, sk->errors.len);
	strbuf_add(doc, "]}\n", 3);
}

#define JSON_FLUSH_AT 65536

void json_flush(struct sink *sk)
{
	struct strbuf head = {0};

	if (sk->mode != SINK_JSON || !sk->in_command ||
	    sk->result.len < JSON_FLUSH_AT)
		return;
	if (!sk->streamed) {
		doc_head(&head, sk->argc, sk->argv);
		strbuf_add(&head, ",\"result\":{", 11);
		sk->write(sk->ctx, SINK_OUT, head.buf, head.len);
		strbuf_free(&head);
		sk->streamed = 1;
	}
	sk->write(sk->ctx, SINK_OUT, sk->result.buf, sk->result.len);
	strbuf_reset(&sk->result);
}

/*
 * Emits {"format_version":1,"command":..,"args":[..],"status":N,"result":{..}|null,
 * "text":".."|null,"errors":[..]} on one line (after json_flush: the same
 * members with "status" after "result").
 */
void sink_command_end(struct sink *sk, int status, int argc, char **argv)
{
	struct strbuf doc = {0};

	if (sk->mode != SINK_JSON)
		return;
	sk->in_command = 0;
	if (sk->streamed) {
		strbuf_add(&doc, sk->result.buf ? sk->result.buf : "",
			   sk->result.len);
		strbuf_printf(&doc, "},\"status\":%d", status);
		doc_tail(sk, &doc);
		strbuf_reset(&sk->result);
		sk->streamed = 0;
	} else {
		doc_head(&doc, argc, argv);
		strbuf_printf(&doc, ",\"status\":%d,\"result\":", status);
		if (sk->result.len) {
			strbuf_add(&doc, "{", 1);
			strbuf_add(&doc, sk->result.buf, sk->result.len);
			strbuf_add(&doc, "}", 1);
		} else {
			strbuf_add(&doc, "null", 4);
		}
		doc_tail(sk, &doc);
	}
	sk->write(sk->ctx, SINK_OUT, doc.buf, doc.len);
	strbuf_free(&doc);
}
