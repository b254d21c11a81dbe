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
#define KFT_MAX_LOGENTRIES	16777216UL		/* 512 MiB of records */
#define KFT_DEFAULT_LOGENTRIES	20000UL		/* the original's default */

/* Every parse error: symbol, message. Messages are stable: tests use them. */
#define KFT_PARSE_ERRORS						\
	C(NONE, "no error"),						\
	C(EMPTY, "empty configuration"),				\
	C(TOO_LONG, "configuration larger than 65536 bytes"),		\
	C(BAD_CHAR, "invalid character"),				\
	C(UNKNOWN_STATEMENT, "unknown statement"),			\
	C(EXPECTED_BEGIN, "expected 'begin'"),				\
	C(MISSING_END, "missing 'end'"),				\
	C(AFTER_END, "statement after 'end'"),				\
	C(NESTED_BEGIN, "'begin' inside a block"),			\
	C(MISPLACED_NEW, "'new' must be the first statement"),		\
	C(COMMAND_NOT_ALONE, "a command must be written alone"),	\
	C(EXPECTED_START_STOP, "expected 'start' or 'stop'"),		\
	C(EXPECTED_TRIGGER_KIND, "expected 'entry', 'exit' or 'time'"),\
	C(EXPECTED_FILTER, "expected 'mintime', 'maxtime', 'noints', 'onlyints' or 'funclist'"), \
	C(MISSING_FUNCTION, "missing function"),			\
	C(BAD_FUNCTION, "malformed function name or address"),		\
	C(MISSING_NUMBER, "missing number"),				\
	C(BAD_NUMBER, "malformed number"),				\
	C(NUMBER_RANGE, "number out of range"),			\
	C(MISSING_FEND, "missing 'fend' to close the funclist"),	\
	C(EMPTY_FUNCLIST, "empty funclist"),				\
	C(DUPLICATE, "duplicate statement"),				\
	C(INTS_CONFLICT, "'noints' and 'onlyints' exclude each other"),\
	C(MIN_OVER_MAX, "mintime is greater than maxtime"),		\
	C(UNSUPPORTED, "not supported by this version of kft"),	\
	C(UNKNOWN_FUNCTION, "no traceable function matches"),		\
	C(NEEDS_FPROBE, "tracing every function needs fprobe, which this kernel lacks: use 'filter funclist'"), \
	C(TOO_MANY_FUNCTIONS, "too many functions for kretprobes on this kernel"), \
	C(GLOB_NEEDS_FPROBE, "globs need fprobe, which this kernel lacks: name each function"), \
	C(NO_RUN, "no run configured"),				\
	C(BUSY, "the run is primed or running"),			\
	C(NOT_ACTIVE, "the run is not primed or running"),		\
	C(MODULE_GLOB, "a glob cannot take a module prefix"),		\
	C(NO_MEMORY, "not enough memory for the log"),			\
	C(ATTACH_FAILED, "could not attach to the functions")

#undef C
#define C(sym, msg) KFT_ERR_##sym
enum kft_parse_err { KFT_PARSE_ERRORS, KFT_ERR_COUNT };
#undef C

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
	unsigned long long time_us;	/* TIME: start: since boot; stop: since start */
};

struct kft_config {
	struct kft_trigger start;
	struct kft_trigger stop;
	unsigned long long mintime_us;	/* 0: off */
	unsigned long long maxtime_us;	/* 0: off */
	bool noints;
	bool onlyints;
	bool autorepeat;
	unsigned long logentries;
	bool has_funclist;
	struct kft_func_ref *funcs;	/* the caller's array */
	unsigned int nr_funcs;
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

int kft_config_parse(char *text, size_t len, enum kft_command *cmd,
		     struct kft_config *cfg, struct kft_func_ref *funcs,
		     unsigned int max_funcs, struct kft_parse_error *err);
const char *kft_parse_strerror(enum kft_parse_err code);
/* True when more text could still complete the input (a block not ended). */
bool kft_parse_incomplete(const struct kft_parse_error *err);
/* True when more text could change the verdict: incomplete, or the error is
 * in the last word, which the next write may continue. */
bool kft_parse_may_continue(const struct kft_parse_error *err);

#endif
