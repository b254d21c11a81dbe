// SPDX-License-Identifier: GPL-2.0
/*
 * kd's summary: one row per function, with the columns the -f letters name:
 *	F function  c count  t total time  a average  r range (min-max)
 *	s sub-time (in children)  l local time (total - sub-time)
 *	m the child with the most total time  n its calls from here
 *	u every child  e error returns (-4095..-1: the log's RETURN column)
 *	o q b the time on the CPU, runnable and blocked (offcpu's words)
 *	O Q B the same per call, on average
 *	S the function's source line (--srcline: kd_srclines()), last by
 *	  default with --srcline
 * Calls without a known duration (-1) count as calls but add no time. In
 * a log with offcpu's times the default columns go on with o, q and b; in
 * one with return values, they end with e. A function none of whose calls
 * has offcpu's times has "-" in their columns, and sorts after those with.
 * Stack watch snapshots (-2 rows) are no calls: a section of their own
 * follows the table, a line per snapshot. Wake sets (-3 rows) are no calls
 * either, and are left out (the call tree shows them where their task
 * slept).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "kd.h"

struct kd_child {
	const char *name;
	long long time;
	long long count;
};

struct kd_func {
	const char *name;
	const char *src;	/* --srcline: its first call's function line */
	long long count, time, sub, min, max, timed, errors;
	long long oncpu, runnable, blocked, sched;	/* sched: the timed calls with them */
	struct kd_child *children;	/* in order of first call */
	size_t nchildren, children_cap;
	/*
	 * Open addressing over children[] by name (index + 1; 0 is free), so a
	 * function with thousands of distinct callees (a syscall entry in an
	 * every-function trace) does not cost a scan per call.
	 */
	size_t *child_slots;
	size_t child_slots_cap;
};

struct kd_funcs {
	struct kd_func *slots;	/* open addressing, by name */
	size_t cap, nr;
};

static size_t kd_hash(const char *s)
{
	return (size_t)hash_bytes(s, strlen(s));
}

static int kd_funcs_grow(struct kd_funcs *f);

static struct kd_func *kd_funcs_get(struct kd_funcs *f, const char *name)
{
	size_t i;

	if ((f->nr + 1) * 2 > f->cap && kd_funcs_grow(f))
		return NULL;
	for (i = kd_hash(name) & (f->cap - 1); f->slots[i].name; i = (i + 1) & (f->cap - 1))
		if (!strcmp(f->slots[i].name, name))
			return &f->slots[i];
	f->slots[i].name = name;
	f->slots[i].min = -1;
	f->nr++;
	return &f->slots[i];
}

static int kd_funcs_grow(struct kd_funcs *f)
{
	struct kd_funcs bigger = { .cap = f->cap ? f->cap * 2 : 1024 };
	size_t i, k;

	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (i = 0; i < f->cap; i++) {
		if (!f->slots[i].name)
			continue;
		for (k = kd_hash(f->slots[i].name) & (bigger.cap - 1); bigger.slots[k].name;
		     k = (k + 1) & (bigger.cap - 1))
			;
		bigger.slots[k] = f->slots[i];
	}
	bigger.nr = f->nr;
	free(f->slots);
	*f = bigger;
	return 0;
}

static int kd_child_slots_grow(struct kd_func *parent)
{
	size_t cap = parent->child_slots_cap ? parent->child_slots_cap * 2 : 16;
	size_t *slots = calloc(cap, sizeof(*slots));
	size_t i, k;

	if (!slots)
		return -1;
	for (i = 0; i < parent->nchildren; i++) {
		for (k = kd_hash(parent->children[i].name) & (cap - 1); slots[k];
		     k = (k + 1) & (cap - 1))
			;
		slots[k] = i + 1;
	}
	free(parent->child_slots);
	parent->child_slots = slots;
	parent->child_slots_cap = cap;
	return 0;
}

/* The parent's entry for a child name, created empty when new. */
static struct kd_child *kd_child_get(struct kd_func *parent, const char *name)
{
	struct kd_child *ch;
	size_t k;

	if ((parent->nchildren + 1) * 2 > parent->child_slots_cap &&
	    kd_child_slots_grow(parent))
		return NULL;
	for (k = kd_hash(name) & (parent->child_slots_cap - 1); parent->child_slots[k];
	     k = (k + 1) & (parent->child_slots_cap - 1)) {
		ch = &parent->children[parent->child_slots[k] - 1];
		if (!strcmp(ch->name, name))
			return ch;
	}
	if (parent->nchildren == parent->children_cap) {
		size_t cap = parent->children_cap ? parent->children_cap * 2 : 4;

		ch = realloc(parent->children, cap * sizeof(*ch));
		if (!ch)
			return NULL;
		parent->children = ch;
		parent->children_cap = cap;
	}
	ch = &parent->children[parent->nchildren++];
	*ch = (struct kd_child){ name, 0, 0 };
	parent->child_slots[k] = parent->nchildren;
	return ch;
}

