/* live_defrag_preview.c - `frag --donors` on a mounted filesystem: for the
 * worst files (by FIEMAP), what a live defrag would reach, each donor made
 * by the kernel, measured and given back at once. */
#include "live_defrag.h"

#include <errno.h>
#include <stdlib.h>

int ldf_preview(struct session *s, size_t top)
{
	struct ldf_plan *p = calloc(1, sizeof(*p));
	char **paths = NULL;
	size_t n = 0, i;
	errcode_t err;
	int rc = 1;

	if (!p)
		return 1;
	p->blocksize = s->fs->blocksize;
	if (ldf_fs_ok(s, "frag"))
		goto out;
	err = ldf_worst(s, top > LDF_MAX_FILES ? LDF_MAX_FILES : top, &paths,
			&n);
	if (err) {
		out_error(s->out, "frag", err, "while looking for the most "
			  "fragmented files of %s", s->live->mnt);
		goto out;
	}
	for (i = 0; i < n; i++)
		if (ldf_plan_add(s, p, paths[i]))
			goto out;
	if (sink_is_json(s->out))
		json_arr_begin(s->out, "donors");
	else
		out_printf(s->out, "\nLive defrag preview of %s (each donor "
			   "allocated by the kernel, measured, given back):\n"
			   "%8s %6s %8s  %s\n", s->live->mnt, "Extents",
			   "Runs", "Donor", "Path");
	for (i = 0; i < p->n; i++) {
		const struct ldf_file *f = &p->f[i];

		if (sink_is_json(s->out)) {
			json_obj_begin(s->out, NULL);
			json_str(s->out, "path", f->path);
			json_u64(s->out, "extents", f->nbefore);
			json_u64(s->out, "runs", f->runs_before);
			if (f->nafter) {
				json_u64(s->out, "donor_extents", f->nafter);
				json_u64(s->out, "donor_runs", f->runs_after);
				json_u64(s->out, "donor_group",
					 f->after_group);
			}
			json_bool(s->out, "would_move", !f->dropped);
			if (f->dropped)
				json_str(s->out, "why", f->why);
			json_obj_end(s->out);
			continue;
		}
		out_printf(s->out, "%8zu %6zu ", f->nbefore, f->runs_before);
		if (f->nafter)
			out_printf(s->out, "%8zu  ", f->runs_after);
		else
			out_printf(s->out, "%8s  ", "-");
		out_printf(s->out, "%s%s%s%s\n", f->path, f->dropped ?
			   " (left alone: " : "", f->dropped ? f->why : "",
			   f->dropped ? ")" : "");
	}
	if (sink_is_json(s->out))
		json_arr_end(s->out);
	else if (!p->n)
		out_printf(s->out, "  (no file has more extents than its size "
			   "needs)\n");
	rc = 0;
out:
	ldf_paths_free(paths, n);
	ldf_plan_free(p);
	return rc;
}
