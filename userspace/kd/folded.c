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
 * kd --flamegraph draws the same stacks.
 */
#include <stdlib.h>
#include <string.h>

#include "kd.h"

/* Call i's stack: its ancestors' names, root first, then its own. */
static int kd_fold_call(struct kd_foldbuf *b, const struct kd_tree *t, size_t i)
{
	const char **path = malloc((t->calls[i].depth + 1) * sizeof(*path));
	size_t n = 0, k;
	long c;
	int ret = 0;

	if (!path)
		return -1;
	for (c = (long)i; c >= 0 && n <= (size_t)t->calls[i].depth; c = t->calls[c].parent)
		path[n++] = t->calls[c].name;
	for (k = n; k > 0 && !ret; k--)
		ret = kd_foldbuf_push(b, path[k - 1], strlen(path[k - 1]));
	free(path);
	return ret;
}

static int kd_fold_calls(struct kd_folds *f, struct kd_foldbuf *b, const struct kd_tree *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		const struct kd_call *c = &t->calls[i];

		if (c->row->delta < 0)
			continue;
		if (kd_fold_call(b, t, i) ||
		    kd_folds_add(f, b, c->row->delta > c->sub ? c->row->delta - c->sub : 0))
			return -1;
	}
	return 0;
}

/* Each snapshot: its frames' functions, outermost first, weighing 1. */
static int kd_fold_snapshots(struct kd_folds *f, struct kd_foldbuf *b, const struct kd_tree *t)
{
	size_t i, k;

	for (i = 0; i < t->nr_snaps; i++) {
		const struct kd_snapshot *s = &t->snaps[i];

		for (k = s->nr; k > 0; k--) {
			const char *frame = t->frames[s->first + k - 1];

			if (kd_foldbuf_push(b, frame, kd_function_len(frame)))
				return -1;
		}
		if (kd_folds_add(f, b, 1))
			return -1;
	}
	return 0;
}

int kd_fold_tree(struct kd_folds *f, const struct kd_tree *t, const struct kd_params *p)
{
	struct kd_foldbuf b = { 0 };
	int ret = p->snapshots ? kd_fold_snapshots(f, &b, t) : kd_fold_calls(f, &b, t);

	free(b.s);
	if (!ret)
		kd_folds_merge(f);
	return ret;
}

int kd_folded(FILE *out, const struct kd_tree *t, const struct kd_params *p)
{
	struct kd_folds f = { 0 };
	int ret = kd_fold_tree(&f, t, p);

	if (!ret)
		kd_folds_print(out, &f);
	kd_folds_free(&f);
	return ret;
}

int kd_flamegraph(FILE *out, const struct kd_tree *t, const struct kd_params *p)
{
	struct kd_folds f = { 0 };
	int ret = kd_fold_tree(&f, t, p);

	if (!ret)
		ret = kd_folds_draw(out, &f, p->snapshots ? "snapshots" : kd_unit(t), p);
	kd_folds_free(&f);
	return ret;
}
