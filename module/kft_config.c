// SPDX-License-Identifier: GPL-2.0
/*
 * The kft configuration language (see Documentation/kft.rst):
 *
 *	input     := command | [ "new" ] "begin" statement* "end"
 *	command   := "prime" | "start" | "stop" | "clear"	(written alone)
 *	statement := "trigger" ("start" | "stop") ("entry" FUNC | "exit" FUNC | "error" FUNC
 *						  | "time" NUM)
 *		   | "filter" ("mintime" NUM | "maxtime" NUM | "noints" | "onlyints" | "errors"
 *			       | "funclist" FUNC+ "fend" | "pid" NUM | "tid" NUM | "cpu" NUM
 *			       | "arg" [FUNC] NUM [ "long" | "ulong" | "int" | "uint" ] OP VALUE
 *			       | "arg" [FUNC] NUM ("string" | "ustring") ("==" | "!=" | "~") STRING)
 *		   | "logentries" NUM | "autorepeat"
 *		   | "mode" ("trace" | "count" | "stacks" | "profile" | "histogram")
 *		   | "watch" ("stack" | "worst-stack") NUM
 *		   | "sample" NUM | "include" "idle" | "per-process" | "snoop" NUM
 *		   | "hooks" ("fast" | "safe")
 *		   | "log" ("linear" | "ring" | "stream" | "persistent")
 *		   | "offcpu" | "wakers" | "args" [ ("string" | "ustring") NUM ]
 *		   | "per-arg" NUM
 *
 * Words are separated by white space; '#' starts a comment that runs to the
 * end of the line. A STRING is one word in double quotes on one line, white
 * space and '#' in it, with some of C's escapes (lex_quoted()). Keywords
 * match exactly (no prefixes). Every statement may
 * appear once ("watch stack" and "watch worst-stack" are one statement;
 * "filter arg" up to KFT_ARGF_MAX times, OP one of == != < <= > >= &). The
 * first error ends the parse and is reported with its line and column; the
 * caller keeps its previous state. A statement that means nothing in the
 * block's mode (mintime in count mode) is an error at the later of it and
 * the mode statement (kft_mode_rules below says which).
 */
#include "kft_config.h"

#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <string.h>
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* The messages are stable: tests and users match them. */
static const char *const kft_parse_messages[] = {
	[KFT_ERR_NONE] = "no error",
	[KFT_ERR_EMPTY] = "empty configuration",
	[KFT_ERR_TOO_LONG] = "configuration larger than 65536 bytes",
	[KFT_ERR_BAD_CHAR] = "invalid character",
	[KFT_ERR_UNKNOWN_STATEMENT] = "unknown statement",
	[KFT_ERR_EXPECTED_BEGIN] = "expected 'begin'",
	[KFT_ERR_MISSING_END] = "missing 'end'",
	[KFT_ERR_AFTER_END] = "statement after 'end'",
	[KFT_ERR_NESTED_BEGIN] = "'begin' inside a block",
	[KFT_ERR_MISPLACED_NEW] = "'new' must be the first statement",
	[KFT_ERR_COMMAND_NOT_ALONE] = "a command must be written alone",
	[KFT_ERR_EXPECTED_START_STOP] = "expected 'start' or 'stop'",
	[KFT_ERR_EXPECTED_TRIGGER_KIND] = "expected 'entry', 'exit', 'error' or 'time'",
	[KFT_ERR_EXPECTED_FILTER] =
		"expected 'mintime', 'maxtime', 'oncpu', 'noints', 'onlyints', 'errors', 'funclist', 'roots', 'pid', 'tid', 'cpu', 'comm' or 'arg'",
	[KFT_ERR_MISSING_FUNCTION] = "missing function",
	[KFT_ERR_BAD_FUNCTION] = "malformed function name or address",
	[KFT_ERR_MISSING_NUMBER] = "missing number",
	[KFT_ERR_BAD_NUMBER] = "malformed number",
	[KFT_ERR_NUMBER_RANGE] = "number out of range",
	[KFT_ERR_MISSING_FEND] = "missing 'fend' to close the list",
	[KFT_ERR_EMPTY_FUNCLIST] = "empty list",
	[KFT_ERR_DUPLICATE] = "duplicate statement",
	[KFT_ERR_INTS_CONFLICT] = "'noints' and 'onlyints' exclude each other",
	[KFT_ERR_MIN_OVER_MAX] = "mintime is greater than maxtime",
	[KFT_ERR_UNSUPPORTED] = "not supported by this version of kft",
	[KFT_ERR_UNKNOWN_FUNCTION] = "no traceable function matches",
	[KFT_ERR_NEEDS_FPROBE] = "tracing every function needs fprobe, which this kernel lacks: use 'filter funclist'",
	[KFT_ERR_TOO_MANY_FUNCTIONS] = "too many functions for kretprobes on this kernel",
	[KFT_ERR_GLOB_NEEDS_FPROBE] = "globs need fprobe, which this kernel lacks: name each function",
	[KFT_ERR_NO_RUN] = "no run configured",
	[KFT_ERR_BUSY] = "the run is primed or running",
	[KFT_ERR_NOT_ACTIVE] = "the run is not primed or running",
	[KFT_ERR_MODULE_GLOB] = "a glob cannot take a module prefix",
	[KFT_ERR_NO_MEMORY] = "not enough memory for the log",
	[KFT_ERR_ATTACH_FAILED] = "could not attach to the functions",
	[KFT_ERR_AUTOREPEAT_TIME] = "autorepeat cannot wait again for a start time that has passed: start on entry or exit",
	[KFT_ERR_NOT_FUNCTION_START] = "address is not the start of a function",
	[KFT_ERR_EXPECTED_MODE] = "expected 'trace', 'count', 'stacks', 'profile' or 'histogram'",
	[KFT_ERR_NOT_IN_COUNT_MODE] = "has no meaning in count mode",
	[KFT_ERR_NOT_IN_STACKS_MODE] = "has no meaning in stacks mode",
	[KFT_ERR_NOT_IN_PROFILE_MODE] = "has no meaning in profile mode",
	[KFT_ERR_NOT_IN_TRACE_MODE] = "has no meaning in trace mode",
	[KFT_ERR_EXPECTED_WATCH] = "expected 'stack' or 'worst-stack'",
	[KFT_ERR_EXPECTED_IDLE] = "expected 'idle'",
	[KFT_ERR_PID_TID_CONFLICT] = "'pid' and 'tid' exclude each other",
	[KFT_ERR_STACKS_NEED_FUNCLIST] = "mode stacks needs a 'filter funclist'",
	[KFT_ERR_NO_SUCH_CPU] = "the CPU of 'filter cpu' is not online",
	[KFT_ERR_EXPECTED_HOOKS] = "expected 'fast' or 'safe'",
	[KFT_ERR_WATCH_NEEDS_SAFE] = "a stack watch needs 'hooks safe': fast hooks cut stack traces",
	[KFT_ERR_FAST_NOT_HERE] =
		"hooks fast needs x86-64, arm64, riscv64 or 32-bit ARM (kft's return trampoline)",
	[KFT_ERR_SAFE_NOT_HERE] =
		"no safe hooks on this kernel (no fprobe, no kprobes at ftrace's call sites): hooks fast only, no stack watch",
	[KFT_ERR_COMM_TOO_LONG] = "a task's name has at most 15 bytes",
	[KFT_ERR_MISSING_COMM] = "missing task name",
	[KFT_ERR_EXPECTED_UNITS] = "expected 'us', 'ns' or 'ms'",
	[KFT_ERR_ONE_GLOB] = "this kernel's fprobe takes one glob per funclist: name the other functions",
	[KFT_ERR_FAST_NO_MEMORY] = "not enough memory for fast hooks' shadow stacks (module parameter fast_tasks)",
	[KFT_ERR_NOT_IN_HISTOGRAM_MODE] = "has no meaning in histogram mode",
	[KFT_ERR_UNITS_MS] = "units ms is for histogram mode: a log's columns are in us or ns",
	[KFT_ERR_BOOT_NO_KPROBES] =
		"this kernel has no kprobes before its core initcalls: the boot's run takes no kretprobes (hooks safe, a stack watch): hooks fast",
	[KFT_ERR_COUNT_NO_MEMORY] =
		"not enough memory for the count table (module parameter count_functions)",
	[KFT_ERR_HIST_NO_MEMORY] =
		"not enough memory for the histogram table (module parameter histogram_functions)",
	[KFT_ERR_FAST_NEEDS_ARGS] =
		"hooks fast needs ftrace to pass the traced function's registers (DYNAMIC_FTRACE_WITH_ARGS: x86-64 from 5.11 on, arm64 from 6.2 on), which this kernel lacks",
	[KFT_ERR_FAST_NEEDS_REGS] =
		"hooks fast needs ftrace to save the traced function's registers and the unwinder to say where a return address is (DYNAMIC_FTRACE_WITH_REGS and ARM_UNWIND, Linux 5.18 on), which this kernel lacks",
	[KFT_ERR_FAST_NEEDS_GRAPH] =
		"hooks fast needs the function graph tracer (FUNCTION_GRAPH_TRACER: without it the kernel traces its context switch), which this kernel lacks",
	[KFT_ERR_ROOT_GLOB] = "a root is one function (a name, module:name or an address), not a glob",
	[KFT_ERR_NEEDS_ROOTS] = "sizes the holding of calls inside root calls: needs 'filter roots'",
	[KFT_ERR_ROOTS_CONFLICT] =
		"cannot go with 'filter roots', which keeps only a task's calls inside its root calls",
	[KFT_ERR_HOLD_NO_MEMORY] =
		"not enough memory to hold the calls inside roots (holdtasks times holdentries records)",
	[KFT_ERR_SCHED_PROBE] =
		"offcpu could not probe the scheduler's sched_switch tracepoint (wakers: or sched_waking)",
	[KFT_ERR_EXITED_PROBE] =
		"could not probe the sched_process_free tracepoint, which frees the slots of exited tasks (filter roots, offcpu)",
	[KFT_ERR_SCHED_NO_MEMORY] =
		"not enough memory for offcpu's table of tasks (module parameter sched_tasks)",
	[KFT_ERR_WAKERS_NEEDS_ROOTS] =
		"keeps who woke each sleep inside a kept root call: needs 'filter roots'",
	[KFT_ERR_ONCPU_NEEDS_TIME] =
		"makes the time filters judge the time on the CPU: needs 'filter mintime' or 'filter maxtime'",
	[KFT_ERR_EXPECTED_LOG] = "expected 'linear', 'ring', 'stream' or 'persistent'",
	[KFT_ERR_REGION_NONE] =
		"log persistent needs the kft region: boot with reserve_mem=16M:4096:kft (6.11 on), or memmap=16M$ADDR and kft's parameter region=16M@ADDR, or a device tree node compatible with \"kft,region\"",
	[KFT_ERR_REGION_BUSY] = "the kft region is another run's: clear it first",
	[KFT_ERR_REGION_SMALL] =
		"the kft region is too small for logentries: it holds at most, a CPU,",
	[KFT_ERR_RING_CONFLICT] =
		"log ring and log stream keep each CPU's calls one at a time, which would leave parts of a block of rows: not with",
	[KFT_ERR_STRUCT_LEN] = "args struct copies 1 to " KFT_STRUCT_LEN_MAX_TEXT " bytes",
	[KFT_ERR_HOLD_STR_NO_MEMORY] =
		"not enough memory to hold the calls inside roots with their strings (holdtasks times holdentries records, and twice as many copies of args string or struct)",
	[KFT_ERR_ARGS_NEED_SNOOP] =
		"args in stacks mode keeps the registers of each event snoop keeps: not without 'snoop', nor a string or a struct's bytes",
	[KFT_ERR_ARGF_INDEX] =
		"an argument is 1 to " KFT_ARGF_REGS_TEXT " on this architecture, the registers its first arguments are passed in",
	[KFT_ERR_ARGF_OP] =
		"expected '==', '!=', '<', '<=', '>', '>=' or '&', after an optional 'long', 'ulong', 'int' or 'uint'; or 'string' or 'ustring' and '==', '!=' or '~'",
	[KFT_ERR_ARGF_CONSTANT] =
		"gives the same answer for every value of the argument's type: it would keep every call or none",
	[KFT_ERR_ARGF_TOO_MANY] = "at most 4 argument filters in a block",
	[KFT_ERR_ARGF_MODE] =
		"judges a call by its registers at its entry, and profile mode's samples are no call's entry: not in profile mode",
	[KFT_ERR_ARGF_ROOTS] =
		"judges each call at its entry, and filter roots judges a whole tree at its root's return: not with 'filter roots'",
	[KFT_ERR_ARGF_FUNCTION] =
		"the function an argument filter judges is one: a name or module:name, not a glob or an address",
	[KFT_ERR_ARGF_STRING_OP] = "a string compares with '==', '!=' or '~' (a glob)",
	[KFT_ERR_ARGF_QUOTE] = "expected a string in double quotes",
	[KFT_ERR_ARGF_UNTERMINATED] = "unterminated string: it ends with '\"' on its line",
	[KFT_ERR_ARGF_ESCAPE] =
		"unknown escape: a string takes \\\", \\\\, \\n, \\t and \\xHH (not \\x00)",
	[KFT_ERR_ARGF_STRING_LEN] = "a string filter compares at most " KFT_ARGF_STR_MAX_TEXT " bytes",
	[KFT_ERR_ARGF_AFTER_QUOTE] = "expected white space after a string's closing quote",
	[KFT_ERR_WRITER_KILLED] = "the writer was killed while the run attached to its functions",
};

