// SPDX-License-Identifier: GPL-2.0
/*
 * Stacks printed as bcc's tools print them. stackcount:
 *
 *	  kft_test_leaf
 *	  kft_test_middle
 *	    bash [345]			(-P)
 *	    10
 *
 * profile:
 *
 *	    kft_test_hot_loop
 *	    -                bash (345)
 *	        49
 *
 * folded (both): "bash;outer;...;inner 10", one line a stack, for
 * flamegraph.pl. stacksnoop: a line per event, its frames after tabs.
 * Frames are named as bcc's ksym() names them: the bare name, also of a
 * module's function (with -M, kft's module:name); "[unknown]" (bcc's word)
 * where the kernel found no symbol. With --srcline a frame's line ends
 * with its source lines, as kd -c ends a call's: the first frame, the
 * function entered (profile's: the instruction the tick interrupted), at
 * its own line; every other one, a return address, at the line of its
 * call with the inlined calls it lies in.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "kft.h"
#include "ksyms.h"

/* An event's call with its arguments is cut at this length. */
#define KFT_SNOOP_CALL_MAX	1024

/* kft's names of module functions are "module:name"; no symbol has a ':'. */
const char *kft_bcc_name(const char *name, int module)
{
	const char *colon = module ? NULL : strchr(name, ':');

	return colon ? colon + 1 : name;
}

/* A frame's name as bcc's ksym() gives it: name, name+0xOFF (-s), [unknown]. */
static void kft_frame_put(FILE *out, const struct kft_frame *f, int offsets, int module)
{
	const char *name = f->name ? kft_bcc_name(f->name, module) : NULL;

	if (!name)
		fputs("[unknown]", out);
	else if (offsets)
		fprintf(out, "%s+0x%" PRIx64, name, f->off);
	else
		fputs(name, out);
}

/*
 * Which lines the @i-th frame of a stack has (innermost first): a return
 * address but for the first, which is the function entered, or for
 * profile the instruction the tick interrupted.
 */
static enum srcline_at kft_frame_at(size_t i, const struct kft_stack_style *st)
{
	if (i > 0)
		return SRCLINE_RETURN;
	return st->profile ? SRCLINE_PC : SRCLINE_ENTRY;
}

/*
 * --srcline: a frame's source lines, "  [fs/open.c:30]". Its address is
 * the running kernel's, mapped through the symbols; where they hide
 * addresses, the kernel's own name and offset find it. 0, or -1 without
 * memory.
 */
static int kft_frame_srcline(FILE *out, const struct kft_frame *f, enum srcline_at at,
			     const struct kft_stack_style *st)
{
	char word[KFTLOG_LINE_MAX];

	if (st->ks && f->addr) {
		snprintf(word, sizeof(word), "0x%" PRIx64, f->addr);
	} else if (f->name) {
		snprintf(word, sizeof(word), "%s+0x%" PRIx64, f->name, f->off);
	} else {
		fputs("  [??]", out);
		return 0;
	}
	return kft_word_srcline(out, st->sl, st->ks, word, at, "  [", "]");
}

/* [comm;]outer;...;inner COUNT: the root first, as flame graphs want. */
static void kft_stack_folded(FILE *out, const struct kft_stack_row *r,
			     const struct kft_stack_style *st)
{
	size_t first = r->stack->first, i = r->stack->nr;
	const char *sep = "";

	if (st->comm) {
		fputs(r->stack->comm, out);
		sep = ";";
	}
	while (i--) {
		fputs(sep, out);
		kft_frame_put(out, &r->frames[first + i], 0, st->module);
		if (st->annotate)
			fputs("_[k]", out);
		sep = ";";
	}
	fprintf(out, " %" PRIu64 "\n", r->count);
}

