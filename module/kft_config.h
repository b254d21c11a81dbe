/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kft configuration language: text -> struct kft_config.
 *
 * Plain C with no kernel calls: the same source builds into the module and
 * into the userspace unit tests. The parser never allocates: it writes NUL
 * bytes into the text it is given (so tokens can be pointed to) and fills
 * function references into an array the caller provides.
 */
#ifndef KFT_CONFIG_H
#define KFT_CONFIG_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#endif

#define KFT_CONFIG_MAX_BYTES	65536
#define KFT_MAX_TIME_US		1000000000000ULL	/* 11.5 days */
#define KFT_MAX_LOGENTRIES	16777216UL		/* 640 MiB of records */
#define KFT_DEFAULT_LOGENTRIES	20000UL		/* the original's default */
/*
 * Functions a trace run may hook with kretprobes (no fprobe: 6.1), one
 * kretprobe each, so sets must stay small. Here so that kft trace, which
 * names a glob's functions on such kernels, can say when they are too many.
 */
#define KFT_MAX_KRETPROBES	512

/* Every error a configuration can get; messages in kft_config.c. */
enum kft_parse_err {
	KFT_ERR_NONE,
	KFT_ERR_EMPTY,
	KFT_ERR_TOO_LONG,
	KFT_ERR_BAD_CHAR,
	KFT_ERR_UNKNOWN_STATEMENT,
	KFT_ERR_EXPECTED_BEGIN,
	KFT_ERR_MISSING_END,
	KFT_ERR_AFTER_END,
	KFT_ERR_NESTED_BEGIN,
	KFT_ERR_MISPLACED_NEW,
	KFT_ERR_COMMAND_NOT_ALONE,
	KFT_ERR_EXPECTED_START_STOP,
	KFT_ERR_EXPECTED_TRIGGER_KIND,
	KFT_ERR_EXPECTED_FILTER,
	KFT_ERR_MISSING_FUNCTION,
	KFT_ERR_BAD_FUNCTION,
	KFT_ERR_MISSING_NUMBER,
	KFT_ERR_BAD_NUMBER,
	KFT_ERR_NUMBER_RANGE,
	KFT_ERR_MISSING_FEND,
	KFT_ERR_EMPTY_FUNCLIST,
	KFT_ERR_DUPLICATE,
	KFT_ERR_INTS_CONFLICT,
	KFT_ERR_MIN_OVER_MAX,
	KFT_ERR_UNSUPPORTED,
	KFT_ERR_UNKNOWN_FUNCTION,
	KFT_ERR_NEEDS_FPROBE,
	KFT_ERR_TOO_MANY_FUNCTIONS,
	KFT_ERR_GLOB_NEEDS_FPROBE,
	KFT_ERR_NO_RUN,
	KFT_ERR_BUSY,
	KFT_ERR_NOT_ACTIVE,
	KFT_ERR_MODULE_GLOB,
	KFT_ERR_NO_MEMORY,
	KFT_ERR_ATTACH_FAILED,
	KFT_ERR_AUTOREPEAT_TIME,
	KFT_ERR_NOT_FUNCTION_START,
	KFT_ERR_EXPECTED_MODE,
	KFT_ERR_NOT_IN_COUNT_MODE,
	KFT_ERR_NOT_IN_STACKS_MODE,
	KFT_ERR_NOT_IN_PROFILE_MODE,
	KFT_ERR_NOT_IN_TRACE_MODE,
	KFT_ERR_EXPECTED_WATCH,
	KFT_ERR_EXPECTED_IDLE,
	KFT_ERR_PID_TID_CONFLICT,
	KFT_ERR_STACKS_NEED_FUNCLIST,
	KFT_ERR_NO_SUCH_CPU,
	KFT_ERR_EXPECTED_HOOKS,
	KFT_ERR_WATCH_NEEDS_SAFE,
	KFT_ERR_FAST_NOT_HERE,
	KFT_ERR_SAFE_NOT_HERE,
	KFT_ERR_COMM_TOO_LONG,
	KFT_ERR_MISSING_COMM,
	KFT_ERR_EXPECTED_UNITS,
	KFT_ERR_ONE_GLOB,
	KFT_ERR_FAST_NO_MEMORY,
	KFT_ERR_NOT_IN_HISTOGRAM_MODE,
	KFT_ERR_UNITS_MS,
	KFT_ERR_BOOT_NO_KPROBES,
	KFT_ERR_COUNT_NO_MEMORY,
	KFT_ERR_HIST_NO_MEMORY,
	KFT_ERR_FAST_NEEDS_ARGS,
	KFT_ERR_FAST_NEEDS_REGS,
	KFT_ERR_FAST_NEEDS_GRAPH,
	KFT_ERR_ROOT_GLOB,
	KFT_ERR_NEEDS_ROOTS,
	KFT_ERR_ROOTS_CONFLICT,
	KFT_ERR_HOLD_NO_MEMORY,
	KFT_ERR_SCHED_PROBE,
	KFT_ERR_EXITED_PROBE,
	KFT_ERR_SCHED_NO_MEMORY,
	KFT_ERR_WAKERS_NEEDS_ROOTS,
	KFT_ERR_ONCPU_NEEDS_TIME,
	KFT_ERR_EXPECTED_LOG,
	KFT_ERR_RING_CONFLICT,
	KFT_ERR_REGION_NONE,
	KFT_ERR_REGION_BUSY,
	KFT_ERR_REGION_SMALL,
	KFT_ERR_ARGF_INDEX,
	KFT_ERR_ARGF_OP,
	KFT_ERR_ARGF_CONSTANT,
	KFT_ERR_ARGF_TOO_MANY,
	KFT_ERR_ARGF_MODE,
	KFT_ERR_ARGF_ROOTS,
	KFT_ERR_ARGF_FUNCTION,
	KFT_ERR_ARGF_STRING_OP,
	KFT_ERR_ARGF_QUOTE,
	KFT_ERR_ARGF_UNTERMINATED,
	KFT_ERR_ARGF_ESCAPE,
	KFT_ERR_ARGF_STRING_LEN,
	KFT_ERR_ARGF_AFTER_QUOTE,
	KFT_ERR_ARGS_NEED_SNOOP,
	KFT_ERR_STRUCT_LEN,
	KFT_ERR_HOLD_STR_NO_MEMORY,
	KFT_ERR_WRITER_KILLED,
	KFT_ERR_COUNT,
};