_Static_assert(KFT_ARGF_MAX == 4, "the message of KFT_ERR_ARGF_TOO_MANY says 4");

_Static_assert(ARRAY_SIZE(kft_parse_messages) == KFT_ERR_COUNT,
	       "a parse error without a message");

#define STMT_BIT(i)	(1U << (i))
#define STMT(s)		STMT_BIT(KFT_STMT_##s)

/* The word an error about a whole statement names (a filter by its kind). */
static const char *const kft_stmt_words[] = {
	[KFT_STMT_START] = "trigger",
	[KFT_STMT_STOP] = "trigger",
	[KFT_STMT_MINTIME] = "mintime",
	[KFT_STMT_MAXTIME] = "maxtime",
	[KFT_STMT_NOINTS] = "noints",
	[KFT_STMT_ONLYINTS] = "onlyints",
	[KFT_STMT_FUNCLIST] = "funclist",
	[KFT_STMT_PID] = "pid",
	[KFT_STMT_TID] = "tid",
	[KFT_STMT_CPU] = "cpu",
	[KFT_STMT_COMM] = "comm",
	[KFT_STMT_LOGENTRIES] = "logentries",
	[KFT_STMT_AUTOREPEAT] = "autorepeat",
	[KFT_STMT_MODE] = "mode",
	[KFT_STMT_WATCH] = "watch",
	[KFT_STMT_SAMPLE] = "sample",
	[KFT_STMT_INCLUDE] = "include",
	[KFT_STMT_PER_PROCESS] = "per-process",
	[KFT_STMT_SNOOP] = "snoop",
	[KFT_STMT_HOOKS] = "hooks",
	[KFT_STMT_UNITS] = "units",
	[KFT_STMT_ERRORS] = "errors",
	[KFT_STMT_ROOTS] = "roots",
	[KFT_STMT_HOLDENTRIES] = "holdentries",
	[KFT_STMT_HOLDTASKS] = "holdtasks",
	[KFT_STMT_OFFCPU] = "offcpu",
	[KFT_STMT_WAKERS] = "wakers",
	[KFT_STMT_ONCPU] = "oncpu",
	[KFT_STMT_LOG] = "log",
	[KFT_STMT_ARGS] = "args",
	[KFT_STMT_ARGF] = "arg",
	[KFT_STMT_PER_ARG] = "per-arg",
};

_Static_assert(ARRAY_SIZE(kft_stmt_words) == KFT_STMT_COUNT, "a statement without its word");

/*
 * Which statements mean something in which mode follows from what the mode
 * collects (Documentation/stacks.rst):
 * - trace: a log of calls, with durations (mintime, maxtime) and return
 *   values (errors), timed by
 *   exit hooks of either kind (hooks), and a stack
 *   watch at their entries; no stack table to key or filter (per-process,
 *   pid, tid, cpu, snoop) and no timer (sample, include).
 * - count: per-function counters, or counters per function and value of
 *   an argument (per-arg), and nothing else (no exit hooks, so no
 *   durations and no return values). Only count and histogram modes key
 *   by an argument: the other modes' tables have no room for a value.
 * - stacks: a table of the stacks at the entries of the funclist's
 *   functions, which it needs (a stack at every call of every function
 *   would stop the machine); no durations, no timer.
 * - profile: such a table filled from a per-CPU timer, whatever runs: no
 *   funclist, always keyed by process (per-process), no event ring (snoop).
 * - histogram: trace mode's hooks and filters, each kept call counted in
 *   its function's log2 bucket of duration (units: of the buckets), or in
 *   its function's and argument's (per-arg); no log to size (its table is
 *   sized by the funclist), no watch, no stack table.
 * logentries sizes the log or the stack table, within the mode's limit.
 * Only a trace keeps a root's subtree (filter roots, holdentries, holdtasks):
 * a histogram has no log to keep it in. offcpu splits a trace's times; in
 * a histogram it buckets each call's time on the CPU.
 */
/*
 * What only a trace's log keeps: whole subtrees (roots), how it fills
 * (log) and each call's arguments (args, which stacks mode's snoop events
 * keep too); and times off the CPU, which a histogram takes too (it
 * buckets the time on the CPU).
 */
#define KFT_STMTS_ROOTS	(STMT(ROOTS) | STMT(HOLDENTRIES) | STMT(HOLDTASKS) | STMT(WAKERS) | \
			 STMT(LOG) | STMT(ARGS))
#define KFT_STMTS_LOG	(KFT_STMTS_ROOTS | STMT(OFFCPU) | STMT(ONCPU))

static const struct kft_mode_rule {
	const char *word;		/* after "mode" */
	enum kft_parse_err err;		/* a statement in meaningless */
	unsigned int meaningless;	/* STMT() bits */
	bool needs_funclist;
	unsigned long max_entries, default_entries;
} kft_mode_rules[] = {
	[KFT_MODE_TRACE] = {
		"trace", KFT_ERR_NOT_IN_TRACE_MODE,
		STMT(SAMPLE) | STMT(INCLUDE) | STMT(PER_PROCESS) | STMT(SNOOP) | STMT(PER_ARG),
		false, KFT_MAX_LOGENTRIES, KFT_DEFAULT_LOGENTRIES,
	},
	[KFT_MODE_COUNT] = {
		"count", KFT_ERR_NOT_IN_COUNT_MODE,
		STMT(MINTIME) | STMT(MAXTIME) | STMT(LOGENTRIES) | STMT(WATCH) | STMT(SAMPLE) |
		STMT(INCLUDE) | STMT(PER_PROCESS) | STMT(SNOOP) | STMT(UNITS) | STMT(HOOKS) |
		STMT(ERRORS) | KFT_STMTS_LOG,
		false, KFT_MAX_LOGENTRIES, KFT_DEFAULT_LOGENTRIES,
	},
	[KFT_MODE_STACKS] = {
		"stacks", KFT_ERR_NOT_IN_STACKS_MODE,
		STMT(MINTIME) | STMT(MAXTIME) | STMT(WATCH) | STMT(SAMPLE) | STMT(INCLUDE) |
		STMT(UNITS) | STMT(HOOKS) | STMT(ERRORS) | STMT(PER_ARG) |
		(KFT_STMTS_LOG & ~STMT(ARGS)),
		true, KFT_MAX_STACKENTRIES, KFT_DEFAULT_STACKENTRIES,
	},
	[KFT_MODE_PROFILE] = {
		"profile", KFT_ERR_NOT_IN_PROFILE_MODE,
		STMT(MINTIME) | STMT(MAXTIME) | STMT(WATCH) | STMT(FUNCLIST) | STMT(PER_PROCESS) |
		STMT(SNOOP) | STMT(UNITS) | STMT(HOOKS) | STMT(ERRORS) | STMT(PER_ARG) |
		KFT_STMTS_LOG,
		false, KFT_MAX_STACKENTRIES, KFT_DEFAULT_STACKENTRIES,
	},
	[KFT_MODE_HISTOGRAM] = {
		"histogram", KFT_ERR_NOT_IN_HISTOGRAM_MODE,
		STMT(LOGENTRIES) | STMT(WATCH) | STMT(SAMPLE) | STMT(INCLUDE) |
		STMT(PER_PROCESS) | STMT(SNOOP) | KFT_STMTS_ROOTS,
		false, KFT_MAX_LOGENTRIES, KFT_DEFAULT_LOGENTRIES,
	},
};

