// SPDX-License-Identifier: GPL-2.0
/*
 * One read of a stream run's /proc/kft_data (log stream), for kft record:
 * its header kept (the last read's becomes the file's), its rows written
 * out as they come, in bounded memory, and checked: the rows against the
 * header's count, the calls lost against their sum per CPU. Pure: files
 * in, files out (unit-tested).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kft.h"
#include "linereader.h"
#include "words.h"

/* Malformed lines named one by one; after these, only counted. */
#define KFT_STREAM_WARNINGS_SHOWN	10

void kft_stream_init(struct kft_stream_read *r, FILE *rows, FILE *warn, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->out = rows;
	r->warn = warn;
	r->name = name;
	kft_head_init(&r->head);
}

void kft_stream_free(struct kft_stream_read *r)
{
	free(r->header);
	free(r->lost_cpus);
	r->header = NULL;
	r->lost_cpus = NULL;
	r->header_len = r->header_cap = r->nr_cpus = 0;
}

void kft_stream_move(struct kft_stream_read *to, struct kft_stream_read *r)
{
	kft_stream_free(to);
	*to = *r;
	r->header = NULL;
	r->lost_cpus = NULL;
	kft_stream_free(r);
}

static int kft_stream_starts(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(line, prefix, n);
}

/* The header's line, kept with a newline; -1 with errno (EFBIG, ENOMEM). */
static int kft_stream_keep(struct kft_stream_read *r, const char *line, size_t len)
{
	size_t need = r->header_len + len + 2, cap;
	char *bigger;

	if (len && line[len - 1] == '\n')
		len--;
	if (need > KFT_STREAM_HEADER_MAX) {
		errno = EFBIG;
		return -1;
	}
	if (need > r->header_cap) {
		cap = r->header_cap ? r->header_cap * 2 : 4096;
		while (cap < need)
			cap *= 2;
		bigger = realloc(r->header, cap);
		if (!bigger) {
			errno = ENOMEM;
			return -1;
		}
		r->header = bigger;
		r->header_cap = cap;
	}
	memcpy(r->header + r->header_len, line, len);
	r->header_len += len;
	r->header[r->header_len++] = '\n';
	r->header[r->header_len] = '\0';
	return 0;
}

/* One whole number of the text after a header line's prefix: 0, or -1. */
static int kft_stream_number(const char *s, size_t len, unsigned long long *v,
			     const char *unit)
{
	struct word w[3];
	size_t nr = words_split(s, len, w, 3);
	long long n;

	if (nr < 1 || word_ll(&w[0], &n) || n < 0)
		return -1;
	/* "Log stream = N entries a CPU": N, then its unit as written. */
	if (unit) {
		size_t ulen = strlen(unit);
		const char *rest = w[0].s + w[0].len;
		size_t left = (size_t)(s + len - rest);

		while (left && (*rest == ' ' || *rest == '\t')) {
			rest++;
			left--;
		}
		while (left && (rest[left - 1] == '\n' || rest[left - 1] == ' '))
			left--;
		if (left != ulen || memcmp(rest, unit, ulen))
			return -1;
	} else if (nr != 1) {
		return -1;
	}
	*v = (unsigned long long)n;
	return 0;
}

/*
 * "a b c ...": a number a CPU, CPU 0 first. 0, -1 (not numbers, too many),
 * or -2 (no memory: errno ENOMEM).
 */
static int kft_stream_lost_cpus(struct kft_stream_read *r, const char *s, size_t len)
{
	const char *end = s + len;
	size_t cap = r->nr_cpus;
	unsigned long long *bigger;
	struct word w;
	long long n;

	r->nr_cpus = 0;
	while (words_split(s, (size_t)(end - s), &w, 1) == 1) {
		if (r->nr_cpus == KFT_STREAM_CPUS_MAX || word_ll(&w, &n) || n < 0)
			return -1;
		if (r->nr_cpus == cap || !r->lost_cpus) {
			cap = cap ? cap * 2 : 64;
			bigger = realloc(r->lost_cpus, cap * sizeof(*bigger));
			if (!bigger) {
				errno = ENOMEM;
				return -2;
			}
			r->lost_cpus = bigger;
		}
		r->lost_cpus[r->nr_cpus++] = (unsigned long long)n;
		s = w.s + w.len;
	}
	return r->nr_cpus ? 0 : -1;
}

