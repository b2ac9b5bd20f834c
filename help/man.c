/* man.c - the e2layout(1) manual page, generated from the command table
 * and help/ so that it never drifts from what the program does. */
#include "cmd.h"
#include "help.h"
#include "lab.h"
#include "man.h"

#include <string.h>

/* Decodes one UTF-8 sequence at *t (advanced); U+FFFD when malformed. */
static unsigned long utf8_next(const unsigned char **t)
{
	const unsigned char *p = *t;
	unsigned long c = *p++;
	int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : -1;

	if (more < 0) {
		*t = p;
		return 0xfffd;
	}
	c &= 0x3f >> more;
	for (; more > 0; more--, p++) {
		if ((*p & 0xc0) != 0x80) {
			*t = p;
			return 0xfffd;
		}
		c = (c << 6) | (*p & 0x3f);
	}
	*t = p;
	return c;
}

/* Writes text with roff's special characters escaped: a leading . or ',
 * backslashes, hyphens (as \-, minus signs in options) and non-ASCII
 * characters (as \[uXXXX], which groff -ww accepts). */
static void roff_text(struct sink *out, const char *text)
{
	const unsigned char *t = (const unsigned char *)text;
	int bol = 1;

	while (*t) {
		if (bol && (*t == '.' || *t == '\''))
			out_printf(out, "\\&");
		bol = *t == '\n';
		if (*t >= 0x80) {
			out_printf(out, "\\[u%04lX]", utf8_next(&t));
			continue;
		}
		if (*t == '\\')
			out_printf(out, "\\e");
		else if (*t == '-')
			out_printf(out, "\\-");
		else
			out_printf(out, "%c", *t);
		t++;
	}
}


