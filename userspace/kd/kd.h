/* SPDX-License-Identifier: GPL-2.0 */
/* kd, the kft log analyzer: shared types. */
#ifndef KFT_KD_H
#define KFT_KD_H

#include <stddef.h>
#include <stdio.h>

#include "flame.h"
#include "kftcon.h"
#include "kftlog.h"
#include "ksyms.h"
#include "srcline/srcline.h"
#include "strtab.h"
#include "typedlog.h"

enum kd_mode { KD_SUMMARY, KD_CALLTREE, KD_FOLDED, KD_JSON, KD_SVG, KD_FLAMEGRAPH, KD_TASKS };

/* What --folded weighs a call's stack by (--weigh; weigh.c). */
enum kd_weigh {
	KD_WEIGH_LOCAL,		/* its local time, one frame (no --weigh) */
	KD_WEIGH_WALL,		/* the same, its runnable and blocked parts frames of their own */
	KD_WEIGH_ONCPU,		/* its local time on the CPU only */
	KD_WEIGH_OFFCPU,	/* its local runnable and blocked time only, as frames */
};

/*
 * The options that only some modes take, as kd_params.given records them:
 * kd_parse_args() refuses one given with a mode that would ignore it.
 */
enum kd_given {
	KD_GIVEN_FIELDS		= 1 << 0,	/* -f */
	KD_GIVEN_LONG		= 1 << 1,	/* -l */
	KD_GIVEN_TOP		= 1 << 2,	/* -n */
	KD_GIVEN_MIN_TIME	= 1 << 3,	/* -t */
	KD_GIVEN_SORT		= 1 << 4,	/* -s */
	KD_GIVEN_INTERLACE	= 1 << 5,	/* -i */
	KD_GIVEN_DEPTH		= 1 << 6,	/* -d */
	KD_GIVEN_WIDTH		= 1 << 7,	/* -m N, --width */
	KD_GIVEN_SNAPSHOTS	= 1 << 8,	/* --snapshots */
	KD_GIVEN_WEIGH		= 1 << 9,	/* --weigh */
	KD_GIVEN_TITLE		= 1 << 10,	/* --title */
	KD_GIVEN_SRCLINE	= 1 << 11,	/* --srcline */
	KD_GIVEN_TYPES		= 1 << 12,	/* --types, --btf, --dwarf, --proto */
};

/* A call printed typed (--types) is cut at this length. */
#define KD_TYPED_MAX	4096

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
	unsigned int dump;	/* --dump: a console's dump of last calls to read; 0: the last */
	int snapshots;		/* --snapshots: fold stack watch snapshots, not calls */
	enum kd_weigh weigh;	/* --weigh */
	const char *title;	/* --title: the flame graph's */
	/* --srcline: the files whose DWARF gives the calls' source lines */
	struct srcline_files srcline;
	/* --types, --btf, --dwarf, --proto: the calls printed typed */
	struct typedlog_files types;
	unsigned int given;	/* enum kd_given: the mode-bound options given */
	int help;
	int version;		/* --version */
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
	/*
	 * --srcline: the function's line ("fs/open.c:1380") and the
	 * caller's frames ("getname fs/namei.c:210 <- do_sys_open
	 * fs/open.c:1420"), "??" where unknown; NULL without --srcline.
	 */
	const char *src, *caller_src;
};

/*
 * A stack watch snapshot: consecutive rows with delta -2 (the first with
 * left=N), not a call. It is shown in the call tree at the depth its
 * traced function's call has, just before that call (its owner) when the
 * call is in the log, else where its time falls. A wake set (delta -3,
 * the first with waker=, wcomm= and slept=) is one too: the waker's
 * stack, shown where its time falls, the time its task was switched out
 * (it has no owner).
 */
struct kd_snapshot {
	const struct kftlog_row *row;	/* its first row */
	size_t rows;			/* how many */
	int thread;			/* as a call's */
	const char *function;		/* the innermost (traced) one, as a call's name */
	size_t first, nr;		/* its frames: frames[first .. first + nr) */
	long before;			/* the call shown after it; nr of calls: none */
	long thread_first;		/* its thread's first call; LONG_MAX: none */
	long parent;			/* the innermost call around it, -1: none */
	int depth;
};

/* Whether a snapshot is a wake set's, not a stack watch's. */
static inline int kd_snapshot_is_wake(const struct kd_snapshot *s)
{
	return s->row->delta == KFTLOG_DELTA_WAKE;
}

struct kd_tree {
	struct kd_call *calls;	/* in log (entry) order */
	size_t nr;
	struct kd_snapshot *snaps;	/* in order of 'before' (log order) */
	size_t nr_snaps;
	/* The snapshots' frames, innermost first: "leaf", "middle+0x8". */
	const char **frames;
	size_t nr_frames;
	struct strtab names;	/* callers' functions, symbolized names */
	int units_ns;		/* the log's times are ns (units ns), not us */
	int has_retvals;	/* some call has a return value (its column) */
	int has_sched;		/* some call has offcpu's times (their columns) */
	struct typedlog *types;	/* --types: the calls' types; NULL without */
};

