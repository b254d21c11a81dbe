// SPDX-License-Identifier: GPL-2.0
/*
 * A flame graph as a self-contained SVG (kd --flamegraph). Each frame is
 * a rectangle as wide as its share of all samples; the root ("all") at the
 * bottom, each frame's children on top of it, sorted by name from left to
 * right, so the same stacks always make the same picture whatever their
 * order in the input. A frame narrower than FG_MIN_WIDTH px is left out,
 * and its descendants with it. The colour is a warm one chosen by a hash
 * of the name, so a function has one colour everywhere (a cool one for
 * time off the CPU); labels are cut
 * with ".." to fit, at FG_CHAR px a character (a monospace font).
 *
 * The frames are <g class="f"> elements in <g id="kft-frames">, parents
 * before children, each with data-s (its first sample), data-n (its
 * samples), data-d (its depth) and a <title> "NAME (N UNIT, P%)" for the
 * tooltip; the script (flamegraph_js.c) zooms and searches with them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "kd.h"

#define FG_WIDTH	1200.0
#define FG_LEFT		10.0
#define FG_SPAN		(FG_WIDTH - 2 * FG_LEFT)
#define FG_ROW		16.0	/* a frame's height, 1 px of it a gap */
#define FG_TOP		66.0	/* title, subtitle, buttons */
#define FG_BOTTOM	34.0	/* the hovered frame's details, the search's share */
#define FG_CHAR		6.7	/* px a character at 11 px, monospace */
#define FG_MIN_WIDTH	0.1

struct fg_layout {
	const struct flame *f;
	long long *start;	/* each frame's first sample */
	unsigned int *order;	/* the frames drawn, each parent before its children */
	size_t nr;
	unsigned int depth;	/* of the deepest drawn */
	double scale;		/* px a sample */
};

static const struct flame *fg_sorting;

static int fg_cmp_name(const void *a, const void *b)
{
	return strcmp(fg_sorting->frames[*(const unsigned int *)a].name,
		      fg_sorting->frames[*(const unsigned int *)b].name);
}

/* Frame i's children, by name, in kids; how many. */
static size_t fg_children(const struct flame *f, unsigned int i, unsigned int *kids)
{
	unsigned int c;
	size_t n = 0;

	for (c = f->frames[i].child; c; c = f->frames[c].sibling)
		kids[n++] = c;
	fg_sorting = f;
	qsort(kids, n, sizeof(*kids), fg_cmp_name);
	return n;
}

static int fg_drawn(const struct fg_layout *l, unsigned int i)
{
	return (double)l->f->frames[i].samples * l->scale >= FG_MIN_WIDTH;
}

/* Where each frame starts, and which are drawn in which order (depth first). */
static void fg_layout(struct fg_layout *l, const struct flame *f, unsigned int *stack,
		      unsigned int *kids)
{
	size_t top = 0, n, k;
	long long at;

	l->scale = f->frames[0].samples > 0 ? FG_SPAN / (double)f->frames[0].samples : 0;
	if (fg_drawn(l, 0))
		stack[top++] = 0;
	while (top) {
		unsigned int i = stack[--top];

		l->order[l->nr++] = i;
		if (f->frames[i].depth > l->depth)
			l->depth = f->frames[i].depth;
		n = fg_children(f, i, kids);
		for (at = l->start[i], k = 0; k < n; k++) {
			l->start[kids[k]] = at;
			at = kd_time_add(at, f->frames[kids[k]].samples);
		}
		for (k = n; k > 0; k--)
			if (fg_drawn(l, kids[k - 1]))
				stack[top++] = kids[k - 1];
	}
}

static int fg_layout_new(struct fg_layout *l, const struct flame *f)
{
	unsigned int *stack = malloc(f->nr * sizeof(*stack));
	unsigned int *kids = malloc(f->nr * sizeof(*kids));
	int ret = -1;

	memset(l, 0, sizeof(*l));
	l->f = f;
	l->start = calloc(f->nr, sizeof(*l->start));
	l->order = malloc(f->nr * sizeof(*l->order));
	if (stack && kids && l->start && l->order) {
		fg_layout(l, f, stack, kids);
		ret = 0;
	}
	free(stack);
	free(kids);
	return ret;
}

/*
 * A warm colour (red to yellow) that only the name decides; the frames of
 * time off the CPU (kd --weigh) cool ones, blue asleep and cyan runnable,
 * as off-CPU flame graphs draw them, so that they stand out from the calls.
 */
static void fg_colour(const char *name, unsigned int rgb[3])
{
	static const struct { const char *name; unsigned int rgb[3]; } cool[] = {
		{ KD_FOLDS_BLOCKED, { 80, 120, 230 } }, { KD_FOLDS_RUNNABLE, { 80, 190, 210 } },
	};
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < sizeof(cool) / sizeof(cool[0]); i++) {
		if (!strcmp(name, cool[i].name)) {
			memcpy(rgb, cool[i].rgb, sizeof(cool[i].rgb));
			return;
		}
	}
	while (*name)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	rgb[0] = 205 + h % 51;
	h /= 51;
	rgb[1] = 80 + h % 150;
	h /= 150;
	rgb[2] = 20 + h % 50;
}

static double fg_height(const struct fg_layout *l)
{
	return FG_TOP + (l->depth + 1) * FG_ROW + FG_BOTTOM;
}

