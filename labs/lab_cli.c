/* lab_cli.c - `e2layout lab list | show | hint | start | check | validate
 * | reset | class`: the training labs' front door. */
#include "lab.h"
#include "lab_state.h"
#include "help.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct lab_opts {
	const char *answers, *trainee;
	int force, json, yes, seeds;
	char *args[4];
	int nargs;
};

static void list_one(const char *name, struct sink *out)
{
	struct lab lab;

	if (lab_load(name, &lab, out))
		return;
	out_printf(out, "%-10s %s%s\n", lab.name, lab.title,
		   lab.live ? "  [needs a live system: root, a loop mount, "
			      "tracing]" : lab.mount ? "  [needs root and a loop "
			      "mount]" : "");
	lab_free(&lab);
}

/* The labs of $E2LAYOUT_LABS, then the compiled-in ones it does not
 * replace. */
static void lab_list(struct sink *out)
{
	const char *dir = getenv("E2LAYOUT_LABS");
	const struct help_doc *d;
	struct dirent **names = NULL;
	char path[4096], name[64];
	int n = 0, i;
	size_t len;

	if (dir && *dir)
		n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		len = strlen(names[i]->d_name);
		if (len > 4 && len < sizeof(name) + 4 &&
		    !strcmp(names[i]->d_name + len - 4, ".lab")) {
			snprintf(name, sizeof(name), "%.*s", (int)len - 4,
				 names[i]->d_name);
			list_one(name, out);
		}
		free(names[i]);
	}
	free(names);
	for (d = help_docs; d->kind; d++) {
		if (strcmp(d->kind, "labs"))
			continue;
		snprintf(path, sizeof(path), "%s/%s.lab", dir ? dir : "",
			 d->name);
		if (dir && *dir && !access(path, F_OK))
			continue;	/* the trainer's own replaces it */
		list_one(d->name, out);
	}
}

static void lab_usage(struct sink *out)
{
	out_errtext(out, "Usage: e2layout lab [--labs DIR] list\n"
			 "       e2layout lab show NAME [DIR]\n"
			 "       e2layout lab hint NAME [N]\n"
			 "       e2layout lab start NAME [DIR] [--trainee NAME] "
			 "[--force]\n"
			 "       e2layout lab check NAME IMAGE [--answers FILE] "
			 "[--json]\n"
			 "       e2layout lab reset NAME [DIR] [--yes]\n"
			 "       e2layout lab validate FILE|NAME [--seeds N]\n"
			 "       e2layout lab class DIR [--json]\n");
}

static int lab_hint(const struct lab *lab, const char *n, struct sink *out)
{
	const char *h;
	char *end;
	long i;

	if (n) {
		i = strtol(n, &end, 10);
		if (*end || i < 1) {
			out_error(out, "lab", 0, "bad hint number: %s", n);
			return 2;
		}
		h = lab_get(lab, "hint", "", i - 1);
		if (!h) {
			out_error(out, "lab", 0, "lab %s has no hint %ld",
				  lab->name, i);
			return 1;
		}
		out_printf(out, "Hint %ld: %s\n", i, h);
		return 0;
	}
	for (i = 0; (h = lab_get(lab, "hint", "", i)); i++)
		out_printf(out, "Hint %ld: %s\n", i + 1, h);
	return 0;
}

/* lab show NAME [DIR]: the text as the trainee whose scenario of this lab
 * is in DIR (the current directory) sees it: their order of the choices. */
static int lab_show(struct lab *lab, const char *dir, struct strbuf *sb,
		    struct sink *out)
{
	char path[4096];
	struct lab_state st;
	int own = 0;

	snprintf(path, sizeof(path), "%s/%s.state", dir, lab->name);
	if (!lab_state_read(path, &st) && !strcmp(st.lab, lab->name)) {
		lab->seed = st.seed;
		snprintf(lab->trainee, sizeof(lab->trainee), "%s", st.trainee);
		own = 1;
	}
	lab_describe(lab, sb);
	out_printf(out, "%s", sb->buf);
	if (!own && lab_get(lab, "choice", NULL, 0))
		out_printf(out, "\nEach trainee gets the choices in another "
			   "order: lab start prints yours,\nand lab show %s "
			   "DIR shows those of the scenario in DIR.\n",
			   lab->name);
	return 0;
}

/* lab reset: lab start --force for the trainee the state names, after a
 * yes (or --yes). */
static int lab_reset(struct lab *lab, const char *dir, int yes,
		     struct sink *out)
{
	char path[4096], answer[16], *img = NULL;
	struct lab_state st;
	const char *trainee = NULL;
	errcode_t err;

	snprintf(path, sizeof(path), "%s/%s.state", dir, lab->name);
	if (!lab_state_read(path, &st))
		trainee = st.trainee;
	if (!yes) {
		if (!isatty(STDIN_FILENO)) {
			out_error(out, "lab", 0, "lab reset rebuilds %s/%s.img "
				  "and removes its answers and undo files: "
				  "add --yes to do it without a terminal", dir,
				  lab->name);
			return 1;
		}
		out_printf(out, "Rebuild %s/%s.img%s%s, removing its answers, "
			   "state and undo files? [y/N] ", dir, lab->name,
			   trainee ? " for " : "", trainee ? trainee : "");
		if (!fgets(answer, sizeof(answer), stdin) ||
		    (answer[0] != 'y' && answer[0] != 'Y')) {
			out_printf(out, "Nothing changed.\n");
			return 1;
		}
	}
	err = lab_start(lab, dir, trainee, 1, &img, out);
	if (!err)
		out_printf(out, "Scenario rebuilt: %s\n", img);
	free(img);
	return err ? 1 : 0;
}