/* The unit of t's times, as labels say it: "us", or "ns". */
static inline const char *kd_unit(const struct kd_tree *t)
{
	return t->units_ns ? "ns" : "us";
}

int kd_parse_args(int argc, char **argv, struct kd_params *p, char *err, size_t errlen);
void kd_usage(FILE *out);

int kd_tree_build(struct kd_tree *t, const struct kftlog *log, const struct ksyms *ks);
void kd_tree_free(struct kd_tree *t);

/*
 * --srcline (srclines.c): each call's src and caller_src, its words
 * mapped through ks (NULL: addresses are the files' own); -1 without
 * memory.
 */
int kd_srclines(struct kd_tree *t, struct srcline *sl, const struct ksyms *ks);

/* calls.c: a row's thread: its pid, or -2 - cpu for interrupt context. */
int kd_thread_of(const struct kftlog_row *r);
/* The part of a frame that names its function: "name+0x10/0x20" -> "name". */
size_t kd_function_len(const char *frame);
/*
 * A call's return value as kd shows it, into buf: "-22 EINVAL", "0x0",
 * "hidden"; "" when the log has none for it.
 */
const char *kd_retval(const struct kftlog_row *r, char *buf, size_t len);
/* A call's known duration, 0 for open calls. */
long long kd_call_time(const struct kd_call *c);
/*
 * Times are whatever the log says, up to LLONG_MAX: sums and ends saturate
 * at LLONG_MAX instead of overflowing (a hand-made or corrupt log).
 */
long long kd_time_add(long long a, long long b);
/* Where a call with a known duration ends: entry + delta, saturated. */
long long kd_call_end(const struct kd_call *c);

/*
 * The -2 and -3 rows of the log grouped as t's snapshots and wake sets,
 * their frames symbolized through ks (snapshot.c); kd_tree_build() calls
 * it, then places them.
 */
int kd_snapshots_collect(struct kd_tree *t, const struct kftlog *log, const struct ksyms *ks);

/*
 * What finds a snapshot's place in its thread's stack while
 * kd_tree_build() places the calls (snapplace.c), without walking the
 * stack: links past the calls that ended, and each thread's innermost
 * call of each function.
 */
struct kd_name_top {
	int thread;
	const char *name;	/* the function; NULL: a free slot */
	long call;		/* its innermost call on the stack; -1: none */
};

struct kd_snapplace {
	long *open_up;		/* by call: the next ancestor that may be open later */
	long *named_up;		/* by call: the next ancestor of its function, likewise */
	struct kd_name_top *slots;	/* by thread and function (open addressing) */
	size_t cap, nr;
};

/* Ready for t's calls; it does nothing for a log without snapshots. -1: no memory. */
int kd_snapplace_init(struct kd_snapplace *sp, const struct kd_tree *t);
/* Call pushed on its thread's stack, its parent already set; -1: no memory. */
int kd_snapplace_push(struct kd_snapplace *sp, const struct kd_tree *t, long call);
/* Call, the top of its thread's stack, popped. */
void kd_snapplace_pop(struct kd_snapplace *sp, const struct kd_tree *t, long call);
/*
 * Snapshot s's place (its parent and depth, or its owner in before) in
 * the stack whose top is call top (-1: empty); caller_fn is the function
 * of its caller column (NULL: unknown). Rows must come in entry order.
 */
void kd_snapplace_find(struct kd_snapplace *sp, const struct kd_tree *t, long top,
		       struct kd_snapshot *s, const char *caller_fn);
void kd_snapplace_free(struct kd_snapplace *sp);

int kd_summary(FILE *out, const struct kd_tree *t, const struct kd_params *p);
int kd_tasks(FILE *out, const struct kd_tree *t, const struct kd_params *p);
int kd_calltree(FILE *out, const struct kd_tree *t, const struct kd_params *p);
int kd_folded(FILE *out, const struct kd_tree *t, const struct kd_params *p);
int kd_json(FILE *out, const struct kd_tree *t);
int kd_svg(FILE *out, const struct kd_tree *t);
int kd_flamegraph(FILE *out, const struct kd_tree *t, const struct kd_params *p);
/*
 * kd --flamegraph's input (input.c): a kft log, or folded stacks, told
 * apart by the first line that is not blank (a log's header or its
 * "--------" line: a log), or a saved console with kft's last calls,
 * whatever its first line. Either *log is the log, as kftcon__read()
 * reads it with max_rows, dump and cut_said (info: what the input was), or (*log
 * NULL) f has the stacks, malformed lines skipped with a warning on warn.
 * -1 with errno: a read error, the row limit (EFBIG), the flame graph's
 * (E2BIG, EOVERFLOW: flame__strerror()), no such dump (ENOENT).
 */