void help_write_man(struct sink *out)
{
	const struct cmd_entry *const *c;
	const struct help_doc *d;
	const char *doc;

	out_printf(out, ".TH E2LAYOUT 1 \"\" \"e2layout\" \"User Commands\"\n"
			".SH NAME\ne2layout \\- see and change where "
			"everything lives on an ext2/ext3/ext4 filesystem\n"
			".SH SYNOPSIS\n"
			".B e2layout\n[\\fIOPTIONS\\fR] \\fIDEVICE\\fR|\\fIIMAGE"
			"\\fR\n.br\n.B e2layout shell\n[\\fIOPTIONS\\fR] "
			"\\fIDEVICE\\fR\n.br\n.B e2layout\n[\\fIOPTIONS\\fR] "
			"\\fB\\-R\\fR \\fIREQUEST\\fR \\fIDEVICE\\fR\n.br\n"
			".B e2layout\n[\\fIOPTIONS\\fR] \\fB\\-f\\fR "
			"\\fIFILE\\fR \\fIDEVICE\\fR\n.br\n"
			".B e2layout mkdemo\n[\\fB\\-\\-seed\\fR \\fIN\\fR] "
			"\\fIPATH\\fR\n.br\n"
			".B e2layout lab\n\\fBlist\\fR | \\fBstart\\fR "
			"\\fINAME\\fR [\\fIDIR\\fR] | \\fBcheck\\fR \\fINAME "
			"IMAGE\\fR [\\fB\\-\\-answers\\fR \\fIFILE\\fR] | "
			"\\fBhint\\fR \\fINAME\\fR [\\fIN\\fR]\n.br\n"
			".B e2layout\n\\fB\\-\\-man\\fR | "
			"\\fB\\-\\-complete\\-words\\fR\n.br\n"
			".B e2layout \\-\\-debugfs\n[\\fIdebugfs's options"
			"\\fR] [\\fIDEVICE\\fR]    (also: run as "
			"\\fBdebugfs\\fR)\n");
	doc = help_find("topics", "e2layout");
	if (doc) {
		out_printf(out, ".SH DESCRIPTION\n");
		roff_text(out, doc);
	}
	out_printf(out, ".SH OPTIONS\n"
		".TP\n.B \\-w\nOpen read-write (refused on a mounted filesystem).\n"
		".TP\n.B \\-c\nCatastrophic mode: do not read the bitmaps, "
		"ignore errors.\n"
		".TP\n.BI \\-z \" FILE\"\nRecord every write in an e2undo(8) "
		"undo file.\n"
		".TP\n.BI \\-s \" SUPERBLOCK\" \" \\-b \" BLOCKSIZE\n"
		"Use a backup superblock.\n"
		".TP\n.B \\-i\nDEVICE is an e2image file (\\fB\\-d\\fR "
		"\\fIFILE\\fR: its data source).\n"
		".TP\n.B \\-n\nOpen despite checksum errors.\n"
		".TP\n.B \\-D\nDirect I/O (O_DIRECT).\n"
		".TP\n.BI \\-\\-partition \" N\"\nOpen partition N of a disk "
		"image or whole-disk device (see the topic sources).  "
		"\\fIIMAGE\\fR?offset=\\fIBYTES\\fR opens the filesystem at "
		"that byte offset.\n"
		".TP\n.BI \\-\\-journal\\-dev \" PATH\"\nThe external "
		"journal's device (else found by its UUID).\n"
		".TP\n.BI \\-R \" REQUEST\"\nRun one request and exit.\n"
		".TP\n.BI \\-f \" FILE\"\nRun the requests in FILE "
		"(\\- for standard input).\n"
		".TP\n.B \\-\\-json\nOne JSON document per request on "
		"standard output.\n"
		".TP\n.BI \\-\\-keys \" KEYS\"\n(TUI) play a scripted key "
		"sequence, for tests.\n"
		".TP\n.B \\-\\-man\nWrite this manual page.\n"
		".TP\n.B \\-\\-complete\\-words\nPrint the request names "
		"and aliases, one a line (shell completion).\n"
		".TP\n.BR \\-h \", \" \\-\\-help \", \" \\-V \", \" "
		"\\-\\-version\nUsage, version.\n"
		".TP\n.B \\-\\-debugfs\n(First.) Be debugfs 1.47.0: its "
		"options, messages, listener and exit statuses, as when run "
		"under the name debugfs (see DEBUGFS below).\n");
	out_printf(out, ".SH REQUESTS\n");
	for (c = cmd_table; *c; c++) {
		/* The name leads, so that every request can be found by it
		 * even when its synopsis starts with an alias. */
		out_printf(out, ".TP\n.B ");
		roff_text(out, (*c)->name);
		out_printf(out, "\n");
		roff_text(out, (*c)->synopsis);
		out_printf(out, "\n.br\n");
		roff_text(out, (*c)->summary);
		out_printf(out, "\n");
		doc = help_find("cmd", (*c)->name);
		if (doc) {
			out_printf(out, "\n.nf\n");
			roff_text(out, doc);
			out_printf(out, ".fi\n");
		}
	}
	out_printf(out, ".SH TOPICS\n");
	for (d = help_docs; d->kind; d++) {
		if (strcmp(d->kind, "topics") || !strcmp(d->name, "e2layout") ||
		    !strcmp(d->name, "debugfs"))
			continue;
		out_printf(out, ".SS %s\n.nf\n", d->name);
		roff_text(out, d->text);
		out_printf(out, ".fi\n");
	}
	out_printf(out, ".SH LABS\nTraining labs (\\fBe2layout lab list\\fR); "
			"each builds its scenario image without root:\n");
	for (d = help_docs; d->kind; d++) {
		struct lab lab;

		if (strcmp(d->kind, "labs") || lab_load(d->name, &lab, out))
			continue;
		out_printf(out, ".TP\n.B %s\n", d->name);
		roff_text(out, lab.title);
		out_printf(out, "%s\n", lab.live ? " (needs a live system)" :
			   "");
		lab_free(&lab);
	}
	doc = help_find("topics", "debugfs");
	if (doc) {
		out_printf(out, ".SH DEBUGFS\n.nf\n");
		roff_text(out, doc);
		out_printf(out, ".fi\n");
	}
	out_printf(out, ".SH EXIT STATUS\n0 when every request succeeded, 1 "
			"when one failed, 2 for a usage error, 3 when the "
			"device could not be opened.  As debugfs: debugfs's "
			"(0 after a failed request; see DEBUGFS).\n"
			".SH SEE ALSO\n.BR debugfs (8),\n.BR dumpe2fs (8),\n"
			".BR e2fsck (8),\n.BR e2undo (8),\n.BR e2freefrag (8)\n");
}
