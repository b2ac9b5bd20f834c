/* fuzz_cmdline.c - libFuzzer harness: the input, split into lines, is run
 * as requests on a fresh read-write copy of a small image.  Requests that
 * touch host files (dump, rdump, journal files...) are skipped. */
#include "fuzz_common.h"

#include <ctype.h>

/* First words that would read or write host files, or reopen the image. */
static const char *const host_requests[] = {
	"dump_inode", "dump", "rdump", "open_filesys", "open",
	"close_filesys", "close", "write", "logdump", "ea_get", "ea_set",
	"journal_open", "jo", "mkdemo", "set_current_time", NULL,
};

static int touches_host(const char *line)
{
	const char *const *h;
	size_t n;

	while (isspace((unsigned char)*line))
		line++;
	for (n = 0; line[n] && !isspace((unsigned char)line[n]); n++)
		;
	for (h = host_requests; *h; h++)
		if (strlen(*h) == n && !strncmp(*h, line, n))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_seed seed;
	static const uint8_t none[1];
	char path[64], *text, *line, *next;
	struct session s;
	struct sink out;
	int fd, lines = 0;

	if (!seed.data)
		fuzz_load_seed(&seed);
	if (size > 4096)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	fd = fuzz_image_fd(&seed, none, 0, path, sizeof(path));
	if (fd < 0) {
		free(text);
		return 0;
	}
	sink_init_cb(&out, SINK_TEXT, fuzz_discard, NULL);
	session_init(&s, &out);
	if (session_open(&s, path, SESSION_RW, NULL, 0, 0) == 0) {
		s.now = 1700000000;
		for (line = text; line && lines < 16 && !s.quit; line = next,
		     lines++) {
			next = strchr(line, '\n');
			if (next)
				*next++ = 0;
			if (!touches_host(line))
				cmd_run_line(&s, line);
		}
		if (s.fs)
			session_close(&s);
	}
	sink_free(&out);
	close(fd);
	free(text);
	return 0;
}
