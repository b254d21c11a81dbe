// SPDX-License-Identifier: GPL-2.0
/*
 * kd --flamegraph: folded lines read (table-driven), identical prefixes
 * merged, the SVG's frames for a small input worked out by hand (order,
 * positions, widths, depth), names escaped and labels cut, the limits,
 * and how its input is told apart (kft log or folded stacks).
 */
#include <errno.h>
#include <stdlib.h>
#include "unit.h"
#include "flame.h"
#include "kd.h"

static void test_folded_lines(void)
{
	static const struct {
		const char *line;
		int want;
		long long total;	/* the root's samples after it */
	} cases[] = {
		{ "a;b 5\n", FLAME_STACK, 5 },
		{ "a;b  5\r\n", FLAME_STACK, 5 },
		{ "tmux: server;[user] 7", FLAME_STACK, 7 },	/* blanks in a frame */
		{ "a;;b 2", FLAME_STACK, 2 },			/* an empty frame: none */
		{ "a;b 0", FLAME_STACK, 0 },
		{ "a;b 9223372036854775807", FLAME_STACK, 9223372036854775807LL },
		{ "", FLAME_BLANK, 0 },
		{ " \t\r\n", FLAME_BLANK, 0 },
		{ "a;b", FLAME_MALFORMED, 0 },
		{ "5", FLAME_MALFORMED, 0 },
		{ "  5", FLAME_MALFORMED, 0 },
		{ "a;b x", FLAME_MALFORMED, 0 },
		{ "a;b -1", FLAME_MALFORMED, 0 },
		{ "a;b 1.5", FLAME_MALFORMED, 0 },
		{ "a;b 9223372036854775808", FLAME_MALFORMED, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct flame f;
		int got;

		flame__init(&f, "samples");
		got = flame__add_line(&f, cases[i].line, strlen(cases[i].line));
		CHECK(got == cases[i].want && f.frames[0].samples == cases[i].total,
		      "'%s': %d, total %lld; expected %d, %lld", cases[i].line, got,
		      f.frames[0].samples, cases[i].want, cases[i].total);
		flame__free(&f);
	}
}

/* A name as the tree has it: frames[i]'s, "" past the end. */
static const char *name(const struct flame *f, unsigned int i)
{
	return i < f->nr ? f->frames[i].name : "";
}

static void test_prefixes_merged(void)
{
	static const char *const lines[] = {
		"a;b;c 3", "a;b 1", "a;d 2", "e 4", "a;b;c 1", "a;;d 1",
	};
	struct flame f;
	size_t i;

	flame__init(&f, "samples");
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		flame__add_line(&f, lines[i], strlen(lines[i]));
	/* all, a, b, c, d, e: each prefix once. */
	CHECK(f.nr == 6 && f.depth == 3 && f.lines == 6, "%zu frames, depth %u", f.nr, f.depth);
	CHECK(f.frames[0].samples == 12, "all: %lld", f.frames[0].samples);
	CHECK(!strcmp(name(&f, 1), "a") && f.frames[1].samples == 8, "a: %lld",
	      f.frames[1].samples);
	CHECK(!strcmp(name(&f, 2), "b") && f.frames[2].samples == 5 && f.frames[2].parent == 1,
	      "a;b: %lld", f.frames[2].samples);
	CHECK(!strcmp(name(&f, 3), "c") && f.frames[3].samples == 4 && f.frames[3].depth == 3,
	      "a;b;c: %lld", f.frames[3].samples);
	CHECK(!strcmp(name(&f, 4), "d") && f.frames[4].samples == 3, "a;d: %lld",
	      f.frames[4].samples);
	flame__free(&f);
}

struct svg_frame {
	long long s, n;
	unsigned int d;
	char title[128];
	double x, y, w;
	char label[128];
};

/* The frames of an SVG, in its order; how many (at most max). */
static size_t svg_frames(const char *svg, struct svg_frame *fr, size_t max)
{
	const char *p = svg;
	size_t n = 0;

	while (n < max && (p = strstr(p, "<g class=\"f\""))) {
		fr[n].label[0] = '\0';
		if (sscanf(p, "<g class=\"f\" data-s=\"%lld\" data-n=\"%lld\" data-d=\"%u\">"
			   "<title>%127[^<]</title><rect x=\"%lf\" y=\"%lf\" width=\"%lf\"",
			   &fr[n].s, &fr[n].n, &fr[n].d, fr[n].title, &fr[n].x, &fr[n].y,
			   &fr[n].w) != 7)
			break;
		sscanf(strstr(p, "<text"), "<text x=\"%*f\" y=\"%*f\">%127[^<]", fr[n].label);
		n++;
		p++;
	}
	return n;
}

static char *svg_of(const char *const *lines, size_t nr, const char *title)
{
	struct flame f;
	char *out = NULL;
	size_t len = 0, i;
	FILE *o = open_memstream(&out, &len);

	flame__init(&f, "samples");
	for (i = 0; i < nr; i++)
		flame__add_line(&f, lines[i], strlen(lines[i]));
	flame__svg(o, &f, title);
	fclose(o);
	flame__free(&f);
	return out;
}

/*
 * 11 samples on 1180 px: 107.27 px a sample. Children by name, left to
 * right; depth 3, so the root's row is at 66 + 3 * 16.
 */
static void test_svg_frames(void)
{
	static const char *const lines[] = { "e 4", "a;d 2", "a;b;c 3", "a;b 1", "a;b;c 1" };
	static const struct svg_frame want[] = {
		{ 0, 11, 0, "all (11 samples, 100.00%)", 10, 114, 1180, "all" },
		{ 0, 7, 1, "a (7 samples, 63.64%)", 10, 98, 750.91, "a" },
		{ 0, 5, 2, "b (5 samples, 45.45%)", 10, 82, 536.36, "b" },
		{ 0, 4, 3, "c (4 samples, 36.36%)", 10, 66, 429.09, "c" },
		{ 5, 2, 2, "d (2 samples, 18.18%)", 546.36, 82, 214.55, "d" },
		{ 7, 4, 1, "e (4 samples, 36.36%)", 760.91, 98, 429.09, "e" },
	};
	struct svg_frame got[8];
	char *svg = svg_of(lines, sizeof(lines) / sizeof(lines[0]), NULL);
	size_t n = svg_frames(svg, got, 8), i;

	CHECK(n == 6, "%zu frames, expected 6", n);
	for (i = 0; i < n && i < 6; i++) {
		CHECK(got[i].s == want[i].s && got[i].n == want[i].n && got[i].d == want[i].d,
		      "frame %zu: s %lld n %lld d %u", i, got[i].s, got[i].n, got[i].d);
		CHECK_STR(got[i].title, want[i].title, "tooltip");
		CHECK(got[i].x > want[i].x - 0.01 && got[i].x < want[i].x + 0.01 &&
		      got[i].w > want[i].w - 0.01 && got[i].w < want[i].w + 0.01 &&
		      got[i].y == want[i].y, "frame %zu: x %.2f y %.1f w %.2f", i, got[i].x,
		      got[i].y, got[i].w);
		CHECK_STR(got[i].label, want[i].label, "label");
	}
	CHECK(strstr(svg, "height=\"164\"") && strstr(svg, "data-kft-frames=\"6\"") &&
	      strstr(svg, "data-kft-total=\"11\"") && strstr(svg, ">Flame Graph</text>") &&
	      strstr(svg, "onload=\"kft_init()\"") &&
	      strstr(svg, "<script type=\"text/ecmascript\"><![CDATA[\n'use strict';") && !strcmp(svg + strlen(svg) - 7, "</svg>\n"),
	      "the document around the frames:\n%.600s", svg);
	free(svg);
}

static void test_svg_escapes(void)
{
	static const char *const lines[] = {
		"<a&b>;\"q'uote\" 3", "bad\xff\x01;caf\xc3\xa9 1",
		"a_function_with_a_name_far_too_long_for_its_frame_to_hold_it;x 1",
		"wide 995",
	};
	struct svg_frame got[8];
	char *svg = svg_of(lines, 4, "a <title> & \"more\"");
	size_t n = svg_frames(svg, got, 8);

	CHECK(n == 8, "%zu frames", n);
	CHECK(strstr(svg, "<title>&lt;a&amp;b&gt; (3 samples, 0.30%)</title>") &&
	      strstr(svg, "<title>&quot;q&apos;uote&quot; (3 samples") &&
	      strstr(svg, "<title>bad?? (1 samples") &&
	      strstr(svg, "<title>caf\xc3\xa9 (1 samples") &&
	      strstr(svg, ">a &lt;title&gt; &amp; &quot;more&quot;</text>"),
	      "escaped:\n%s", svg);
	/* 1 sample of 1000 is 1.18 px, 3 samples 3.54 px: no room for a label. */
	CHECK(n == 8 && !got[1].label[0] && !got[3].label[0] && !strcmp(got[7].label, "wide"),
	      "labels: '%s' '%s' '%s'", got[1].label, got[3].label, got[7].label);
	free(svg);
	{
		static const char *const two[] = {
			"a_function_with_a_long_name 1", "b 1",
		};
		svg = svg_of(two, 2, NULL);
		/* 590 px: the whole name; then half of it: cut with "..". */
		CHECK(strstr(svg, ">a_function_with_a_long_name</text>"), "fits:\n%s", svg);
		free(svg);
	}
}

static void test_label_cut(void)
{
	static const struct {
		long long samples;	/* of 1000 */
		const char *label;
	} cases[] = {
		{ 12, "" },			/* 14.16 px: (14.16 - 6) / 6.7 = 1 character */
		{ 25, "a.." },			/* 29.5 px: 3 characters */
		{ 100, "a_function_wit.." },	/* 118 px: 16 */
		{ 200, "a_function_with_a_long_name" },
		{ 1000, "a_function_with_a_long_name" },
	};
	struct svg_frame got[4];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char a[64], b[64];
		const char *lines[] = { a, b };
		char *svg;

		snprintf(a, sizeof(a), "a_function_with_a_long_name %lld", cases[i].samples);
		snprintf(b, sizeof(b), "b %lld", 1000 - cases[i].samples);
		svg = svg_of(lines, cases[i].samples < 1000 ? 2 : 1, NULL);
		CHECK(svg_frames(svg, got, 4) >= 2, "frames");
		CHECK_STR(got[1].label, cases[i].label, a);
		free(svg);
	}
}