static void fg_frame(FILE *out, const struct fg_layout *l, unsigned int i)
{
	const struct flame_frame *fr = &l->f->frames[i];
	double x = FG_LEFT + (double)l->start[i] * l->scale, w = (double)fr->samples * l->scale;
	double y = FG_TOP + (l->depth - fr->depth) * FG_ROW;
	unsigned int rgb[3];

	fg_colour(fr->name, rgb);
	fprintf(out, "<g class=\"f\" data-s=\"%lld\" data-n=\"%lld\" data-d=\"%u\"><title>",
		l->start[i], fr->samples, fr->depth);
	kd_xml_text(out, fr->name);
	fprintf(out, " (%lld %s, %.2f%%)</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
		"height=\"%.1f\" rx=\"2\" fill=\"rgb(%u,%u,%u)\"/><text x=\"%.2f\" y=\"%.1f\">",
		fr->samples, l->f->unit, 100.0 * (double)fr->samples /
		(double)l->f->frames[0].samples, x, y, w, FG_ROW - 1, rgb[0], rgb[1], rgb[2],
		x + 3, y + FG_ROW - 4.5);
	if (w > 6)
		kd_xml_label(out, fr->name, (size_t)((w - 6) / FG_CHAR));
	fputs("</text></g>\n", out);
}

static const char *const fg_style[] = {
	"text { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 11px;",
	"  fill: #111; }",
	"#kft-title { font-family: 'DejaVu Sans', Verdana, sans-serif; font-size: 17px;",
	"  font-weight: bold; text-anchor: middle; }",
	"#kft-subtitle { font-family: 'DejaVu Sans', Verdana, sans-serif; font-size: 12px;",
	"  fill: #666; text-anchor: middle; }",
	".kft-button { font-size: 12px; fill: #1a3c8c; cursor: pointer; }",
	".kft-button:hover { text-decoration: underline; }",
	".f { cursor: pointer; }",
	".f text { pointer-events: none; }",
	".f:hover rect { stroke: #333; stroke-width: 0.8; }",
	".kft-around rect { opacity: 0.5; }",
	NULL,
};

static void fg_lines(FILE *out, const char *open, const char *const *lines, const char *close)
{
	fputs(open, out);
	for (; *lines; lines++)
		fprintf(out, "%s\n", *lines);
	fputs(close, out);
}

/* The root element, style, script, background and the texts around the frames. */
static void fg_head(FILE *out, const struct fg_layout *l, const char *title)
{
	double h = fg_height(l);

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" onload=\"kft_init()\" "
		"data-kft-frames=\"%zu\" data-kft-total=\"%lld\" data-kft-unit=\"%s\" "
		"data-kft-left=\"%.0f\" data-kft-span=\"%.0f\" data-kft-char=\"%.1f\">\n",
		FG_WIDTH, h, FG_WIDTH, h, l->nr, l->f->frames[0].samples, l->f->unit,
		FG_LEFT, FG_SPAN, FG_CHAR);
	fg_lines(out, "<style type=\"text/css\"><![CDATA[\n", fg_style, "]]></style>\n");
	fg_lines(out, "<script type=\"text/ecmascript\"><![CDATA[\n", flame_script,
		 "]]></script>\n");
	fprintf(out, "<defs><linearGradient id=\"kft-bg\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
		"<stop offset=\"5%%\" stop-color=\"#f6f6f6\"/><stop offset=\"95%%\" "
		"stop-color=\"#efeed8\"/></linearGradient></defs>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"url(#kft-bg)\"/>\n"
		"<text id=\"kft-title\" x=\"%.0f\" y=\"26\">", FG_WIDTH / 2);
	kd_xml_text(out, title ? title : "Flame Graph");
	fprintf(out, "</text>\n<text id=\"kft-subtitle\" x=\"%.0f\" y=\"46\">%lld %s, %zu frames"
		"%s</text>\n", FG_WIDTH / 2, l->f->frames[0].samples, l->f->unit, l->nr,
		l->nr < l->f->nr && l->nr ? " (the narrowest left out)" : "");
	fprintf(out, "<text id=\"kft-unzoom\" class=\"kft-button\" x=\"%.0f\" y=\"26\" "
		"display=\"none\">Reset Zoom</text>\n"
		"<text id=\"kft-search\" class=\"kft-button\" x=\"%.0f\" y=\"26\" "
		"text-anchor=\"end\">Search</text>\n"
		"<text id=\"kft-details\" x=\"%.0f\" y=\"%.0f\"> </text>\n"
		"<text id=\"kft-matched\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\"> </text>\n",
		FG_LEFT, FG_WIDTH - FG_LEFT, FG_LEFT, h - 12, FG_WIDTH - FG_LEFT, h - 12);
}

int flame__svg(FILE *out, const struct flame *f, const char *title)
{
	struct fg_layout l;
	size_t i;
	int ret = fg_layout_new(&l, f);

	if (!ret) {
		fg_head(out, &l, title);
		if (!l.nr)
			fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">"
				"No samples</text>\n", FG_WIDTH / 2, FG_TOP + 12);
		fputs("<g id=\"kft-frames\">\n", out);
		for (i = 0; i < l.nr; i++)
			fg_frame(out, &l, l.order[i]);
		fputs("</g>\n</svg>\n", out);
	}
	free(l.start);
	free(l.order);
	return ret;
}
