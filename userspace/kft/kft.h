/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kft: the command that drives the kft module (/proc/kft, /proc/kft_data),
 * with subcommands in the style of perf and trace-cmd:
 *
 *	main.c		usage, options (parsed without side effects), dispatch
 *	proc.c		the module's files: paths, status, commands, the lock
 *	counts.c	count-mode logs: parsed, subtracted, printed (pure)
 *	funccount.c	kft funccount: a count run, summaries
 *	trace.c		kft trace: a configuration run to its end, the log saved
 *
 * A new subcommand (stackcount, profile: a mode of the module each) is a
 * file with its run function, an entry in main.c's table and its usage.
 */
#ifndef KFT_KFT_H
#define KFT_KFT_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "strtab.h"

enum kft_subcmd {
	KFT_SUB_NONE,		/* kft -h, or a usage error */
	KFT_SUB_TRACE,
	KFT_SUB_FUNCCOUNT,
	KFT_SUB_STATUS,
	KFT_SUB_STOP,
	KFT_SUB_CLEAR,
};

struct kft_params {
	enum kft_subcmd sub;
	int help;		/* -h, --help: the usage of sub (or of kft) */
	/* trace */
	const char *config;	/* a file, or "-": standard input */
	const char *output;	/* -o; NULL: standard output */
	/* funccount */
	double interval;	/* -i, seconds; 0: one summary at the end */
	double duration;	/* -d, seconds; 0: until Ctrl-C */
	const char *duration_arg;	/* -d as written, for the banner */
	long top;		/* -t; 0: every function */
	int timestamps;		/* -T */
	char **patterns;	/* into argv */
	int nr_patterns;
};

/* The longest text the module takes in one configuration. */
#define KFT_CONFIG_MAX	65536

int kft_parse_args(int argc, char **argv, struct kft_params *p, char *err, size_t errlen);
void kft_usage(FILE *out, enum kft_subcmd sub);
/* The funccount configuration for p's patterns, or NULL (err says why). */
char *kft_funccount_config(const struct kft_params *p, char *err, size_t errlen);

/* proc.c: the module's files, under $KFT_PROC (default /proc). */
struct kft_paths {
	char ctl[PATH_MAX];	/* kft */
	char data[PATH_MAX];	/* kft_data */
	char kallsyms[PATH_MAX];
	char lock[PATH_MAX];	/* $KFT_LOCK, or kft.lock in $KFT_PROC, or /run/kft.lock */
};

int kft_paths_init(struct kft_paths *paths);

/* What /proc/kft says. */
struct kft_status {
	int registered;		/* a run exists */
	unsigned int id;
	int primed, triggered, complete;
	int start_trigger;	/* the run has a start trigger */
	char line[256];		/* the first line, for messages */
	char error[1024];	/* the error: line, without "error: "; "" if none */
};

int kft_status_parse(FILE *in, struct kft_status *st);
int kft_status_read(const struct kft_paths *paths, struct kft_status *st);
/* A run waits for its start trigger or is running: not to be replaced. */
int kft_status_active(const struct kft_status *st);
/*
 * Writes text to /proc/kft in one write(); 0, or -1 after printing the
 * module's error line ("kft: /proc/kft: line 1, column 5: ..."). With
 * tolerate_einval, EINVAL (stop with nothing to stop) is no error.
 */
int kft_ctl_write(const struct kft_paths *paths, const char *text, int tolerate_einval);
/*
 * Takes the lock that keeps two kft commands from racing, then checks
 * that no run is active: the lock's descriptor (kept until exit), or -1
 * after saying why. st gets the status.
 */
int kft_claim(const struct kft_paths *paths, struct kft_status *st);

/* counts.c: a count-mode /proc/kft_data. */
struct kft_count {
	uint64_t addr;		/* 0 when the reader may not see addresses */
	const char *name;	/* "name", or "module:name" (kft's spelling) */
	uint64_t count;
};

struct kft_counts {
	struct kft_count *v;
	size_t nr, cap;
	size_t *slots;		/* index + 1 into v, open addressing; 0 free */
	size_t nr_slots;
	struct strtab names;
	unsigned int run_id;
	int is_count;		/* "Number of calls counted" seen */
	int registered;		/* 1: a run's log; 0: "No logging run registered"; -1: neither */
	int stopped;		/* "Logging stopped at" */
	size_t malformed;	/* lines after the dashes that are no row */
};

/* Far above any kernel's traceable functions (about 60,000). */
#define KFT_COUNTS_MAX		(1 << 20)
#define KFT_COUNTS_NAME_BYTES	(64 << 20)

/*
 * Reads a count-mode log; -1 with errno on failure: EFBIG past the bounds
 * above, ENOMEM, or the read's error. Check registered and is_count.
 */
int kft_counts_read(struct kft_counts *c, FILE *in);
void kft_counts_free(struct kft_counts *c);
const struct kft_count *kft_counts_find(const struct kft_counts *c, uint64_t addr,
					const char *name);

/* One row of a summary. */
struct kft_delta {
	const char *name;
	uint64_t count;
};

/*
 * cur minus prev (prev NULL: cur itself), the functions called in
 * between only, ascending by count, then by name: malloc'ed, n rows
 * (NULL with n 0 for none, or on no memory: errno ENOMEM).
 */
struct kft_delta *kft_counts_delta(const struct kft_counts *cur, const struct kft_counts *prev,
				   size_t *n);
/* funccount's table: a blank line, stamp (if any), FUNC/COUNT, the top rows. */
void kft_funccount_print(FILE *out, const struct kft_delta *d, size_t n, long top,
			 const char *stamp);

/* The subcommands: exit statuses. */
int kft_trace(const struct kft_params *p, const struct kft_paths *paths);
int kft_funccount(const struct kft_params *p, const struct kft_paths *paths);

/* Ctrl-C and kin: set by the handler kft_signals_catch() installs. */
extern volatile sig_atomic_t kft_quit;
void kft_signals_catch(sigset_t *orig);
/* Sleeps until the monotonic time deadline (seconds) or a signal; 1 on quit. */
int kft_wait_until(double deadline, const sigset_t *orig);
double kft_now(void);

#endif
