/* test_json_quote.c - the JSON sink's strings are always valid UTF-8 JSON:
 * bytes that are not UTF-8 come out as "\udcXX" surrogate escapes (Python's
 * surrogateescape), and decoding them gives back the original bytes; every
 * document carries "format_version"; a number that is not finite (a mean
 * of nothing, a p-value of two constant samples) is null, never the
 * "nan" or "inf" that printf writes. */
#include "testlib.h"
#include "sink.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Length of the well-formed UTF-8 sequence at p (no surrogates, no
 * overlongs, at most U+10FFFF), 0 when there is none. */
static int utf8_len(const unsigned char *p)
{
	unsigned int cp;
	int n, i;

	if (p[0] < 0x80)
		return 1;
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
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Decodes the JSON string literal q (quotes included) the way Python's
 * json.loads + encode("utf-8", "surrogateescape") does, into out; checks
 * on the way that q is valid UTF-8 and a valid literal.  Returns the
 * length or -1. */
static int decode(const char *q, unsigned char *out)
{
	const unsigned char *p = (const unsigned char *)q;
	int n = 0, len, v, i;

	if (*p++ != '"')
		return -1;
	while (*p != '"') {
		if (!*p || *p < 0x20)
			return -1;
		if (*p != '\\') {
			len = utf8_len(p);
			if (!len)
				return -1;
			memcpy(out + n, p, len);
			n += len;
			p += len;
			continue;
		}
		p++;
		switch (*p) {
		case '"': case '\\': case '/':
			out[n++] = *p++;
			break;
		case 'n':
			out[n++] = '\n', p++;
			break;
		case 't':
			out[n++] = '\t', p++;
			break;
		case 'r':
			out[n++] = '\r', p++;
			break;
		case 'u':
			for (v = 0, i = 1; i <= 4; i++) {
				if (hexval(p[i]) < 0)
					return -1;
				v = v << 4 | hexval(p[i]);
			}
			p += 5;
			if (v >= 0xdc80 && v <= 0xdcff)
				out[n++] = v & 0xff;	/* an escaped byte */
			else if (v < 0x80)
				out[n++] = v;
			else
				return -1;	/* the sink writes no others */
			break;
		default:
			return -1;
		}
	}
	return p[1] ? -1 : n;
}

static void roundtrip(const char *in)
{
	struct strbuf sb = {0};
	unsigned char back[256];
	int n;

	json_quote(&sb, in);
	n = decode(sb.buf, back);
	if (n < 0)
		fail_msg("not a valid UTF-8 JSON string: %s", sb.buf);
	assert_int_equal(n, strlen(in));
	assert_memory_equal(back, in, n);
	strbuf_free(&sb);
}

static void test_escapes(void **state)
{
	static const char *const cases[] = {
		"plain", "", "\"quoted\\\"", "tab\tnl\ncr\r\x01\x7f",
		"\xc3\xa4\xc3\xb6",		/* äö: valid, kept */
		"\xf0\x9f\x98\x80",		/* U+1F600: valid, kept */
		"\xff", "a\xc3", "\xc3(", "\x80\x80",
		"\xc0\xaf",			/* overlong '/' */
		"\xe0\x80\xaf",			/* overlong, three bytes */
		"\xed\xa0\x80",			/* an encoded surrogate */
		"\xf4\x90\x80\x80",		/* above U+10FFFF */
		"\xe2\x82",			/* cut short */
		"name-\xe9t\xe9.txt",		/* Latin-1 */
		NULL,
	};
	int i;

	(void)state;
	for (i = 0; cases[i]; i++)
		roundtrip(cases[i]);
}

static void test_exact(void **state)
{
	struct strbuf sb = {0};

	(void)state;
	json_quote(&sb, "a\xff\xc3\xa4\xc3");
	assert_string_equal(sb.buf, "\"a\\udcff\xc3\xa4\\udcc3\"");
	strbuf_free(&sb);
}

static void grab(void *ctx, enum sink_chan chan, const char *buf, size_t len)
{
	if (chan == SINK_OUT)
		strbuf_add(ctx, buf, len);
}

static void test_document(void **state)
{
	char a0[] = "ls", a1[] = "/\xe9";
	char *argv[] = { a0, a1 };
	struct strbuf out = {0};
	struct sink sk;

	(void)state;
	sink_init_cb(&sk, SINK_JSON, grab, &out);
	sink_command_begin(&sk, 2, argv);
	json_str(&sk, "name", "\xe9t\xe9");
	out_printf(&sk, "\xe9\n");
	out_error(&sk, "ls", 0, "no \xe9");
	sink_command_end(&sk, 1, 2, argv);
	assert_non_null(strstr(out.buf, "\"format_version\":1,"));
	assert_non_null(strstr(out.buf, "\"args\":[\"/\\udce9\"]"));
	assert_non_null(strstr(out.buf, "\"name\":\"\\udce9t\\udce9\""));
	assert_non_null(strstr(out.buf, "\"text\":\"\\udce9\\n\""));
	assert_non_null(strstr(out.buf, "\"errors\":[\"ls: no \\udce9\"]"));
	sink_free(&sk);
	strbuf_free(&out);
}

static void test_not_finite(void **state)
{
	char a0[] = "x";
	char *argv[] = { a0 };
	struct strbuf out = {0};
	struct sink sk;

	(void)state;
	sink_init_cb(&sk, SINK_JSON, grab, &out);
	sink_command_begin(&sk, 1, argv);
	json_double(&sk, "nan", NAN);
	json_double(&sk, "inf", INFINITY);
	json_double(&sk, "minus_inf", -INFINITY);
	json_arr_begin(&sk, "a");
	json_double(&sk, NULL, 0.0 / 0.0);
	json_double(&sk, NULL, 1.5);
	json_arr_end(&sk);
	sink_command_end(&sk, 0, 1, argv);
	assert_non_null(strstr(out.buf, "\"result\":{\"nan\":null,"
			       "\"inf\":null,\"minus_inf\":null,"
			       "\"a\":[null,1.5]}"));
	sink_free(&sk);
	strbuf_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_document),
		cmocka_unit_test(test_not_finite),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
