// SPDX-License-Identifier: GPL-2.0
/*
 * kd --folded: flame-graph input (flamegraph.pl, speedscope, inferno).
 * One line per distinct stack, root first, ';'-separated, then its weight:
 * the local time (us) of the calls with that stack. Sorted by stack.
 */
#include <stdlib.h>
#include <string.h>

#include "kd.h"

struct kd_stackline {
	char *stack;
	long long weight;
};

static int kd_cmp_stack(const void *a, const void *b)
{
	return strcmp(((const struct kd_stackline *)a)->stack,
		      ((const struct kd_stackline *)b)->stack);
}

/* "root;...;name" for call i. */
static char *kd_stack_of(const struct kd_tree *t, size_t i)
{
	const char **path = malloc((t->calls[i].depth + 1) * sizeof(*path));
	size_t len = 1, n = 0, at = 0, k;
	char *s = NULL;
	long c;

	if (!path)
		return NULL;
	for (c = (long)i; c >= 0 && n <= (size_t)t->calls[i].depth; c = t->calls[c].parent) {
		path[n++] = t->calls[c].name;
		len += strlen(t->calls[c].name) + 1;
	}
	s = malloc(len);
	for (k = n; s && k > 0; k--) {
		size_t w = strlen(path[k - 1]);

		memcpy(s + at, path[k - 1], w);
		at += w;
		if (k > 1)
			s[at++] = ';';
	}
	if (s)
		s[at] = '\0';
	free(path);
	return s;
}

int kd_folded(FILE *out, const struct kd_tree *t)
{
	struct kd_stackline *lines = calloc(t->nr ? t->nr : 1, sizeof(*lines));
	size_t i, n = 0, k;
	int ret = -1;

	if (!lines)
		return -1;
	for (i = 0; i < t->nr; i++) {
		const struct kd_call *c = &t->calls[i];

		if (c->row->delta < 0)
			continue;
		lines[n].stack = kd_stack_of(t, i);
		if (!lines[n].stack)
			goto out;
		lines[n++].weight = c->row->delta > c->sub ? c->row->delta - c->sub : 0;
	}
	qsort(lines, n, sizeof(*lines), kd_cmp_stack);
	for (i = 0; i < n; i = k) {
		long long w = 0;

		for (k = i; k < n && !strcmp(lines[k].stack, lines[i].stack); k++)
			w = kd_time_add(w, lines[k].weight);
		fprintf(out, "%s %lld\n", lines[i].stack, w);
	}
	ret = 0;
out:
	for (i = 0; i < n; i++)
		free(lines[i].stack);
	free(lines);
	return ret;
}