/* A stack a frame a line, then its process and count. 0, or -1 without memory. */
static int kft_stack_lines(FILE *out, const struct kft_stack_row *r,
			   const struct kft_stack_style *st)
{
	const struct kft_frame *f;
	size_t i;

	for (i = 0; i < r->stack->nr; i++) {
		f = &r->frames[r->stack->first + i];
		fputs(st->profile ? "    " : "  ", out);
		if (st->addresses)
			fprintf(out, "%-16" PRIx64 " ", f->addr);
		kft_frame_put(out, f, st->offsets, st->module);
		if (st->sl && kft_frame_srcline(out, f, kft_frame_at(i, st), st))
			return -1;
		fputc('\n', out);
	}
	if (st->profile)
		fprintf(out, "    %-16s %s (%ld)\n        %" PRIu64 "\n\n", "-", r->stack->comm,
			r->stack->pid, r->count);
	else if (st->comm)
		fprintf(out, "    %s [%ld]\n    %" PRIu64 "\n\n", r->stack->comm, r->stack->pid,
			r->count);
	else
		fprintf(out, "    %" PRIu64 "\n\n", r->count);
	return 0;
}

int kft_stacks_print(FILE *out, const struct kft_stack_row *rows, size_t n,
		     const struct kft_stack_style *style)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (style->folded)
			kft_stack_folded(out, &rows[i], style);
		else if (kft_stack_lines(out, &rows[i], style))
			return -1;
	}
	return 0;
}

void kft_snoop_header(FILE *out, int verbose)
{
	if (verbose)
		fprintf(out, "%-18s %-12s %-6s %-3s %s\n", "TIME(s)", "COMM", "PID", "CPU",
			"FUNCTION");
	else
		fprintf(out, "%-18s %s\n", "TIME(s)", "FUNCTION");
}

/*
 * stacksnoop -a: the event's function as a call with the registers it
 * kept (@args, the args word's values), typed as kft trace -T types a
 * call, into @buf (cut at @len). Return: @buf.
 */
static const char *kft_snoop_call(const struct kft_stack_style *style, const char *name,
				  const char *shown, const char *args, char *buf, size_t len)
{
	struct kftlog_row r = { .args = args, .ret = KFTLOG_RET_NONE };

	/* The types are looked up by module:name, the call printed as named. */
	if (style->types)
		typedlog__format(style->types, name, shown, &r, false, buf, len);
	else
		kft_call_text(NULL, shown, &r, buf, len);
	return buf;
}

int kft_snoop_print(FILE *out, const struct kft_stacks *s, const struct kft_stack *ev,
		    uint64_t start_us, const char *function, const struct kft_stack_style *style)
{
	uint64_t us = ev->time_us > start_us ? ev->time_us - start_us : 0;
	char time[32], call[KFT_SNOOP_CALL_MAX];
	size_t i;

	/* The frames' first is the function entered: its name, unless the table had no room. */
	if (ev->nr && s->frames[ev->first].name)
		function = kft_bcc_name(s->frames[ev->first].name, style->module);
	if (style->args && ev->args)
		function = kft_snoop_call(style, ev->nr && s->frames[ev->first].name ?
					  s->frames[ev->first].name : function,
					  function, ev->args, call, sizeof(call));
	snprintf(time, sizeof(time), "%" PRIu64 ".%06" PRIu64, us / 1000000, us % 1000000);
	if (style->comm)
		fprintf(out, "%-18s %-12.12s %-6ld %-3d %s\n", time, ev->comm, ev->pid, ev->cpu,
			function);
	else
		fprintf(out, "%-18s %s\n", time, function);
	for (i = 0; i < ev->nr; i++) {
		fputc('\t', out);
		kft_frame_put(out, &s->frames[ev->first + i], style->offsets, style->module);
		if (style->sl && kft_frame_srcline(out, &s->frames[ev->first + i],
						   kft_frame_at(i, style), style))
			return -1;
		fputc('\n', out);
	}
	fputc('\n', out);
	return 0;
}

int kft_stack_srclines_open(const struct kft_params *p, const char *sub,
			    const struct kft_paths *paths, struct kft_stack_style *style)
{
	if (!p->srcline.nr)
		return 0;
	style->ks = kft_ksyms_load(paths->kallsyms);
	if (!style->ks) {
		fprintf(stderr, "kft: %s: %s\n", paths->kallsyms, ksyms__strerror(errno));
		return -1;
	}
	/* Addresses hidden from us: the frames' names find them instead. */
	if (ksyms__hidden(style->ks)) {
		ksyms__free(style->ks);
		style->ks = NULL;
	}
	return kft_srcline_open(p, sub, &style->sl);
}

void kft_stack_srclines_free(struct kft_stack_style *style)
{
	srcline__free(style->sl);
	ksyms__free(style->ks);
	style->sl = NULL;
	style->ks = NULL;
}
