/* uchar.h - UTF-8 characters in a byte string, for the prompt's editor:
 * decoding, the bounds of a character (a base with its combining marks)
 * and display width.  No curses; a non-UTF-8 locale makes every byte a
 * character of width 1. */
#ifndef E2L_UCHAR_H
#define E2L_UCHAR_H

#include <stddef.h>

/* Decodes one character at s (n bytes available): its length (1..4) and
 * code point in *cp; 0 when s does not start a valid, complete sequence
 * (a stray continuation byte, an overlong form, a surrogate, a cut
 * sequence). */
int uc_decode(const char *s, size_t n, unsigned *cp);

/* The length a sequence starting with byte b will have: 1..4, 0 when b
 * cannot start one. */
int uc_seq_len(unsigned char b);

/* The start of the character after the one at pos in s (len bytes),
 * with the combining marks that follow it. */
int uc_next(const char *s, int len, int pos, int utf8);
/* The start of the character before pos (its base, before its marks). */
int uc_prev(const char *s, int len, int pos, int utf8);
/* Columns the bytes [from, to) of s take on screen. */
int uc_width(const char *s, int from, int to, int utf8);
/* The longest prefix of the NUL-terminated s no longer than n bytes that
 * ends on a character boundary (a common prefix of two names may end
 * inside a character). */
size_t uc_trim(const char *s, size_t n, int utf8);

#endif
