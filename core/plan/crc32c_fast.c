/* crc32c_fast.c - CRC-32C through SSE4.2's crc32 instruction (8 bytes per
 * instruction, three independent streams at once over long buffers),
 * falling back to libext2fs's table-driven ext2fs_crc32c_le on CPUs
 * without it; both compute the same register. */
#include "crc32c_fast.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>
#include <pthread.h>

/*
 * One crc32 instruction takes three cycles but a new one can start every
 * cycle: a single dependent chain runs at a third of the unit's speed.
 * Over a buffer of at least three lanes the three lanes are summed
 * independently (the second and third from a zero register) and joined:
 * the register is linear over GF(2), so the state after A then B is the
 * state after A carried over |B| zero bytes, xor B's own sum from zero.
 * Carrying over LANE zero bytes is a linear map of 32 bits, kept as the
 * images of the 32 basis bits.
 */
#define LANE 4096

struct lane_shift {
	pthread_once_t once;
	__u32 image[32];	/* bit i carried over LANE zero bytes */
};

/* a constant of the CPU's arithmetic, filled once, shared by every session */
static struct lane_shift lanes = { PTHREAD_ONCE_INIT, { 0 } };

__attribute__((target("sse4.2")))
static __u32 crc_hw(__u32 crc, const unsigned char *p, size_t len)
{
	unsigned long long c = crc, w;

	for (; len && ((unsigned long)p & 7); len--)
		c = _mm_crc32_u8((__u32)c, *p++);
	for (; len >= 8; len -= 8, p += 8) {
		memcpy(&w, p, 8);
		c = _mm_crc32_u64(c, w);
	}
	for (; len; len--)
		c = _mm_crc32_u8((__u32)c, *p++);
	return (__u32)c;
}

__attribute__((target("sse4.2")))
static void lanes_fill(void)
{
	unsigned int i, n;
	unsigned long long c;

	for (i = 0; i < 32; i++) {
		c = 1U << i;
		for (n = 0; n < LANE; n += 8)
			c = _mm_crc32_u64(c, 0);
		lanes.image[i] = (__u32)c;
	}
}

static __u32 lane_carry(__u32 v)
{
	__u32 r = 0;
	unsigned int i;

	for (i = 0; v; i++, v >>= 1)
		if (v & 1)
			r ^= lanes.image[i];
	return r;
}

__attribute__((target("sse4.2")))
static __u32 crc_hw3(__u32 crc, const unsigned char *p, size_t len)
{
	unsigned long long a, b, c, w0, w1, w2;
	size_t i;

	if (len < 3 * LANE)
		return crc_hw(crc, p, len);
	pthread_once(&lanes.once, lanes_fill);
	for (; len >= 3 * LANE; len -= 3 * LANE, p += 3 * LANE) {
		a = crc;
		b = 0;
		c = 0;
		for (i = 0; i < LANE; i += 8) {
			memcpy(&w0, p + i, 8);
			memcpy(&w1, p + LANE + i, 8);
			memcpy(&w2, p + 2 * LANE + i, 8);
			a = _mm_crc32_u64(a, w0);
			b = _mm_crc32_u64(b, w1);
			c = _mm_crc32_u64(c, w2);
		}
		crc = lane_carry(lane_carry((__u32)a) ^ (__u32)b) ^ (__u32)c;
	}
	return crc_hw(crc, p, len);
}

__u32 crc32c_fast(__u32 crc, const void *buf, size_t len)
{
	if (__builtin_cpu_supports("sse4.2"))
		return crc_hw3(crc, buf, len);
	return ext2fs_crc32c_le(crc, buf, len);
}
#else
__u32 crc32c_fast(__u32 crc, const void *buf, size_t len)
{
	return ext2fs_crc32c_le(crc, buf, len);
}
#endif