_Static_assert(ARRAY_SIZE(kft_mode_rules) == KFT_MODE_HISTOGRAM + 1, "a mode without its rule");
_Static_assert(KFT_STMT_COUNT <= 32, "more statements than bits in meaningless");

/**
 * kft_mode_takes() - whether a mode has a use for a statement
 * @mode:	the mode
 * @stmt:	the statement
 *
 * What a block of that mode may hold (/proc/kft shows those settings).
 */
bool kft_mode_takes(enum kft_run_mode mode, enum kft_stmt stmt)
{
	return !(kft_mode_rules[mode].meaningless & STMT_BIT(stmt));
}

/**
 * kft_config_override_error() - whether a statement may replace its value
 * @cfg:	a whole configuration, as parsed (the built-in run's)
 * @stmt:	the statement that another source (the kernel's command line)
 *		sets in it afterwards, already set in @cfg
 * @token:	set to the word the error names, for an error
 *
 * A statement set after the parse must meet the rules a parse would have
 * checked: its mode must have a use for it, and a log that is no linear
 * one keeps out filter roots' trees and stack watches (check_ring()).
 *
 * Return: KFT_ERR_NONE, or the error the parse would have reported.
 */
enum kft_parse_err kft_config_override_error(const struct kft_config *cfg, enum kft_stmt stmt,
					     const char **token)
{
	*token = "";
	if (!kft_mode_takes(cfg->mode, stmt))
		return kft_mode_rules[cfg->mode].err;
	if (stmt != KFT_STMT_LOG || cfg->log == KFT_LOG_LINEAR)
		return KFT_ERR_NONE;
	if (cfg->nr_roots) {
		*token = "roots";
		return KFT_ERR_RING_CONFLICT;
	}
	if (cfg->watch != KFT_WATCH_NONE) {
		*token = "watch";
		return KFT_ERR_RING_CONFLICT;
	}
	return KFT_ERR_NONE;
}

/**
 * kft_config_needs_kprobes() - would this run register a kprobe?
 * @cfg:	the configuration
 * @hooks:	the exit hooks it gets (its own word, or the default)
 * @have_fprobe: the kernel's safe exit hooks are fprobes, not kretprobes
 * @entry_kprobes: an entry trigger of a run with safe hooks is a kprobe
 *		(KFT_ENTRY_TRIGGER_KPROBE)
 *
 * Safe exit hooks without fprobe are kretprobes: for the calls a trace or
 * a histogram times, for exit triggers, for a stack watch. Names are not
 * counted: built in, kft looks them up in kallsyms. Asked only where
 * kprobes come after the early initcalls (kft_static.c), where a fast
 * run registers none: its entry triggers are ftrace_ops there
 * (KFT_FAST_RUN_KPROBES, kft_trigger.c).
 *
 * Return: true if it would.
 */
bool kft_config_needs_kprobes(const struct kft_config *cfg, enum kft_hooks hooks,
			      bool have_fprobe, bool entry_kprobes)
{
	bool exit_hooks = kft_mode_takes(cfg->mode, KFT_STMT_HOOKS) ||
			  cfg->start.kind == KFT_TRIGGER_EXIT ||
			  cfg->stop.kind == KFT_TRIGGER_EXIT || cfg->watch != KFT_WATCH_NONE;
	bool entry_triggers = cfg->start.kind == KFT_TRIGGER_ENTRY ||
			      cfg->stop.kind == KFT_TRIGGER_ENTRY;

	if (have_fprobe || hooks == KFT_HOOKS_FAST)
		return false;
	return exit_hooks || (entry_kprobes && entry_triggers);
}

struct kft_lexer {
	char *p;
	char *end;
	struct kft_pos pos;
	bool in_comment;	/* a token ended at '#', overwritten by its NUL */
};

struct kft_token {
	char *s;		/* NUL-terminated; NULL at the end of the input */
	struct kft_pos pos;
};

struct kft_parser {
	struct kft_lexer lx;
	struct kft_token tok;	/* the current token */
	struct kft_config *cfg;
	struct kft_func_ref *funcs;
	unsigned int max_funcs;
	struct kft_parse_error *err;
	/* Where each statement was seen (line 0: not yet). */
	struct kft_pos seen[KFT_STMT_COUNT];
	/* logentries' number: its limit depends on the mode, known at the end. */
	struct kft_token logentries_num;
	/* The current token is the next one's too: a statement looked past its end. */
	bool held;
};