/* 1-based; col counts bytes. */
struct kft_pos {
	unsigned int line;
	unsigned int col;
};

/* A function as written: a name, a glob, module:name, or a hex address. */
struct kft_func_ref {
	const char *text;		/* NUL-terminated, inside the parsed text */
	unsigned long addr;		/* when is_addr */
	bool is_addr;
	bool is_glob;			/* contains * ? or [ */
	struct kft_pos pos;
};

enum kft_trigger_kind {
	KFT_TRIGGER_NONE,
	KFT_TRIGGER_ENTRY,
	KFT_TRIGGER_EXIT,
	KFT_TRIGGER_TIME,
};

struct kft_trigger {
	enum kft_trigger_kind kind;
	struct kft_func_ref func;	/* ENTRY, EXIT */
	bool on_error;			/* EXIT: only an exit that returns an error ("error F") */
	unsigned long long time_us;	/* TIME: start: since boot; stop: since start */
};

/*
 * What a run collects: a log of calls with their durations, per-CPU call
 * counts per function (entry hook only), counts of identical kernel stacks
 * at the entries of traced functions, counts of the stacks a per-CPU
 * timer interrupts (a sampling profile), or per function, how many calls
 * took each power of two of time (log2 buckets of their durations).
 */
enum kft_run_mode {
	KFT_MODE_TRACE,		/* the default */
	KFT_MODE_COUNT,
	KFT_MODE_STACKS,
	KFT_MODE_PROFILE,
	KFT_MODE_HISTOGRAM,	/* per-function log2 histograms of durations */
};

enum kft_watch_kind {
	KFT_WATCH_NONE,
	KFT_WATCH_STACK,	/* every entry with less stack left than bytes */
	KFT_WATCH_WORST,	/* and each hit lowers the threshold */
};

/*
 * How trace mode hooks function exits (Documentation/kft.rst, "hooks"):
 * fast is kft's own return trampoline, safe the kernel's fprobe or
 * kretprobes, whose calls stack traces can see through.
 */
