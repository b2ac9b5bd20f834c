/* sha256.c - SHA-256 through libcrypto's EVP interface, loaded with
 * dlopen on the first digest (see sha256.h). */
#include "sha256.h"

#include <dlfcn.h>
#include <errno.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <stdio.h>
#include <string.h>

/* The functions, in the order of c->fn[]. */
static const char *const names[6] = {
	"EVP_MD_CTX_new", "EVP_MD_CTX_free", "EVP_sha256",
	"EVP_DigestInit_ex", "EVP_DigestUpdate", "EVP_DigestFinal_ex",
};

/* Their types, for the calls through c->fn[]. */
typedef EVP_MD_CTX *ctx_new_fn(void);
typedef void ctx_free_fn(EVP_MD_CTX *);
typedef const EVP_MD *md_fn(void);
typedef int init_fn(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
typedef int update_fn(EVP_MD_CTX *, const void *, size_t);
typedef int final_fn(EVP_MD_CTX *, unsigned char *, unsigned int *);

#define CALL(c, i, type) ((type *)(c)->fn[i])
#define STR_(x) #x
#define STR(x) STR_(x)

/* libcrypto's soname: OpenSSL 3 names it by its major version; 1.1 has no
 * OPENSSL_VERSION_MAJOR and its own name. */
#ifdef OPENSSL_VERSION_MAJOR
#define CRYPTO_SONAME "libcrypto.so." STR(OPENSSL_VERSION_MAJOR)
#else
#define CRYPTO_SONAME "libcrypto.so.1.1"
#endif

/* libcrypto: the one this program was built against first. */
static void *load(void)
{
	void *h = dlopen(CRYPTO_SONAME, RTLD_NOW | RTLD_LOCAL);

	return h ? h : dlopen("libcrypto.so", RTLD_NOW | RTLD_LOCAL);
}

static void release(struct sha256 *c)
{
	if (c->ctx)
		CALL(c, 1, ctx_free_fn)(c->ctx);
	c->ctx = NULL;
	if (c->lib)
		dlclose(c->lib);
	c->lib = NULL;
}

int sha256_init(struct sha256 *c)
{
	EVP_MD_CTX *x;
	void *p;
	int i;

	memset(c, 0, sizeof(*c));
	c->lib = load();
	if (!c->lib)
		return ENOENT;
	for (i = 0; i < 6; i++) {
		p = dlsym(c->lib, names[i]);
		if (!p) {
			release(c);
			return ENOENT;
		}
		/* POSIX: a function's address from dlsym */
		memcpy(&c->fn[i], &p, sizeof(p));
	}
	x = CALL(c, 0, ctx_new_fn)();
	if (!x) {
		release(c);
		return ENOMEM;
	}
	c->ctx = x;
	if (CALL(c, 3, init_fn)(x, CALL(c, 2, md_fn)(), NULL) != 1) {
		release(c);
		return ENOMEM;
	}
	return 0;
}

void sha256_update(struct sha256 *c, const void *data, size_t len)
{
	if (c->ctx && CALL(c, 4, update_fn)(c->ctx, data, len) != 1) {
		CALL(c, 1, ctx_free_fn)(c->ctx);
		c->ctx = NULL;
	}
}

int sha256_final(struct sha256 *c, unsigned char out[32])
{
	unsigned int n = 0;
	int ok = c->ctx && CALL(c, 5, final_fn)(c->ctx, out, &n) == 1 &&
		 n == 32;

	release(c);
	if (!ok)
		memset(out, 0, 32);
	return ok ? 0 : EIO;
}

int sha256_check(void)
{
	static const unsigned char empty[32] = {
		0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14,
		0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24,
		0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c,
		0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55,
	};
	struct sha256 c;
	unsigned char d[32];
	int err = sha256_init(&c);

	if (err)
		return err;
	err = sha256_final(&c, d);
	if (!err && memcmp(d, empty, sizeof(d)))
		err = EIO;
	return err;
}

void sha256_hex(const unsigned char d[32], char out[65])
{
	int i;

	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}