static int kd_add_child(struct kd_func *parent, const struct kd_call *c)
{
	struct kd_child *ch = kd_child_get(parent, c->name);

	if (!ch)
		return -1;
	ch->time = kd_time_add(ch->time, kd_call_time(c));
	ch->count++;
	return 0;
}

/* A call with a known duration: its times, offcpu's too when it has them. */
static void kd_add_time(struct kd_func *fn, const struct kd_call *c)
{
	const struct kftlog_row *r = c->row;

	fn->time = kd_time_add(fn->time, r->delta);
	fn->sub = kd_time_add(fn->sub, c->sub);
	fn->timed++;
	if (fn->min < 0 || r->delta < fn->min)
		fn->min = r->delta;
	if (r->delta > fn->max)
		fn->max = r->delta;
	if (!r->has_sched)
		return;
	fn->oncpu = kd_time_add(fn->oncpu, r->oncpu);
	fn->runnable = kd_time_add(fn->runnable, r->runnable);
	fn->blocked = kd_time_add(fn->blocked, r->blocked);
	fn->sched++;
}

static int kd_collect(struct kd_funcs *f, const struct kd_tree *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		const struct kd_call *c = &t->calls[i];
		struct kd_func *fn = kd_funcs_get(f, c->name);

		if (!fn)
			return -1;
		fn->count++;
		if (!fn->src)
			fn->src = c->src;
		fn->errors += c->row->ret == KFTLOG_RET_ERROR;
		if (c->row->delta >= 0)
			kd_add_time(fn, c);
		if (c->parent >= 0) {
			fn = kd_funcs_get(f, t->calls[c->parent].name);
			if (!fn || kd_add_child(fn, c))
				return -1;
		}
	}
	return 0;
}

static long long kd_local(const struct kd_func *f)
{
	return f->time > f->sub ? f->time - f->sub : 0;
}

static long long kd_average(const struct kd_func *f)
{
	return f->timed ? f->time / f->timed : 0;
}

/* Column o, q, b, O, Q or B of a function; -1 when none of its calls has them. */
static long long kd_sched_value(const struct kd_func *f, char letter)
{
	long long total = letter == 'o' || letter == 'O' ? f->oncpu :
			  letter == 'q' || letter == 'Q' ? f->runnable : f->blocked;

	if (!f->sched)
		return -1;
	return islower((unsigned char)letter) ? total : total / f->sched;
}

static const struct kd_child *kd_max_child(const struct kd_func *f)
{
	const struct kd_child *best = NULL;
	size_t i;

	for (i = 0; i < f->nchildren; i++)
		if (!best || f->children[i].time > best->time)
			best = &f->children[i];
	return best;
}

static char kd_sort_key;

/* Names ascending; numbers descending, then by name for a stable order. */
static int kd_cmp(const void *a, const void *b)
{
	const struct kd_func *x = *(struct kd_func *const *)a;
	const struct kd_func *y = *(struct kd_func *const *)b;
	long long vx, vy;

	switch (kd_sort_key) {
	case 'F':
		return strcmp(x->name, y->name);
	case 'c':
		vx = x->count, vy = y->count;
		break;
	case 'a':
		vx = kd_average(x), vy = kd_average(y);
		break;
	case 's':
		vx = x->sub, vy = y->sub;
		break;
	case 'l':
		vx = kd_local(x), vy = kd_local(y);
		break;
	case 'e':
		vx = x->errors, vy = y->errors;
		break;
	case 'o': case 'q': case 'b': case 'O': case 'Q': case 'B':
		vx = kd_sched_value(x, kd_sort_key), vy = kd_sched_value(y, kd_sort_key);
		break;
	default:
		vx = x->time, vy = y->time;
	}
	if (vx != vy)
		return vx > vy ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void kd_header(FILE *out, const char *fields)
{
	static const struct { char letter; const char *title; int width; } cols[] = {
		{ 'F', "Function", -35 }, { 'c', "Count", 5 }, { 't', "Time", 8 },
		{ 'a', "Average", 8 }, { 'r', "Range", -17 }, { 's', "Sub-time", 8 },
		{ 'l', "Local", 8 }, { 'm', "Max-sub", -35 }, { 'n', "Ms count", 8 },
		{ 'u', "Sub-list", -8 }, { 'e', "Errors", 6 }, { 'o', "On-CPU", 8 },
		{ 'q', "Runnable", 8 }, { 'b', "Blocked", 8 }, { 'O', "Avg on-CPU", 12 },
		{ 'Q', "Avg runnable", 12 }, { 'B', "Avg blocked", 12 },
		{ 'S', "Source", -8 },
	};
	const char *f;
	size_t i;
	int w, pass;

	for (pass = 0; pass < 2; pass++) {
		for (f = fields; *f; f++) {
			for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
				if (cols[i].letter != *f)
					continue;
				w = cols[i].width < 0 ? -cols[i].width : cols[i].width;
				if (f != fields)
					fputc(' ', out);
				if (pass == 0)
					fprintf(out, "%*s", cols[i].width, cols[i].title);
				else
					for (int k = 0; k < w; k++)
						fputc('-', out);
			}
		}
		fputc('\n', out);
	}
}