/*
 * How trace mode's log fills (Documentation/kft.rst, "log"): one array
 * that stops when full; each CPU's last calls, the oldest overwritten;
 * each CPU's calls handed to a reader, none overwritten.
 */
enum kft_log_fill {
	KFT_LOG_LINEAR,
	KFT_LOG_RING,
	KFT_LOG_STREAM,
};

enum kft_hooks {
	KFT_HOOKS_DEFAULT,	/* not written: the module's choice */
	KFT_HOOKS_FAST,
	KFT_HOOKS_SAFE,
};

#define KFT_MAX_WATCH_BYTES	1048576UL
#define KFT_DEFAULT_SAMPLE_HZ	49		/* bcc profile's default */
#define KFT_MAX_SAMPLE_HZ	10000
#define KFT_DEFAULT_STACKENTRIES 16384UL	/* distinct stacks */
#define KFT_MAX_STACKENTRIES	1048576UL
#define KFT_MAX_SNOOP		1048576UL
#define KFT_MAX_PID		4194304		/* PID_MAX_LIMIT */
#define KFT_MAX_CPU		16383
#define KFT_COMM_LEN		16		/* TASK_COMM_LEN, NUL included */
#define KFT_DEFAULT_HOLDENTRIES	4096UL		/* calls held per task inside a root */
#define KFT_MAX_HOLDENTRIES	1048576UL
#define KFT_DEFAULT_HOLDTASKS	32UL		/* tasks inside roots at once */
#define KFT_MAX_HOLDTASKS	65536UL

#define KFT_STRINGIFY_(x)	#x
#define KFT_STRINGIFY(x)	KFT_STRINGIFY_(x)

/*
 * The architecture's facts the language depends on: the compiler's own,
 * so that the parser says the same in userspace, but for kft_confgen, a
 * host program that checks a kernel's compiled-in configuration for that
 * kernel's architecture (module/Kbuild passes KFT_TARGET_LONG_BITS and
 * KFT_TARGET_ARGF_REGS: a cross-built 32-bit ARM kernel's are not the
 * host's).
 *
 * KFT_LONG_BITS: a long's, the width of an address and of filter arg's
 * long and ulong.
 */
#ifdef KFT_TARGET_LONG_BITS
#define KFT_LONG_BITS		KFT_TARGET_LONG_BITS
#else
#define KFT_LONG_BITS		(8 * (int)sizeof(long))
#endif

/*
 * filter arg: the argument registers a call's entry can be judged by, the
 * ones the architecture passes a function's first arguments in (as
 * KFT_ARGS_MAX, kft_arch.h, which the module checks against this).
 */
#if defined(KFT_TARGET_ARGF_REGS)
#define KFT_ARGF_REGS		KFT_TARGET_ARGF_REGS
#elif defined(__arm__)
#define KFT_ARGF_REGS		4
#elif defined(__riscv)
#define KFT_ARGF_REGS		8
#else
#define KFT_ARGF_REGS		6
#endif
#define KFT_ARGF_REGS_TEXT	KFT_STRINGIFY(KFT_ARGF_REGS)
#define KFT_ARGF_MAX		4	/* filter arg statements a block may hold */

/*
 * args struct N LEN: the most bytes a record keeps of what an argument
 * points to, the room of a string's copy beside it (kft_argstr.h).
 */
#define KFT_STRUCT_LEN_MAX	63
#define KFT_STRUCT_LEN_MAX_TEXT	"63"

/*
 * filter arg N string OP "TEXT": the most bytes TEXT may have, as many as
 * args string keeps of a string (KFT_STR_LEN, kft_argstr.h). A glob reads
 * one byte more of the argument's string.
 */
#define KFT_ARGF_STR_MAX	62
#define KFT_ARGF_STR_MAX_TEXT	"62"
/* Its text quoted (kft_argf_quote()): each byte as \xHH at most. */
#define KFT_ARGF_QUOTED_MAX	(4 * KFT_ARGF_STR_MAX + 3)

