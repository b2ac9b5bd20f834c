/* sha256.h - SHA-256 for checking a file's content before and after a live
 * move, through libcrypto (OpenSSL), which uses the CPU's SHA instructions
 * where it has them: the check reads every byte of every file it moves.
 * libcrypto is loaded when a digest is first asked for, not at the
 * program's start: only a live move needs it, and loading it (21,000
 * relocations) was most of the dynamic loader's time in every request. */
#ifndef E2L_SHA256_H
#define E2L_SHA256_H

#include <stddef.h>

struct sha256 {
	void *ctx;			/* EVP_MD_CTX; NULL after a failure */
	void *lib;			/* libcrypto's handle (dlopen) */
	void (*fn[6])(void);		/* its functions (sha256.c) */
};

/* Returns 0, ENOENT when libcrypto cannot be loaded, or ENOMEM when it
 * cannot make a context. */
int sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
/*
 * Writes the 32-byte digest and frees the context (call it also to give
 * up on a digest).  Returns 0, or EIO when libcrypto failed on the way (the
 * digest is then all zeros, which a caller comparing two digests must not
 * take as a match: it sees the error first).
 */
int sha256_final(struct sha256 *c, unsigned char out[32]);
/* Can a digest be made: libcrypto loads, has the functions, and gives the
 * empty message's digest?  0, or sha256_init's error (EIO: a wrong
 * digest).  For a caller to refuse up front what would need one. */
int sha256_check(void);
/* The digest as 64 lowercase hex digits and a NUL. */
void sha256_hex(const unsigned char d[32], char out[65]);

#endif
