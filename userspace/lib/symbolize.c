// SPDX-License-Identifier: GPL-2.0
/* Addresses in text to symbols: see symbolize.h. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "linereader.h"
#include "symbolize.h"

static int is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/*
 * The length of the address at s (a word start), or 0: "0x" + 1..16 hex
 * digits, or exactly 8 or 16 hex digits.
 */
static size_t address_length(const char *s, uint64_t *addr)
{
	size_t pre = 0, n = 0;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		pre = 2;
	while (isxdigit((unsigned char)s[pre + n])) {
		int c = tolower((unsigned char)s[pre + n]);

		v = v << 4 | (uint64_t)(isdigit(c) ? c - '0' : c - 'a' + 10);
		n++;
	}
	if (is_word_char(s[pre + n]) || n == 0 || n > 16)
		return 0;
	if (!pre && n != 8 && n != 16)
		return 0;
	*addr = v;
	return pre + n;
}

const char *symbolize_word(const struct ksyms *ks, const char *word, char *buf, size_t size)
{
	const struct ksym *sym;
	uint64_t addr;

	if (address_length(word, &addr) != strlen(word))
		return NULL;
	sym = ksyms__map_addr(ks, addr);
	return sym ? ksyms__format(sym, addr, buf, size) : NULL;
}

/*
 * Where symbolized text goes: a buffer, cut when full; with a stream f, the
 * buffer is a staging area written out when full, so never cut.
 */
struct symbolize_sink {
	char *buf;
	size_t size, o;
	FILE *f;
	char last;		/* the last character written */
};

static int sink_full(const struct symbolize_sink *s)
{
	return !s->f && s->o + 1 >= s->size;
}

static void sink_flush(struct symbolize_sink *s)
{
	fwrite(s->buf, 1, s->o, s->f);
	s->o = 0;
}

static void sink_put(struct symbolize_sink *s, char c)
{
	if (s->f && s->o == s->size)
		sink_flush(s);
	if (!sink_full(s))
		s->buf[s->o++] = c;
	s->last = c;
}

/* Copies line up to end (or its NUL) to s, addresses replaced; the number replaced. */
static int symbolize_to(const struct ksyms *ks, const char *line, const char *end,
			struct symbolize_sink *s)
{
	size_t len, w;
	const struct ksym *sym;
	int replaced = 0;
	char name[KSYMS_FORMAT_MAX];
	uint64_t addr;

	while (line < end && *line && !sink_full(s)) {
		len = 0;
		if (!is_word_char(s->last))
			len = address_length(line, &addr);
		sym = len ? ksyms__map_addr(ks, addr) : NULL;
		if (!sym) {
			sink_put(s, *line++);
			continue;
		}
		ksyms__format(sym, addr, name, sizeof(name));
		for (w = 0; name[w] && !sink_full(s); w++)
			sink_put(s, name[w]);
		/* Keep the columns: pad to the width of the address. */
		for (; w < len && !sink_full(s); w++)
			sink_put(s, ' ');
		line += len;
		replaced++;
	}
	return replaced;
}

int symbolize_line(const struct ksyms *ks, const char *line, char *out, size_t size)
{
	struct symbolize_sink s = { .buf = out, .size = size };
	int replaced;

	if (!size)
		return 0;
	replaced = symbolize_to(ks, line, line + strlen(line), &s);
	out[s.o] = '\0';
	return replaced;
}

int symbolize_fputs(const struct ksyms *ks, const char *line, FILE *out)
{
	char buf[4096];
	struct symbolize_sink s = { .buf = buf, .size = sizeof(buf), .f = out };
	int replaced = symbolize_to(ks, line, line + strlen(line), &s);

	sink_flush(&s);
	return replaced;
}

