/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kft: the command that drives the kft module (/proc/kft, /proc/kft_data),
 * with subcommands in the style of perf and trace-cmd:
 *
 *	main.c		options (parsed without side effects), dispatch
 *	usage.c		the usage texts, the table of subcommands
 *	config.c	the configurations the subcommands write (pure)
 *	proc.c		the module's files: paths, status, commands, the lock,
 *			the header every /proc/kft_data starts with
 *	session.c	a subcommand's run: claimed, started, summarized, stopped
 *	counts.c	count-mode logs: parsed, subtracted, printed (pure)
 *	stacks.c	stacks- and profile-mode logs: parsed, subtracted (pure)
 *	stackprint.c	stacks printed as bcc's tools print them (pure)
 *	funccount.c	kft funccount: a count run, summaries
 *	stackcount.c	kft stackcount and kft profile: stack counts, summaries
 *	stacksnoop.c	kft stacksnoop: a stack per call, as they come
 *	trace.c		kft trace: a configuration run to its end, the log saved
 *	hists.c		histogram-mode logs: subtracted, printed (pure)
 *	funclatency.c	kft funclatency: a histogram run, summaries
 *	errchain.c	kft errtrace's chains of errors in a log (pure)
 *	errtrace.c	kft errtrace: where the errors of functions came from
 *	slowtree.c	kft slowtrace's trees of calls in a log (pure)
 *	slowtrace.c	kft slowtrace: the slow or failing calls, each with its tree
 *	expand.c	globs named one by one where the hooks take none
 *	stream.c	kft record's reads of a stream run: rows, header, losses (pure)
 *	record.c	kft record: a stream run drained into a file until its end
 *
 * A new subcommand is a file with its run function, an entry in usage.c's
 * table with its usage, and its options in main.c.
 */
#ifndef KFT_KFT_H
#define KFT_KFT_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kft_config.h"
#include "kftlog.h"
#include "srcline/srcline.h"
#include "strtab.h"
#include "typedlog.h"

enum kft_subcmd {
	KFT_SUB_NONE,		/* kft -h, or a usage error */
	KFT_SUB_TRACE,
	KFT_SUB_FUNCCOUNT,
	KFT_SUB_STACKCOUNT,
	KFT_SUB_STACKSNOOP,
	KFT_SUB_PROFILE,
	KFT_SUB_ERRTRACE,
	KFT_SUB_FUNCLATENCY,
	KFT_SUB_SLOWTRACE,
	KFT_SUB_RECORD,
	KFT_SUB_REPORT,
	KFT_SUB_LAST_BOOT,
	KFT_SUB_STATUS,
	KFT_SUB_STOP,
	KFT_SUB_CLEAR,
};

struct kft_params {
	enum kft_subcmd sub;
	int help;		/* -h, --help: the usage of sub (or of kft) */
	int version;		/* kft --version */
	/* trace, record; report */
	const char *config;	/* a file, or "-": standard input; report: its FILE */
	const char *output;	/* -o; NULL: standard output (record: none, an error) */
	/*
	 * trace -a: the configuration gets the word args; errtrace -a, record
	 * -a: its run too
	 */
	int args;
	int offcpu;		/* record --offcpu: the run gets the word offcpu */
	/*
	 * trace -T, --btf, --dwarf, --proto: the calls listed typed, not the
	 * log; errtrace's: each call of a chain printed typed
	 */
	struct typedlog_files types;
	/*
	 * errtrace, slowtrace, trace -T --srcline: each call's source lines,
	 * from these files' DWARF; stackcount's and stacksnoop's: each frame's
	 */
	struct srcline_files srcline;
	/* funccount, stackcount (-D), profile (its duration argument) */
	double interval;	/* -i, seconds; 0: one summary at the end */
	double duration;	/* funccount -d, stackcount -D, seconds; 0: until Ctrl-C */
	const char *duration_arg;	/* as written, for the banner */
	long top;		/* -t; 0: every function */
	int timestamps;		/* -T */
	long per_arg;		/* funccount, funclatency -A: per value of argument N; 0: none */
	char **patterns;	/* into argv; stacksnoop: its FUNCTION */
	int nr_patterns;
	/* stackcount, stacksnoop, profile: the options of bcc's tools */
	long pid;		/* -p: a process (tgid); 0: any */
	long tid;		/* profile -L: a thread; 0: any */
	long cpu;		/* stackcount -c, profile -C; -1: any */
	int regexp;		/* stackcount -r: the patterns are regular expressions */
	int offsets;		/* -s: name+0xOFF */
	int per_process;	/* stackcount -P */
	int verbose;		/* -v: stackcount: addresses; stacksnoop: COMM PID CPU */
	int delimited;		/* -d: accepted; kernel stacks only: nothing to delimit */
	int folded;		/* -f */
	int annotate;		/* profile -a: _[k] after kernel frames */
	int include_idle;	/* profile -I */
	int debug;		/* stackcount --debug: print the configuration */
	int module;		/* -M: module functions as module:name, not bcc's bare name */
	long frequency;		/* profile -F, samples per second per CPU */
	long stack_storage;	/* profile --stack-storage-size: distinct stacks */
	/* errtrace (and its -d, -p; patterns: its FUNCTIONs) */
	long long errnum;	/* -e: only this error (-4095..-1); 0: any */
	const char *comm;	/* -c: only tasks of this name; NULL: any */
	long entries;		/* -n: the log's size, in calls; record -e: a CPU's, 0: default */
	int fast;		/* --fast: kft's own exit hooks, not the module's default */
	int forget;		/* last-boot --forget */
	/* slowtrace (and errtrace's -d, -p, -c, --fast; patterns: its ROOTs) */
	long long min_us;	/* -L: a root call this slow or slower; 0: any */
	const char *min_arg;	/* -L as written, for the banner */
	int errors;		/* -e: a root call that failed */
	long max_shown;		/* -n: stop after this many trees; 0: no limit */
	long hold;		/* -H: calls held per task (holdentries); 0: the default */
	/* --string N, --ustring N, --struct N:LEN: args string N (ustring, struct N LEN) */
	long str_arg;		/* N; 0: none */
	int str_user;		/* --ustring: a user space string */
	long mem_len;		/* --struct: LEN; 0: a string */
	/* funclatency (and its -i, -d, -p, -T; patterns: its PATTERNs) */
	int units;		/* 0: ns, 1: -u us, 2: -m ms */
	int per_function;	/* -F: a histogram per function */
};