static void kft_stream_bad(struct kft_stream_read *r, const char *what)
{
	r->bad_header++;
	if (r->warn)
		fprintf(r->warn, "kft: record: %s:%u: the header's '%s' line says no number\n",
			r->name, r->scan.lineno, what);
}

/* A header line: kept, and the stream's own lines read. */
static int kft_stream_header_line(struct kft_stream_read *r, const char *line, size_t len)
{
	char text[256];
	size_t n;
	int ret;

	if (!line) {
		r->bad_header++;
		if (r->warn)
			fprintf(r->warn, "kft: record: %s:%u: a header line over %d bytes\n", r->name,
				r->scan.lineno, KFT_STREAM_LINE_MAX);
		return 0;
	}
	if (kft_stream_keep(r, line, len))
		return -1;
	n = len < sizeof(text) ? len : sizeof(text) - 1;
	memcpy(text, line, n);
	text[n] = '\0';
	text[strcspn(text, "\n")] = '\0';
	kft_head_line(&r->head, text);
	if (kft_stream_starts(line, len, KFT_STREAM_LINE)) {
		n = strlen(KFT_STREAM_LINE);
		r->stream = 1;
		if (kft_stream_number(line + n, len - n, &r->per_cpu, "entries a CPU"))
			kft_stream_bad(r, "Log stream");
	} else if (kft_stream_starts(line, len, KFT_STREAM_LOST_CPU_LINE)) {
		n = strlen(KFT_STREAM_LOST_CPU_LINE);
		ret = kft_stream_lost_cpus(r, line + n, len - n);
		if (ret == -2)
			return -1;
		r->has_lost_cpus = !ret;
		if (ret)
			kft_stream_bad(r, "Calls lost per CPU");
	} else if (kft_stream_starts(line, len, KFT_STREAM_LOST_LINE)) {
		n = strlen(KFT_STREAM_LOST_LINE);
		r->has_lost = !kft_stream_number(line + n, len - n, &r->lost, NULL);
		if (!r->has_lost)
			kft_stream_bad(r, "Calls lost");
	}
	return 0;
}

int kft_stream_line(struct kft_stream_read *r, const char *line, size_t len)
{
	struct kftlog_row row;
	struct kftlog_names names;
	int in_rows = r->scan.in_rows;
	const char *scanned = line && len < KFTLOG_LINE_MAX ? line : NULL;

	switch (kftlog_scan_line(&r->scan, scanned, len, &row, &names)) {
	case KFTLOG_ROW:
		r->rows++;
		if (!r->out)
			return 0;
		fwrite(line, 1, len, r->out);
		if (!len || line[len - 1] != '\n')
			fputc('\n', r->out);
		return 0;
	case KFTLOG_MALFORMED:
		r->malformed++;
		if (r->warn && r->malformed <= KFT_STREAM_WARNINGS_SHOWN)
			fprintf(r->warn, "kft: record: %s:%u: malformed row skipped (not 'ENTRY "
				"DELTA PID.CPU FUNCTION CALLER COMM RETURN')\n", r->name,
				r->scan.lineno);
		return 0;
	default:
		/* The dashes end the header: kept with it. Blank lines after are nothing. */
		return in_rows ? 0 : kft_stream_header_line(r, line, len);
	}
}

