/* fuzz_image.c - libFuzzer harness: a mutated image (the input written over
 * the start of a small seed image) goes through the read-only inspection
 * requests; nothing may crash, hang or trip a sanitizer. */
#include "fuzz_common.h"

static const char *const requests[] = {
	"stats", "groups", "flex", "journal", "frag", "map", "stat <2>",
	"stat <8>", "ls -l /", "ex <12>", "freefrag", NULL,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_seed seed;
	const char *const *r;
	struct session s;
	struct sink out;
	char path[64];
	int fd;

	if (!seed.data)
		fuzz_load_seed(&seed);
	fd = fuzz_image_fd(&seed, data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	sink_init_cb(&out, SINK_TEXT, fuzz_discard, NULL);
	session_init(&s, &out);
	if (session_open(&s, path, 0, NULL, 0, 0) == 0) {
		for (r = requests; *r; r++)
			cmd_run_line(&s, *r);
		session_close(&s);
	}
	sink_free(&out);
	close(fd);
	return 0;
}