const char *kft_parse_strerror(enum kft_parse_err code)
{
	if ((unsigned int)code >= KFT_ERR_COUNT)
		return "unknown error";
	return kft_parse_messages[code];
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static void lex_advance(struct kft_lexer *lx)
{
	if (*lx->p == '\n') {
		lx->pos.line++;
		lx->pos.col = 1;
	} else {
		lx->pos.col++;
	}
	lx->p++;
}

static void lex_skip_comment(struct kft_lexer *lx)
{
	while (lx->p < lx->end && *lx->p != '\n')
		lex_advance(lx);
	lx->in_comment = false;
}

/* Past white space and comments, to the next word's first byte (or the end). */
static void lex_skip_blank(struct kft_lexer *lx)
{
	if (lx->in_comment)
		lex_skip_comment(lx);
	for (;;) {
		while (lx->p < lx->end && is_space(*lx->p))
			lex_advance(lx);
		if (lx->p < lx->end && *lx->p == '#') {
			lex_skip_comment(lx);
			continue;
		}
		break;
	}
}

/* Moves to the next word. Returns -1 on a forbidden byte (left at lx->p). */
static int lex_next(struct kft_lexer *lx, struct kft_token *t)
{
	lex_skip_blank(lx);
	t->pos = lx->pos;
	if (lx->p >= lx->end) {
		t->s = NULL;
		return 0;
	}
	t->s = lx->p;
	while (lx->p < lx->end && !is_space(*lx->p) && *lx->p != '#') {
		unsigned char c = *lx->p;

		if (c < 0x20 || c >= 0x7f) {
			t->pos = lx->pos;
			return -1;
		}
		lex_advance(lx);
	}
	if (lx->p < lx->end) {
		/* Terminate the word in place; remember a '#' we overwrite. */
		lx->in_comment = *lx->p == '#';
		if (*lx->p == '\n') {
			lx->pos.line++;
			lx->pos.col = 1;
		} else {
			lx->pos.col++;
		}
		*lx->p++ = '\0';
	} else {
		/* The caller gives one spare byte past the end for this NUL. */
		*lx->p = '\0';
	}
	return 0;
}

static int fail_at(struct kft_parser *ps, enum kft_parse_err code,
		   struct kft_pos pos, const char *word)
{
	struct kft_parse_error *err = ps->err;

	err->code = code;
	err->pos = pos;
	err->at_eof = false;
	err->at_last_word = false;
	err->token[0] = '\0';
	/* A bounded copy (strscpy is not in userspace, strncpy is frowned on). */
	if (word) {
		size_t i;

		for (i = 0; word[i] && i < sizeof(err->token) - 1; i++)
			err->token[i] = word[i];
		err->token[i] = '\0';
	}
	return -1;
}

/* An error about the current token; at the end of input, it is "incomplete". */
static int fail(struct kft_parser *ps, enum kft_parse_err code)
{
	fail_at(ps, code, ps->tok.pos, ps->tok.s);
	ps->err->at_eof = !ps->tok.s;
	ps->err->at_last_word = ps->tok.s &&
				ps->tok.s + strlen(ps->tok.s) == ps->lx.end;
	return -1;
}

static int next(struct kft_parser *ps)
{
	if (ps->held) {
		ps->held = false;
		return 0;
	}
	if (lex_next(&ps->lx, &ps->tok)) {
		ps->tok.s = NULL;
		return fail_at(ps, KFT_ERR_BAD_CHAR, ps->tok.pos, NULL);
	}
	return 0;
}

static bool tok_is(const struct kft_parser *ps, const char *word)
{
	return ps->tok.s && !strcmp(ps->tok.s, word);
}

/* Marks a statement as seen where it starts; fails on a second time. */
static int once(struct kft_parser *ps, enum kft_stmt stmt, struct kft_pos at)
{
	if (ps->seen[stmt].line)
		return fail_at(ps, KFT_ERR_DUPLICATE, at, NULL);
	ps->seen[stmt] = at;
	return 0;
}

/* The current token as a decimal number from @min to @max. */
static int parse_number_here(struct kft_parser *ps, unsigned long long min,
			     unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;
	const char *s;

	if (!ps->tok.s)
		return fail(ps, KFT_ERR_MISSING_NUMBER);
	for (s = ps->tok.s; *s; s++) {
		if (*s < '0' || *s > '9')
			return fail(ps, KFT_ERR_BAD_NUMBER);
		if (v > (max - (*s - '0')) / 10)
			return fail(ps, KFT_ERR_NUMBER_RANGE);
		v = v * 10 + (*s - '0');
	}
	if (v < min)
		return fail(ps, KFT_ERR_NUMBER_RANGE);
	*out = v;
	return 0;
}

/* The next token as a decimal number from @min to @max. */
static int parse_number(struct kft_parser *ps, unsigned long long min,
			unsigned long long max, unsigned long long *out)
{
	return next(ps) ?: parse_number_here(ps, min, max, out);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool parse_hex_address(const char *s, unsigned long *addr)
{
	unsigned long v = 0;
	int digits = 0, d;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	for (s += 2; *s; s++, digits++) {
		d = hex_digit(*s);
		if (d < 0 || digits == KFT_LONG_BITS / 4)
			return false;
		v = (v << 4) | d;
	}
	*addr = v;
	return digits > 0 && v != 0;
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
}

static bool is_glob_char(char c)
{
	return c == '*' || c == '?' || c == '[' || c == ']';
}

/*
 * name, glob or module:name: symbol characters, at most one ':', and glob
 * characters: '*', '?', brackets with '-' for ranges and a leading '!' for
 * a complement ("[!a-c]"). Nothing else: the text reaches ftrace's matcher,
 * which gives more characters a meaning ('!' in front negates the whole
 * pattern, ':' brings in commands); only what kft documents may get there.
 */
static bool valid_function_name(const char *s, bool *is_glob)
{
	bool in_bracket = false;
	int colons = 0;

	*is_glob = false;
	if (*s >= '0' && *s <= '9')
		return false;
	for (; *s; s++) {
		if (*s == ':') {
			if (++colons > 1 || !s[1] || in_bracket)
				return false;
		} else if (*s == '!') {
			if (!in_bracket || s[-1] != '[')
				return false;
		} else if (is_glob_char(*s)) {
			*is_glob = true;
			in_bracket = *s == '[' || (in_bracket && *s != ']');
		} else if (!is_name_char(*s) && !(in_bracket && *s == '-')) {
			return false;
		}
	}
	return !in_bracket;
}

/* The current token as a function reference. */
static int take_function(struct kft_parser *ps, struct kft_func_ref *ref)
{
	const char *s = ps->tok.s;

	ref->text = s;
	ref->pos = ps->tok.pos;
	ref->addr = 0;
	ref->is_glob = false;
	ref->is_addr = s[0] >= '0' && s[0] <= '9';
	if (ref->is_addr ? !parse_hex_address(s, &ref->addr)
			 : !valid_function_name(s, &ref->is_glob) || *s == ':')
		return fail(ps, KFT_ERR_BAD_FUNCTION);
	return 0;
}

static int parse_function(struct kft_parser *ps, struct kft_func_ref *ref)
{
	if (next(ps))
		return -1;
	/* "end" is no kernel function: the function was left out. */
	if (!ps->tok.s || tok_is(ps, "end"))
		return fail(ps, KFT_ERR_MISSING_FUNCTION);
	return take_function(ps, ref);
}

static int parse_trigger(struct kft_parser *ps)
{
	struct kft_pos at = ps->tok.pos;
	struct kft_trigger *trig;
	bool is_start;

	if (next(ps))
		return -1;
	if (!tok_is(ps, "start") && !tok_is(ps, "stop"))
		return fail(ps, KFT_ERR_EXPECTED_START_STOP);
	is_start = tok_is(ps, "start");
	trig = is_start ? &ps->cfg->start : &ps->cfg->stop;
	if (once(ps, is_start ? KFT_STMT_START : KFT_STMT_STOP, at))
		return -1;
	if (next(ps))
		return -1;
	if (tok_is(ps, "entry") || tok_is(ps, "exit") || tok_is(ps, "error")) {
		trig->kind = tok_is(ps, "entry") ? KFT_TRIGGER_ENTRY : KFT_TRIGGER_EXIT;
		/* error F: F's exit, when it returns an error (kft_retval_error()). */
		trig->on_error = tok_is(ps, "error");
		return parse_function(ps, &trig->func);
	}
	if (tok_is(ps, "time")) {
		trig->kind = KFT_TRIGGER_TIME;
		/* A stop after 0 us would stop at once: it must be at least 1. */
		return parse_number(ps, is_start ? 0 : 1, KFT_MAX_TIME_US, &trig->time_us);
	}
	return fail(ps, KFT_ERR_EXPECTED_TRIGGER_KIND);
}

static int parse_funclist(struct kft_parser *ps)
{
	struct kft_pos at = ps->tok.pos;
	struct kft_config *cfg = ps->cfg;

	cfg->has_funclist = true;
	for (;;) {
		if (next(ps))
			return -1;
		if (!ps->tok.s) {
			fail_at(ps, KFT_ERR_MISSING_FEND, at, "funclist");
			ps->err->at_eof = true;
			return -1;
		}
		/* "end" is no kernel function: the list was left open. */
		if (tok_is(ps, "end"))
			return fail_at(ps, KFT_ERR_MISSING_FEND, at, "funclist");
		if (tok_is(ps, "fend"))
			break;
		if (cfg->nr_funcs + cfg->nr_roots >= ps->max_funcs)
			return fail(ps, KFT_ERR_TOO_LONG);
		if (take_function(ps, &ps->funcs[cfg->nr_funcs]))
			return -1;
		cfg->nr_funcs++;
	}
	if (!cfg->nr_funcs)
		return fail_at(ps, KFT_ERR_EMPTY_FUNCLIST, at, "funclist");
	return 0;
}

/*
 * filter roots F1 F2 ... fend: the functions whose calls, slow or failing,
 * are logged with everything they called. The refs fill the caller's array
 * from its end, down (the funclist fills it from the start): in text order
 * once reversed, by reverse_roots().
 */
static int parse_roots(struct kft_parser *ps)
{
	struct kft_pos at = ps->tok.pos;
	struct kft_config *cfg = ps->cfg;
	struct kft_func_ref *ref;

	for (;;) {
		if (next(ps))
			return -1;
		if (!ps->tok.s) {
			fail_at(ps, KFT_ERR_MISSING_FEND, at, "roots");
			ps->err->at_eof = true;
			return -1;
		}
		if (tok_is(ps, "end"))
			return fail_at(ps, KFT_ERR_MISSING_FEND, at, "roots");
		if (tok_is(ps, "fend"))
			break;
		if (cfg->nr_funcs + cfg->nr_roots >= ps->max_funcs)
			return fail(ps, KFT_ERR_TOO_LONG);
		ref = &ps->funcs[ps->max_funcs - 1 - cfg->nr_roots];
		if (take_function(ps, ref))
			return -1;
		if (ref->is_glob)
			return fail(ps, KFT_ERR_ROOT_GLOB);
		cfg->nr_roots++;
	}
	if (!cfg->nr_roots)
		return fail_at(ps, KFT_ERR_EMPTY_FUNCLIST, at, "roots");
	return 0;
}

/* The roots, filled from the array's end, in text order at its end. */
static void reverse_roots(struct kft_parser *ps)
{
	struct kft_config *cfg = ps->cfg;
	unsigned int i;

	if (!cfg->nr_roots)
		return;
	cfg->roots = &ps->funcs[ps->max_funcs - cfg->nr_roots];
	for (i = 0; i < cfg->nr_roots / 2; i++) {
		struct kft_func_ref t = cfg->roots[i];

		cfg->roots[i] = cfg->roots[cfg->nr_roots - 1 - i];
		cfg->roots[cfg->nr_roots - 1 - i] = t;
	}
}

/* A statement of one number (at: where it starts): once, then NUM in [min, max]. */
static int parse_once_number(struct kft_parser *ps, enum kft_stmt stmt, struct kft_pos at,
			     unsigned long long min, unsigned long long max,
			     unsigned long long *n)
{
	return once(ps, stmt, at) ?: parse_number(ps, min, max, n);
}

/* filter comm NAME: the task's name as the kernel keeps it (15 bytes). */
static int parse_filter_comm(struct kft_parser *ps, struct kft_pos at)
{
	size_t len;

	if (once(ps, KFT_STMT_COMM, at) || next(ps))
		return -1;
	/* "end" ends the block: a task of that name cannot be named. */
	if (!ps->tok.s || tok_is(ps, "end"))
		return fail(ps, KFT_ERR_MISSING_COMM);
	len = strlen(ps->tok.s);
	if (len >= KFT_COMM_LEN)
		return fail(ps, KFT_ERR_COMM_TOO_LONG);
	memcpy(ps->cfg->filter_comm, ps->tok.s, len + 1);
	return 0;
}

/* filter pid|tid|cpu N, or comm NAME: whose events a run keeps. */
static int parse_filter_id(struct kft_parser *ps, struct kft_pos at)
{
	struct kft_config *cfg = ps->cfg;
	const struct {
		const char *word;
		enum kft_stmt stmt;
		int min, max;
		int *field;
	} ids[] = {
		{ "pid", KFT_STMT_PID, 1, KFT_MAX_PID, &cfg->filter_pid },
		{ "tid", KFT_STMT_TID, 1, KFT_MAX_PID, &cfg->filter_tid },
		{ "cpu", KFT_STMT_CPU, 0, KFT_MAX_CPU, &cfg->filter_cpu },
	};
	unsigned long long n;
	size_t i;

	if (tok_is(ps, "comm"))
		return parse_filter_comm(ps, at);
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		if (!tok_is(ps, ids[i].word))
			continue;
		if (parse_once_number(ps, ids[i].stmt, at, ids[i].min, ids[i].max, &n))
			return -1;
		*ids[i].field = n;
		return 0;
	}
	return fail(ps, KFT_ERR_EXPECTED_FILTER);
}

/* filter arg's types: as C reads an argument of each, from its register. */
static const struct {
	const char *word;
	unsigned int bits;
	bool is_signed;
} kft_argf_types[] = {
	[KFT_ARGF_LONG] = { "long", KFT_LONG_BITS, true },
	[KFT_ARGF_ULONG] = { "ulong", KFT_LONG_BITS, false },
	[KFT_ARGF_INT] = { "int", 32, true },
	[KFT_ARGF_UINT] = { "uint", 32, false },
	/* (A pointer's: no value of its own is compared.) */
	[KFT_ARGF_STRING] = { "string", KFT_LONG_BITS, false },
	[KFT_ARGF_USTRING] = { "ustring", KFT_LONG_BITS, false },
};

static const char *const kft_argf_ops[] = {
	[KFT_ARGF_EQ] = "==",
	[KFT_ARGF_NE] = "!=",
	[KFT_ARGF_LT] = "<",
	[KFT_ARGF_LE] = "<=",
	[KFT_ARGF_GT] = ">",
	[KFT_ARGF_GE] = ">=",
	[KFT_ARGF_AND] = "&",
	[KFT_ARGF_GLOB] = "~",
};

static bool argf_is_string(enum kft_argf_type type)
{
	return type == KFT_ARGF_STRING || type == KFT_ARGF_USTRING;
}

/**
 * kft_argf_quote() - a filter arg's string as it is written, quoted
 * @out:	KFT_ARGF_QUOTED_MAX bytes of room
 * @s:		the string (at most KFT_ARGF_STR_MAX bytes, no NUL inside)
 *
 * In double quotes, '"' and '\\' escaped, a tab and a newline as \t and
 * \n, another byte outside printable ASCII as \xHH: what the parser
 * reads back as @s.
 */
void kft_argf_quote(char *out, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int n = 0;
	unsigned char c;

	out[n++] = '"';
	for (; *s && n + 6 <= KFT_ARGF_QUOTED_MAX; s++) {
		c = *s;
		if (c == '"' || c == '\\') {
			out[n++] = '\\';
			out[n++] = c;
		} else if (c == '\n' || c == '\t') {
			out[n++] = '\\';
			out[n++] = c == '\n' ? 'n' : 't';
		} else if (c < 0x20 || c >= 0x7f) {
			out[n++] = '\\';
			out[n++] = 'x';
			out[n++] = hex[c >> 4];
			out[n++] = hex[c & 15];
		} else {
			out[n++] = c;
		}
	}
	out[n++] = '"';
	out[n] = '\0';
}

/* The words /proc/kft shows a filter arg with. */
const char *kft_argf_type_word(enum kft_argf_type type)
{
	return kft_argf_types[type].word;
}

const char *kft_argf_op_word(enum kft_argf_op op)
{
	return kft_argf_ops[op];
}

_Static_assert(KFT_LONG_BITS <= 8 * sizeof(long), "the target's address fits in the parser's long");

/* The largest value of @bits bits, unsigned. */
static unsigned long long width_max(unsigned int bits)
{
	return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}

/* 0x and hex digits: the register's bits, at most @max. */
static int parse_argf_hex(struct kft_parser *ps, unsigned long long max,
			  unsigned long long *out)
{
	const char *s = ps->tok.s + 2;
	unsigned long long v = 0;
	int d;

	if (!*s)
		return fail(ps, KFT_ERR_BAD_NUMBER);
	for (; *s; s++) {
		d = hex_digit(*s);
		if (d < 0)
			return fail(ps, KFT_ERR_BAD_NUMBER);
		if (v > max >> 4)
			return fail(ps, KFT_ERR_NUMBER_RANGE);
		v = v << 4 | d;
	}
	*out = v;
	return 0;
}

/* A decimal number that the type holds, in its width (two's complement). */
static int parse_argf_decimal(struct kft_parser *ps, unsigned long long max, bool is_signed,
			      unsigned long long *out)
{
	const char *s = ps->tok.s;
	bool neg = *s == '-';
	/* The magnitude a signed type holds is one more below zero. */
	unsigned long long limit = is_signed ? (max >> 1) + neg : max, v = 0;

	s += neg;
	if (!*s)
		return fail(ps, KFT_ERR_BAD_NUMBER);
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return fail(ps, KFT_ERR_BAD_NUMBER);
		if (v > (limit - (*s - '0')) / 10 || (neg && !is_signed))
			return fail(ps, KFT_ERR_NUMBER_RANGE);
		v = v * 10 + (*s - '0');
	}
	*out = neg ? (~v + 1) & max : v;
	return 0;
}

