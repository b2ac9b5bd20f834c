/* sha256.c - SHA-256 through libcrypto's EVP interface (see sha256.h). */
#include "sha256.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

int sha256_init(struct sha256 *c)
{
	EVP_MD_CTX *x = EVP_MD_CTX_new();

	c->ctx = NULL;
	if (!x)
		return ENOMEM;
	if (EVP_DigestInit_ex(x, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(x);
		return ENOMEM;
	}
	c->ctx = x;
	return 0;
}

void sha256_update(struct sha256 *c, const void *data, size_t len)
{
	if (c->ctx && EVP_DigestUpdate(c->ctx, data, len) != 1) {
		EVP_MD_CTX_free(c->ctx);
		c->ctx = NULL;
	}
}

int sha256_final(struct sha256 *c, unsigned char out[32])
{
	unsigned int n = 0;
	int ok = c->ctx && EVP_DigestFinal_ex(c->ctx, out, &n) == 1 &&
		 n == 32;

	EVP_MD_CTX_free(c->ctx);
	c->ctx = NULL;
	if (!ok)
		memset(out, 0, 32);
	return ok ? 0 : EIO;
}

void sha256_hex(const unsigned char d[32], char out[65])
{
	int i;

	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}
