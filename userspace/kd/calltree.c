// SPDX-License-Identifier: GPL-2.0
/*
 * kd -c: one line per call, indented by depth with "|  ". Columns by -f
 * letters (e entry, t duration, l local, p pid; o on the CPU, q runnable,
 * b blocked, of a log with offcpu's times, "-" for a call without; r: every
 * return value), -l for the first five.
 * Without -i, thread by thread (in order of first appearance); with -i, all
 * calls by entry time, each tree made in interrupt context framed by
 * "!!!! start" and "!!!! end" lines, and each tree's lines marked with its
 * own character.
 * A call whose row has its arguments (a log of a run with args) shows them
 * after its name, "vfs_read(0xffff888003e1c000, 0x7ffd5c3b1e40, 0x1000,
 * 0x7ffd5c3b1e38, 0x0, 0x0)", as the log has them (the registers: all of
 * them, whatever the function takes). With --types, typed:
 * "do_sys_openat2(dfd=-100, filename=0x7ffd5c3b1e40, how=0xffffc90000b2fe40)
 * = 3", each value as its parameter's type says, the return value as the
 * function's (a void function has none; a row without arguments shows
 * its name and its return value so typed).
 * A call that returned an error (the log's RETURN column) ends its line
 * with " = -22 EINVAL"; with r among the letters, every call with a return
 * value ends with it, " = 0x0" (a void function's is whatever its return
 * register last held: only errors are shown by default).
 * With --srcline, a call's line ends with its function's source line in
 * brackets and its caller's frames after "<-", innermost first:
 * "leaf = -2 ENOENT  [fs/namei.c:210] <- helper fs/open.c:30 <- middle
 * fs/open.c:41" (helper inlined into middle, which called leaf).
 * A stack watch snapshot is no call: a head line "== stack snapshot, N
 * bytes left ==" at its time and depth, then its frames, innermost first,
 * "#0 leaf", "#1 middle+0x8"...; it comes just before the call of its traced
 * function when the log has that call. A wake set likewise, where its task
 * slept (inside the innermost call open when it was switched out): "==
 * woken by kworker/1:2 (pid 44), slept 700 us ==" ("by an interrupt"
 * where the waker was one), then the waker's frames.
 */
#include <stdlib.h>
#include <string.h>

#include "kd.h"
#include "kftrow.h"
#include "typedlog.h"

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
		case 'o': fputs(" On-CPU    ", out); break;
		case 'q': fputs(" Runnable  ", out); break;
		case 'b': fputs(" Blocked   ", out); break;
		}
	}
	fputs("Trace\n", out);
	for (f = fields; *f; f++)
		fputs(*f == 'p' ? "-------- " : strchr("etloqb", *f) ? "---------- " : "", out);
	fputs("---------------------------------\n", out);
}

/*
 * The columns of a row: a call's (c), a snapshot's head (c NULL: no
 * duration), or none but blanks (r NULL: a snapshot's frame lines).
 */
static void kd_cells(FILE *out, const struct kftlog_row *r, const struct kd_call *c,
		     const char *fields)
{
	const char *f;

	for (f = fields; *f; f++) {
		if (!r) {
			fputs(*f == 'p' ? "         " : strchr("etloqb", *f) ? "           " : "",
			      out);
			continue;
		}
		switch (*f) {
		case 'e':
			fprintf(out, "%10lld ", r->entry);
			break;
		case 't':
			if (c)
				fprintf(out, "%10lld ", r->delta);
			else
				fprintf(out, "%10s ", "-");
			break;
		case 'l':
			if (!c || r->delta < 0)
				fprintf(out, "%10s ", "-");
			else
				fprintf(out, "%10lld ", r->delta > c->sub ? r->delta - c->sub : 0);
			break;
		case 'p':
			if (r->cpu >= 0)
				fprintf(out, "%6d.%d ", r->pid, r->cpu);
			else
				fprintf(out, "%8d ", r->pid);
			break;
		case 'o':
		case 'q':
		case 'b':
			if (c && r->has_sched)
				fprintf(out, "%10lld ", *f == 'o' ? r->oncpu :
					*f == 'q' ? r->runnable : r->blocked);
			else
				fprintf(out, "%10s ", "-");
			break;
		}
	}
}

static void kd_indent(FILE *out, char marker, int depth)
{
	int d;

	if (marker)
		fprintf(out, "%c ", marker);
	for (d = 0; d < depth; d++)
		fputs("|  ", out);
}

/*
 * A call's arguments (args), as the log has them: "(0x1, -22, hidden)",
 * a string it kept in place of its pointer.
 */
static void kd_args(FILE *out, const struct kftlog_row *row)
{
	char text[KD_TYPED_MAX];

	kftrow__args_text(row, text, sizeof(text));
	fputs(text, out);
}

