// SPDX-License-Identifier: GPL-2.0
/*
 * kd --svg: a self-contained SVG timeline. Time runs left to right; each
 * thread (a pid, or one CPU's interrupt context) has a lane, its calls bars
 * stacked by depth; a bar is labelled where the label fits, and every bar
 * carries its name, entry and duration as a tooltip (<title>). Calls still
 * open at the stop run to the end, dashed. The picture bootgraph.pl draws
 * for initcalls, at function level.
 */
#include <stdlib.h>
#include <string.h>

#include "kd.h"

#define SVG_WIDTH	1600.0	/* of the time axis, px */
#define SVG_LEFT	110.0	/* lane titles */
#define SVG_ROW		16.0	/* one depth level */
#define SVG_LANE_GAP	22.0	/* title line above each lane */
#define SVG_TOP		40.0	/* the time axis */
#define SVG_CHAR	6.2	/* width of one label character */

struct svg_lane {
	long first;		/* its thread's first call */
	int depth;		/* deepest level */
	double y;
};

/* A stable color per function name. */
static unsigned int svg_hue(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h % 360;
}

static void svg_axis(FILE *out, long long t0, long long span, const char *unit)
{
	int i;

	for (i = 0; i <= 10; i++) {
		double x = SVG_LEFT + i * SVG_WIDTH / 10;
		/* span * i would overflow on a huge span: split it. */
		long long t = kd_time_add(t0, span / 10 * i + span % 10 * i / 10);

		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"100%%\" "
			"stroke=\"#ddd\"/>\n", x, SVG_TOP - 6, x);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%lld %s</text>\n",
			x, SVG_TOP - 10, t, unit);
	}

}

static void svg_bar(FILE *out, const struct kd_call *c, double x, double w, double y,
		    int open, const char *unit)
{
	fputs("<g><title>", out);
	kd_xml_text(out, c->name);
	if (open)
		fprintf(out, " entry %lld %s, still running at the stop", c->row->entry, unit);
	else
		fprintf(out, " entry %lld %s, %lld %s", c->row->entry, unit, c->row->delta, unit);
	fprintf(out, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
		"fill=\"hsl(%u,60%%,70%%)\" stroke=\"#555\" stroke-width=\"0.3\"%s/>",
		x, y, w, SVG_ROW - 2, svg_hue(c->name), open ? " stroke-dasharray=\"3,2\"" : "");
	if (w > SVG_CHAR * 3) {
		size_t fit = (size_t)(w / SVG_CHAR) - 1;

		fprintf(out, "<text x=\"%.2f\" y=\"%.1f\">", x + 2, y + SVG_ROW - 5);
		if (strlen(c->name) <= fit) {
			kd_xml_text(out, c->name);
		} else {
			char buf[256];

			snprintf(buf, sizeof(buf), "%.*s", (int)(fit < sizeof(buf) ? fit : 255), c->name);
			kd_xml_text(out, buf);
		}
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
}

int kd_svg(FILE *out, const struct kd_tree *t)
{
	struct svg_lane *lanes = calloc(t->nr ? t->nr : 1, sizeof(*lanes));
	long *lane_of = malloc((t->nr ? t->nr : 1) * sizeof(*lane_of));
	long long t0 = 0, t1 = 1, span;
	size_t i, nlanes = 0, l;
	double y, scale;

	if (!lanes || !lane_of) {
		free(lanes);
		free(lane_of);
		return -1;
	}
	for (i = 0; i < t->nr; i++) {
		const struct kd_call *c = &t->calls[i];
		long long end = kd_call_end(c);

		if (i == 0 || c->row->entry < t0)
			t0 = c->row->entry;
		if (end > t1)
			t1 = end;
		if (c->thread_first == (long)i)
			lanes[nlanes++].first = (long)i;
	}
	span = t1 > t0 ? t1 - t0 : 1;
	scale = SVG_WIDTH / (double)span;
	/* Each call's lane (by its thread's first call), each lane's depth. */
	for (l = 0; l < nlanes; l++)
		lane_of[lanes[l].first] = (long)l;
	for (i = 0; i < t->nr; i++) {
		l = (size_t)lane_of[t->calls[i].thread_first];
		lane_of[i] = (long)l;
		if (t->calls[i].depth > lanes[l].depth)
			lanes[l].depth = t->calls[i].depth;
	}
	y = SVG_TOP;
	for (l = 0; l < nlanes; l++) {
		lanes[l].y = y + SVG_LANE_GAP;
		y = lanes[l].y + (lanes[l].depth + 1) * SVG_ROW;
	}
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"font-family=\"monospace\" font-size=\"10\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"4\" y=\"14\" font-size=\"12\">kft: %zu calls, %zu threads, "
		"%lld %s</text>\n", SVG_LEFT + SVG_WIDTH + 20, y + 10, t->nr, nlanes, span,
		kd_unit(t));
	svg_axis(out, t0, span, kd_unit(t));
	for (l = 0; l < nlanes; l++) {
		const struct kd_call *c = &t->calls[lanes[l].first];

		fprintf(out, "<text x=\"4\" y=\"%.1f\" font-weight=\"bold\">", lanes[l].y - 6);
		if (c->thread >= 0)
			fprintf(out, "pid %d", c->thread);
		else
			fprintf(out, "irq cpu%d", -2 - c->thread);
		fprintf(out, "</text>\n<line x1=\"0\" y1=\"%.1f\" x2=\"100%%\" y2=\"%.1f\" "
			"stroke=\"#999\"/>\n", lanes[l].y - 2, lanes[l].y - 2);
	}
	for (i = 0; i < t->nr; i++) {
		const struct kd_call *c = &t->calls[i];
		int open = c->row->delta < 0;
		double x = SVG_LEFT + (double)(c->row->entry - t0) * scale;
		/* To the end as saturated, so never wider than the axis. */
		double w = (double)((open ? t1 : kd_call_end(c)) - c->row->entry) * scale;

		svg_bar(out, c, x, w < 0.5 ? 0.5 : w,
			lanes[lane_of[i]].y + c->depth * SVG_ROW, open, kd_unit(t));
	}
	fputs("</svg>\n", out);
	free(lanes);
	free(lane_of);
	return 0;
}