/*
 * filter arg's VALUE for @type: decimal (with a minus sign for a signed
 * type), or 0x and the register's bits in the type's width (0xffffffea is
 * an int's -22). Set: the value sign-extended from a signed type's width.
 */
static int parse_argf_value(struct kft_parser *ps, enum kft_argf_type type,
			    unsigned long long *out)
{
	unsigned int bits = kft_argf_types[type].bits;
	unsigned long long max = width_max(bits), v = 0;
	const char *s;
	int ret;

	if (next(ps))
		return -1;
	if (!ps->tok.s || tok_is(ps, "end"))
		return fail(ps, KFT_ERR_MISSING_NUMBER);
	s = ps->tok.s;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		ret = parse_argf_hex(ps, max, &v);
	else
		ret = parse_argf_decimal(ps, max, kft_argf_types[type].is_signed, &v);
	if (ret)
		return ret;
	if (kft_argf_types[type].is_signed && (v >> (bits - 1) & 1))
		v |= ~max;
	*out = v;
	return 0;
}

/* An error inside a quoted string, whose word may run to the input's end. */
static int fail_in_string(struct kft_parser *ps, enum kft_parse_err code, struct kft_pos pos,
			  const char *word, bool to_end)
{
	fail_at(ps, code, pos, word);
	ps->err->at_last_word = to_end;
	return -1;
}

/*
 * The byte an escape stands for, @p after its backslash (@used: its bytes
 * there), or -1. The escapes: a quote or a backslash itself, 'n' and 't'
 * a newline and a tab, 'x' and two hex digits any byte but NUL, which
 * would end the string.
 */
static int string_escape(const char *p, const char *close, unsigned int *used)
{
	int hi, lo;

	*used = 1;
	switch (*p) {
	case '"':
	case '\\':
		return *p;
	case 'n':
		return '\n';
	case 't':
		return '\t';
	case 'x':
		if (close - p < 3)
			return -1;
		hi = hex_digit(p[1]);
		lo = hex_digit(p[2]);
		*used = 3;
		return hi < 0 || lo < 0 || !(hi | lo) ? -1 : hi << 4 | lo;
	default:
		return -1;
	}
}

/*
 * The quoted string's bytes between @q (its opening quote) and @close,
 * escapes undone, written from @q on and NUL-terminated (the text is
 * never longer than what it was written with). Return: 0, or -1 at a
 * byte the lexer refuses, an unknown escape, or one byte too many.
 */
static int string_undo(struct kft_parser *ps, char *q, const char *close,
		       struct kft_pos at, bool to_end)
{
	struct kft_pos pos = at;
	unsigned int used, i;
	const char *p;
	char *out = q, bad[5] = "";
	int c;

	for (p = q + 1; p < close; p++) {
		pos.col = at.col + (p - q);
		c = (unsigned char)*p;
		if (c < 0x20 || c >= 0x7f)
			return fail_in_string(ps, KFT_ERR_BAD_CHAR, pos, NULL, to_end);
		if (c == '\\') {
			c = string_escape(p + 1, close, &used);
			if (c < 0) {
				/* The escape, as far as it is printable. */
				for (i = 0; i < 4 && p + i < close && p[i] >= 0x20 && p[i] < 0x7f; i++)
					bad[i] = p[i];
				return fail_in_string(ps, KFT_ERR_ARGF_ESCAPE, pos, bad, to_end);
			}
			p += used;
		}
		if (out - q == KFT_ARGF_STR_MAX)
			return fail_in_string(ps, KFT_ERR_ARGF_STRING_LEN, at, NULL, to_end);
		*out++ = c;
	}
	*out = '\0';
	return 0;
}

/*
 * The quoted string the lexer is at (its opening quote): on one line, a
 * backslash escaping the byte after it, and white space, '#' or the end
 * after its closing quote. The current token becomes the string, its
 * escapes undone in place. An error in the quoted word is in the input's
 * last word when the word runs to its end (more text may close or
 * continue it); an unterminated string at the end waits for more.
 */
static int lex_quoted(struct kft_parser *ps)
{
	struct kft_lexer *lx = &ps->lx;
	struct kft_pos at = lx->pos, pos = at;
	char *q = lx->p, *close, *r;

	for (close = q + 1; close < lx->end && *close != '"' && *close != '\n'; close++)
		if (*close == '\\' && close + 1 < lx->end && close[1] != '\n')
			close++;
	if (close >= lx->end || *close == '\n') {
		fail_at(ps, KFT_ERR_ARGF_UNTERMINATED, at, NULL);
		ps->err->at_eof = close >= lx->end;
		return -1;
	}
	for (r = close + 1; r < lx->end && !is_space(*r) && *r != '#'; r++)
		;
	if (string_undo(ps, q, close, at, r == lx->end))
		return -1;
	if (r != close + 1) {
		pos.col = at.col + (close + 1 - q);
		return fail_in_string(ps, KFT_ERR_ARGF_AFTER_QUOTE, pos, NULL, r == lx->end);
	}
	ps->tok.s = q;
	ps->tok.pos = at;
	lx->pos.col += close + 1 - q;
	lx->p = close + 1;
	return 0;
}

/*
 * filter arg's TEXT for a string type: the next token, which must be a
 * string in double quotes (the current token becomes it, unescaped).
 */
static int parse_argf_string(struct kft_parser *ps)
{
	struct kft_lexer *lx = &ps->lx;

	lex_skip_blank(lx);
	if (lx->p < lx->end && *lx->p == '"')
		return lex_quoted(ps);
	return next(ps) ?: fail(ps, KFT_ERR_ARGF_QUOTE);
}

/*
 * Whether a comparison gives the same answer for every value of its type:
 * below the least, up to the greatest, no bit.
 */
static bool argf_constant(const struct kft_argf *f)
{
	unsigned int bits = kft_argf_types[f->type].bits;
	unsigned long long max = width_max(bits), min = 0;

	if (kft_argf_types[f->type].is_signed) {
		min = ~(max >> 1);	/* sign-extended */
		max >>= 1;
	}
	if (argf_is_string(f->type))
		return false;
	switch (f->op) {
	case KFT_ARGF_LT:
	case KFT_ARGF_GE:
		return f->value == min;
	case KFT_ARGF_LE:
	case KFT_ARGF_GT:
		return f->value == max;
	case KFT_ARGF_AND:
		return !f->value;
	default:
		return false;
	}
}