/*
 * --types: a call with its arguments printed as its function's types say
 * (typedlog.h), its return value too (none for a void function); a
 * function no source knows, in hex, its return value as without --types.
 */
static void kd_typed(FILE *out, const struct kd_tree *t, const struct kd_call *c,
		     const char *fields, int width)
{
	char shown[KD_TYPED_MAX], text[KD_TYPED_MAX];

	snprintf(shown, sizeof(shown), "%.*s", width, c->name);
	typedlog__format(t->types, c->name, shown, c->row, strchr(fields, 'r') != NULL, text,
			 sizeof(text));
	fputs(text, out);
}

static void kd_line(FILE *out, const struct kd_tree *t, const struct kd_call *c,
		    const char *fields, int width, char marker)
{
	char ret[48];

	kd_cells(out, c->row, c, fields);
	kd_indent(out, marker, c->depth);
	if (t->types) {
		kd_typed(out, t, c, fields, width);
	} else {
		fprintf(out, "%.*s", width, c->name);
		if (*c->row->args)
			kd_args(out, c->row);
		if ((c->row->ret == KFTLOG_RET_ERROR || strchr(fields, 'r')) &&
		    *kd_retval(c->row, ret, sizeof(ret)))
			fprintf(out, " = %s", ret);
	}
	if (c->row->cut)
		fputs(" (cut: its calls did not all fit)", out);
	if (c->src)
		fprintf(out, "  [%s] <- %s", c->src, c->caller_src);
	fputc('\n', out);
}

/* A snapshot's head: its bytes left, or a wake set's waker and time asleep. */
static void kd_snapshot_head(FILE *out, const struct kd_tree *t, const struct kd_snapshot *s)
{
	const struct kftlog_row *r = s->row;

	if (kd_snapshot_is_wake(s) && r->waker_pid < 0)
		fprintf(out, "== woken by an interrupt, slept %lld %s ==\n", r->slept, kd_unit(t));
	else if (kd_snapshot_is_wake(s))
		fprintf(out, "== woken by %s (pid %d), slept %lld %s ==\n", r->waker_comm,
			r->waker_pid, r->slept, kd_unit(t));
	else if (r->left >= 0)
		fprintf(out, "== stack snapshot, %lld bytes left ==\n", r->left);
	else
		fputs("== stack snapshot ==\n", out);
}

