/* sha256.h - SHA-256 for checking a file's content before and after a live
 * move, through libcrypto (OpenSSL), which uses the CPU's SHA instructions
 * where it has them: the check reads every byte of every file it moves. */
#ifndef E2L_SHA256_H
#define E2L_SHA256_H

#include <stddef.h>

struct sha256 {
	void *ctx;			/* EVP_MD_CTX; NULL after a failure */
};

/* Returns 0, or ENOMEM when libcrypto cannot make a context. */
int sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
/*
 * Writes the 32-byte digest and frees the context (call it also to give
 * up on a digest).  Returns 0, or EIO when libcrypto failed on the way (the
 * digest is then all zeros, which a caller comparing two digests must not
 * take as a match: it sees the error first).
 */
int sha256_final(struct sha256 *c, unsigned char out[32]);
/* The digest as 64 lowercase hex digits and a NUL. */
void sha256_hex(const unsigned char d[32], char out[65]);

#endif
