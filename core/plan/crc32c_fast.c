/* crc32c_fast.c - CRC-32C through SSE4.2's crc32 instruction (8 bytes per
 * instruction), falling back to libext2fs's table-driven ext2fs_crc32c_le
 * on CPUs without it; both compute the same register. */
#include "crc32c_fast.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>

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

__u32 crc32c_fast(__u32 crc, const void *buf, size_t len)
{
	if (__builtin_cpu_supports("sse4.2"))
		return crc_hw(crc, buf, len);
	return ext2fs_crc32c_le(crc, buf, len);
}
#else
__u32 crc32c_fast(__u32 crc, const void *buf, size_t len)
{
	return ext2fs_crc32c_le(crc, buf, len);
}
#endif