/* Options anywhere; the rest are positional arguments. */
static int parse(int argc, char **argv, struct lab_opts *o, struct sink *out)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->seeds = 3;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int more = i + 1 < argc;

		if (!strcmp(a, "--answers") && more)
			o->answers = argv[++i];
		else if (!strcmp(a, "--trainee") && more)
			o->trainee = argv[++i];
		else if (!strcmp(a, "--labs") && more)
			setenv("E2LAYOUT_LABS", argv[++i], 1);
		else if (!strcmp(a, "--seeds") && more)
			o->seeds = atoi(argv[++i]);
		else if (!strcmp(a, "--force"))
			o->force = 1;
		else if (!strcmp(a, "--json"))
			o->json = 1;
		else if (!strcmp(a, "--yes") || !strcmp(a, "-y"))
			o->yes = 1;
		else if (a[0] == '-' && a[1] == '-') {
			out_error(out, "lab", 0, "unknown option %s", a);
			return -1;
		} else if (o->nargs < 4)
			o->args[o->nargs++] = argv[i];
		else
			return -1;
	}
	if (o->seeds < 1 || o->seeds > 100) {
		out_error(out, "lab", 0, "--seeds takes 1..100");
		return -1;
	}
	return 0;
}

/* A labs directory (--labs DIR, $E2LAYOUT_LABS) that is not one is an
 * error: going on would give trainees the compiled-in lab in place of the
 * trainer's own of the same name. */
static int labs_dir_bad(struct sink *out)
{
	const char *dir = getenv("E2LAYOUT_LABS");
	struct stat sb;

	if (!dir || !*dir)
		return 0;
	if (stat(dir, &sb)) {
		out_error(out, "lab", errno, "while opening the labs directory %s "
			  "(--labs, $E2LAYOUT_LABS)", dir);
		return 1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		out_error(out, "lab", 0, "the labs directory %s (--labs, "
			  "$E2LAYOUT_LABS) is not a directory", dir);
		return 1;
	}
	return 0;
}

int lab_cli(int argc, char **argv, struct sink *out, int interactive,
	    char **tui_image, char **tui_text)
{
	struct strbuf sb = {0};
	struct lab_opts o;
	const char *cmd;
	char *img = NULL;
	struct lab lab;
	errcode_t err;
	int rc = 2;

	*tui_image = *tui_text = NULL;
	if (parse(argc, argv, &o, out)) {
		lab_usage(out);
		return 2;
	}
	if (labs_dir_bad(out))
		return 2;
	cmd = o.nargs ? o.args[0] : "";
	if (o.nargs == 1 && !strcmp(cmd, "list")) {
		lab_list(out);
		return 0;
	}
	if (o.nargs == 2 && !strcmp(cmd, "class"))
		return lab_class(o.args[1], o.json, out);
	if (o.nargs < 2 || o.nargs > 3 || (strcmp(cmd, "show") &&
	    strcmp(cmd, "hint") && strcmp(cmd, "check") &&
	    strcmp(cmd, "start") && strcmp(cmd, "reset") &&
	    strcmp(cmd, "validate"))) {
		lab_usage(out);
		return 2;
	}
	if (!strcmp(cmd, "validate") && strchr(o.args[1], '/'))
		err = lab_load_file(o.args[1], &lab, out);
	else
		err = lab_load(o.args[1], &lab, out);
	if (err == ENOENT) {
		out_error(out, "lab", 0, "no lab named %s (e2layout lab list "
			  "shows them)", o.args[1]);
		return 2;
	}
	if (err) {
		if (err != EXT2_ET_INVALID_ARGUMENT)
			out_error(out, "lab", err, "while loading %s",
				  o.args[1]);
		return 1;
	}
	if (!strcmp(cmd, "show")) {
		rc = lab_show(&lab, o.nargs == 3 ? o.args[2] : ".", &sb, out);
	} else if (!strcmp(cmd, "hint")) {
		rc = lab_hint(&lab, o.nargs == 3 ? o.args[2] : NULL, out);
	} else if (!strcmp(cmd, "check") && o.nargs == 3) {
		rc = lab_check(&lab, o.args[2], o.answers, o.json, out);
	} else if (!strcmp(cmd, "validate") && o.nargs == 2) {
		rc = lab_validate(&lab, o.seeds, out);
	} else if (!strcmp(cmd, "reset")) {
		rc = lab_reset(&lab, o.nargs == 3 ? o.args[2] : ".", o.yes,
			       out);
	} else if (!strcmp(cmd, "start")) {
		err = lab_start(&lab, o.nargs == 3 ? o.args[2] : ".",
				o.trainee, o.force, &img, out);
		if (err) {
			rc = 1;
			goto out;
		}
		lab_describe(&lab, &sb);
		if (interactive) {
			/* The scenario is a scratch image: the TUI may change
			 * it (a live lab's image gets mounted: read-only). */
			rc = lab.live ? -1 : -2;
			*tui_image = img;
			*tui_text = sb.buf;
			lab_free(&lab);
			return rc;
		}
		out_printf(out, "Scenario written to %s for %s\n\n%s", img,
			   lab.trainee, sb.buf);
		rc = 0;
	} else {
		lab_usage(out);
	}
out:
	free(img);
	strbuf_free(&sb);
	lab_free(&lab);
	return rc;
}
