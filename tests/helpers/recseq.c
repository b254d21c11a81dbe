// SPDX-License-Identifier: GPL-2.0
/*
 * recseq: check a kft record file of kft_test_seq's calls, the i-th of
 * each "seq N" returning i, without loading it: the long streaming test
 * (tests/vm/stream_long.tc) writes files far larger than the guest could
 * hold as text, and kd keeps a log's rows in memory.
 *
 *	recseq FILE FUNC N
 *
 * Every row must be a call of FUNC (its address in hex), without
 * extensions, and each CPU's rows must follow the sequence 1..N, 1..N, ...
 * from the first call to the last, N: a gap is calls missing from the
 * file, counted (those before a CPU's first row and after its last too).
 * Prints "rows R missing M" on standard output: R + M is every call made
 * (less a run of N missing at once, which no count can see), and M must
 * equal what the file's header says was lost.
 * Exit status 1 with the row on a row that breaks the rules.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../module/kft_stream_row.h"

/* The first line and the room for the header, with the header's end in it. */
#define RECSEQ_HEAD_MAX		(256 * 1024)
#define RECSEQ_CPUS		4096
/* Rows read at once. */
#define RECSEQ_BATCH		16384

struct recseq {
	uint64_t func, n;
	uint64_t rows, missing;
	uint64_t last[RECSEQ_CPUS];	/* each CPU's last value, 0: none yet */
};

/* The offset of the first row: after the header's "--------" line. */
static long recseq_rows_at(FILE *f)
{
	static char head[RECSEQ_HEAD_MAX + 1];
	size_t got = fread(head, 1, RECSEQ_HEAD_MAX, f);
	char *dash, *nl;

	head[got] = '\0';
	if (got < 8 || memcmp(head, "\x7f" "KFT record", 11)) {
		fprintf(stderr, "recseq: not a kft record file\n");
		return -1;
	}
	/* The header's last line is its columns' rule, as kft report finds it. */
	dash = memmem(head, got, "\n--------", 9);
	nl = dash ? memchr(dash + 1, '\n', got - (size_t)(dash + 1 - head)) : NULL;
	if (!nl) {
		fprintf(stderr, "recseq: no header's end in the first %d bytes\n", RECSEQ_HEAD_MAX);
		return -1;
	}
	return nl + 1 - head;
}

/* How many calls are missing between @prev and @v in 1..N, 1..N, ... */
static uint64_t recseq_gap(const struct recseq *r, uint64_t prev, uint64_t v)
{
	uint64_t want = prev == r->n ? 1 : prev + 1;

	return v >= want ? v - want : r->n - want + v;
}

static int recseq_row(struct recseq *r, const struct kft_stream_row *row, uint64_t i)
{
	if (row->flags & ~(KFT_STREAM_ROW_ERROR | KFT_STREAM_ROW_HIDDEN | KFT_STREAM_ROW_OPEN) ||
	    row->func != r->func || row->cpu >= RECSEQ_CPUS || !row->retval ||
	    row->retval > r->n || (row->flags & KFT_STREAM_ROW_OPEN)) {
		fprintf(stderr, "recseq: row %" PRIu64 ": func 0x%" PRIx64 " cpu %u flags 0x%x "
			"retval %" PRIu64 ": not a returned call of 0x%" PRIx64 " in 1..%" PRIu64 "\n",
			i, (uint64_t)row->func, row->cpu, row->flags, (uint64_t)row->retval,
			r->func, r->n);
		return -1;
	}
	/* (A CPU's first call of all returned 1.) */
	r->missing += r->last[row->cpu] ? recseq_gap(r, r->last[row->cpu], row->retval) :
		      row->retval - 1;
	r->last[row->cpu] = row->retval;
	r->rows++;
	return 0;
}

static int recseq_file(struct recseq *r, FILE *f)
{
	static struct kft_stream_row rows[RECSEQ_BATCH];
	long at = recseq_rows_at(f);
	size_t got, i;

	if (at < 0 || fseeko(f, at, SEEK_SET)) {
		if (at >= 0)
			fprintf(stderr, "recseq: %s\n", strerror(errno));
		return -1;
	}
	while ((got = fread(rows, sizeof(rows[0]), RECSEQ_BATCH, f)) > 0)
		for (i = 0; i < got; i++)
			if (recseq_row(r, &rows[i], r->rows))
				return -1;
	if (ferror(f)) {
		fprintf(stderr, "recseq: read: %s\n", strerror(errno));
		return -1;
	}
	/* Every round ends with N: the calls after a CPU's last row were lost too. */
	for (i = 0; i < RECSEQ_CPUS; i++)
		r->missing += r->last[i] ? r->n - r->last[i] : 0;
	/* fread() leaves a part of a row unsaid: the file must end with a whole one. */
	if ((ftello(f) - at) % (off_t)sizeof(rows[0])) {
		fprintf(stderr, "recseq: the file ends in the middle of row %" PRIu64 "\n", r->rows);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct recseq r;
	FILE *f;
	int ret;

	if (argc != 4) {
		fputs("usage: recseq FILE FUNC N\n", stderr);
		return 2;
	}
	r.func = strtoull(argv[2], NULL, 16);
	r.n = strtoull(argv[3], NULL, 10);
	f = fopen(argv[1], "r");
	if (!f || !r.func || !r.n) {
		fprintf(stderr, "recseq: %s: %s\n", argv[1], f ? "bad FUNC or N" : strerror(errno));
		return 2;
	}
	ret = recseq_file(&r, f);
	fclose(f);
	if (ret)
		return 1;
	printf("rows %" PRIu64 " missing %" PRIu64 "\n", r.rows, r.missing);
	return 0;
}