/* One line, symbolized; a NUL byte in it is copied too. */
static void symbolize_line_to(const struct ksyms *ks, const char *line, size_t len, FILE *out)
{
	const char *p = line;

	for (;;) {
		symbolize_fputs(ks, p, out);
		p += strlen(p);
		if (p == line + len)
			break;
		putc(*p++, out);
	}
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The start of the word after the one at p, or the line's end. */
static const char *next_word(const char *p)
{
	while (*p && !is_blank(*p))
		p++;
	while (is_blank(*p))
		p++;
	return p;
}

/*
 * A row of a trace log, symbolized: its FUNCTION and CALLER words only.
 * The words after them (the return value, args=, strN=) are values, which
 * a kernel address among them would not be the symbol of, and which kd
 * reads back as numbers. A line of fewer words, or with a NUL byte, is
 * symbolized whole.
 */
static void symbolize_row_to(const struct ksyms *ks, const char *line, size_t len, FILE *out)
{
	char buf[4096];
	struct symbolize_sink s = { .buf = buf, .size = sizeof(buf), .f = out };
	const char *func = line, *caller, *end;
	int i;

	while (is_blank(*func))
		func++;
	for (i = 0; i < 3; i++)
		func = next_word(func);
	caller = next_word(func);
	if (!*caller || memchr(line, '\0', len)) {
		symbolize_line_to(ks, line, len, out);
		return;
	}
	for (end = caller; *end && !is_blank(*end); end++)
		;
	fwrite(line, 1, (size_t)(func - line), out);
	symbolize_to(ks, func, end, &s);
	sink_flush(&s);
	fputs(end, out);
}

/* symbolize_stream() with the caller's line buffer. */
static int symbolize_lines(const struct ksyms *ks, FILE *in, FILE *out,
			   struct kftlog_scan *scan, char *line)
{
	struct kftlog_names names;
	struct kftlog_row row;
	enum line_status st;
	int in_long = 0;
	size_t len;

	while ((st = line_read(in, line, SYMBOLIZE_LINE_MAX, &len)) == LINE_WHOLE ||
	       st == LINE_PART) {
		/* Count- and stacks-mode logs name their functions already. */
		if (st == LINE_PART || in_long || (scan->count_mode && scan->in_rows) ||
		    scan->stacks_mode)
			fwrite(line, 1, len, out);
		else if (scan->in_rows)
			symbolize_row_to(ks, line, len, out);
		else
			symbolize_line_to(ks, line, len, out);
		/* One row tells it is a log: the scan stops there. */
		if (st == LINE_WHOLE && !scan->rows)
			kftlog_scan_line(scan, in_long ? NULL : line, len, &row, &names);
		in_long = st == LINE_PART;
		if (ferror(out))
			return -1;
	}
	if (in_long && !scan->rows)
		kftlog_scan_line(scan, NULL, 0, &row, &names);
	return st == LINE_ERROR ? -1 : 0;
}

int symbolize_stream(const struct ksyms *ks, FILE *in, FILE *out, struct kftlog_scan *scan)
{
	char *line = malloc(SYMBOLIZE_LINE_MAX);
	struct kftlog_scan own = { 0 };
	int ret;

	if (!line) {
		errno = ENOMEM;
		return -1;
	}
	ret = symbolize_lines(ks, in, out, scan ? scan : &own, line);
	free(line);
	return ret;
}

/* The release map is known to be of, in buf (size bytes); NULL: unknown. */
static const char *symbolize_map_release(const char *map, char *buf, size_t size)
{
	const char *base = strrchr(map, '/') ? strrchr(map, '/') + 1 : map;
	char *real = realpath(map, NULL);
	int running = real && !strcmp(real, "/proc/kallsyms");
	struct utsname u;

	free(real);
	if (running && !uname(&u)) {
		snprintf(buf, size, "%s", u.release);
		return buf;
	}
	if (!strncmp(base, "System.map-", 11) && base[11]) {
		snprintf(buf, size, "%s", base + 11);
		return buf;
	}
	return NULL;
}

/*
 * A second "Kernel:" line puts in doubt which kernel wrote the log: kft
 * writes one, after the run's ID, so the first is taken, and the other
 * said. 1 if there is one.
 */
static int symbolize_kernel_again(const struct kftlog_scan *scan, const char *tool,
				  const char *name, FILE *warn)
{
	if (!scan->kernel_again_line)
		return 0;
	if (warn && scan->kernel[0])
		fprintf(warn, "%s: warning: %s:%u: a second 'Kernel:' line, ignored: %s is taken "
			"as a log of kernel %s (line %u)\n", tool, name, scan->kernel_again_line,
			name, scan->kernel, scan->kernel_line);
	else if (warn)
		fprintf(warn, "%s: warning: %s:%u: a second 'Kernel:' line, ignored: the first "
			"(line %u) names no kernel\n", tool, name, scan->kernel_again_line,
			scan->kernel_line);
	return 1;
}

int symbolize_check_kernel(const char *map, const struct kftlog_scan *scan, const char *tool,
			   const char *name, FILE *warn)
{
	char buf[KFTLOG_RELEASE_MAX + 1];
	const char *release;
	int again = symbolize_kernel_again(scan, tool, name, warn);

	if (!scan->kernel[0])
		return again;
	release = symbolize_map_release(map, buf, sizeof(buf));
	if (!release || !strcmp(release, scan->kernel))
		return again;
	if (warn)
		fprintf(warn, "%s: warning: %s is a log of kernel %s, but %s is of kernel %s: "
			"its symbols are not the log's (give -m the traced kernel's "
			"kallsyms)\n", tool, name, scan->kernel, map, release);
	return 1;
}