/* filter arg's optional type, then its operator: the current token onwards. */
static int parse_argf_op(struct kft_parser *ps, struct kft_argf *f)
{
	size_t i;

	f->type = KFT_ARGF_LONG;
	for (i = 0; i < ARRAY_SIZE(kft_argf_types); i++) {
		if (tok_is(ps, kft_argf_types[i].word)) {
			f->type = i;
			if (next(ps))
				return -1;
			break;
		}
	}
	for (i = 0; i < ARRAY_SIZE(kft_argf_ops); i++) {
		if (tok_is(ps, kft_argf_ops[i])) {
			f->op = i;
			break;
		}
	}
	if (i == ARRAY_SIZE(kft_argf_ops))
		return fail(ps, KFT_ERR_ARGF_OP);
	/* A string is equal or not, or matches a glob; a number has no glob. */
	if (argf_is_string(f->type) && f->op != KFT_ARGF_EQ && f->op != KFT_ARGF_NE &&
	    f->op != KFT_ARGF_GLOB)
		return fail(ps, KFT_ERR_ARGF_STRING_OP);
	if (!argf_is_string(f->type) && f->op == KFT_ARGF_GLOB)
		return fail(ps, KFT_ERR_ARGF_OP);
	return 0;
}

/*
 * filter arg's optional FUNCTION, before its N: a word that is no number
 * (nor the block's end) names the one function the statement judges.
 * Return: 0 with the current token N's, or -1.
 */
static int parse_argf_function(struct kft_parser *ps, struct kft_argf *f)
{
	if (next(ps))
		return -1;
	if (!ps->tok.s || tok_is(ps, "end") || (*ps->tok.s >= '0' && *ps->tok.s <= '9'))
		return 0;
	if (take_function(ps, &f->func))
		return -1;
	if (f->func.is_glob)
		return fail(ps, KFT_ERR_ARGF_FUNCTION);
	f->has_func = true;
	return next(ps);
}

/* filter arg [FUNCTION] N [TYPE] OP VALUE (at: the statement's "filter"). */
static int parse_filter_arg(struct kft_parser *ps, struct kft_pos at)
{
	struct kft_config *cfg = ps->cfg;
	struct kft_argf *f;
	unsigned long long n;

	if (cfg->nr_argf == KFT_ARGF_MAX)
		return fail_at(ps, KFT_ERR_ARGF_TOO_MANY, at, "arg");
	if (!ps->seen[KFT_STMT_ARGF].line)
		ps->seen[KFT_STMT_ARGF] = at;
	f = &cfg->argf[cfg->nr_argf++];
	f->pos = at;
	f->has_func = false;
	if (parse_argf_function(ps, f) || parse_number_here(ps, 0, ~0ULL, &n))
		return -1;
	if (n < 1 || n > KFT_ARGF_REGS)
		return fail(ps, KFT_ERR_ARGF_INDEX);
	f->index = n - 1;
	if (next(ps) || parse_argf_op(ps, f))
		return -1;
	f->value = 0;
	if (argf_is_string(f->type) ? parse_argf_string(ps) :
				      parse_argf_value(ps, f->type, &f->value))
		return -1;
	f->text = ps->tok.s;
	if (argf_constant(f))
		return fail(ps, KFT_ERR_ARGF_CONSTANT);
	return 0;
}

static int parse_filter(struct kft_parser *ps)
{
	struct kft_config *cfg = ps->cfg;
	struct kft_pos at = ps->tok.pos;

	if (next(ps))
		return -1;
	if (tok_is(ps, "mintime"))
		return parse_once_number(ps, KFT_STMT_MINTIME, at, 0, KFT_MAX_TIME_US,
					 &cfg->mintime_us);
	if (tok_is(ps, "maxtime"))
		return parse_once_number(ps, KFT_STMT_MAXTIME, at, 0, KFT_MAX_TIME_US,
					 &cfg->maxtime_us);
	/* The time on the CPU is offcpu's: it comes with it. */
	if (tok_is(ps, "oncpu")) {
		cfg->filter_oncpu = true;
		cfg->offcpu = true;
		return once(ps, KFT_STMT_ONCPU, at);
	}
	if (tok_is(ps, "noints")) {
		cfg->noints = true;
		return once(ps, KFT_STMT_NOINTS, at);
	}
	if (tok_is(ps, "onlyints")) {
		cfg->onlyints = true;
		return once(ps, KFT_STMT_ONLYINTS, at);
	}
	if (tok_is(ps, "errors")) {
		cfg->errors = true;
		return once(ps, KFT_STMT_ERRORS, at);
	}
	if (tok_is(ps, "funclist"))
		return once(ps, KFT_STMT_FUNCLIST, at) ?: parse_funclist(ps);
	if (tok_is(ps, "roots"))
		return once(ps, KFT_STMT_ROOTS, at) ?: parse_roots(ps);
	if (tok_is(ps, "arg"))
		return parse_filter_arg(ps, at);
	return parse_filter_id(ps, at);
}

_Static_assert(KFT_MAX_STACKENTRIES <= KFT_MAX_LOGENTRIES,
	       "logentries is parsed within the largest limit of any mode");

static int parse_logentries(struct kft_parser *ps)
{
	unsigned long long n;

	/* The mode may come later: check_entries() applies its limit. */
	if (parse_once_number(ps, KFT_STMT_LOGENTRIES, ps->tok.pos, 1, KFT_MAX_LOGENTRIES, &n))
		return -1;
	ps->cfg->logentries = n;
	ps->logentries_num = ps->tok;
	return 0;
}

/* holdentries N / holdtasks N: the room filter roots holds calls in. */
static int parse_hold(struct kft_parser *ps)
{
	bool entries = tok_is(ps, "holdentries");
	unsigned long long n;

	if (parse_once_number(ps, entries ? KFT_STMT_HOLDENTRIES : KFT_STMT_HOLDTASKS,
			      ps->tok.pos, entries ? 2 : 1,
			      entries ? KFT_MAX_HOLDENTRIES : KFT_MAX_HOLDTASKS, &n))
		return -1;
	if (entries)
		ps->cfg->holdentries = n;
	else
		ps->cfg->holdtasks = n;
	return 0;
}

static int parse_mode(struct kft_parser *ps)
{
	size_t m;

	if (once(ps, KFT_STMT_MODE, ps->tok.pos) || next(ps))
		return -1;
	for (m = 0; m < ARRAY_SIZE(kft_mode_rules); m++) {
		if (tok_is(ps, kft_mode_rules[m].word)) {
			ps->cfg->mode = m;
			ps->cfg->mode_pos = ps->tok.pos;
			return 0;
		}
	}
	return fail(ps, KFT_ERR_EXPECTED_MODE);
}

static int parse_autorepeat(struct kft_parser *ps)
{
	ps->cfg->autorepeat = true;
	return once(ps, KFT_STMT_AUTOREPEAT, ps->tok.pos);
}

/* watch stack N | watch worst-stack N: one statement, whichever kind. */
static int parse_watch(struct kft_parser *ps)
{
	struct kft_config *cfg = ps->cfg;
	unsigned long long n;

	cfg->watch_pos = ps->tok.pos;
	if (once(ps, KFT_STMT_WATCH, ps->tok.pos) || next(ps))
		return -1;
	if (tok_is(ps, "stack"))
		cfg->watch = KFT_WATCH_STACK;
	else if (tok_is(ps, "worst-stack"))
		cfg->watch = KFT_WATCH_WORST;
	else
		return fail(ps, KFT_ERR_EXPECTED_WATCH);
	if (parse_number(ps, 1, KFT_MAX_WATCH_BYTES, &n))
		return -1;
	cfg->watch_bytes = n;
	return 0;
}

static int parse_sample(struct kft_parser *ps)
{
	unsigned long long n;

	if (parse_once_number(ps, KFT_STMT_SAMPLE, ps->tok.pos, 1, KFT_MAX_SAMPLE_HZ, &n))
		return -1;
	ps->cfg->sample_hz = n;
	return 0;
}

static int parse_include(struct kft_parser *ps)
{
	if (once(ps, KFT_STMT_INCLUDE, ps->tok.pos) || next(ps))
		return -1;
	if (!tok_is(ps, "idle"))
		return fail(ps, KFT_ERR_EXPECTED_IDLE);
	ps->cfg->include_idle = true;
	return 0;
}

static int parse_per_process(struct kft_parser *ps)
{
	ps->cfg->per_process = true;
	return once(ps, KFT_STMT_PER_PROCESS, ps->tok.pos);
}

/* per-arg N: count and histogram modes key by the function and argument N's value. */
static int parse_per_arg(struct kft_parser *ps)
{
	unsigned long long n;

	if (parse_once_number(ps, KFT_STMT_PER_ARG, ps->tok.pos, 0, ~0ULL, &n))
		return -1;
	if (n < 1 || n > KFT_ARGF_REGS)
		return fail(ps, KFT_ERR_ARGF_INDEX);
	ps->cfg->per_arg = n;
	return 0;
}

static int parse_snoop(struct kft_parser *ps)
{
	unsigned long long n;

	if (parse_once_number(ps, KFT_STMT_SNOOP, ps->tok.pos, 1, KFT_MAX_SNOOP, &n))
		return -1;
	ps->cfg->snoop = n;
	return 0;
}

/* hooks fast | hooks safe: how trace mode sees function exits. */
static int parse_hooks(struct kft_parser *ps)
{
	ps->cfg->hooks_pos = ps->tok.pos;
	if (once(ps, KFT_STMT_HOOKS, ps->tok.pos) || next(ps))
		return -1;
	if (tok_is(ps, "fast"))
		ps->cfg->hooks = KFT_HOOKS_FAST;
	else if (tok_is(ps, "safe"))
		ps->cfg->hooks = KFT_HOOKS_SAFE;
	else
		return fail(ps, KFT_ERR_EXPECTED_HOOKS);
	return 0;
}

/*
 * units us|ns|ms: the unit of a trace log's entry and delta columns (us or
 * ns), or of a histogram's buckets.
 */
static int parse_units(struct kft_parser *ps)
{
	if (once(ps, KFT_STMT_UNITS, ps->tok.pos) || next(ps))
		return -1;
	if (tok_is(ps, "ns"))
		ps->cfg->units_ns = true;
	else if (tok_is(ps, "ms"))
		ps->cfg->units_ms = true;
	else if (!tok_is(ps, "us"))
		return fail(ps, KFT_ERR_EXPECTED_UNITS);
	return 0;
}