/* The longest text the module takes in one configuration. */
#define KFT_CONFIG_MAX	KFT_CONFIG_MAX_BYTES
/* The largest error number (the kernel's MAX_ERRNO). */
#define KFT_MAX_ERRNO		4095
/* errtrace's log, in calls (40 bytes each in the module), unless -n. */
#define KFT_ERRTRACE_ENTRIES	65536
/* stacksnoop's ring of events between two reads (snoop N). */
#define KFT_SNOOP_EVENTS	65536

int kft_parse_args(int argc, char **argv, struct kft_params *p, char *err, size_t errlen);
/* usage.c: sub's usage text (KFT_SUB_NONE: kft's); its name; the subcommand called name. */
void kft_usage(FILE *out, enum kft_subcmd sub);
const char *kft_subcmd_name(enum kft_subcmd sub);
enum kft_subcmd kft_subcmd_named(const char *name);

/*
 * config.c: the configuration a subcommand writes for p, malloc'ed, or
 * NULL (err says why: a pattern kft cannot take, a regular expression
 * with no glob for it, no memory).
 */
char *kft_funccount_config(const struct kft_params *p, char *err, size_t errlen);
char *kft_stackcount_config(const struct kft_params *p, char *err, size_t errlen);
char *kft_stacksnoop_config(const struct kft_params *p, char *err, size_t errlen);
char *kft_profile_config(const struct kft_params *p, char *err, size_t errlen);
char *kft_funclatency_config(const struct kft_params *p, char *err, size_t errlen);
/* errtrace's: the module's default hooks, or hooks fast with --fast. */
char *kft_errtrace_config(const struct kft_params *p, char *err, size_t errlen);
/* slowtrace's, with its roots as names (a glob's functions named one by one). */
char *kft_slowtrace_config(const struct kft_params *p, const char *const *roots, size_t nr,
			   char *err, size_t errlen);
/*
 * record's: a stream run (log stream, units ns) of the FUNCTIONs (none:
 * every function), with -p, -c, -e (logentries), --fast.
 */
char *kft_record_config(const struct kft_params *p, char *err, size_t errlen);
/* 1 when s is "end" or "fend": the language's, in a funclist no function. */
int kft_pattern_reserved(const char *s);
/* slowtrace's log, in calls, and the most roots it names. */
#define KFT_SLOWTRACE_ENTRIES	65536
#define KFT_SLOWTRACE_ROOTS_MAX	4096

/* proc.c: the module's files, under $KFT_PROC (default /proc). */
struct kft_paths {
	char ctl[PATH_MAX];	/* kft */
	char data[PATH_MAX];	/* kft_data */
	char stream[PATH_MAX];	/* kft_stream */
	char last_boot[PATH_MAX];	/* kft_last_boot */
	char kallsyms[PATH_MAX];
	/* tracefs's available_filter_functions (or debugfs's; in $KFT_PROC if set) */
	char traceable[PATH_MAX];
};

int kft_paths_init(struct kft_paths *paths);

