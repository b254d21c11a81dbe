/* SPDX-License-Identifier: GPL-2.0 */
/* kd, the kft log analyzer: shared types. */
#ifndef KFT_KD_H
#define KFT_KD_H

#include <stddef.h>
#include <stdio.h>

#include "kftlog.h"
#include "ksyms.h"
#include "strtab.h"

enum kd_mode { KD_SUMMARY, KD_CALLTREE, KD_FOLDED, KD_JSON, KD_SVG };

struct kd_params {
	enum kd_mode mode;
	const char *file;	/* NULL: standard input */
	const char *map;	/* -m: symbolize raw addresses */
	const char *fields;	/* -f letters; NULL: the mode's default */
	int long_fields;	/* -l */
	long long top;		/* -n; 0: all */
	long long min_time;	/* -t: only functions with more total time */
	char sort;		/* -s letter */
	int interlace;		/* -i */
	int max_depth;		/* -d */
	int name_width;		/* -w (the original's -m in call-tree mode) */
	int verbose;		/* -V */
	size_t max_rows;	/* --max-rows: more rows are an error */
	int help;
};

/* One call of the log, placed in the call tree. */
struct kd_call {
	const struct kftlog_row *row;
	const char *name;	/* the function */
	const char *caller_fn;	/* the caller's function, NULL if unknown */
	int thread;		/* pid, or -2 - cpu for interrupt context */
	long thread_first;	/* the first call of the same thread */
	long parent;		/* index, -1 for a root */
	int depth;
	long long sub;		/* time in children (their known durations) */
};

struct kd_tree {
	struct kd_call *calls;	/* in log (entry) order */
	size_t nr;
	struct strtab names;	/* callers' functions, symbolized names */
};

int kd_parse_args(int argc, char **argv, struct kd_params *p, char *err, size_t errlen);
void kd_usage(FILE *out);

int kd_tree_build(struct kd_tree *t, const struct kftlog *log, const struct ksyms *ks);
void kd_tree_free(struct kd_tree *t);
/* A call's known duration, 0 for open calls. */
long long kd_call_time(const struct kd_call *c);
/*
 * Times are whatever the log says, up to LLONG_MAX: sums and ends saturate
 * at LLONG_MAX instead of overflowing (a hand-made or corrupt log).
 */
long long kd_time_add(long long a, long long b);
/* Where a call with a known duration ends: entry + delta, saturated. */
long long kd_call_end(const struct kd_call *c);

int kd_summary(FILE *out, const struct kd_tree *t, const struct kd_params *p);
int kd_calltree(FILE *out, const struct kd_tree *t, const struct kd_params *p);
int kd_folded(FILE *out, const struct kd_tree *t);
int kd_json(FILE *out, const struct kd_tree *t);
int kd_svg(FILE *out, const struct kd_tree *t);
/* The output of p's mode. */
int kd_output(FILE *out, const struct kd_tree *t, const struct kd_params *p);

#endif
