// SPDX-License-Identifier: GPL-2.0
/*
 * kft funclatency: the durations of kernel functions' calls as log2
 * histograms, from a histogram-mode run (the module counts each call in
 * its function's bucket), printed as libbpf-tools' funclatency prints
 * them: one histogram of every PATTERN's calls (-F: one a function, as
 * bcc's -F; -A N: one a function and value of its argument N, as
 * bpftrace's @us[arg0] = hist(...); --types: the value typed), at Ctrl-C
 * or the end of -d, or every -i seconds (each of the calls since the
 * previous one: two reads subtracted, as kft funccount -i).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "kft.h"
#include "typedlog.h"

/* A typed value of -A's argument: "size=64", "dfd=-100". */
#define KFT_FL_TYPED_MAX	128

/* What one funclatency run needs between its summaries. */
struct kft_fl {
	const struct kft_params *p;
	struct kft_session s;
	struct kft_counts prev;		/* the buckets at the last summary */
	struct typedlog *types;		/* --types and the files: -A's values typed */
};

/* libbpf-tools' unit names ("nsec"), by -u and -m. */
static const char *const kft_fl_units[] = { "nsec", "usec", "msec" };

static void kft_fl_banner(const struct kft_params *p)
{
	printf("Tracing ");
	kft_print_patterns(p, false);	/* as libbpf-tools: unquoted */
	printf(".  Hit Ctrl-C to exit\n");
	fflush(stdout);
}

/*
 * A histogram's title: the function, and with -A the value, in decimal as
 * funccount -A's ("arg2 = 64"), or typed as the parameter it is
 * ("size=64", as a typed call writes it).
 */
static void kft_fl_title(const struct kft_fl *fl, const struct kft_hist_row *row)
{
	char typed[KFT_FL_TYPED_MAX];
	const char *value;

	printf("\nFunction = %s", kft_bcc_name(row->name, fl->p->module));
	if (fl->p->per_arg) {
		value = fl->types ? kft_typed_value(fl->types, row->name,
						    (unsigned int)fl->p->per_arg, row->value,
						    typed, sizeof(typed)) : row->value;
		if (value == row->value)
			printf(", arg%ld = %s", fl->p->per_arg, value);
		else
			printf(", %s", value);
	}
	printf("\n");
}

/* The histograms of the calls in rows: one, or one a function (-F), or one a function and value (-A). */
static void kft_fl_print(const struct kft_fl *fl, const struct kft_hist_row *rows, size_t n)
{
	const struct kft_params *p = fl->p;
	uint64_t sum[KFT_HIST_BUCKETS];
	size_t i;

	if (!p->per_function && !p->per_arg) {
		kft_hists_sum(rows, n, sum);
		kft_hist_print(stdout, sum, kft_fl_units[p->units]);
		return;
	}
	/* The most called last, as funccount's table. */
	for (i = 0; i < n; i++) {
		kft_fl_title(fl, &rows[i]);
		kft_hist_print(stdout, rows[i].buckets, kft_fl_units[p->units]);
	}
}

/* -A: the calls since the last summary that found the module's table full. */
static void kft_fl_not_counted(const struct kft_counts *cur, const struct kft_counts *prev)
{
	if (cur->head.not_counted > prev->head.not_counted)
		fprintf(stderr, "kft: warning: %" PRIu64 " calls not timed: the table of "
			"functions and values was full (module parameter histogram_functions)\n",
			cur->head.not_counted - prev->head.not_counted);
}

/* One summary: the calls since the previous one. 0, 1 when the run stopped, -1 on error. */
static int kft_fl_summary(void *ctx)
{
	struct kft_fl *fl = ctx;
	struct kft_hist_row *rows;
	struct kft_counts cur;
	char stamp[16];
	size_t n;

	if (kft_session_counts(&fl->s, KFT_DATA_HISTOGRAM, KFT_HISTS_MAX, &cur))
		return -1;
	rows = kft_hists_delta(&cur, &fl->prev, &n);
	if (!rows && cur.nr) {
		fprintf(stderr, "kft: out of memory\n");
		kft_counts_free(&cur);
		return -1;
	}
	kft_fl_not_counted(&cur, &fl->prev);
	printf("\n");
	if (fl->p->timestamps)
		printf("%-8s\n", kft_stamp(stamp, sizeof(stamp), "%H:%M:%S"));
	kft_fl_print(fl, rows, n);
	fflush(stdout);
	free(rows);
	kft_counts_free(&fl->prev);
	fl->prev = cur;
	return cur.head.stopped;
}

int kft_funclatency(const struct kft_params *p, const struct kft_paths *paths)
{
	struct kft_fl fl = { .p = p };
	char err[256] = "";
	int ret;

	if (kft_types_open(p, "funclatency", &fl.types))
		return 1;
	if (kft_session_start(&fl.s, paths, p, kft_funclatency_config(p, err, sizeof(err)), err)) {
		typedlog__free(fl.types);
		return 1;
	}
	kft_fl_banner(p);
	ret = kft_session_loop(&fl.s, p->interval, p->duration, kft_fl_summary, &fl);
	kft_counts_free(&fl.prev);
	typedlog__free(fl.types);
	printf("Exiting trace of ");
	kft_print_patterns(p, false);	/* as libbpf-tools: unquoted */
	printf("\n");
	return kft_session_end(&fl.s, kft_session_stop(&fl.s, ret));
}