/* What /proc/kft says. */
struct kft_status {
	int registered;		/* a run exists */
	unsigned int id;
	int primed, triggered, complete;
	int start_trigger;	/* the run has a start trigger */
	int has_stream_read;	/* a stream run's "stream: N calls read": */
	unsigned long long stream_read;	/* what its readers took */
	char line[256];		/* the first line, for messages */
	char states[128];	/* the line after the id ("primed, triggered, ...") */
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
/* A stop written, its result ignored: after a failure once a run may be running. */
void kft_ctl_stop_anyway(const struct kft_paths *paths);
/*
 * A start or prime written: 0, or -1 after saying why. Refused by the
 * module (its error line says why), the run did not start; any other
 * failure (the status unreadable after the write) may have left it
 * running: it is stopped (kft_ctl_stop_anyway()).
 */
int kft_ctl_begin(const struct kft_paths *paths, const char *text);
/* The same, but the module's refusal is left in st->error, unsaid: 1. */
int kft_ctl_try(const struct kft_paths *paths, const char *text, int tolerate_einval,
		struct kft_status *st);
/*
 * Takes the lock that keeps two kft commands from racing (an flock on
 * /proc/kft), then checks that no run is active: the lock's descriptor
 * (kept until exit), or -1 after saying why. st gets the status.
 */
int kft_claim(const struct kft_paths *paths, struct kft_status *st);

/* The header of every /proc/kft_data: whose run, which mode, started, stopped. */
enum kft_data_mode {
	KFT_DATA_TRACE,		/* none of the lines below */
	KFT_DATA_COUNT,		/* "Number of calls counted" */
	KFT_DATA_STACKS,	/* "Number of stacks counted": stacks and profile */
	KFT_DATA_HISTOGRAM,	/* "Number of calls timed" */
};

struct kft_head {
	unsigned int run_id;
	int registered;		/* 1: a run's log; 0: "No logging run registered"; -1: neither */
	enum kft_data_mode mode;
	int stopped;		/* "Logging stopped at" */
	int started;		/* "Logging started at T usec": start_us is T */
	uint64_t start_us;
	int full;		/* "Logging stopped at T usec by log full" */
	char units[3];		/* "Units: ns": a histogram's or a trace's; "" if none */
	unsigned int per_arg;	/* "Counted (Timed) per value of argument N": N; 0 if none */
	uint64_t not_counted;	/* "Calls not counted, table full = N" */
};

/*
 * Reads in a line at a time, in bounded memory: line(ctx, text) for each,
 * its newline cut, with text NULL for a line too long for kft's formats
 * (KFTLOG_LINE_MAX) or holding a NUL byte; stops when line() fails.
 * 0, or -1 (errno).
 */
int kft_lines_read(FILE *in, int (*line)(void *ctx, char *text), void *ctx);

void kft_head_init(struct kft_head *h);
/* Takes what line says about the run; 1 when it was a header line of its own. */
int kft_head_line(struct kft_head *h, const char *line);
/*
 * Whether a read of path was our run's (run_id; 0: any), in the mode
 * wanted: 0, or -1 after saying why (the run gone, another's, no kft log).
 */
int kft_head_check(const struct kft_head *h, const char *path, enum kft_data_mode want,
		   unsigned int run_id);

/* counts.c: a count-mode /proc/kft_data. */
struct kft_count {
	uint64_t addr;		/* 0 when the reader may not see addresses */
	const char *name;	/* "name", or "module:name" (kft's spelling) */
	const char *value;	/* per-arg: the argument, decimal or "hidden"; "" if none */
	uint64_t count;
};

struct kft_counts {
	struct kft_count *v;
	size_t nr, cap;
	/* a histogram-mode log: entry i's buckets at KFT_HIST_BUCKETS * i */
	uint64_t *buckets;
	size_t buckets_cap;
	size_t *slots;		/* index + 1 into v, open addressing; 0 free */
	size_t nr_slots;
	struct strtab names;
	struct kft_head head;
	size_t malformed;	/* lines after the dashes that are no row */
};

/* Far above any kernel's traceable functions (about 60,000). */
#define KFT_COUNTS_MAX		(1 << 20)
/* A histogram's buckets a function (the module's KFT_HIST_BUCKETS), and functions. */
#define KFT_HIST_BUCKETS	40
#define KFT_HISTS_MAX		(1 << 17)
#define KFT_COUNTS_NAME_BYTES	(64 << 20)

/*
 * Reads a count-mode log; -1 with errno on failure: EFBIG past the bounds
 * above, ENOMEM, or the read's error. Check head (kft_head_check()).
 */
int kft_counts_read(struct kft_counts *c, FILE *in);
void kft_counts_free(struct kft_counts *c);
const struct kft_count *kft_counts_find(const struct kft_counts *c, uint64_t addr,
					const char *name);
/* The same in a log per argument value (value "": none). */
const struct kft_count *kft_counts_find_value(const struct kft_counts *c, uint64_t addr,
					      const char *name, const char *value);

/* One row of a summary. */
struct kft_delta {
	const char *name;
	const char *value;	/* per-arg: the argument's; "" if none */
	uint64_t count;
};

/*
 * cur minus prev (prev NULL: cur itself), the functions called in
 * between only, ascending by count, then by name: malloc'ed, n rows
 * (NULL with n 0 for none, or on no memory: errno ENOMEM).
 */
struct kft_delta *kft_counts_delta(const struct kft_counts *cur, const struct kft_counts *prev,
				   size_t *n);
/*
 * funccount's table: a blank line, stamp (if any), FUNC/COUNT (per_arg N:
 * FUNC/ARGN/COUNT), the top rows.
 */
void kft_funccount_print(FILE *out, const struct kft_delta *d, size_t n, long top,
			 unsigned int per_arg, const char *stamp);

/* hists.c: histograms of a histogram-mode log. */
struct kft_hist_row {
	const char *name;	/* the snapshot's */
	const char *value;	/* per-arg: the argument's, the snapshot's; "" if none */
	uint64_t count;
	uint64_t buckets[KFT_HIST_BUCKETS];
};

/*
 * cur's buckets minus prev's (prev NULL: cur's own), per function (per
 * function and value in a log per argument), those with calls in between
 * only, ascending by calls, then by name and value: malloc'ed, n rows
 * (NULL with n 0 for none, or on no memory: errno ENOMEM).
 */
struct kft_hist_row *kft_hists_delta(const struct kft_counts *cur, const struct kft_counts *prev,
				     size_t *n);
/* The rows' buckets added up, into buckets (KFT_HIST_BUCKETS). */
void kft_hists_sum(const struct kft_hist_row *rows, size_t n, uint64_t *buckets);
/* A histogram as libbpf-tools' funclatency prints it; nothing when it is empty. */
void kft_hist_print(FILE *out, const uint64_t *buckets, const char *unit);

/* stacks.c: a stacks- or profile-mode /proc/kft_data (Documentation/stacks.rst). */
struct kft_frame {
	uint64_t addr;		/* 0 when the reader may not see addresses */
	const char *name;	/* "name", or "module:name"; NULL: no symbol */
	uint64_t off;		/* of addr from the symbol's start */
};

/* A stack block ("stack COUNT PID COMM") or an event ("event TIME_US CPU PID COMM"). */
struct kft_stack {
	uint64_t count;		/* a stack's */
	uint64_t time_us;	/* an event's, since boot */
	long pid;		/* -1: the run is not keyed by process */
	int cpu;		/* an event's */
	const char *comm;	/* "" when not keyed by process */
	const char *args;	/* an event's args word's values ("0xb,-22,hidden"), else NULL */
	size_t first, nr;	/* its frames: frames[first .. first + nr), innermost first */
};

struct kft_stacks {
	struct kft_head head;
	struct kft_stack *stacks;
	size_t nr_stacks, cap_stacks;
	struct kft_stack *events;
	size_t nr_events, cap_events;
	struct kft_frame *frames;
	size_t nr_frames, cap_frames;
	struct strtab names;	/* symbols and comms, interned */
	/* the header's counters */
	uint64_t table_full;	/* Events not counted, table full */
	uint64_t busy;		/* Events not counted, busy */
	uint64_t truncated;	/* Stacks truncated at truncated_at frames */
	unsigned int truncated_at;
	uint64_t events_lost;	/* Events lost, ring full (snoop) */
	size_t malformed;	/* lines that are none of the format's */
};

/* Far above what the module keeps (KFT_MAX_STACKENTRIES stacks, KFT_MAX_SNOOP events). */
#define KFT_STACKS_MAX		(1 << 21)
#define KFT_STACKS_FRAMES_MAX	(1 << 24)
#define KFT_STACKS_NAME_BYTES	(64 << 20)

/*
 * Reads a stacks-mode log (events only with KFT_STACKS_EVENTS_ONLY: the
 * stack blocks are skipped); -1 with errno on failure: EFBIG past the
 * bounds above, ENOMEM, or the read's error. Check head.
 */
#define KFT_STACKS_EVENTS_ONLY	1
int kft_stacks_read(struct kft_stacks *s, FILE *in, int flags);
void kft_stacks_free(struct kft_stacks *s);

/* One stack of a summary, with its frames and the count to print. */
struct kft_stack_row {
	const struct kft_stack *stack;
	const struct kft_frame *frames;	/* the snapshot's array */
	uint64_t count;
};

/*
 * cur's stacks minus prev's (prev NULL: cur's own counts), those counted
 * in between only, ascending by count, then by process and frames:
 * malloc'ed, n rows (NULL with n 0 when cur has no stacks, or on no
 * memory: errno ENOMEM).
 */
struct kft_stack_row *kft_stacks_delta(const struct kft_stacks *cur,
				       const struct kft_stacks *prev, size_t *n);

/* stackprint.c: how stacks are printed, as bcc's stackcount or profile. */
struct kft_stack_style {
	int profile;		/* profile's layout, else stackcount's */
	int folded;		/* one line a stack: [comm;]outer;...;inner COUNT */
	int comm;		/* the process: stackcount's "comm [pid]" line, folded's comm */
	int offsets;		/* name+0xOFF */
	int addresses;		/* the address before the name (stackcount -v) */
	int annotate;		/* _[k] after each frame (profile -a, folded) */
	int module;		/* module functions as module:name (-M), else bare */
	/*
	 * --srcline: each frame's line ends with its source lines (NULL:
	 * none), its address mapped through ks, by its name without ks
	 */
	struct srcline *sl;
	struct ksyms *ks;
	/*
	 * stacksnoop -a: an event's function as its call, with the
	 * registers it kept, typed by types (-T; NULL: as the log has them)
	 */
	int args;
	struct typedlog *types;
};

/*
 * A function's name as bcc's tools print it, "name" (bcc's ksym() names
 * no module), or as kft names it, "module:name", with module (-M).
 */
const char *kft_bcc_name(const char *name, int module);

/* The stacks of rows[0..n) on out. 0, or -1 without memory (--srcline). */
int kft_stacks_print(FILE *out, const struct kft_stack_row *rows, size_t n,
		     const struct kft_stack_style *style);
/*
 * stacksnoop's header, and one event: its time in seconds from start_us,
 * the function entered (its first frame, or function when it has none);
 * style's comm adds the COMM, PID and CPU columns (stacksnoop -v).
 */
void kft_snoop_header(FILE *out, int verbose);
int kft_snoop_print(FILE *out, const struct kft_stacks *s, const struct kft_stack *ev,
		    uint64_t start_us, const char *function, const struct kft_stack_style *style);
/*
 * --srcline's files and, to map the frames' addresses, the symbols, for
 * @sub's stacks: into @style (nothing without the option). 0, or -1 after
 * saying why; kft_stack_srclines_free() frees what was read either way.
 */
int kft_stack_srclines_open(const struct kft_params *p, const char *sub,
			    const struct kft_paths *paths, struct kft_stack_style *style);
void kft_stack_srclines_free(struct kft_stack_style *style);

/*
 * expand.c: globs named one by one, for kernels whose trace hooks take
 * none (kretprobes: no fprobe, 6.1). The traceable functions: those of
 * available_filter_functions ("name" or "name [module]") that kallsyms
 * has, as "name" or "module:name", sorted, each once.
 */
struct ksyms;

struct kft_funcs {
	const char **names;
	size_t nr, cap;
	struct strtab text;
};

/* Reads them; 0, or -1 with errno (ENOMEM, EFBIG, the read's). Free f either way. */
int kft_funcs_read(struct kft_funcs *f, const struct ksyms *ks, FILE *traceable);
/* kft_funcs_read()'s errno as a message: EFBIG's is kft's bound, no read's error. */
const char *kft_funcs_strerror(int errnum);
void kft_funcs_free(struct kft_funcs *f);
/*
 * text (a configuration) with each glob of its funclist replaced by the
 * functions of f it matches, each function named once (*named of them
 * added): malloc'ed, or NULL with err ("line L, column C: ..." where it
 * applies) for a glob that matches none, more functions than kretprobes
 * take (KFT_MAX_KRETPROBES), a text longer than the module takes, a text
 * the parser refuses, no memory; NULL with err "" when the funclist has no
 * glob to name.
 */
char *kft_globs_name(const char *text, const struct kft_funcs *f, size_t *named,
		     char *err, size_t errlen);

/*
 * errchain.c: where an error came from, in a log of the calls that
 * returned one (filter errors, units ns).
 */
struct kft_errcall {
	long long entry, delta;	/* ns */
	int pid;		/* -1: interrupt context */
	int cpu;
	uint64_t func, caller;
	long long err;		/* -4095..-1 */
	const char *comm;
	const struct kftlog_row *row;	/* the log's row: its arguments (-a) */
};

/* The deepest chain errtrace follows (the kernel's stacks hold fewer frames). */
#define KFT_ERRCHAIN_MAX	256

/*
 * For each call i of calls, next[i]: the next call down its chain,
 * beneath it with the same error, the one that returned last; n when
 * there is none. 0, or -1 (ENOMEM). n log n steps, 4 words a call.
 */
int kft_errchain_links(const struct kft_errcall *calls, size_t n, size_t *next);
/*
 * The chain of call root along next (kft_errchain_links()'s): root, then
 * the links down from it: their indices into chain, innermost first (root
 * last), at most max of them; its length.
 */
size_t kft_errchain(const size_t *next, size_t n, size_t root, size_t *chain, size_t max);

/* The calls whose chains were shown (only their keys: times, task, function). */
struct kft_errseen {
	struct kft_errcall *keys;
	unsigned char *used;
	size_t nr, cap;
};

/* Adds c: 1 if it was not there, 0 if it was, -1 (ENOMEM). */
int kft_errseen_add(struct kft_errseen *s, const struct kft_errcall *c);
void kft_errseen_free(struct kft_errseen *s);

/*
 * slowtree.c: the trees of a log of filter roots (units ns). The module
 * logs a root call's tree whole or not at all, so every row belongs to
 * one: a task's calls within its root call's time. A call of a tree, with
 * its depth (0: the root).
 */
struct kftlog;
struct kftlog_row;

struct kft_slowcall {
	const struct kftlog_row *row;
	unsigned int depth;
};

/*
 * Calls tree(ctx, calls, n) for each tree of log: its calls in entry order,
 * parents before children, the root first; stops at tree's first non-zero
 * return. That return, 0, or -1 (ENOMEM). A wake set among them is its
 * first row (kftlog_row_starts_wake()) as a child of the call that slept,
 * then its other rows at the same depth.
 */
int kft_slowtrees(const struct kftlog *log,
		  int (*tree)(void *ctx, const struct kft_slowcall *calls, size_t n), void *ctx);

/* session.c: a subcommand's run of the module. */
struct kft_session {
	const struct kft_paths *paths;
	unsigned int run_id;	/* ours */
	int lock;		/* kft_claim()'s */
	sigset_t orig;		/* the signal mask before kft_signals_catch() */
	/*
	 * A read found the run gone, another's, or primed again by another
	 * writer of /proc/kft: not ours to stop.
	 */
	int not_ours;
	/* The run's start as our first read since our prime saw it. */
	int have_start, started;
	uint64_t start_us;
	/*
	 * The caller stops the run and then takes its last look itself: a
	 * Ctrl-C ends kft_session_loop() at once, without one more summary
	 * of a run still going.
	 */
	int look_after_stop;
};

/*
 * Catches Ctrl-C, claims the module, writes config (p's, malloc'ed: freed
 * here; NULL: err says why; its globs named where the hooks take none, by
 * kft_configure()) and starts the run; with p->debug, config is printed on
 * standard error first. 0, or -1 after saying why (nothing is held then).
 */
int kft_session_start(struct kft_session *s, const struct kft_paths *paths,
		      const struct kft_params *p, char *config, const char *err);
/*
 * Calls summary(ctx) every interval seconds (0: once, at the end) until
 * duration seconds (0: none) are over, Ctrl-C, or summary returns non-zero
 * (1: the run was stopped by someone else; -1: an error, said). A Ctrl-C
 * gets one summary more, the last, unless s->look_after_stop. Returns
 * summary's last return value (0 if none).
 */
int kft_session_loop(struct kft_session *s, double interval, double duration,
		     int (*summary)(void *ctx), void *ctx);
/*
 * Reads /proc/kft_data into obj with read() (which fills head), and checks
 * that it is our run's, in mode, started when our first read saw it
 * started (not primed again since by another writer of /proc/kft): 0, or
 * -1 after saying why (too_big for EFBIG; s->not_ours set when the run is
 * no longer ours). The caller frees obj either way.
 */
int kft_session_read(struct kft_session *s, enum kft_data_mode mode,
		     int (*read)(void *obj, FILE *in), void *obj, const struct kft_head *head,
		     const char *too_big);
/*
 * The counts (mode count) or histograms (mode histogram) of our run now, at
 * most max functions: 0, or -1 after saying why (the run gone, or
 * another's; c freed then).
 */
int kft_session_counts(struct kft_session *s, enum kft_data_mode mode, int max,
		       struct kft_counts *c);
/* We primed and started the run again ourselves: the next read's start is ours. */
void kft_session_primed(struct kft_session *s);
/*
 * Stops the run after the session's end or its own error, unless ret is 1
 * (someone else stopped it: said here) or the run is no longer ours (gone,
 * replaced, or primed again by another writer: s->not_ours; said when
 * /proc/kft tells it here). ret, or -1 when the stop fails.
 */
int kft_session_stop(struct kft_session *s, int ret);
/* Releases the module and flushes standard output: the exit status for ret. */
int kft_session_end(struct kft_session *s, int ret);
/*
 * A trace log of our run now (at most entries rows; its header in head,
 * which it initializes): 0, or -1 after saying why. *log is the caller's
 * to free (kftlog__free) either way.
 */
int kft_session_log(struct kft_session *s, long entries, struct kft_head *head,
		    struct kftlog **log);
/*
 * The kernel's symbols from kallsyms at @path, its lines that are no
 * symbol said in one warning (as addr2sym's and kd's), once a process;
 * NULL with errno (ksyms__load's), for the caller to say.
 */
struct ksyms *kft_ksyms_load(const char *path);
/*
 * Whether kallsyms hides its addresses from us (all zero): said, for the
 * subcommand sub that names calls by their addresses.
 */
int kft_ksyms_hidden(const struct ksyms *ks, const char *sub, const char *path);
/* For a log written symbolized: a warning when kallsyms (at path) hides its addresses. */
void kft_say_unsymbolized(const struct ksyms *ks, const char *path);
/* A log whose addresses are hidden from us (zeros): said, for sub. */
void kft_say_hidden(const char *sub, const char *path);
/*
 * After a refusal of sub's run of every function by a kernel whose own
 * exit hooks are kretprobes: that --fast can, and what else is left.
 */
void kft_explain_every_function(const struct kft_paths *paths, const char *sub,
				const char *instead);
/* The banners' "PATTERN PATTERN" (unquoted: PATTERN PATTERN), on standard output. */
void kft_print_patterns(const struct kft_params *p, bool quoted);
/* The local time now in strftime's format, for -T. */
const char *kft_stamp(char *buf, size_t size, const char *format);

/*
 * stream.c: one read of a stream run's /proc/kft_data (log stream). Each
 * open of the file takes the calls it shows out of the run's per-CPU
 * buffers: its header, with the stream's lines ("Log stream = N entries a
 * CPU", "Calls lost = L", "Calls lost per CPU = a b ..."), the dashes,
 * then that read's rows, which go to rows as they come, each a line.
 */
/* A read's header, in bytes; one of its lines (a number a CPU); CPUs. */
#define KFT_STREAM_HEADER_MAX	(1 << 20)
#define KFT_STREAM_LINE_MAX	(1 << 16)
#define KFT_STREAM_CPUS_MAX	65536
/* The header lines of a stream run's log. */
#define KFT_STREAM_LINE		"Log stream = "
#define KFT_STREAM_LOST_LINE	"Calls lost = "
#define KFT_STREAM_LOST_CPU_LINE	"Calls lost per CPU = "

struct kft_stream_read {
	FILE *out;		/* the caller's: where the rows go (NULL: counted only) */
	FILE *warn;		/* warnings (NULL: none), naming name */
	const char *name;
	struct kft_head head;
	struct kftlog_scan scan;	/* its rows, malformed lines, header count */
	char *header;		/* the lines up to the dashes', each with its newline */
	size_t header_len, header_cap;
	int stream;		/* "Log stream = N entries a CPU" */
	unsigned long long per_cpu;
	int has_lost;		/* "Calls lost = L": since the run started */
	unsigned long long lost;
	int has_lost_cpus;	/* "Calls lost per CPU = ...", CPU 0 first */
	unsigned long long *lost_cpus;
	size_t nr_cpus;
	unsigned int bad_header;	/* the stream's lines that say no number, or too long */
	unsigned long long rows, malformed;
};

void kft_stream_init(struct kft_stream_read *r, FILE *rows, FILE *warn, const char *name);
void kft_stream_free(struct kft_stream_read *r);
/* r's lines moved to to (freed first): the last read's, kept. r is empty then. */
void kft_stream_move(struct kft_stream_read *to, struct kft_stream_read *r);
/*
 * The next line of the read (len bytes, its newline or not; NULL: longer
 * than KFT_STREAM_LINE_MAX). 0, or -1 with errno: ENOMEM, or EFBIG for a
 * header over KFT_STREAM_HEADER_MAX. A row's write error is the rows
 * file's (ferror): the caller checks it.
 */
int kft_stream_line(struct kft_stream_read *r, const char *line, size_t len);
/* Every line of in: 0, or -1 with errno (kft_stream_line()'s, or the read's). */
int kft_stream_read_all(struct kft_stream_read *r, FILE *in);
/*
 * Whether the read agrees with itself: its rows with its header's count,
 * the losses with their sum per CPU, every line a row or the header's. 0,
 * or the number of disagreements, each said on warn.
 */
int kft_stream_check(const struct kft_stream_read *r);
/*
 * header (a read's, kft_stream_read's) on out, with its count of rows
 * ("Number of entries after filters = N") saying rows instead; a header
 * without one gets one before its dashes. 0, or -1 (out's error).
 */
int kft_stream_header_write(FILE *out, const char *header, size_t len, unsigned long long rows);
/* "N lost" or "N lost (CPU 0: 40, CPU 1: 2)", every CPU that lost some, on out. */
void kft_stream_lost_put(const struct kft_stream_read *r, FILE *out);

/*
 * expand.c: a configuration written, its globs named one by one where the
 * module refuses them; name is the configuration's, for messages. 0, or
 * -1 after saying why.
 */
int kft_configure(const struct kft_paths *paths, const char *name, const char *config);

/*
 * The mode of a log file kft trace -o or kft record creates. A log holds
 * raw kernel addresses, which the module shows only to readers with
 * CAP_SYSLOG, so its file is readable by its owner alone.
 */
#define KFT_LOG_FILE_MODE	0600

/* The subcommands: exit statuses. */
int kft_trace(const struct kft_params *p, const struct kft_paths *paths);
/*
 * trace -a (typedcalls.c): @config with the word args after each
 * "begin", malloc'ed; NULL with why in @err (too long for the module).
 */
char *kft_config_with_args(const char *config, char *err, size_t errlen);
/*
 * Row @r's call of @func into buf[0..len): typed by @types as trace -T
 * prints it, or, @types NULL, its arguments as the log has them,
 * "name(0x1, -22, hidden)" ("name" for a row without them). The length
 * of the whole text, as snprintf.
 */
size_t kft_call_text(struct typedlog *types, const char *func, const struct kftlog_row *r,
		     char *buf, size_t len);
/*
 * The sources of the calls @sub prints (errtrace, slowtrace, trace), each
 * read when @p asks for it: -T's types into *@types, --srcline's files
 * into *@sl (NULL when not asked). 0, or -1 after saying why; what was
 * read is the caller's to free either way.
 */
int kft_call_sources_open(const struct kft_params *p, const char *sub, struct typedlog **types,
			  struct srcline **sl);
/*
 * -T's types alone (stacksnoop -a), and --srcline's files alone (the
 * commands that print stacks): as above.
 */
int kft_types_open(const struct kft_params *p, const char *sub, struct typedlog **types);
/*
 * A value of -A's argument as funccount and funclatency read it from the
 * module (decimal, negative for an error, or "hidden"), typed as the
 * parameter @func (module:name) takes in argument @arg (from 1), into
 * buf[0..len): "size=64". @value itself when it is no number, or no
 * source types that parameter.
 */
const char *kft_typed_value(struct typedlog *types, const char *func, unsigned int arg,
			    const char *value, char *buf, size_t len);
int kft_srcline_open(const struct kft_params *p, const char *sub, struct srcline **sl);
/*
 * --srcline: @word's source lines (srcline__text(): a function's at its
 * entry, a return address's the call's with its inlined calls, a running
 * instruction's its own with its inlined calls) on @out between @before
 * and @after. 0, or -1 without memory.
 */
int kft_word_srcline(FILE *out, struct srcline *sl, const struct ksyms *ks, const char *word,
		     enum srcline_at at, const char *before, const char *after);
/*
 * --srcline: row @r's source lines on @out as kd -c ends a call's line,
 * its function's, "  [fs/namei.c:210]", and with @caller its caller's
 * frames, " <- helper fs/open.c:30 <- middle fs/open.c:41"; @ks maps the
 * running kernel's addresses. 0, or -1 without memory.
 */
int kft_call_srcline(FILE *out, struct srcline *sl, const struct ksyms *ks,
		     const struct kftlog_row *r, bool caller);
/*
 * trace -T: the log's calls listed to @out, one a line in entry order,
 * each typed by @types, its function named through @ks; with @sl
 * (--srcline) each line ends with the call's source lines. 0, or -1 after
 * saying why (a read error: errno; no memory).
 */
int kft_typed_calls(FILE *in, const char *name, FILE *out, const struct ksyms *ks,
		    struct typedlog *types, struct srcline *sl);
int kft_funccount(const struct kft_params *p, const struct kft_paths *paths);
int kft_stackcount(const struct kft_params *p, const struct kft_paths *paths);
int kft_profile(const struct kft_params *p, const struct kft_paths *paths);
int kft_stacksnoop(const struct kft_params *p, const struct kft_paths *paths);
int kft_errtrace(const struct kft_params *p, const struct kft_paths *paths);
int kft_funclatency(const struct kft_params *p, const struct kft_paths *paths);
int kft_slowtrace(const struct kft_params *p, const struct kft_paths *paths);
int kft_record(const struct kft_params *p, const struct kft_paths *paths);
int kft_report(const struct kft_params *p);
int kft_last_boot(const struct kft_params *p, const struct kft_paths *paths);

/* Ctrl-C and kin: set by the handler kft_signals_catch() installs. */
extern volatile sig_atomic_t kft_quit;
void kft_signals_catch(sigset_t *orig);
/*
 * After the run is cleaned up: when a write found that a reader closed
 * kft's output (kft ... | head), kft ends by SIGPIPE, saying nothing, as
 * kd and any pipe's writer do; otherwise it returns. Called before
 * close_stdout() and after it (its flush may be the write that finds it,
 * which close_stdout() does not say).
 */
void kft_pipe_closed_exit(void);
/* Sleeps until the monotonic time deadline (seconds) or a signal; 1 on quit. */
int kft_wait_until(double deadline, const sigset_t *orig);
double kft_now(void);

#endif
