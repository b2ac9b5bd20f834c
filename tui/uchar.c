/* uchar.c - UTF-8 characters in the prompt's byte string (see uchar.h). */
#include "uchar.h"

#include <string.h>
#include <wchar.h>

int uc_seq_len(unsigned char b)
{
	if (b < 0x80)
		return 1;
	if (b >= 0xc2 && b <= 0xdf)
		return 2;
	if (b >= 0xe0 && b <= 0xef)
		return 3;
	if (b >= 0xf0 && b <= 0xf4)
		return 4;
	return 0;
}

int uc_decode(const char *s, size_t n, unsigned *cp)
{
	static const unsigned min[5] = {0, 0, 0x80, 0x800, 0x10000};
	const unsigned char *u = (const unsigned char *)s;
	int len, i;
	unsigned c;

	if (!n)
		return 0;
	len = uc_seq_len(u[0]);
	if (!len || (size_t)len > n)
		return 0;
	c = len == 1 ? u[0] : u[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* Width of one code point: 0 for combining marks, 2 for wide ones;
 * an unprintable one counts 1 (it is shown as a placeholder). */
static int cp_width(unsigned cp)
{
	int w = wcwidth((wchar_t)cp);

	return w < 0 ? 1 : w;
}

/* One character at pos: its length (a bad byte is a character of its
 * own) and width. */
static int one(const char *s, int len, int pos, int utf8, int *width)
{
	unsigned cp;
	int n;

	if (!utf8) {
		*width = 1;
		return 1;
	}
	n = uc_decode(s + pos, len - pos, &cp);
	if (!n) {
		*width = 1;
		return 1;
	}
	*width = cp_width(cp);
	return n;
}

int uc_next(const char *s, int len, int pos, int utf8)
{
	int w;

	if (pos >= len)
		return len;
	pos += one(s, len, pos, utf8, &w);
	while (pos < len) {
		int n = one(s, len, pos, utf8, &w);

		if (w != 0 || (unsigned char)s[pos] < 0x80)
			break;
		pos += n;	/* a combining mark goes with its base */
	}
	return pos;
}

int uc_prev(const char *s, int len, int pos, int utf8)
{
	int p = 0, last = 0;

	/* walk from the start: the only way to be sure of the bounds */
	while (p < pos && p < len) {
		last = p;
		p = uc_next(s, len, p, utf8);
	}
	return last;
}

int uc_width(const char *s, int from, int to, int utf8)
{
	int w = 0, cw;

	while (from < to) {
		from += one(s, to, from, utf8, &cw);
		w += cw;
	}
	return w;
}

size_t uc_trim(const char *s, size_t n, int utf8)
{
	size_t p = 0, next;
	unsigned cp;
	int k;

	if (!utf8)
		return n;
	while (p < n) {
		/* decode past n: a sequence n cuts must not count */
		k = uc_decode(s + p, strnlen(s + p, 4), &cp);
		next = p + (k ? (size_t)k : 1);
		if (next > n)
			break;
		p = next;
	}
	return p;
}