static void kd_snapshot_lines(FILE *out, const struct kd_tree *t, const struct kd_snapshot *s,
			      const char *fields, int width, char marker)
{
	size_t k;

	kd_cells(out, s->row, NULL, fields);
	kd_indent(out, marker, s->depth);
	kd_snapshot_head(out, t, s);
	for (k = 0; k < s->nr; k++) {
		kd_cells(out, NULL, NULL, fields);
		kd_indent(out, marker, s->depth);
		fprintf(out, "#%zu %.*s\n", k, width, t->frames[s->first + k]);
	}
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

/*
 * One past the last call of each tree, at its root's index, in one pass:
 * a search from each root to the end of the log cost the log's length
 * for each interrupt.
 */
static size_t *kd_tree_ends(const struct kd_tree *t, const long *root)
{
	size_t *end = malloc((t->nr ? t->nr : 1) * sizeof(*end));
	size_t i;

	for (i = 0; end && i < t->nr; i++)
		end[root[i]] = i + 1;
	return end;
}

/* -i's state: each call's tree (its root), each tree's end and marker. */
struct kd_interlace {
	const struct kd_tree *t;
	const struct kd_params *p;
	const char *fields;
	long *root;
	size_t *tree_end;	/* by root: one past its tree's last call */
	char *marker;
	size_t roots;		/* trees begun */
	size_t next;		/* the next snapshot */
};

/*
 * The snapshots shown before call i (t->nr: after the last), each marked
 * as the tree around it, or as the next tree (its owner's, at depth 0).
 */
static void kd_interlaced_snapshots(FILE *out, struct kd_interlace *il, size_t i)
{
	const struct kd_tree *t = il->t;

	for (; il->next < t->nr_snaps && t->snaps[il->next].before <= (long)i; il->next++) {
		const struct kd_snapshot *s = &t->snaps[il->next];
		char m = s->parent >= 0 ? il->marker[il->root[s->parent]] :
			 kd_markers[il->roots % (sizeof(kd_markers) - 1)];

		if (s->depth < il->p->max_depth)
			kd_snapshot_lines(out, t, s, il->fields, il->p->name_width, m);
	}
}

static void kd_interlaced_calls(FILE *out, struct kd_interlace *il)
{
	const struct kd_tree *t = il->t;
	size_t i, irq_end = 0;
	int in_irq = 0;

	for (i = 0; i < t->nr; i++) {
		const struct kd_call *c = &t->calls[i];

		if (in_irq && i >= irq_end) {
			fputs("----------- !!!! end ----------------\n", out);
			in_irq = 0;
		}
		kd_interlaced_snapshots(out, il, i);
		if (c->depth == 0) {
			il->marker[i] = kd_markers[il->roots++ % (sizeof(kd_markers) - 1)];
			if (c->thread < -1 && !in_irq) {
				fputs("----------- !!!! start --------------\n", out);
				in_irq = 1;
				irq_end = il->tree_end[i];
			}
		}
		if (c->depth < il->p->max_depth)
			kd_line(out, t, c, il->fields, il->p->name_width, il->marker[il->root[i]]);
	}
	if (in_irq)
		fputs("----------- !!!! end ----------------\n", out);
	kd_interlaced_snapshots(out, il, t->nr);
}

static int kd_interlaced(FILE *out, const struct kd_tree *t, const struct kd_params *p,
			 const char *fields)
{
	struct kd_interlace il = {
		.t = t, .p = p, .fields = fields, .root = kd_roots(t),
		.marker = malloc(t->nr ? t->nr : 1),
	};
	int ret = -1;

	il.tree_end = il.root ? kd_tree_ends(t, il.root) : NULL;
	if (il.root && il.tree_end && il.marker) {
		kd_interlaced_calls(out, &il);
		ret = 0;
	}
	free(il.root);
	free(il.tree_end);
	free(il.marker);
	return ret;
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

/*
 * Where a snapshot goes among the calls in thread order: its thread's, just
 * before the call it is shown before (calls are at 2i + 1, snapshots 2i).
 */
static int kd_snapshot_first(const struct kd_tree *t, const struct kd_snapshot *s,
			     size_t call)
{
	const struct kd_call *c = &t->calls[call];

	if (s->thread_first != c->thread_first)
		return s->thread_first < c->thread_first;
	return s->before * 2 < (long)call * 2 + 1;
}

static int kd_cmp_snapshot_order(const void *a, const void *b)
{
	const struct kd_snapshot *x = a, *y = b;

	if (x->thread_first != y->thread_first)
		return x->thread_first < y->thread_first ? -1 : 1;
	if (x->before != y->before)
		return x->before < y->before ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/*
 * A line naming the task of the calls below it, when the log names tasks
 * (its comm column): at each new thread, and where a thread's name changes.
 */
static void kd_task_header(FILE *out, const struct kd_call *c, const struct kd_call *prev)
{
	if (!*c->row->comm ||
	    (prev && prev->thread == c->thread && prev->row->comm == c->row->comm))
		return;
	if (c->thread >= 0)
		fprintf(out, "== pid %d (%s) ==\n", c->thread, c->row->comm);
	else
		fprintf(out, "== interrupts on CPU %d ==\n", -2 - c->thread);
}

/* Thread by thread, in order of first appearance, snapshots among the calls. */
static int kd_by_thread(FILE *out, const struct kd_tree *t, const struct kd_params *p,
			const char *fields)
{
	size_t *order = kd_thread_order(t), i, k = 0;
	struct kd_snapshot *snaps = malloc((t->nr_snaps ? t->nr_snaps : 1) * sizeof(*snaps));

	if (!order || !snaps) {
		free(order);
		free(snaps);
		return -1;
	}
	if (t->nr_snaps)
		memcpy(snaps, t->snaps, t->nr_snaps * sizeof(*snaps));
	qsort(snaps, t->nr_snaps, sizeof(*snaps), kd_cmp_snapshot_order);
	for (i = 0; i <= t->nr; i++) {
		for (; k < t->nr_snaps &&
		       (i == t->nr || kd_snapshot_first(t, &snaps[k], order[i])); k++)
			if (snaps[k].depth < p->max_depth)
				kd_snapshot_lines(out, t, &snaps[k], fields, p->name_width, 0);
		if (i < t->nr)
			kd_task_header(out, &t->calls[order[i]], i ? &t->calls[order[i - 1]] : NULL);
		if (i < t->nr && t->calls[order[i]].depth < p->max_depth)
			kd_line(out, t, &t->calls[order[i]], fields, p->name_width, 0);
	}
	free(order);
	free(snaps);
	return 0;
}

int kd_calltree(FILE *out, const struct kd_tree *t, const struct kd_params *p)
{
	const char *fields = p->fields ? p->fields : p->long_fields ? "etlpr" : "";

	kd_tree_header(out, fields);
	if (p->interlace)
		return kd_interlaced(out, t, p, fields);
	return kd_by_thread(out, t, p, fields);
}
