/* crc32c_fast.h - CRC-32C (Castagnoli) at the speed of the CPU's crc32
 * instruction where it has one, for the undo writer's saved data. */
#ifndef E2L_CRC32C_FAST_H
#define E2L_CRC32C_FAST_H

#include <ext2fs/ext2fs.h>
#include <stddef.h>

/*
 * The same value as ext2fs_crc32c_le(crc, buf, len) (the reflected
 * CRC-32C register, no final inversion: e2undo's checksums): with SSE4.2's
 * crc32 instruction when the CPU has it, else libext2fs's own.
 */
__u32 crc32c_fast(__u32 crc, const void *buf, size_t len);

#endif
