/* exp_json.c - a strict recursive-descent JSON reader (RFC 8259): depth and
 * node count bounded so that a hostile file cannot exhaust the stack or the
 * memory, numbers checked finite, strings unescaped and made printable
 * (no C0/C1 control, DEL or ill-formed UTF-8 reaches a terminal). */
#include "exp_json.h"
#include "e2l_err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct jp {
	const char *s;
	size_t len, pos, nodes;
	char *why;
	size_t wlen;
	int oom;
};

static errcode_t bad(struct jp *p, const char *what)
{
	if (p->oom)
		return ENOMEM;
	snprintf(p->why, p->wlen, "not valid JSON at byte %zu: %s", p->pos,
		 what);
	return E2L_ERR_BAD_RESULT_FILE;
}

static void ws(struct jp *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' ||
				   p->s[p->pos] == '\t' ||
				   p->s[p->pos] == '\n' ||
				   p->s[p->pos] == '\r'))
		p->pos++;
}

static int lit(struct jp *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
		return 0;
	p->pos += n;
	return 1;
}

static int hex4(struct jp *p, unsigned *out)
{
	unsigned v = 0;
	int i;

	if (p->len - p->pos < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = p->s[p->pos + i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	p->pos += 4;
	*out = v;
	return 0;
}

/* 1 when code point c is nothing to send a terminal: a C0 or C1 control
 * (U+009B is CSI), DEL, or a surrogate. */
static int unshowable(unsigned c)
{
	return c < 0x20 || (c >= 0x7f && c < 0xa0) ||
	       (c >= 0xd800 && c < 0xe000);
}

/* The length of the well-formed UTF-8 sequence of a showable character
 * at s (which ends at a '"' or before), 0 when it is not one. */
static size_t utf8_ok(const unsigned char *s)
{
	size_t n, i;
	unsigned c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] < 0xe0)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] < 0xf0)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] < 0xf5)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* the closing '"' stops it */
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 ||
						  c > 0x10ffff)) ||
	    unshowable(c))
		return 0;
	return n;
}

/* Appends code point c as UTF-8 (controls and lone surrogates as '?'). */
static size_t put_utf8(char *o, unsigned c)
{
	if (unshowable(c)) {
		o[0] = '?';
		return 1;
	}
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | (c >> 6));
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | (c >> 12));
		o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (c >> 18));
	o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* A string at p->pos (its opening quote) into a new C string. */
static errcode_t string(struct jp *p, char **out)
{
	size_t start = ++p->pos, n = 0, cap;
	char *o;
	unsigned c, lo;

	/* the unescaped text is never longer than the escaped one */
	while (p->pos < p->len && p->s[p->pos] != '"') {
		if (p->s[p->pos] == '\\')
			p->pos++;
		p->pos++;
	}
	if (p->pos >= p->len)
		return bad(p, "a string is not closed");
	cap = p->pos - start + 1;
	p->pos = start;
	o = malloc(cap);
	if (!o) {
		p->oom = 1;
		return ENOMEM;
	}
	while (p->s[p->pos] != '"') {
		unsigned char ch = (unsigned char)p->s[p->pos++];

		if (ch < 0x20) {
			free(o);
			return bad(p, "a control character in a string");
		}
		if (ch != '\\') {
			/* raw bytes: only well-formed, showable UTF-8 */
			size_t k = utf8_ok((const unsigned char *)p->s +
					   p->pos - 1);

			if (k && ch != 0x7f) {
				memcpy(o + n, p->s + p->pos - 1, k);
				n += k;
				p->pos += k - 1;
			} else {
				o[n++] = '?';
			}
			continue;
		}
		ch = (unsigned char)p->s[p->pos++];
		switch (ch) {
		case '"': case '\\': case '/':
			o[n++] = (char)ch;
			break;
		case 'b': case 'f': case 'n': case 'r': case 't':
			o[n++] = '?';	/* nothing to show on a screen */
			break;
		case 'u':
			if (hex4(p, &c))
				goto badesc;
			if (c >= 0xd800 && c < 0xdc00 && p->len - p->pos >= 6 &&
			    p->s[p->pos] == '\\' && p->s[p->pos + 1] == 'u') {
				p->pos += 2;
				if (hex4(p, &lo))
					goto badesc;
				if (lo >= 0xdc00 && lo < 0xe000) {
					c = 0x10000 + ((c - 0xd800) << 10) +
					    (lo - 0xdc00);
				} else {
					/* a lone high surrogate: '?' */
					n += put_utf8(o + n, c);
					c = lo;
				}
			}
			/* 6 or 12 escaped bytes give at most 4 */
			n += put_utf8(o + n, c);
			break;
		default:
			goto badesc;
		}
	}
	p->pos++;
	o[n] = 0;
	*out = o;
	return 0;
badesc:
	free(o);
	return bad(p, "a bad escape in a string");
}

