/* sha256.h - SHA-256 (FIPS 180-4) for checking a file's content before and
 * after a live move. */
#ifndef E2L_SHA256_H
#define E2L_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;			/* message length so far */
	unsigned char buf[64];
	size_t nbuf;
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
/* Writes the 32-byte digest; c must be initialised again before reuse. */
void sha256_final(struct sha256 *c, unsigned char out[32]);
/* The digest as 64 lowercase hex digits and a NUL. */
void sha256_hex(const unsigned char d[32], char out[65]);

#endif