static void test_narrow_frames_left_out(void)
{
	static const char *const lines[] = { "big 100000", "tiny;under 1" };
	struct svg_frame got[8];
	char *svg = svg_of(lines, 2, NULL);

	/* tiny is 0.0118 px: neither it nor its child is drawn. */
	CHECK(svg_frames(svg, got, 8) == 2 && strstr(svg, "data-kft-frames=\"2\"") &&
	      strstr(svg, "(the narrowest left out)"), "%s", svg);
	free(svg);
	svg = svg_of(NULL, 0, NULL);
	CHECK(svg_frames(svg, got, 8) == 0 && strstr(svg, ">No samples</text>") &&
	      strstr(svg, "data-kft-frames=\"0\""), "empty:\n%s", svg);
	free(svg);
}

static void test_limits(void)
{
	struct flame f;
	char *deep = malloc(FLAME_MAX_DEPTH * 2 + 16);
	size_t i, len = 0;

	for (i = 0; i < FLAME_MAX_DEPTH; i++)
		len += (size_t)sprintf(deep + len, "%s%c", i ? ";" : "", 'a' + (int)(i % 26));
	flame__init(&f, "samples");
	CHECK(flame__add(&f, deep, len, 1) == 0 && f.depth == FLAME_MAX_DEPTH, "1024 deep");
	strcpy(deep + len, ";z");
	errno = 0;
	CHECK(flame__add(&f, deep, len + 2, 1) == -1 && errno == E2BIG, "1025 deep: errno %d",
	      errno);
	CHECK(strstr(flame__strerror(E2BIG), "deeper than 1024 frames") != NULL, "message");
	flame__free(&f);
	free(deep);
	flame__init(&f, "samples");
	f.max_frames = 4;	/* the root and 3 */
	CHECK(flame__add(&f, "a;b;c", 5, 1) == 0, "3 frames");
	errno = 0;
	CHECK(flame__add(&f, "a;b;d", 5, 1) == -1 && errno == EOVERFLOW, "a fourth: errno %d",
	      errno);
	CHECK(flame__add(&f, "a;b", 3, 1) == 0, "no new frame: still fine");
	CHECK(strstr(flame__strerror(EOVERFLOW), "1000000 frames") != NULL, "message");
	flame__free(&f);
}

