/* quota_fixture.h - the quota unit tests' images and raw quota block
 * access (test_quota_tree.c, test_quota_charge.c). */
#ifndef E2L_QUOTA_FIXTURE_H
#define E2L_QUOTA_FIXTURE_H

#include "testlib.h"
#include "quota_tree.h"

#define QFX_NFILES	120	/* ids: 9 data blocks, several tree branches */

/* The temporary directory of the images (set by qfx_setup). */
extern char qfx_dir[64];

/* cmocka group setup: makes $qfx_dir/q1k.img and q4k.img (1 and 4 KiB
 * blocks), each with QFX_NFILES empty files f1.. owned by qfx_uid(N), gid
 * 3 N and project qfx_prj(N), a file "data", and quota files for users,
 * groups and projects that e2fsck -fn finds right.  Teardown removes them. */
int qfx_setup(void **state);
int qfx_teardown(void **state);

/* The uid and the project id of file fN, spread over every byte. */
__u32 qfx_uid(int i);
__u32 qfx_prj(int i);

/* Path of image NAME ("q1k", "q4k") in qfx_dir; a static buffer. */
const char *qfx_img(const char *name);

/* Opens the image at path (read-write when rw); fails the test on error. */
ext2_filsys qfx_open(const char *path, int rw);

/* Reads (wr 0) or writes quota block q of the type's quota file, through
 * the device under the file (no libext2fs file layer). */
void qfx_blk_io(ext2_filsys fs, int type, __u32 q, unsigned char *b,
		int wr);

/* Little-endian 32-bit fields of a quota block. */
__u32 qfx_get32(const unsigned char *p);
void qfx_put32(unsigned char *p, __u32 v);

/* The quota blocks on id's path: path[0] the root .. path[4] its data. */
void qfx_path_of(ext2_filsys fs, int type, __u32 id, __u32 path[5]);

/* The ways qfx_damage breaks a quota file. */
enum qfx_damage {
	D_MAGIC, D_VERSION, D_NBLOCKS, D_RANGE, D_ROOTREF, D_LOOP, D_COUNT,
	D_DUP, D_UNREACHED, D_TREE_AS_DATA, D_UNMAPPED, D_MAX
};

/* Damages the user quota file of the image at path (a copy of q1k) on
 * id's path, the way d says. */
void qfx_damage(const char *path, enum qfx_damage d, __u32 id);

#endif
