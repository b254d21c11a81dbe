// SPDX-License-Identifier: GPL-2.0
/*
 * Stack watch snapshots (Documentation/stacks.rst, "Stack watches"). A
 * snapshot is k consecutive rows with delta -2, the same entry and pid.cpu;
 * the first ends in a column left=N (after the comm). Row 0's FUNCTION is the
 * traced function being entered and its CALLER the call site in its caller;
 * each next row's FUNCTION is the next return address up the stack, its CALLER
 * the one after it (0 for the last). So the frames, innermost first, are the
 * FUNCTION column; a CALLER that is not the next row's FUNCTION (a last row's
 * that is not 0) is a frame of its own too, so that no return address the log
 * holds is lost. A -2 row without left= that continues no snapshot starts one
 * whose bytes left are unknown.
 *
 * A wake set (-3 rows, wakers) is kept the same way: the waker's stack at
 * the wakeup of a task that slept, its FUNCTION column innermost first
 * (its CALLER is zeros), shown where the task slept. A -3 row that
 * continues no set is dropped: the set's first row, the one that names
 * the waker, is what the frames are of.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kd.h"
#include "symbolize.h"

/* "0", "0x0", "0000000000000000": no address (the end of a stack). */
static int kd_is_zero(const char *word)
{
	if (word[0] == '0' && (word[1] == 'x' || word[1] == 'X'))
		word += 2;
	if (!*word)
		return 0;
	return word[strspn(word, "0")] == '\0';
}

static int kd_frame_add(struct kd_tree *t, size_t *cap, const char *word,
			const struct ksyms *ks)
{
	char buf[KSYMS_FORMAT_MAX];
	const char *sym = ks ? symbolize_word(ks, word, buf, sizeof(buf)) : NULL;
	const char *s = sym ? sym : word;

	if (t->nr_frames == *cap) {
		size_t n = *cap ? *cap * 2 : 256;
		const char **more = realloc(t->frames, n * sizeof(*more));

		if (!more)
			return -1;
		t->frames = more;
		*cap = n;
	}
	/* A raw address as it is: the log's own string. */
	t->frames[t->nr_frames] = sym ? strtab__intern(&t->names, s, strlen(s)) : word;
	return t->frames[t->nr_frames++] ? 0 : -1;
}

/* The frames of s, from its rows. */
static int kd_snapshot_frames(struct kd_tree *t, struct kd_snapshot *s, size_t *cap,
			      const struct ksyms *ks)
{
	const struct kftlog_row *r = s->row;
	size_t i;

	s->first = t->nr_frames;
	for (i = 0; i < s->rows; i++) {
		const char *caller = r[i].caller;

		if (kd_frame_add(t, cap, r[i].func, ks))
			return -1;
		if (!kd_is_zero(caller) && (i + 1 == s->rows || strcmp(caller, r[i + 1].func)) &&
		    kd_frame_add(t, cap, caller, ks))
			return -1;
	}
	s->nr = t->nr_frames - s->first;
	s->function = strtab__intern(&t->names, t->frames[s->first],
				     kd_function_len(t->frames[s->first]));
	return s->function ? 0 : -1;
}

static int kd_snapshot_new(struct kd_tree *t, size_t *cap, const struct kftlog_row *r,
			   long before)
{
	if (t->nr_snaps == *cap) {
		size_t n = *cap ? *cap * 2 : 64;
		struct kd_snapshot *more = realloc(t->snaps, n * sizeof(*more));

		if (!more)
			return -1;
		t->snaps = more;
		*cap = n;
	}
	t->snaps[t->nr_snaps++] = (struct kd_snapshot){
		.row = r, .rows = 1, .thread = kd_thread_of(r), .before = before,
		.thread_first = -1, .parent = -1,
	};
	return 0;
}

int kd_snapshots_collect(struct kd_tree *t, const struct kftlog *log, const struct ksyms *ks)
{
	size_t i, cap = 0, frames_cap = 0;
	long calls = 0;
	int in_snapshot = 0;

	for (i = 0; i < log->nr; i++) {
		const struct kftlog_row *r = &log->rows[i];

		if (r->delta != KFTLOG_DELTA_STACK && r->delta != KFTLOG_DELTA_WAKE) {
			calls++;
			in_snapshot = 0;
		} else if (in_snapshot && kftlog_row_continues(t->snaps[t->nr_snaps - 1].row, r)) {
			t->snaps[t->nr_snaps - 1].rows++;
		} else if (r->delta == KFTLOG_DELTA_WAKE && !kftlog_row_starts_wake(r)) {
			in_snapshot = 0;
		} else {
			if (kd_snapshot_new(t, &cap, r, calls))
				return -1;
			in_snapshot = 1;
		}
	}
	for (i = 0; i < t->nr_snaps; i++)
		if (kd_snapshot_frames(t, &t->snaps[i], &frames_cap, ks))
			return -1;
	return 0;
}