/* The input: what kd_read_flame_input() makes of text. */
static int read_input(const char *text, size_t len, struct kftlog **log, struct flame *f,
		      char **warnings)
{
	FILE *in = fmemopen((void *)text, len, "r");
	size_t wlen = 0;
	FILE *warn = open_memstream(warnings, &wlen);
	struct kftcon_info info;
	int ret;

	flame__init(f, "samples");
	ret = kd_read_flame_input(in, "in", warn, KFTLOG_MAX_ROWS, 0, NULL, log, &info, f);
	fclose(warn);
	fclose(in);
	return ret;
}

static void test_input_told_apart(void)
{
	static const struct {
		const char *text;
		int log;		/* a kft log */
		size_t lines, malformed;
	} cases[] = {
		{ "a;b 1\nc 2\n", 0, 2, 0 },
		{ "\n\na;b 1\n", 0, 1, 0 },
		{ "\nKernel Instrumentation Run ID 1\n\n--------\n1 2 3.0 f g+0x1\n", 1, 0, 0 },
		{ "--------\n1 2 3.0 f g+0x1\n", 1, 0, 0 },
		{ "No logging run registered\n", 1, 0, 0 },
		{ "ELF\x01\x02\n--\x80\n", 0, 0, 2 },
		{ "", 0, 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kftlog *log = NULL;
		struct flame f;
		char *w = NULL;
		int ret = read_input(cases[i].text, strlen(cases[i].text), &log, &f, &w);

		CHECK(ret == 0 && !!log == cases[i].log && f.lines == cases[i].lines &&
		      f.malformed == cases[i].malformed, "case %zu: ret %d, log %d, %zu lines, "
		      "%zu malformed", i, ret, !!log, f.lines, f.malformed);
		CHECK(!log || !cases[i].log || log->nr == (strstr(cases[i].text, "f g") ? 1u : 0u),
		      "case %zu: the log's rows", i);
		kftlog__free(log);
		flame__free(&f);
		free(w);
	}
}

static void test_input_warnings(void)
{
	size_t len = FLAME_LINE_MAX + 100, n;
	char *text = malloc(len + 64), *w = NULL;
	struct kftlog *log = NULL;
	struct flame f;

	n = (size_t)sprintf(text, "a 1\nno count here\n");
	memset(text + n, 'x', len);
	strcpy(text + n + len, " 5\nb 2\n");
	CHECK(read_input(text, strlen(text), &log, &f, &w) == 0 && f.lines == 2 &&
	      f.malformed == 2 && f.frames[0].samples == 3, "%zu lines, %zu malformed", f.lines,
	      f.malformed);
	CHECK(w && strstr(w, "in:2: warning: malformed line skipped") &&
	      strstr(w, "in:3: warning: malformed line skipped"), "warnings:\n%s", w);
	flame__free(&f);
	free(w);
	/* A log's line numbers count the blank lines before its header. */
	w = NULL;
	strcpy(text, "\n\n--------\n1 2 3\n");
	CHECK(read_input(text, strlen(text), &log, &f, &w) == 0 && log, "log");
	CHECK(w && strstr(w, "in:4: warning: malformed row skipped"), "warnings:\n%s", w);
	kftlog__free(log);
	flame__free(&f);
	free(w);
	free(text);
}

UNIT_MAIN(test_folded_lines, test_prefixes_merged, test_svg_frames, test_svg_escapes,
	  test_label_cut, test_narrow_frames_left_out, test_limits, test_input_told_apart,
	  test_input_warnings)