static errcode_t number(struct jp *p, double *out)
{
	size_t start = p->pos;
	char buf[64], *end;
	const char *s = p->s;

#define DIGIT(i) ((i) < p->len && s[i] >= '0' && s[i] <= '9')
	if (p->pos < p->len && s[p->pos] == '-')
		p->pos++;
	if (!DIGIT(p->pos))
		return bad(p, "expected a value");
	if (s[p->pos] == '0')
		p->pos++;
	else
		while (DIGIT(p->pos))
			p->pos++;
	if (p->pos < p->len && s[p->pos] == '.') {
		p->pos++;
		if (!DIGIT(p->pos))
			return bad(p, "a digit must follow the point");
		while (DIGIT(p->pos))
			p->pos++;
	}
	if (p->pos < p->len && (s[p->pos] == 'e' || s[p->pos] == 'E')) {
		p->pos++;
		if (p->pos < p->len && (s[p->pos] == '+' || s[p->pos] == '-'))
			p->pos++;
		if (!DIGIT(p->pos))
			return bad(p, "a digit must follow the exponent");
		while (DIGIT(p->pos))
			p->pos++;
	}
#undef DIGIT
	if (p->pos - start >= sizeof(buf))
		return bad(p, "a number too long");
	memcpy(buf, s + start, p->pos - start);
	buf[p->pos - start] = 0;
	*out = strtod(buf, &end);
	if (*end || !isfinite(*out))
		return bad(p, "a number out of range");
	return 0;
}

static errcode_t value(struct jp *p, struct expj *v, int depth);

/* Makes room for one more member of v. */
static int grow(struct jp *p, struct expj *v, size_t *cap)
{
	struct expj *nk;
	char **kk;

	if (v->n < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 4;
	nk = realloc(v->kids, *cap * sizeof(*nk));
	if (!nk)
		goto oom;
	v->kids = nk;
	if (v->type == EXPJ_OBJ) {
		kk = realloc(v->keys, *cap * sizeof(*kk));
		if (!kk)
			goto oom;
		v->keys = kk;
	}
	return 0;
oom:
	p->oom = 1;
	return -1;
}

static errcode_t members(struct jp *p, struct expj *v, int depth, char close)
{
	size_t cap = 0;
	errcode_t err;

	p->pos++;
	ws(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		ws(p);
		if (close == '}') {
			if (p->pos >= p->len || p->s[p->pos] != '"')
				return bad(p, "expected a member name");
			err = string(p, &key);
			if (err)
				return err;
			ws(p);
			if (p->pos >= p->len || p->s[p->pos] != ':') {
				free(key);
				return bad(p, "expected ':'");
			}
			p->pos++;
		}
		if (grow(p, v, &cap)) {
			free(key);
			return ENOMEM;
		}
		memset(&v->kids[v->n], 0, sizeof(v->kids[v->n]));
		if (v->keys)
			v->keys[v->n] = key;
		v->n++;
		err = value(p, &v->kids[v->n - 1], depth + 1);
		if (err)
			return err;
		ws(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == close) {
			p->pos++;
			return 0;
		}
		return bad(p, close == '}' ? "expected ',' or '}'"
					   : "expected ',' or ']'");
	}
}

static errcode_t value(struct jp *p, struct expj *v, int depth)
{
	if (depth > EXPJ_MAX_DEPTH)
		return bad(p, "nested too deeply");
	if (++p->nodes > EXPJ_MAX_NODES)
		return bad(p, "too many values");
	ws(p);
	if (p->pos >= p->len)
		return bad(p, "the text ends where a value should be");
	switch (p->s[p->pos]) {
	case '{':
		v->type = EXPJ_OBJ;
		return members(p, v, depth, '}');
	case '[':
		v->type = EXPJ_ARR;
		return members(p, v, depth, ']');
	case '"':
		v->type = EXPJ_STR;
		return string(p, &v->str);
	case 't':
	case 'f':
		v->type = EXPJ_BOOL;
		v->b = p->s[p->pos] == 't';
		if (lit(p, v->b ? "true" : "false"))
			return 0;
		return bad(p, "expected a value");
	case 'n':
		v->type = EXPJ_NULL;
		if (lit(p, "null"))
			return 0;
		return bad(p, "expected a value");
	default:
		v->type = EXPJ_NUM;
		return number(p, &v->num);
	}
}

static void clear(struct expj *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		clear(&v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->str);
}

void expj_free(struct expj *v)
{
	if (!v)
		return;
	clear(v);
	free(v);
}

errcode_t expj_parse(const char *text, size_t len, struct expj **out,
		     char *why, size_t wlen)
{
	struct jp p = { text, len, 0, 0, why, wlen, 0 };
	struct expj *v = calloc(1, sizeof(*v));
	errcode_t err;

	e2l_err_init();
	*out = NULL;
	if (!v)
		return ENOMEM;
	err = value(&p, v, 0);
	if (!err) {
		ws(&p);
		if (p.pos < p.len)
			err = bad(&p, "text after the value");
	}
	if (err) {
		expj_free(v);
		return err;
	}
	*out = v;
	return 0;
}

const struct expj *expj_get(const struct expj *v, const char *key)
{
	size_t i;

	if (!v || v->type != EXPJ_OBJ)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return &v->kids[i];
	return NULL;
}

const struct expj *expj_get_type(const struct expj *v, const char *key,
				 enum expj_type t)
{
	const struct expj *m = expj_get(v, key);

	return m && m->type == t ? m : NULL;
}