/* How filter arg reads its register: as C would read an argument of that type. */
enum kft_argf_type {
	KFT_ARGF_LONG,		/* the default */
	KFT_ARGF_ULONG,
	KFT_ARGF_INT,
	KFT_ARGF_UINT,
	KFT_ARGF_STRING,	/* the kernel string it points to */
	KFT_ARGF_USTRING,	/* the user space string it points to */
};

enum kft_argf_op {
	KFT_ARGF_EQ,
	KFT_ARGF_NE,
	KFT_ARGF_LT,
	KFT_ARGF_LE,
	KFT_ARGF_GT,
	KFT_ARGF_GE,
	KFT_ARGF_AND,		/* any of the value's bits set */
	KFT_ARGF_GLOB,		/* a string: '*' any bytes, '?' one byte */
};

/*
 * filter arg N [TYPE] OP VALUE: a call is kept when argument register N
 * (index N - 1), read as TYPE, compares with VALUE as OP says. @value is
 * VALUE in TYPE's width, sign-extended for a signed type. A string TYPE
 * compares the string the register points to with @text, its TEXT with
 * the escapes undone (no NUL inside, at most KFT_ARGF_STR_MAX bytes).
 */
struct kft_argf {
	struct kft_pos pos;		/* the statement's "filter" */
	const char *text;		/* VALUE as written (a string's, unescaped), in the parsed text */
	struct kft_func_ref func;	/* the function it judges, when has_func */
	bool has_func;			/* else it judges every function */
	unsigned int index;
	enum kft_argf_type type;
	enum kft_argf_op op;
	unsigned long long value;
};

struct kft_config {
	enum kft_run_mode mode;
	struct kft_pos mode_pos;	/* the mode's word; 0:0 without "mode" */
	struct kft_trigger start;
	struct kft_trigger stop;
	unsigned long long mintime_us;	/* 0: off */
	unsigned long long maxtime_us;	/* 0: off */
	bool noints;
	bool onlyints;
	bool errors;			/* trace: only calls that return an error */
	bool autorepeat;
	bool units_ns;			/* trace: rows in ns, not us; histogram: ns buckets */
	bool units_ms;			/* histogram: ms buckets */
	unsigned long logentries;	/* the mode's default if not given */
	enum kft_hooks hooks;		/* trace mode */
	struct kft_pos hooks_pos;	/* the hooks statement; 0:0 without one */
	enum kft_watch_kind watch;	/* trace mode */
	struct kft_pos watch_pos;	/* the watch statement; 0:0 without one */
	unsigned long watch_bytes;
	unsigned int sample_hz;		/* profile; 49 if not given */
	bool include_idle;		/* profile */
	bool per_process;		/* stacks (profile always is) */
	unsigned int per_arg;		/* count, histogram: keyed by argument N too; 0: none */
	int filter_pid;			/* tgid; 0: any */
	int filter_tid;			/* thread; 0: any */
	int filter_cpu;			/* -1: any */
	char filter_comm[KFT_COMM_LEN];	/* the task's name; "": any */
	unsigned long snoop;		/* stacks: event ring size; 0: none */
	bool has_funclist;
	struct kft_func_ref *funcs;	/* the caller's array */
	unsigned int nr_funcs;
	/*
	 * filter roots (trace): in the same array, after the funclist's
	 * room (kft_run_create() moves them next to it).
	 */
	struct kft_func_ref *roots;
	unsigned int nr_roots;
	unsigned long holdentries;	/* records held per task; with roots */
	unsigned long holdtasks;	/* tasks inside roots at once */
	bool offcpu;			/* trace: each call's times off the CPU; histogram: on it */
	bool args;			/* trace: each call's argument registers at entry */
	unsigned int str_arg;		/* args string N: N, the argument; 0: none */
	bool str_user;			/* args ustring N: a user space string */
	unsigned int mem_len;		/* args struct N LEN: LEN bytes, no string; 0: a string */
	bool wakers;			/* trace, with roots: who woke each sleep (takes offcpu) */
	bool filter_oncpu;		/* mintime, maxtime judge the time on the CPU (takes offcpu) */
	enum kft_log_fill log;		/* trace: how the log fills */
	bool persistent;		/* log ring, in the kft region (log persistent) */
	struct kft_pos log_pos;		/* the log statement's word; 0:0 without one */
	struct kft_argf argf[KFT_ARGF_MAX];	/* filter arg: a call passes all of them */
	unsigned int nr_argf;
};

