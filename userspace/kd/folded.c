// SPDX-License-Identifier: GPL-2.0
/*
 * kd --folded: flame-graph input (flamegraph.pl, speedscope, inferno, kd
 * --flamegraph). One line per distinct stack, root first, ';'-separated,
 * then its weight, sorted by stack:
 *   - a trace log: the calls, each weighing its local time (us);
 *   - with --snapshots: the stack watch snapshots instead, each weighing 1,
 *     its frames' functions outermost first. Not both at once: a weight in
 *     microseconds and one in snapshots do not add up;
 *   - a stacks- or profile-mode log: its counted stacks (stackfold.c).
 * kd --flamegraph draws the same stacks. Folded as they come (folds.c): memory
 * grows with the distinct stacks, not with the calls. No line is deeper
 * than kd --flamegraph takes (FLAME_MAX_DEPTH frames): the deeper calls
 * are folded into a last frame, "[deeper]", with their weight.
 */
#include <stdlib.h>
#include <string.h>

#include "kd.h"

/*
 * Each call's frame: its function's under its parent's frame; a call's
 * parent comes before it in the log (kd_tree_build()), so its frame is
 * known. Open calls (no duration) weigh nothing, but their callees are
 * under them.
 */
static int kd_fold_calls(struct kd_folds *f, const struct kd_tree *t)
{
	unsigned int *frame = malloc((t->nr ? t->nr : 1) * sizeof(*frame));
	size_t i;
	long fr;

	if (!frame)
		return -1;
	for (i = 0; i < t->nr; i++) {
		const struct kd_call *c = &t->calls[i];

		fr = kd_folds_frame(f, c->parent < 0 ? 0 : frame[c->parent], c->name,
				    strlen(c->name));
		if (fr < 0)
			break;
		frame[i] = (unsigned int)fr;
		if (c->row->delta >= 0)
			kd_folds_add(f, frame[i], c->row->delta > c->sub ? c->row->delta - c->sub : 0);
	}
	free(frame);
	return i < t->nr ? -1 : 0;
}

/*
 * Each stack snapshot: its frames' functions, outermost first, weighing 1.
 * A wake set's frames are another task's stack: not folded.
 */
static int kd_fold_snapshots(struct kd_folds *f, const struct kd_tree *t)
{
	size_t i, k;
	long fr;

	for (i = 0; i < t->nr_snaps; i++) {
		const struct kd_snapshot *s = &t->snaps[i];

		if (kd_snapshot_is_wake(s))
			continue;
		for (k = s->nr, fr = 0; k > 0 && fr >= 0; k--) {
			const char *frame = t->frames[s->first + k - 1];

			fr = kd_folds_frame(f, (unsigned int)fr, frame, kd_function_len(frame));
		}
		if (fr < 0)
			return -1;
		kd_folds_add(f, (unsigned int)fr, 1);
	}
	return 0;
}

int kd_fold_tree(struct kd_folds *f, const struct kd_tree *t, const struct kd_params *p)
{
	return p->snapshots ? kd_fold_snapshots(f, t) : kd_fold_calls(f, t);
}

int kd_folded(FILE *out, const struct kd_tree *t, const struct kd_params *p)
{
	struct kd_folds f;
	int ret = kd_folds_init(&f) ? -1 : kd_fold_tree(&f, t, p);

	if (!ret)
		ret = kd_folds_print(out, &f);
	kd_folds_free(&f);
	return ret;
}

int kd_flamegraph(FILE *out, const struct kd_tree *t, const struct kd_params *p)
{
	struct kd_folds f;
	int ret = kd_folds_init(&f) ? -1 : kd_fold_tree(&f, t, p);

	if (!ret)
		ret = kd_folds_draw(out, &f, p->snapshots ? "snapshots" : kd_unit(t), p);
	kd_folds_free(&f);
	return ret;
}