/* offcpu: each call's time off the CPU, runnable and blocked. */
static int parse_offcpu(struct kft_parser *ps)
{
	ps->cfg->offcpu = true;
	return once(ps, KFT_STMT_OFFCPU, ps->tok.pos);
}

/*
 * wakers: who woke each sleep inside a kept root call. It takes offcpu's
 * table and switch probe, which say when a task slept: offcpu comes with it.
 */
static int parse_wakers(struct kft_parser *ps)
{
	ps->cfg->wakers = true;
	ps->cfg->offcpu = true;
	return once(ps, KFT_STMT_WAKERS, ps->tok.pos);
}

/*
 * log linear | log ring | log stream | log persistent: how trace mode's log
 * fills (kft_log.h); persistent is a ring in the kft region (kft_region.h).
 */
static int parse_log(struct kft_parser *ps)
{
	if (once(ps, KFT_STMT_LOG, ps->tok.pos) || next(ps))
		return -1;
	ps->cfg->log_pos = ps->tok.pos;
	ps->cfg->persistent = tok_is(ps, "persistent");
	if (tok_is(ps, "ring") || ps->cfg->persistent)
		ps->cfg->log = KFT_LOG_RING;
	else if (tok_is(ps, "stream"))
		ps->cfg->log = KFT_LOG_STREAM;
	else if (!tok_is(ps, "linear"))
		return fail(ps, KFT_ERR_EXPECTED_LOG);
	return 0;
}

/*
 * args: each logged call's argument registers, read at its entry; with
 * "string N" or "ustring N", also a copy of the kernel or user string
 * argument N points to; with "struct N LEN", of the LEN bytes of kernel
 * memory it points to. The word after a bare "args" is the next
 * statement's, held for the block's loop to take.
 */
static int parse_args(struct kft_parser *ps)
{
	struct kft_config *cfg = ps->cfg;
	unsigned long long n, len;
	bool mem;

	cfg->args = true;
	if (once(ps, KFT_STMT_ARGS, ps->tok.pos) || next(ps))
		return -1;
	cfg->str_user = tok_is(ps, "ustring");
	mem = tok_is(ps, "struct");
	if (!cfg->str_user && !mem && !tok_is(ps, "string")) {
		ps->held = true;
		return 0;
	}
	if (parse_number(ps, 0, ~0ULL, &n))
		return -1;
	if (n < 1 || n > KFT_ARGF_REGS)
		return fail(ps, KFT_ERR_ARGF_INDEX);
	cfg->str_arg = n;
	if (!mem)
		return 0;
	if (parse_number(ps, 0, ~0ULL, &len))
		return -1;
	if (len < 1 || len > KFT_STRUCT_LEN_MAX)
		return fail(ps, KFT_ERR_STRUCT_LEN);
	cfg->mem_len = len;
	return 0;
}

/* The statements, by their first word. */
static const struct {
	const char *word;
	int (*parse)(struct kft_parser *ps);
} kft_statements[] = {
	{ "trigger", parse_trigger },
	{ "filter", parse_filter },
	{ "logentries", parse_logentries },
	{ "mode", parse_mode },
	{ "autorepeat", parse_autorepeat },
	{ "watch", parse_watch },
	{ "sample", parse_sample },
	{ "include", parse_include },
	{ "per-process", parse_per_process },
	{ "per-arg", parse_per_arg },
	{ "snoop", parse_snoop },
	{ "hooks", parse_hooks },
	{ "units", parse_units },
	{ "holdentries", parse_hold },
	{ "holdtasks", parse_hold },
	{ "offcpu", parse_offcpu },
	{ "wakers", parse_wakers },
	{ "log", parse_log },
	{ "args", parse_args },
};

static bool is_command_word(const struct kft_parser *ps)
{
	return tok_is(ps, "prime") || tok_is(ps, "start") ||
	       tok_is(ps, "stop") || tok_is(ps, "clear");
}

static int parse_statement(struct kft_parser *ps)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kft_statements); i++) {
		if (tok_is(ps, kft_statements[i].word))
			return kft_statements[i].parse(ps);
	}
	if (tok_is(ps, "begin"))
		return fail(ps, KFT_ERR_NESTED_BEGIN);
	if (tok_is(ps, "new"))
		return fail(ps, KFT_ERR_MISPLACED_NEW);
	if (is_command_word(ps))
		return fail(ps, KFT_ERR_COMMAND_NOT_ALONE);
	return fail(ps, KFT_ERR_UNKNOWN_STATEMENT);
}

/* The later of two positions. */
static struct kft_pos later_of(struct kft_pos a, struct kft_pos b)
{
	return a.line > b.line || (a.line == b.line && a.col > b.col) ? a : b;
}