int kft_stream_read_all(struct kft_stream_read *r, FILE *in)
{
	char *buf = malloc(KFT_STREAM_LINE_MAX);
	enum line_status st = LINE_EOF;
	int in_long = 0, ret = 0;
	size_t len;

	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	while (!ret && ((st = line_read(in, buf, KFT_STREAM_LINE_MAX, &len)) == LINE_WHOLE ||
			st == LINE_PART)) {
		/* A long line counts once, at its first part. */
		if (!in_long)
			ret = kft_stream_line(r, st == LINE_PART ? NULL : buf,
					      st == LINE_PART ? 0 : len);
		in_long = st == LINE_PART;
	}
	if (!ret && st == LINE_ERROR)
		ret = -1;
	free(buf);
	return ret;
}

int kft_stream_check(const struct kft_stream_read *r)
{
	unsigned long long sum = 0;
	int problems = r->bad_header;
	size_t i;

	if (r->malformed > KFT_STREAM_WARNINGS_SHOWN && r->warn)
		fprintf(r->warn, "kft: record: %s: %llu malformed rows skipped in all\n", r->name,
			r->malformed);
	problems += r->malformed > 0;
	if (!r->scan.in_rows) {
		if (r->warn)
			fprintf(r->warn, "kft: record: %s: no '--------' line: the read has no rows\n",
				r->name);
		problems++;
	}
	if (r->scan.unterminated) {
		if (r->warn)
			fprintf(r->warn, "kft: record: %s: the read ends inside a line\n", r->name);
		problems++;
	}
	if (!r->scan.has_header_rows) {
		if (r->warn)
			fprintf(r->warn, "kft: record: %s: the header counts no rows (no '%s' "
				"line)\n", r->name, KFTLOG_ROWS_LINE "N");
		problems++;
	} else if ((unsigned long long)r->scan.header_rows != r->rows + r->malformed) {
		if (r->warn)
			fprintf(r->warn, "kft: record: %s: %llu rows read, but the header counts "
				"%lld\n", r->name, r->rows + r->malformed, r->scan.header_rows);
		problems++;
	}
	if (!r->has_lost || !r->has_lost_cpus) {
		if (r->warn)
			fprintf(r->warn, "kft: record: %s: the header does not say how many calls "
				"were lost (no '%sL' or '%s...' line)\n", r->name,
				KFT_STREAM_LOST_LINE, KFT_STREAM_LOST_CPU_LINE);
		return problems + 1;
	}
	for (i = 0; i < r->nr_cpus; i++)
		sum += r->lost_cpus[i];
	if (sum != r->lost) {
		if (r->warn)
			fprintf(r->warn, "kft: record: %s: %llu calls lost, but the CPUs' losses add "
				"up to %llu\n", r->name, r->lost, sum);
		problems++;
	}
	return problems;
}

int kft_stream_header_write(FILE *out, const char *header, size_t len,
			    unsigned long long rows)
{
	const char *line = header, *end = header + len, *nl;
	size_t n;
	int counted = 0;

	for (; line < end; line = nl) {
		nl = memchr(line, '\n', (size_t)(end - line));
		nl = nl ? nl + 1 : end;
		n = (size_t)(nl - line);
		if (!counted && kft_stream_starts(line, n, "--------")) {
			fprintf(out, "%s%llu\n", KFTLOG_ROWS_LINE, rows);
			counted = 1;
		}
		if (kft_stream_starts(line, n, KFTLOG_ROWS_LINE)) {
			if (!counted)
				fprintf(out, "%s%llu\n", KFTLOG_ROWS_LINE, rows);
			counted = 1;
			continue;
		}
		fwrite(line, 1, n, out);
	}
	return ferror(out) ? -1 : 0;
}

void kft_stream_lost_put(const struct kft_stream_read *r, FILE *out)
{
	const char *sep = " (";
	size_t i;

	fprintf(out, "%llu lost", r->lost);
	for (i = 0; i < r->nr_cpus && r->lost; i++) {
		if (!r->lost_cpus[i])
			continue;
		fprintf(out, "%sCPU %zu: %llu", sep, i, r->lost_cpus[i]);
		sep = ", ";
	}
	if (sep[0] == ',')
		fputc(')', out);
}
