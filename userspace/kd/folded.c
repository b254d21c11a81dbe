// SPDX-License-Identifier: GPL-2.0
/*
 * kd --folded: flame-graph input (flamegraph.pl, speedscope, inferno, kd
 * --flamegraph). One line per distinct stack, root first, ';'-separated,
 * then its weight, sorted by stack:
 *   - a trace log: the calls, each weighing its local time (us); with
 *     --weigh (a log with offcpu's times), that time split (weigh.c):
 *     wall, its on-CPU part on the call's frame and its runnable and
 *     blocked parts on frames of their own under it, "[runnable]" and
 *     "[blocked]"; oncpu, the on-CPU part alone; offcpu, the two others;
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

/* Weight on a frame of its own under a call's frame, when there is any. */
static int kd_fold_part(struct kd_folds *f, unsigned int call, const char *name,
			long long weight)
{
	long fr;

	if (!weight)
		return 0;
	fr = kd_folds_frame(f, call, name, strlen(name));
	if (fr < 0)
		return -1;
	kd_folds_add(f, (unsigned int)fr, weight);
	return 0;
}

/* A call's local time as --weigh w splits it, on its frame and those under it. */
static int kd_fold_weighed(struct kd_folds *f, unsigned int frame, const struct kd_call *c,
			   const struct kd_sched_times *callees, enum kd_weigh w)
{
	struct kd_local_times l = kd_local_times(c, callees);

	if (w != KD_WEIGH_OFFCPU)
		kd_folds_add(f, frame, l.oncpu);
	if (w == KD_WEIGH_ONCPU)
		return 0;
	return kd_fold_part(f, frame, KD_FOLDS_RUNNABLE, l.runnable) ||
	       kd_fold_part(f, frame, KD_FOLDS_BLOCKED, l.blocked) ? -1 : 0;
}

/*
 * Each call's frame: its function's under its parent's frame; a call's
 * parent comes before it in the log (kd_tree_build()), so its frame is
 * known. Open calls (no duration) weigh nothing, but their callees are
 * under them.
 */
static int kd_fold_calls(struct kd_folds *f, const struct kd_tree *t, enum kd_weigh w)
{
	unsigned int *frame = malloc((t->nr ? t->nr : 1) * sizeof(*frame));
	struct kd_sched_times *callees = w ? kd_callees_times(t) : NULL;
	int ret = frame && (!w || callees) ? 0 : -1;
	size_t i;
	long fr;

	for (i = 0; !ret && i < t->nr; i++) {
		const struct kd_call *c = &t->calls[i];

		fr = kd_folds_frame(f, c->parent < 0 ? 0 : frame[c->parent], c->name,
				    strlen(c->name));
		if (fr < 0) {
			ret = -1;
			break;
		}
		frame[i] = (unsigned int)fr;
		if (c->row->delta < 0)
			continue;
		if (!w)
			kd_folds_add(f, frame[i], c->row->delta > c->sub ? c->row->delta - c->sub : 0);
		else
			ret = kd_fold_weighed(f, frame[i], c, &callees[i], w);
	}
	free(callees);
	free(frame);
	return ret;
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
	return p->snapshots ? kd_fold_snapshots(f, t) : kd_fold_calls(f, t, p->weigh);
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