/* A column of offcpu's times, "-" for a function without them. */
static void kd_sched_cell(FILE *out, long long v, int width)
{
	if (v < 0)
		fprintf(out, "%*s", width, "-");
	else
		fprintf(out, "%*lld", width, v);
}

static void kd_row(FILE *out, const struct kd_func *fn, const char *fields)
{
	const struct kd_child *mc = kd_max_child(fn);
	char range[64];
	const char *f;
	size_t i;

	for (f = fields; *f; f++) {
		if (f != fields)
			fputc(' ', out);
		switch (*f) {
		case 'F': fprintf(out, "%-35s", fn->name); break;
		case 'c': fprintf(out, "%5lld", fn->count); break;
		case 't': fprintf(out, "%8lld", fn->time); break;
		case 'a': fprintf(out, "%8lld", kd_average(fn)); break;
		case 'r':
			snprintf(range, sizeof(range), "%lld-%lld", fn->min < 0 ? 0 : fn->min, fn->max);
			fprintf(out, "%-17s", range);
			break;
		case 's': fprintf(out, "%8lld", fn->sub); break;
		case 'l': fprintf(out, "%8lld", kd_local(fn)); break;
		case 'm': fprintf(out, "%-35s", mc ? mc->name : "-"); break;
		case 'n': fprintf(out, "%8lld", mc ? mc->count : 0); break;
		case 'e': fprintf(out, "%6lld", fn->errors); break;
		case 'S': fprintf(out, "%-8s", fn->src ? fn->src : "-"); break;
		case 'o': case 'q': case 'b': case 'O': case 'Q': case 'B':
			kd_sched_cell(out, kd_sched_value(fn, *f), islower((unsigned char)*f) ? 8 : 12);
			break;
		case 'u':
			for (i = 0; i < fn->nchildren; i++)
				fprintf(out, "%s%s", i ? "," : "", fn->children[i].name);
			if (!fn->nchildren)
				fputc('-', out);
			break;
		}
	}
	fputc('\n', out);
}

/* Time, pid.cpu, bytes left, frames and traced function of each stack snapshot. */
static void kd_snapshots_summary(FILE *out, const struct kd_tree *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nr_snaps; i++)
		n += !kd_snapshot_is_wake(&t->snaps[i]);
	if (!n)
		return;
	fprintf(out, "\nStack snapshots: %zu\n"
		"      Time      Pid     Left Depth Function\n"
		"---------- -------- -------- ----- -----------------------------------\n", n);
	for (i = 0; i < t->nr_snaps; i++) {
		const struct kd_snapshot *s = &t->snaps[i];

		if (kd_snapshot_is_wake(s))
			continue;
		fprintf(out, "%10lld ", s->row->entry);
		if (s->row->cpu >= 0)
			fprintf(out, "%6d.%d ", s->row->pid, s->row->cpu);
		else
			fprintf(out, "%8d ", s->row->pid);
		if (s->row->left >= 0)
			fprintf(out, "%8lld ", s->row->left);
		else
			fprintf(out, "%8s ", "-");
		fprintf(out, "%5zu %s\n", s->nr, s->function);
	}
}

/* -f's columns, or the default: -l's or not, then offcpu's and e when the log has them. */
static const char *kd_fields(const struct kd_tree *t, const struct kd_params *p, char *buf,
			     size_t len)
{
	if (p->fields)
		return p->fields;
	snprintf(buf, len, "%s%s%s%s", p->long_fields ? "Fctalsmn" : "Fctal",
		 t->has_sched ? "oqb" : "", t->has_retvals ? "e" : "", p->srcline.nr ? "S" : "");
	return buf;
}

int kd_summary(FILE *out, const struct kd_tree *t, const struct kd_params *p)
{
	char buf[16];
	const char *fields = kd_fields(t, p, buf, sizeof(buf));
	struct kd_funcs funcs = { 0 };
	struct kd_func **order;
	size_t i, n = 0;
	int ret = -1;

	if (kd_collect(&funcs, t))
		goto out;
	order = malloc((funcs.nr ? funcs.nr : 1) * sizeof(*order));
	if (!order)
		goto out;
	for (i = 0; i < funcs.cap; i++)
		if (funcs.slots[i].name && (!p->min_time || funcs.slots[i].time > p->min_time))
			order[n++] = &funcs.slots[i];
	kd_sort_key = p->sort ? p->sort : 't';
	qsort(order, n, sizeof(*order), kd_cmp);
	kd_header(out, fields);
	for (i = 0; i < n && (!p->top || (long long)i < p->top); i++)
		kd_row(out, order[i], fields);
	free(order);
	kd_snapshots_summary(out, t);
	ret = 0;
out:
	for (i = 0; i < funcs.cap; i++) {
		free(funcs.slots[i].children);
		free(funcs.slots[i].child_slots);
	}
	free(funcs.slots);
	return ret;
}
