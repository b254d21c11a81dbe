// SPDX-License-Identifier: GPL-2.0
/*
 * kft funccount: per-function call counts of a count-mode run, as the
 * original funccount (perf-tools) printed them from ftrace's function
 * profiler: one summary at Ctrl-C or the end of -d, or one every -i
 * seconds, each of the calls since the previous one.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kft.h"
#include "typedlog.h"

/* A typed value of -A's argument: "size=64", "dfd=-100". */
#define KFT_FC_TYPED_MAX	128

/* What one funccount run needs between its summaries. */
struct kft_fc {
	const struct kft_params *p;
	struct kft_session s;
	struct kft_counts prev;		/* the counts at the last summary */
	struct typedlog *types;		/* --types and the files: -A's values typed */
};

/*
 * -A's values typed (rows of @d, still named module:name): each row's
 * value that a source types then points into @typed, n of
 * KFT_FC_TYPED_MAX.
 */
static void kft_fc_type_values(struct kft_fc *fc, struct kft_delta *d, size_t n, char *typed)
{
	size_t i;

	for (i = 0; i < n; i++)
		d[i].value = kft_typed_value(fc->types, d[i].name, (unsigned int)fc->p->per_arg,
					     d[i].value, typed + i * KFT_FC_TYPED_MAX,
					     KFT_FC_TYPED_MAX);
}

/* The banner: Tracing "vfs_*"... Ctrl-C to end. */
static void kft_fc_banner(const struct kft_params *p)
{
	printf("Tracing ");
	kft_print_patterns(p, true);
	if (p->duration_arg)
		printf(" for %s seconds", p->duration_arg);
	if (p->top)
		printf(". Top %ld only", p->top);
	printf(p->duration_arg ? "...\n" : "... Ctrl-C to end.\n");
	fflush(stdout);
}

/* One summary: the calls since the previous one. 0, 1 when the run stopped, -1 on error. */
static int kft_fc_summary(void *ctx)
{
	struct kft_fc *fc = ctx;
	struct kft_counts cur;
	struct kft_delta *d;
	char stamp[64], *typed = NULL;
	size_t n, i;

	if (kft_session_counts(&fc->s, KFT_DATA_COUNT, KFT_COUNTS_MAX, &cur))
		return -1;
	d = kft_counts_delta(&cur, &fc->prev, &n);
	if (!d && cur.nr) {
		fprintf(stderr, "kft: out of memory\n");
		kft_counts_free(&cur);
		return -1;
	}
	if (fc->types && n) {
		typed = calloc(n, KFT_FC_TYPED_MAX);
		if (!typed) {
			fprintf(stderr, "kft: out of memory\n");
			free(d);
			kft_counts_free(&cur);
			return -1;
		}
		kft_fc_type_values(fc, d, n, typed);
	}
	for (i = 0; i < n; i++)
		d[i].name = kft_bcc_name(d[i].name, fc->p->module);
	if (cur.head.not_counted > fc->prev.head.not_counted)
		fprintf(stderr, "kft: warning: %" PRIu64 " calls not counted: the table of "
			"functions and values was full (module parameter count_functions)\n",
			cur.head.not_counted - fc->prev.head.not_counted);
	kft_funccount_print(stdout, d, n, fc->p->top, (unsigned int)fc->p->per_arg,
			    fc->p->timestamps ?
			    kft_stamp(stamp, sizeof(stamp), "%a %b %e %H:%M:%S %Z %Y") : NULL);
	fflush(stdout);
	free(typed);
	free(d);
	kft_counts_free(&fc->prev);
	fc->prev = cur;
	return cur.head.stopped;
}

int kft_funccount(const struct kft_params *p, const struct kft_paths *paths)
{
	struct kft_fc fc = { .p = p };
	char err[256] = "";
	int ret;

	if (kft_types_open(p, "funccount", &fc.types))
		return 1;
	if (kft_session_start(&fc.s, paths, p, kft_funccount_config(p, err, sizeof(err)), err)) {
		typedlog__free(fc.types);
		return 1;
	}
	kft_fc_banner(p);
	ret = kft_session_loop(&fc.s, p->interval, p->duration, kft_fc_summary, &fc);
	kft_counts_free(&fc.prev);
	typedlog__free(fc.types);
	printf("\nEnding tracing...\n");
	return kft_session_end(&fc.s, kft_session_stop(&fc.s, ret));
}