int kd_read_flame_input(FILE *in, const char *name, FILE *warn, size_t max_rows,
			unsigned int dump, const int *cut_said, struct kftlog **log,
			struct kftcon_info *info, struct flame *f);
/* The output of p's mode. */
int kd_output(FILE *out, const struct kd_tree *t, const struct kd_params *p);
/* The same for a stacks-mode log: only --folded and --flamegraph have one. */
int kd_stacks_output(FILE *out, const struct kftlog *log, const struct ksyms *ks,
		     const struct kd_params *p);

/*
 * The length of the UTF-8 character at s (utf8.c), or 0 where s holds
 * none: a broken sequence, an overlong form, a surrogate, a code point
 * over U+10FFFF. A NUL or another ASCII byte is 1.
 */
size_t kd_utf8_char(const unsigned char *s);

/*
 * XML text (xml.c): s with & < > " ' escaped, and every byte that is no
 * XML character (a control character, broken UTF-8) as '?', so that any
 * name makes a well-formed document.
 */
void kd_xml_text(FILE *out, const char *s);
/*
 * A label of at most chars characters: s whole if it fits, else its first
 * chars - 2 characters and "..", nothing if fewer than 3 fit.
 */
void kd_xml_label(FILE *out, const char *s, size_t chars);

/*
 * Folded stacks (folds.c), what flame graphs are drawn from: "root;...;leaf"
 * and a weight. Each stack is folded as it comes into a tree of frames, one
 * frame per distinct path of functions (a struct flame's tree, each frame
 * with its self weight), so that memory grows with the distinct stacks, not
 * with the calls times their depth (16M calls 20 deep took 8.5 GB as one
 * string a call). The lines are written from the tree at the end: each
 * distinct stack once, its weights summed (saturated), sorted as strcmp()
 * sorts the lines.
 */
/* The last frame of a stack deeper than FLAME_MAX_DEPTH: the calls below. */
#define KD_FOLDS_DEEPER		"[deeper]"

struct kd_folds {
	struct flame tree;	/* frames[0], the root, is none of a stack's */
	char *name;		/* a name with its ';' made '_' */
	size_t name_cap;
};

/* An empty set of stacks; -1 without memory. */
int kd_folds_init(struct kd_folds *f);
/*
 * The frame of the function name (len bytes; a ';' in it becomes '_')
 * called from frame parent (0: a stack's outermost), made if new; -1 with
 * errno. An empty name as a stack's outermost is none: 0. No stack is
 * deeper than a flame graph takes (FLAME_MAX_DEPTH frames): the frame at
 * that depth is KD_FOLDS_DEEPER, whatever the name, and so is every frame
 * under it.
 */
long kd_folds_frame(struct kd_folds *f, unsigned int parent, const char *name, size_t len);
/* The stack that ends at frame weighs weight (>= 0) more. */
void kd_folds_add(struct kd_folds *f, unsigned int frame, long long weight);
/* One line a stack, "a;b;c WEIGHT"; -1 with errno (out of memory). */
int kd_folds_print(FILE *out, const struct kd_folds *f);
/*
 * f as a flame graph (flame.h), its weights in unit; -1 with errno (the
 * flame graph's limits, E2BIG and EOVERFLOW: flame__strerror() says them).
 */
int kd_folds_draw(FILE *out, const struct kd_folds *f, const char *unit,
		  const struct kd_params *p);
void kd_folds_free(struct kd_folds *f);

/*
 * --weigh's split of a call's local time (weigh.c): its time on the CPU,
 * runnable and blocked, so that a sleep is counted in the innermost call
 * it fell in only.
 */
struct kd_sched_times {
	long long runnable, blocked;
};

struct kd_local_times {
	long long oncpu, runnable, blocked;
};

/* The runnable and blocked time of each call's callees, summed; NULL without memory. */
struct kd_sched_times *kd_callees_times(const struct kd_tree *t);
/* Call c's local time split, given its callees' times (kd_callees_times()). */
struct kd_local_times kd_local_times(const struct kd_call *c,
				     const struct kd_sched_times *callees);
/* The frames --weigh puts a call's runnable and blocked time on, under its own. */
#define KD_FOLDS_RUNNABLE	"[runnable]"
#define KD_FOLDS_BLOCKED	"[blocked]"

/* What --folded folds from a trace log: calls, or (--snapshots) snapshots. */
int kd_fold_tree(struct kd_folds *f, const struct kd_tree *t, const struct kd_params *p);
/* A stacks-mode log's "stack" blocks (not its events), merged. */
int kd_fold_stacks(struct kd_folds *f, const struct kftstacks *st, const struct ksyms *ks);

#endif