enum kft_command {
	KFT_CMD_CONFIG,			/* a new/begin ... end block */
	KFT_CMD_PRIME,
	KFT_CMD_START,
	KFT_CMD_STOP,
	KFT_CMD_CLEAR,
};

struct kft_parse_error {
	enum kft_parse_err code;
	struct kft_pos pos;
	bool at_eof;			/* found because the input ended */
	bool at_last_word;		/* the offending word ends the input */
	char token[48];			/* the offending word, may be empty */
};

/* The most function references a text of len bytes can hold. */
static inline unsigned int kft_config_max_funcs(size_t len)
{
	return len / 2 + 1;
}

/*
 * The statements a block may hold, each at most once: where each was seen
 * finds duplicates and the statements a mode has no use for. The two kinds
 * of watch are one statement, so a block has one watch; filter arg, up to
 * KFT_ARGF_MAX times, is seen where it first is.
 */
enum kft_stmt {
	KFT_STMT_START,
	KFT_STMT_STOP,
	KFT_STMT_MINTIME,
	KFT_STMT_MAXTIME,
	KFT_STMT_NOINTS,
	KFT_STMT_ONLYINTS,
	KFT_STMT_FUNCLIST,
	KFT_STMT_PID,
	KFT_STMT_TID,
	KFT_STMT_CPU,
	KFT_STMT_COMM,
	KFT_STMT_LOGENTRIES,
	KFT_STMT_AUTOREPEAT,
	KFT_STMT_MODE,
	KFT_STMT_WATCH,
	KFT_STMT_SAMPLE,
	KFT_STMT_INCLUDE,
	KFT_STMT_PER_PROCESS,
	KFT_STMT_SNOOP,
	KFT_STMT_HOOKS,
	KFT_STMT_UNITS,
	KFT_STMT_ERRORS,
	KFT_STMT_ROOTS,
	KFT_STMT_HOLDENTRIES,
	KFT_STMT_HOLDTASKS,
	KFT_STMT_OFFCPU,
	KFT_STMT_WAKERS,
	KFT_STMT_ONCPU,
	KFT_STMT_LOG,
	KFT_STMT_ARGS,
	KFT_STMT_ARGF,		/* the first filter arg (there may be more) */
	KFT_STMT_PER_ARG,
	KFT_STMT_COUNT,
};

bool kft_mode_takes(enum kft_run_mode mode, enum kft_stmt stmt);
enum kft_parse_err kft_config_override_error(const struct kft_config *cfg, enum kft_stmt stmt,
					     const char **token);
bool kft_config_needs_kprobes(const struct kft_config *cfg, enum kft_hooks hooks,
			      bool have_fprobe, bool entry_kprobes);

int kft_config_parse(char *text, size_t len, enum kft_command *cmd,
		     struct kft_config *cfg, struct kft_func_ref *funcs,
		     unsigned int max_funcs, struct kft_parse_error *err);
const char *kft_parse_strerror(enum kft_parse_err code);
const char *kft_argf_type_word(enum kft_argf_type type);
const char *kft_argf_op_word(enum kft_argf_op op);
void kft_argf_quote(char *out, const char *s);
/* True when more text could still complete the input (a block not ended). */
bool kft_parse_incomplete(const struct kft_parse_error *err);
/*
 * True when more text could change the verdict: incomplete, or the error is
 * in the last word, which the next write may continue.
 */
bool kft_parse_may_continue(const struct kft_parse_error *err);

/*
 * For writers that send a text in small pieces: after an input that had to
 * wait for more, a piece that only extends its last word (no white space,
 * '#' or other byte the lexer stops at) leaves the verdict "wait" unless the
 * word it makes is a keyword. Parsing again only then keeps byte-by-byte
 * writing linear instead of quadratic.
 */
bool kft_config_must_reparse(const char *text, size_t len, size_t added,
			     size_t *word_start);

/* Whether @text[0..@len) has nothing but white space and comments. */
bool kft_config_blank(const char *text, size_t len);

#endif
