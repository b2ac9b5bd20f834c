/* help_man.c - the e2layout(1) manual page, generated from the command table
 * and help/ so that it never drifts from what the program does. */
#include "cmd.h"
#include "help.h"

#include <string.h>

/* Writes text with roff's special characters escaped. */
static void roff_text(struct sink *out, const char *t)
{
	int bol = 1;

	for (; *t; t++) {
		if (bol && (*t == '.' || *t == '\''))
			out_printf(out, "\\&");
		if (*t == '\\')
			out_printf(out, "\\e");
		else if (*t == '-')
			out_printf(out, "\\-");
		else
			out_printf(out, "%c", *t);
		bol = *t == '\n';
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
			"\\fIPATH\\fR\n");
	doc = help_find("topics", "e2layout");
	if (doc) {
		out_printf(out, ".SH DESCRIPTION\n");
		roff_text(out, doc);
	}
	out_printf(out, ".SH REQUESTS\n");
	for (c = cmd_table; *c; c++) {
		out_printf(out, ".TP\n.B ");
		roff_text(out, (*c)->synopsis);
		out_printf(out, "\n");
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
		if (strcmp(d->kind, "topics") || !strcmp(d->name, "e2layout"))
			continue;
		out_printf(out, ".SS %s\n.nf\n", d->name);
		roff_text(out, d->text);
		out_printf(out, ".fi\n");
	}
	out_printf(out, ".SH EXIT STATUS\n0 when every request succeeded, 1 "
			"when one failed, 2 for a usage error, 3 when the "
			"device could not be opened.\n"
			".SH SEE ALSO\n.BR debugfs (8),\n.BR dumpe2fs (8),\n"
			".BR e2fsck (8),\n.BR e2undo (8),\n.BR e2freefrag (8)\n");
}