static bool pos_before(struct kft_pos a, struct kft_pos b)
{
	return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/*
 * The first statement, in the text's order, that the block's mode has no
 * use for (kft_mode_rules), reported at the later of it and the mode
 * statement, naming the statement: whichever of the two was written
 * second made the conflict. A trace without "mode" has no mode statement
 * (line 0): the error is at the statement.
 */
static int check_mode(struct kft_parser *ps)
{
	const struct kft_mode_rule *rule = &kft_mode_rules[ps->cfg->mode];
	int i, first = -1;

	for (i = 0; i < KFT_STMT_COUNT; i++) {
		if (!(rule->meaningless & STMT_BIT(i)) || !ps->seen[i].line)
			continue;
		if (first < 0 || pos_before(ps->seen[i], ps->seen[first]))
			first = i;
	}
	if (first < 0)
		return 0;
	return fail_at(ps, rule->err, later_of(ps->seen[first], ps->seen[KFT_STMT_MODE]),
		       kft_stmt_words[first]);
}

/*
 * logentries within the mode's limit (the stack table's is lower than the
 * log's): reported at the number, where parsing would have reported it had
 * the mode been known then.
 */
static int check_entries(struct kft_parser *ps)
{
	const struct kft_mode_rule *rule = &kft_mode_rules[ps->cfg->mode];

	if (!ps->seen[KFT_STMT_LOGENTRIES].line || ps->cfg->logentries <= rule->max_entries)
		return 0;
	return fail_at(ps, KFT_ERR_NUMBER_RANGE, ps->logentries_num.pos, ps->logentries_num.s);
}

/*
 * filter roots keeps a task's calls, held per task: the sizes of the
 * holding mean nothing without it; interrupts belong to no task's root
 * call (onlyints would keep nothing), and a watch's rows would be logged
 * at entry, before the root's verdict.
 */
static int check_roots(struct kft_parser *ps)
{
	const struct kft_pos *seen = ps->seen;

	if (!ps->cfg->nr_roots) {
		if (seen[KFT_STMT_HOLDENTRIES].line)
			return fail_at(ps, KFT_ERR_NEEDS_ROOTS, seen[KFT_STMT_HOLDENTRIES],
				       "holdentries");
		if (seen[KFT_STMT_HOLDTASKS].line)
			return fail_at(ps, KFT_ERR_NEEDS_ROOTS, seen[KFT_STMT_HOLDTASKS],
				       "holdtasks");
		if (seen[KFT_STMT_WAKERS].line)
			return fail_at(ps, KFT_ERR_WAKERS_NEEDS_ROOTS, seen[KFT_STMT_WAKERS],
				       "wakers");
		return 0;
	}
	if (ps->cfg->onlyints)
		return fail_at(ps, KFT_ERR_ROOTS_CONFLICT,
			       later_of(seen[KFT_STMT_ROOTS], seen[KFT_STMT_ONLYINTS]), "onlyints");
	if (ps->cfg->watch != KFT_WATCH_NONE)
		return fail_at(ps, KFT_ERR_ROOTS_CONFLICT,
			       later_of(seen[KFT_STMT_ROOTS], seen[KFT_STMT_WATCH]), "watch");
	return 0;
}

/*
 * log ring overwrites calls one at a time, log stream loses them one at a
 * time when its reader falls behind: a kept root's subtree and a stack
 * watch's snapshot are blocks of rows that make sense only whole.
 */
static int check_ring(struct kft_parser *ps)
{
	const struct kft_pos *seen = ps->seen;

	if (ps->cfg->log == KFT_LOG_LINEAR)
		return 0;
	if (ps->cfg->nr_roots)
		return fail_at(ps, KFT_ERR_RING_CONFLICT,
			       later_of(seen[KFT_STMT_LOG], seen[KFT_STMT_ROOTS]), "roots");
	if (ps->cfg->watch != KFT_WATCH_NONE)
		return fail_at(ps, KFT_ERR_RING_CONFLICT,
			       later_of(seen[KFT_STMT_LOG], seen[KFT_STMT_WATCH]), "watch");
	return 0;
}

/* filter oncpu changes what mintime and maxtime judge: alone, it means nothing. */
static int check_oncpu(struct kft_parser *ps)
{
	const struct kft_config *cfg = ps->cfg;

	if (cfg->filter_oncpu && !cfg->mintime_us && !cfg->maxtime_us)
		return fail_at(ps, KFT_ERR_ONCPU_NEEDS_TIME, ps->seen[KFT_STMT_ONCPU], "oncpu");
	return 0;
}

/*
 * filter arg judges a call at its entry, from the registers trace mode's
 * hooks (and histogram mode's, the same) are given: count and stacks
 * modes' bare ftrace callbacks are not given them on every kernel, and a
 * profile's timer interrupts no entry. A root's tree is judged whole at
 * its return: which of its calls an entry's filter would drop is not
 * what the tree means.
 */
static int check_argf(struct kft_parser *ps)
{
	const struct kft_pos *seen = ps->seen;
	enum kft_run_mode mode = ps->cfg->mode;

	if (!ps->cfg->nr_argf)
		return 0;
	if (mode == KFT_MODE_PROFILE)
		return fail_at(ps, KFT_ERR_ARGF_MODE,
			       later_of(seen[KFT_STMT_ARGF], seen[KFT_STMT_MODE]), "arg");
	if (ps->cfg->nr_roots)
		return fail_at(ps, KFT_ERR_ARGF_ROOTS,
			       later_of(seen[KFT_STMT_ARGF], seen[KFT_STMT_ROOTS]), "arg");
	return 0;
}

/*
 * args in stacks mode: each snoop event keeps its call's registers beside
 * it; a stack counted without snoop is many calls, with nothing to keep
 * them in, and an event has no room for a string.
 */
static int check_stacks_args(struct kft_parser *ps)
{
	const struct kft_config *cfg = ps->cfg;

	if (cfg->mode != KFT_MODE_STACKS || !cfg->args || (cfg->snoop && !cfg->str_arg))
		return 0;
	return fail_at(ps, KFT_ERR_ARGS_NEED_SNOOP,
		       later_of(ps->seen[KFT_STMT_ARGS], ps->seen[KFT_STMT_MODE]), NULL);
}

/* Checks that need the whole block; reported at the later statement. */
static int check_block(struct kft_parser *ps)
{
	const struct kft_config *cfg = ps->cfg;
	const struct kft_pos *seen = ps->seen;

	if (check_mode(ps) || check_entries(ps))
		return -1;

	/* A stack at every call of every function would stop the machine. */
	if (kft_mode_rules[cfg->mode].needs_funclist && !cfg->has_funclist)
		return fail_at(ps, KFT_ERR_STACKS_NEED_FUNCLIST, seen[KFT_STMT_MODE], NULL);

	/*
	 * A start time is a moment since boot: once a run has started, it has
	 * passed, and a repeat would restart at once, forever, from the timer.
	 */
	if (cfg->autorepeat && cfg->start.kind == KFT_TRIGGER_TIME)
		return fail_at(ps, KFT_ERR_AUTOREPEAT_TIME,
			       later_of(seen[KFT_STMT_AUTOREPEAT], seen[KFT_STMT_START]), NULL);

	/* A watch's stack trace would stop at the first call fast hooks time. */
	if (cfg->watch != KFT_WATCH_NONE && cfg->hooks == KFT_HOOKS_FAST)
		return fail_at(ps, KFT_ERR_WATCH_NEEDS_SAFE,
			       later_of(seen[KFT_STMT_WATCH], seen[KFT_STMT_HOOKS]), NULL);

	if (cfg->noints && cfg->onlyints) {
		return fail_at(ps, KFT_ERR_INTS_CONFLICT,
			       later_of(seen[KFT_STMT_NOINTS], seen[KFT_STMT_ONLYINTS]), NULL);
	}
	/* A thread belongs to one process: both would be one filter or none. */
	if (cfg->filter_pid && cfg->filter_tid) {
		return fail_at(ps, KFT_ERR_PID_TID_CONFLICT,
			       later_of(seen[KFT_STMT_PID], seen[KFT_STMT_TID]), NULL);
	}
	if (cfg->mintime_us && cfg->maxtime_us && cfg->mintime_us > cfg->maxtime_us) {
		return fail_at(ps, KFT_ERR_MIN_OVER_MAX,
			       later_of(seen[KFT_STMT_MINTIME], seen[KFT_STMT_MAXTIME]), NULL);
	}
	if (cfg->units_ms && cfg->mode != KFT_MODE_HISTOGRAM)
		return fail_at(ps, KFT_ERR_UNITS_MS, seen[KFT_STMT_UNITS], "units");
	return check_roots(ps) ?: check_oncpu(ps) ?: check_ring(ps) ?: check_argf(ps) ?:
	       check_stacks_args(ps);
}

/* What depends on the mode, known only once the block has been read. */
static void fill_mode_defaults(struct kft_parser *ps)
{
	if (!ps->seen[KFT_STMT_LOGENTRIES].line)
		ps->cfg->logentries = kft_mode_rules[ps->cfg->mode].default_entries;
	/* A histogram's buckets are in ns unless said (as funclatency's). */
	if (ps->cfg->mode == KFT_MODE_HISTOGRAM && !ps->seen[KFT_STMT_UNITS].line)
		ps->cfg->units_ns = true;
}

static int parse_block(struct kft_parser *ps)
{
	if (tok_is(ps, "new") && next(ps))
		return -1;
	if (!tok_is(ps, "begin"))
		return fail(ps, KFT_ERR_EXPECTED_BEGIN);
	for (;;) {
		if (next(ps))
			return -1;
		if (!ps->tok.s)
			return fail(ps, KFT_ERR_MISSING_END);
		if (tok_is(ps, "end"))
			break;
		if (parse_statement(ps))
			return -1;
	}
	if (next(ps))
		return -1;
	if (ps->tok.s) {
		/* Any word here is wrong, however it ends: final at once. */
		fail(ps, KFT_ERR_AFTER_END);
		ps->err->at_last_word = false;
		return -1;
	}
	if (check_block(ps))
		return -1;
	fill_mode_defaults(ps);
	reverse_roots(ps);
	return 0;
}

static int parse_command(struct kft_parser *ps, enum kft_command *cmd)
{
	*cmd = tok_is(ps, "prime") ? KFT_CMD_PRIME :
	       tok_is(ps, "start") ? KFT_CMD_START :
	       tok_is(ps, "stop") ? KFT_CMD_STOP : KFT_CMD_CLEAR;
	if (next(ps))
		return -1;
	if (ps->tok.s) {
		fail(ps, KFT_ERR_COMMAND_NOT_ALONE);
		ps->err->at_last_word = false;
		return -1;
	}
	return 0;
}

/**
 * kft_config_parse() - parse a command or a configuration block
 * @text:	the input; modified in place. text[len] must be writable.
 * @len:	its length in bytes
 * @cmd:	set to the command, or KFT_CMD_CONFIG for a block
 * @cfg:	filled for a block
 * @funcs:	room for the funclist, at least kft_config_max_funcs(len)
 * @max_funcs:	its size
 * @err:	set on failure
 *
 * Return: 0, or -1 with @err set.
 */
int kft_config_parse(char *text, size_t len, enum kft_command *cmd,
		     struct kft_config *cfg, struct kft_func_ref *funcs,
		     unsigned int max_funcs, struct kft_parse_error *err)
{
	struct kft_parser ps = {
		.lx = { .p = text, .end = text + len, .pos = { 1, 1 } },
		.cfg = cfg, .funcs = funcs, .max_funcs = max_funcs, .err = err,
	};

	/* The defaults of what a block leaves out; the mode's: fill_mode_defaults(). */
	memset(cfg, 0, sizeof(*cfg));
	cfg->logentries = KFT_DEFAULT_LOGENTRIES;
	cfg->sample_hz = KFT_DEFAULT_SAMPLE_HZ;
	cfg->filter_cpu = -1;
	cfg->holdentries = KFT_DEFAULT_HOLDENTRIES;
	cfg->holdtasks = KFT_DEFAULT_HOLDTASKS;
	cfg->funcs = funcs;
	err->code = KFT_ERR_NONE;
	err->at_eof = false;
	err->at_last_word = false;
	err->token[0] = '\0';
	if (len > KFT_CONFIG_MAX_BYTES)
		return fail_at(&ps, KFT_ERR_TOO_LONG, ps.lx.pos, NULL);
	if (next(&ps))
		return -1;
	if (!ps.tok.s)
		return fail(&ps, KFT_ERR_EMPTY);	/* incomplete: text may follow */
	if (is_command_word(&ps))
		return parse_command(&ps, cmd);
	*cmd = KFT_CMD_CONFIG;
	return parse_block(&ps);
}

bool kft_parse_incomplete(const struct kft_parse_error *err)
{
	return err->at_eof;
}

bool kft_parse_may_continue(const struct kft_parse_error *err)
{
	return err->at_eof || err->at_last_word;
}

static bool is_word_byte(char c)
{
	unsigned char u = c;

	return !is_space(c) && c != '#' && u >= 0x20 && u < 0x7f;
}

/*
 * A keyword can end an input ("end", a command) or make an error that is
 * reported at an earlier word (a duplicate statement, reported where it
 * starts); any other word's errors are reported at that word.
 */
static bool is_keyword(const char *word, size_t len)
{
	static const char *const keywords[] = {
		"new", "begin", "end", "trigger", "start", "stop", "entry", "exit",
		"time", "filter", "mintime", "maxtime", "noints", "onlyints",
		"funclist", "fend", "logentries", "autorepeat", "watch", "prime",
		"clear", "mode", "trace", "count", "stacks", "profile", "histogram", "stack",
		"worst-stack", "sample", "include", "idle", "per-process", "pid",
		"tid", "cpu", "comm", "snoop", "units", "us", "ns", "ms", "hooks", "fast",
		"safe", "errors", "log", "linear", "ring", "stream", "persistent", "error",
		"args", "arg", "per-arg", "string", "ustring", "struct", "roots", "oncpu",
		"holdentries", "holdtasks", "offcpu", "wakers",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keywords); i++) {
		if (strlen(keywords[i]) == len && !memcmp(word, keywords[i], len))
			return true;
	}
	return false;
}

bool kft_config_blank(const char *text, size_t len)
{
	/* (lex_skip_blank() only reads.) */
	struct kft_lexer lx = { .p = (char *)text, .end = (char *)text + len };

	lex_skip_blank(&lx);
	return lx.p == lx.end;
}

/**
 * kft_config_must_reparse() - does a grown text need parsing again?
 * @text:	the text so far
 * @len:	its length
 * @added:	how many bytes at its end just arrived (at least 1)
 * @word_start:	where the text's last word begins; kept by the caller
 *		between calls, updated here
 *
 * Return: false only when the text without the new bytes had to wait for
 * more and the new bytes extend its last word into one that is no keyword:
 * the verdict is "wait" again (an error in that word is in the last word).
 */
bool kft_config_must_reparse(const char *text, size_t len, size_t added,
			     size_t *word_start)
{
	size_t i;

	for (i = len; i > len - added; i--) {
		if (!is_word_byte(text[i - 1])) {
			*word_start = i;
			return true;
		}
	}
	if (len == added) {
		*word_start = 0;
		return true;
	}
	return is_keyword(text + *word_start, len - *word_start);
}
