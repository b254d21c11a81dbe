// SPDX-License-Identifier: GPL-2.0
/*
 * kd -c: one line per call, indented by depth with "|  ". Columns by -f
 * letters (e entry, t duration, l local, p pid), -l for all four.
 * Without -i, thread by thread (in order of first appearance); with -i, all
 * calls by entry time, each tree made in interrupt context framed by
 * "!!!! start" and "!!!! end" lines, and each tree's lines marked with its
 * own character.
 */
#include <stdlib.h>
#include <string.h>

#include "kd.h"

static const char kd_markers[] = "*+#@%&=~";

static void kd_tree_header(FILE *out, const char *fields)
{
	const char *f;

	for (f = fields; *f; f++) {
		switch (*f) {
		case 'e': fputs(" Entry     ", out); break;
		case 't': fputs(" Duration  ", out); break;
		case 'l': fputs(" Local     ", out); break;
		case 'p': fputs("     Pid ", out); break;
		}
	}
	fputs("Trace\n", out);
	for (f = fields; *f; f++)
		fputs(*f == 'p' ? "-------- " : strchr("etl", *f) ? "---------- " : "", out);
	fputs("---------------------------------\n", out);
}

static void kd_line(FILE *out, const struct kd_call *c, const char *fields,
		    int width, char marker)
{
	const char *f;
	int d;

	for (f = fields; *f; f++) {
		switch (*f) {
		case 'e':
			fprintf(out, "%10lld ", c->row->entry);
			break;
		case 't':
			fprintf(out, "%10lld ", c->row->delta);
			break;
		case 'l':
			if (c->row->delta < 0)
				fprintf(out, "%10s ", "-");
			else
				fprintf(out, "%10lld ",
					c->row->delta > c->sub ? c->row->delta - c->sub : 0);
			break;
		case 'p':
			if (c->row->cpu >= 0)
				fprintf(out, "%6d.%d ", c->row->pid, c->row->cpu);
			else
				fprintf(out, "%8d ", c->row->pid);
			break;
		}
	}
	if (marker)
		fprintf(out, "%c ", marker);
	for (d = 0; d < c->depth; d++)
		fputs("|  ", out);
	fprintf(out, "%.*s\n", width, c->name);
}

/*
 * Each call's tree (its root's index): parents come before their children
 * in the log, so one pass does it.
 */
static long *kd_roots(const struct kd_tree *t)
{
	long *root = malloc((t->nr ? t->nr : 1) * sizeof(*root));
	size_t i;

	for (i = 0; root && i < t->nr; i++)
		root[i] = t->calls[i].parent < 0 ? (long)i : root[t->calls[i].parent];
	return root;
}

/* One past the last call of the tree of root r. */
static size_t kd_tree_end(const struct kd_tree *t, const long *root, size_t r)
{
	size_t i, end = r + 1;

	for (i = r + 1; i < t->nr; i++)
		if (root[i] == (long)r)
			end = i + 1;
	return end;
}

static int kd_interlaced(FILE *out, const struct kd_tree *t, const struct kd_params *p,
			 const char *fields)
{
	long *root = kd_roots(t);
	char *marker = malloc(t->nr ? t->nr : 1);
	size_t i, roots = 0, irq_end = 0;
	int in_irq = 0;

	if (!root || !marker) {
		free(root);
		free(marker);
		return -1;
	}
	for (i = 0; i < t->nr; i++) {
		const struct kd_call *c = &t->calls[i];

		if (in_irq && i >= irq_end) {
			fputs("----------- !!!! end ----------------\n", out);
			in_irq = 0;
		}
		if (c->depth == 0) {
			marker[i] = kd_markers[roots++ % (sizeof(kd_markers) - 1)];
			if (c->thread < -1 && !in_irq) {
				fputs("----------- !!!! start --------------\n", out);
				in_irq = 1;
				irq_end = kd_tree_end(t, root, i);
			}
		}
		if (c->depth < p->max_depth)
			kd_line(out, c, fields, p->name_width, marker[root[i]]);
	}
	if (in_irq)
		fputs("----------- !!!! end ----------------\n", out);
	free(root);
	free(marker);
	return 0;
}

static const struct kd_tree *kd_sorting;

static int kd_cmp_thread_order(const void *a, const void *b)
{
	const struct kd_call *x = &kd_sorting->calls[*(const size_t *)a];
	const struct kd_call *y = &kd_sorting->calls[*(const size_t *)b];

	if (x->thread_first != y->thread_first)
		return x->thread_first < y->thread_first ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Call indexes grouped by thread (threads by first call), each in order. */
static size_t *kd_thread_order(const struct kd_tree *t)
{
	size_t *order = malloc((t->nr ? t->nr : 1) * sizeof(*order));
	size_t i;

	if (!order)
		return NULL;
	for (i = 0; i < t->nr; i++)
		order[i] = i;
	kd_sorting = t;
	qsort(order, t->nr, sizeof(*order), kd_cmp_thread_order);
	return order;
}

int kd_calltree(FILE *out, const struct kd_tree *t, const struct kd_params *p)
{
	const char *fields = p->fields ? p->fields : p->long_fields ? "etlp" : "";
	size_t *order, i;

	kd_tree_header(out, fields);
	if (p->interlace)
		return kd_interlaced(out, t, p, fields);
	/* Thread by thread, in order of first appearance. */
	order = kd_thread_order(t);
	if (!order)
		return -1;
	for (i = 0; i < t->nr; i++)
		if (t->calls[order[i]].depth < p->max_depth)
			kd_line(out, &t->calls[order[i]], fields, p->name_width, 0);
	free(order);
	return 0;
}
