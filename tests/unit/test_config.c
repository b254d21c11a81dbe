// SPDX-License-Identifier: GPL-2.0
/* The configuration language parser (module/kft_config.c), in userspace. */
#include <limits.h>
#include <stdlib.h>
#include "unit.h"
#include "kft_config.h"

/* Kernel addresses of the machine's width (the parser takes an unsigned long). */
#if ULONG_MAX > 0xffffffffUL
#define ADDR_TEXT	"0xffffffff810a2b40"
#define ADDR		0xffffffff810a2b40UL
#define MOD_ADDR_TEXT	"0xffffffffc0001000"
#define MOD_ADDR	0xffffffffc0001000UL
#define LONG_MIN_TEXT	"-9223372036854775808"
#define LONG_OVER_TEXT	"9223372036854775808"
#define ULONG_MAX_TEXT	"0xffffffffffffffff"
#define MINUS_16_HEX	"0xfffffffffffffff0"
#else
#define ADDR_TEXT	"0xc00a2b40"
#define ADDR		0xc00a2b40UL
#define MOD_ADDR_TEXT	"0xbf001000"
#define MOD_ADDR	0xbf001000UL
#define LONG_MIN_TEXT	"-2147483648"
#define LONG_OVER_TEXT	"2147483648"
#define ULONG_MAX_TEXT	"0xffffffff"
#define MINUS_16_HEX	"0xfffffff0"
#endif

/* A string filter's longest text, and one byte shorter. */
#define S61	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012345678"
#define S62	S61 "9"

#define OK(text) { text, KFT_ERR_NONE, 0, 0, false }
#define BAD(text, code, line, col) { text, KFT_ERR_##code, line, col, false }
#define INCOMPLETE(text, code, line, col) { text, KFT_ERR_##code, line, col, true }

/* One input and what the parser must say of it. */
struct parse_case {
	const char *text;
	enum kft_parse_err err;		/* KFT_ERR_NONE: must parse */
	unsigned int line, col;		/* of the error */
	bool incomplete;		/* error because the input ended */
};

static const struct parse_case cases[] = {
	/* Commands. */
	OK("prime"),
	OK("start\n"),
	OK("  stop  # now\n"),
	OK("clear"),
	BAD("prime start", COMMAND_NOT_ALONE, 1, 7),
	BAD("prim", EXPECTED_BEGIN, 1, 1),
	BAD("primed", EXPECTED_BEGIN, 1, 1),
	INCOMPLETE("", EMPTY, 1, 1),
	INCOMPLETE("  \n # only a comment\n", EMPTY, 3, 1),
	/* Blocks. */
	OK("new\nbegin\nend\n"),
	OK("begin end"),
	OK("new begin trigger start entry vfs_read end"),
	OK("new\nbegin\n  trigger start entry " ADDR_TEXT "\n  trigger stop time 5000000\n"
	   "  filter mintime 500\n  filter maxtime 0\n  filter noints\nend\n"),
	OK("new\nbegin\n trigger start time 5000000\n trigger stop time 5000\n filter onlyints\nend"),
	OK("new\nbegin\n trigger start time 10000000\n filter funclist schedule fend\nend"),
	OK("begin\n trigger start entry start_kernel\n trigger stop exit to_userspace\n"
	   " filter mintime 500\n filter maxtime 0\n filter noints\nend"),
	OK("new begin filter funclist vfs_* tcp_?end ext4:ext4_* [a-c]* fend end"),
	OK("new begin filter funclist a\nb\n c fend end"),
	OK("new begin logentries 1 end"),
	OK("new begin logentries 16777216 end"),
	OK("new begin autorepeat trigger start exit do_sys_open end"),
	OK("new begin trigger start time 0 end"),
	OK("new begin filter mintime 10 filter maxtime 10 end"),
	OK("new begin filter mintime 1000000000000 end"),
	OK("new\tbegin\r\nend\r\n"),
	OK("new begin#comment\nend#c"),
	OK("new begin trigger start entry f#comment\nend"),
	OK("new begin trigger start entry 0XABCDEF end"),
	OK("new begin filter funclist __x64_sys_read.cold fend end"),
	/* Misspelt or truncated keywords: never a prefix match. */
	BAD("new begin trig start entry f end", UNKNOWN_STATEMENT, 1, 11),
	BAD("new begin trigger sta entry f end", EXPECTED_START_STOP, 1, 19),
	BAD("new begin trigger start ent f end", EXPECTED_TRIGGER_KIND, 1, 25),
	BAD("new begin filter min 5 end", EXPECTED_FILTER, 1, 18),
	BAD("new begin filter noint end", EXPECTED_FILTER, 1, 18),
	BAD("new begin logentry 5 end", UNKNOWN_STATEMENT, 1, 11),
	BAD("new begin autorepeats end", UNKNOWN_STATEMENT, 1, 11),
	BAD("new beg end", EXPECTED_BEGIN, 1, 5),
	BAD("new\nbegin\n  filter funclist a fend\n  ends\n", UNKNOWN_STATEMENT, 4, 3),
	/* Structure. */
	INCOMPLETE("new begin", MISSING_END, 1, 10),
	INCOMPLETE("new\nbegin\nfilter noints\n", MISSING_END, 4, 1),
	INCOMPLETE("new", EXPECTED_BEGIN, 1, 4),
	BAD("new begin end prime", AFTER_END, 1, 15),
	BAD("new begin end\nend", AFTER_END, 2, 1),
	BAD("new begin begin end", NESTED_BEGIN, 1, 11),
	BAD("begin new end", MISPLACED_NEW, 1, 7),
	BAD("new new begin end", EXPECTED_BEGIN, 1, 5),
	BAD("new begin prime end", COMMAND_NOT_ALONE, 1, 11),
	BAD("trigger start entry f", EXPECTED_BEGIN, 1, 1),
	/* Funclists. */
	BAD("new begin filter funclist a b end", MISSING_FEND, 1, 18),
	INCOMPLETE("new begin\nfilter funclist a b", MISSING_FEND, 2, 8),
	BAD("new begin filter funclist fend end", EMPTY_FUNCLIST, 1, 18),
	BAD("new begin filter funclist a fend filter funclist b fend end", DUPLICATE, 1, 34),
	BAD("new begin filter funclist 12 fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist a-b fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist a::b fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist :a fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist mod: fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist [ab fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist a-[b] fend end", BAD_FUNCTION, 1, 27),
	/* '!' is ftrace's negation: only a bracket's complement may use it. */
	OK("new begin filter funclist [!a-c]* vfs_[!r]ead fend end"),
	BAD("new begin filter funclist !vfs_read fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist vfs! fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist [a!]* fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist ! fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin trigger start entry !x end", BAD_FUNCTION, 1, 31),
	BAD("new begin trigger stop exit !x end", BAD_FUNCTION, 1, 29),
	BAD("new begin filter funclist vfs_read:mod:ext4 fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist \\x fend end", BAD_FUNCTION, 1, 27),
	/* Functions and addresses. */
	BAD("new begin trigger start entry end", MISSING_FUNCTION, 1, 31),
	INCOMPLETE("new begin trigger start entry", MISSING_FUNCTION, 1, 30),
	BAD("new begin trigger start entry 0x end", BAD_FUNCTION, 1, 31),
	BAD("new begin trigger start entry 0xfg end", BAD_FUNCTION, 1, 31),
	BAD("new begin trigger start entry 0x0 end", BAD_FUNCTION, 1, 31),
	BAD("new begin trigger start entry 0x1ffffffffffffffff end", BAD_FUNCTION, 1, 31),
	BAD("new begin trigger stop exit f\"g end", BAD_FUNCTION, 1, 29),
	/* Numbers. */
	BAD("new begin filter mintime end", BAD_NUMBER, 1, 26),
	INCOMPLETE("new begin filter mintime", MISSING_NUMBER, 1, 25),
	BAD("new begin filter mintime -5 end", BAD_NUMBER, 1, 26),
	BAD("new begin filter mintime 5us end", BAD_NUMBER, 1, 26),
	BAD("new begin filter mintime 0x10 end", BAD_NUMBER, 1, 26),
	BAD("new begin filter mintime 1000000000001 end", NUMBER_RANGE, 1, 26),
	BAD("new begin filter maxtime 99999999999999999999999 end", NUMBER_RANGE, 1, 26),
	BAD("new begin logentries 0 end", NUMBER_RANGE, 1, 22),
	BAD("new begin logentries 16777217 end", NUMBER_RANGE, 1, 22),
	BAD("new begin trigger stop time 0 end", NUMBER_RANGE, 1, 29),
	/* Duplicates and conflicts. */
	BAD("new begin trigger start time 1\ntrigger start time 2 end", DUPLICATE, 2, 1),
	BAD("new begin trigger stop time 1 trigger stop entry f end", DUPLICATE, 1, 31),
	BAD("new begin filter mintime 1 filter mintime 2 end", DUPLICATE, 1, 28),
	BAD("new begin filter noints filter noints end", DUPLICATE, 1, 25),
	BAD("new begin filter errors filter errors end", DUPLICATE, 1, 25),
	OK("new begin filter errors filter mintime 5 filter noints trigger start entry f end"),
	BAD("new begin mode count filter errors end", NOT_IN_COUNT_MODE, 1, 22),
	BAD("new begin filter errors mode stacks filter funclist f fend end",
	    NOT_IN_STACKS_MODE, 1, 25),
	BAD("new begin logentries 5 logentries 6 end", DUPLICATE, 1, 24),
	BAD("new begin autorepeat autorepeat end", DUPLICATE, 1, 22),
	BAD("new begin\nfilter noints\nfilter onlyints\nend", INTS_CONFLICT, 3, 1),
	BAD("new begin\nfilter onlyints\nfilter noints\nend", INTS_CONFLICT, 3, 1),
	BAD("new begin\nfilter mintime 10\nfilter maxtime 5\nend", MIN_OVER_MAX, 3, 1),
	BAD("new begin\nfilter maxtime 5\nfilter mintime 10\nend", MIN_OVER_MAX, 3, 1),
	/* A passed start time would restart a repeat at once, forever. */
	BAD("new begin\nautorepeat\ntrigger start time 5\nend", AUTOREPEAT_TIME, 3, 1),
	BAD("new begin\ntrigger start time 5\nautorepeat\nend", AUTOREPEAT_TIME, 3, 1),
	OK("new begin trigger start entry f trigger stop time 5 autorepeat end"),
	/* Modes: what count mode has no use for is an error at the later statement. */
	OK("new begin mode count end"),
	OK("new begin mode trace filter mintime 5 logentries 9 end"),
	OK("new begin mode count filter funclist vfs_* fend filter noints "
	   "trigger start entry f trigger stop time 5 autorepeat end"),
	BAD("new begin mode counts end", EXPECTED_MODE, 1, 16),
	BAD("new begin mode end", EXPECTED_MODE, 1, 16),
	INCOMPLETE("new begin mode", EXPECTED_MODE, 1, 15),
	BAD("new begin mode count mode trace end", DUPLICATE, 1, 22),
	BAD("new begin mode count filter mintime 5 end", NOT_IN_COUNT_MODE, 1, 22),
	BAD("new begin filter maxtime 5 mode count end", NOT_IN_COUNT_MODE, 1, 28),
	BAD("new begin\nlogentries 5\nfilter mintime 3\nmode count\nend", NOT_IN_COUNT_MODE, 4, 1),
	BAD("new begin mode count logentries 5 filter mintime 3 end", NOT_IN_COUNT_MODE, 1, 22),
	/* The stack modes. */
	OK("new begin mode stacks filter funclist f fend end"),
	OK("new begin mode stacks filter funclist * fend end"),
	OK("new begin mode profile end"),
	BAD("new begin mode stack end", EXPECTED_MODE, 1, 16),
	BAD("new begin mode profiles end", EXPECTED_MODE, 1, 16),
	BAD("new begin mode stacks mode profile end", DUPLICATE, 1, 23),
	/* A stack at every entry of every function would stop the machine. */
	BAD("new begin\nmode stacks\nend", STACKS_NEED_FUNCLIST, 2, 1),
	BAD("new begin filter noints mode stacks end", STACKS_NEED_FUNCLIST, 1, 25),
	BAD("new begin mode stacks filter noints end", STACKS_NEED_FUNCLIST, 1, 11),
	/* watch: two kinds, one statement. */
	OK("new begin watch stack 1 end"),
	OK("new begin watch stack 1048576 end"),
	OK("new begin mode trace watch worst-stack 1 end"),
	OK("new begin watch worst-stack 1048576 end"),
	BAD("new begin watch stack 0 end", NUMBER_RANGE, 1, 23),
	BAD("new begin watch stack 1048577 end", NUMBER_RANGE, 1, 23),
	BAD("new begin watch worst-stack 0 end", NUMBER_RANGE, 1, 29),
	BAD("new begin watch worst-stack 1048577 end", NUMBER_RANGE, 1, 29),
	BAD("new begin watch stack 5k end", BAD_NUMBER, 1, 23),
	BAD("new begin watch stack end", BAD_NUMBER, 1, 23),
	INCOMPLETE("new begin watch stack", MISSING_NUMBER, 1, 22),
	BAD("new begin watch stacks 5 end", EXPECTED_WATCH, 1, 17),
	BAD("new begin watch worst 5 end", EXPECTED_WATCH, 1, 17),
	BAD("new begin watch 5 end", EXPECTED_WATCH, 1, 17),
	BAD("new begin watch end", EXPECTED_WATCH, 1, 17),
	INCOMPLETE("new begin watch", EXPECTED_WATCH, 1, 16),
	BAD("new begin watch stack 5 watch stack 6 end", DUPLICATE, 1, 25),
	BAD("new begin watch stack 5 watch worst-stack 6 end", DUPLICATE, 1, 25),
	BAD("new begin watch worst-stack 5\nwatch stack 6 end", DUPLICATE, 2, 1),
	/* hooks: how trace mode times calls; a watch needs whole stacks. */
	OK("new begin hooks fast end"),
	OK("new begin hooks safe end"),
	OK("new begin mode trace hooks fast filter mintime 5 end"),
	OK("new begin hooks safe watch stack 5 end"),
	BAD("new begin hooks end", EXPECTED_HOOKS, 1, 17),
	BAD("new begin hooks quick end", EXPECTED_HOOKS, 1, 17),
	BAD("new begin hooks Fast end", EXPECTED_HOOKS, 1, 17),
	INCOMPLETE("new begin hooks", EXPECTED_HOOKS, 1, 16),
	BAD("new begin hooks fast hooks safe end", DUPLICATE, 1, 22),
	BAD("new begin hooks fast\nwatch stack 5 end", WATCH_NEEDS_SAFE, 2, 1),
	BAD("new begin watch worst-stack 5\nhooks fast end", WATCH_NEEDS_SAFE, 2, 1),
	BAD("new begin mode count hooks fast end", NOT_IN_COUNT_MODE, 1, 22),
	BAD("new begin hooks safe mode stacks filter funclist f fend end", NOT_IN_STACKS_MODE, 1, 22),
	BAD("new begin mode profile\nhooks fast end", NOT_IN_PROFILE_MODE, 2, 1),
	BAD("new begin watch stack 5 watch bogus 6 end", DUPLICATE, 1, 25),
	/* sample */
	OK("new begin mode profile sample 1 end"),
	OK("new begin mode profile sample 10000 end"),
	BAD("new begin mode profile sample 0 end", NUMBER_RANGE, 1, 31),
	BAD("new begin mode profile sample 10001 end", NUMBER_RANGE, 1, 31),
	BAD("new begin mode profile sample 49hz end", BAD_NUMBER, 1, 31),
	INCOMPLETE("new begin mode profile sample", MISSING_NUMBER, 1, 30),
	BAD("new begin mode profile sample 5 sample 5 end", DUPLICATE, 1, 33),
	BAD("new begin mode profile samples 5 end", UNKNOWN_STATEMENT, 1, 24),
	/* include idle */
	OK("new begin mode profile include idle end"),
	BAD("new begin mode profile include idles end", EXPECTED_IDLE, 1, 32),
	BAD("new begin mode profile include end", EXPECTED_IDLE, 1, 32),
	INCOMPLETE("new begin mode profile include", EXPECTED_IDLE, 1, 31),
	BAD("new begin mode profile include idle include idle end", DUPLICATE, 1, 37),
	BAD("new begin mode profile idle end", UNKNOWN_STATEMENT, 1, 24),
	/* per-process */
	OK("new begin mode stacks per-process filter funclist f fend end"),
	BAD("new begin mode stacks per-process per-process filter funclist f fend end",
	    DUPLICATE, 1, 35),
	BAD("new begin mode stacks per_process end", UNKNOWN_STATEMENT, 1, 23),
	BAD("new begin mode stacks per-proc end", UNKNOWN_STATEMENT, 1, 23),
	/* filter pid|tid|cpu */
	OK("new begin mode profile filter pid 1 end"),
	OK("new begin mode profile filter pid 4194304 end"),
	OK("new begin mode profile filter tid 1 end"),
	OK("new begin mode profile filter tid 4194304 end"),
	OK("new begin mode profile filter cpu 0 end"),
	OK("new begin mode profile filter cpu 16383 end"),
	OK("new begin mode profile filter pid 5 filter cpu 1 end"),
	OK("new begin mode profile filter tid 5 filter cpu 1 end"),
	BAD("new begin mode profile filter pid 0 end", NUMBER_RANGE, 1, 35),
	BAD("new begin mode profile filter pid 4194305 end", NUMBER_RANGE, 1, 35),
	BAD("new begin mode profile filter tid 0 end", NUMBER_RANGE, 1, 35),
	BAD("new begin mode profile filter tid 4194305 end", NUMBER_RANGE, 1, 35),
	BAD("new begin mode profile filter cpu 16384 end", NUMBER_RANGE, 1, 35),
	BAD("new begin mode profile filter cpu -1 end", BAD_NUMBER, 1, 35),
	INCOMPLETE("new begin mode profile filter pid", MISSING_NUMBER, 1, 34),
	BAD("new begin mode profile filter pid 1 filter pid 1 end", DUPLICATE, 1, 37),
	BAD("new begin mode profile filter tid 1 filter tid 2 end", DUPLICATE, 1, 37),
	BAD("new begin mode profile filter cpu 1 filter cpu 2 end", DUPLICATE, 1, 37),
	BAD("new begin mode profile filter pids 1 end", EXPECTED_FILTER, 1, 31),
	/* Every mode takes the task filters; filter comm NAME. */
	OK("new begin filter pid 1 end"),
	OK("new begin mode count filter tid 1 filter cpu 0 end"),
	OK("new begin filter comm sshd end"),
	OK("new begin filter comm 123456789012345 end"),
	OK("new begin mode profile filter comm kworker/0:1H filter pid 3 end"),
	BAD("new begin filter comm 1234567890123456 end", COMM_TOO_LONG, 1, 23),
	BAD("new begin filter comm end", MISSING_COMM, 1, 23),
	INCOMPLETE("new begin filter comm", MISSING_COMM, 1, 22),
	BAD("new begin filter comm a filter comm b end", DUPLICATE, 1, 25),
	/* units us|ns (trace). */
	OK("new begin units ns end"),
	OK("new begin units us end"),
	BAD("new begin units ms end", UNITS_MS, 1, 11),
	BAD("new begin units s end", EXPECTED_UNITS, 1, 17),
	BAD("new begin mode histogram units ms logentries 5 end", NOT_IN_HISTOGRAM_MODE, 1, 35),
	OK("new begin mode histogram end"),
	OK("new begin mode histogram units us hooks fast filter errors filter mintime 5 end"),
	OK("new begin mode histogram filter funclist a b fend trigger stop time 9 autorepeat end"),
	BAD("new begin mode histogram watch stack 100 end", NOT_IN_HISTOGRAM_MODE, 1, 26),
	INCOMPLETE("new begin units", EXPECTED_UNITS, 1, 16),
	BAD("new begin units ns units us end", DUPLICATE, 1, 20),
	BAD("new begin mode count units ns end", NOT_IN_COUNT_MODE, 1, 22),
	BAD("new begin mode profile filter tgid 1 end", EXPECTED_FILTER, 1, 31),
	BAD("new begin mode profile\nfilter pid 5\nfilter tid 6\nend", PID_TID_CONFLICT, 3, 1),
	BAD("new begin mode profile\nfilter tid 6\nfilter pid 5\nend", PID_TID_CONFLICT, 3, 1),
	/* snoop */
	OK("new begin mode stacks snoop 1 filter funclist f fend end"),
	OK("new begin mode stacks snoop 1048576 filter funclist f fend end"),
	BAD("new begin mode stacks snoop 0 filter funclist f fend end", NUMBER_RANGE, 1, 29),
	BAD("new begin mode stacks snoop 1048577 filter funclist f fend end", NUMBER_RANGE, 1, 29),
	BAD("new begin mode stacks snoop 5 snoop 5 filter funclist f fend end", DUPLICATE, 1, 31),
	/* logentries: the stack table's limit is lower than the log's, at the number. */
	OK("new begin mode stacks logentries 1048576 filter funclist f fend end"),
	OK("new begin mode profile logentries 1 end"),
	OK("new begin mode trace logentries 16777216 end"),
	BAD("new begin mode stacks logentries 1048577 filter funclist f fend end",
	    NUMBER_RANGE, 1, 34),
	BAD("new begin logentries 1048577 mode profile end", NUMBER_RANGE, 1, 22),
	BAD("new begin\nlogentries 16777216\nmode profile\nend", NUMBER_RANGE, 2, 12),
	BAD("new begin mode profile logentries 16777217 end", NUMBER_RANGE, 1, 35),
	BAD("new begin mode profile logentries 0 end", NUMBER_RANGE, 1, 35),
	/* What a mode has no use for (every pair: test_mode_meaning). */
	BAD("new begin sample 5 end", NOT_IN_TRACE_MODE, 1, 11),
	BAD("new begin mode trace snoop 5 end", NOT_IN_TRACE_MODE, 1, 22),
	BAD("new begin per-process mode trace end", NOT_IN_TRACE_MODE, 1, 23),
	BAD("new begin mode stacks filter funclist f fend watch stack 5 end",
	    NOT_IN_STACKS_MODE, 1, 46),
	BAD("new begin mode profile filter funclist f fend end", NOT_IN_PROFILE_MODE, 1, 24),
	BAD("new begin mode count per-process end", NOT_IN_COUNT_MODE, 1, 22),
	/* The first in the text's order, at the later of it and the mode. */
	BAD("new begin mode profile snoop 5 filter pid 1 per-process end",
	    NOT_IN_PROFILE_MODE, 1, 24),
	BAD("new begin\nper-process\nsnoop 5\nmode profile\nend", NOT_IN_PROFILE_MODE, 4, 1),
	/* A mode error before a conflict between two statements. */
	BAD("new begin\nsnoop 1\nfilter pid 1\nfilter tid 1\nend", NOT_IN_TRACE_MODE, 2, 1),
	BAD("new begin\nmode count\nlogentries 2000000\nend", NOT_IN_COUNT_MODE, 3, 1),
	/* filter roots and the holding's sizes. */
	OK("new begin filter roots do_sys_openat2 ext4:ext4_file_open " ADDR_TEXT " fend end"),
	OK("new begin filter roots a fend filter funclist b fend holdentries 2 holdtasks 65536 end"),
	OK("new begin holdtasks 1 filter errors filter roots a fend filter noints end"),
	BAD("new begin filter roots vfs_* fend end", ROOT_GLOB, 1, 24),
	BAD("new begin filter roots a b end", MISSING_FEND, 1, 18),
	INCOMPLETE("new begin filter roots a", MISSING_FEND, 1, 18),
	BAD("new begin filter roots fend end", EMPTY_FUNCLIST, 1, 18),
	BAD("new begin filter roots a fend filter roots b fend end", DUPLICATE, 1, 31),
	BAD("new begin filter roots 12x fend end", BAD_FUNCTION, 1, 24),
	BAD("new begin holdentries 8 end", NEEDS_ROOTS, 1, 11),
	BAD("new begin holdtasks 8 end", NEEDS_ROOTS, 1, 11),
	BAD("new begin filter roots a fend holdentries 1 end", NUMBER_RANGE, 1, 43),
	BAD("new begin filter roots a fend holdentries 1048577 end", NUMBER_RANGE, 1, 43),
	BAD("new begin filter roots a fend holdtasks 0 end", NUMBER_RANGE, 1, 41),
	BAD("new begin filter roots a fend holdtasks 65537 end", NUMBER_RANGE, 1, 41),
	BAD("new begin filter roots a fend\nfilter onlyints end", ROOTS_CONFLICT, 2, 1),
	BAD("new begin watch stack 100 filter roots a fend end", ROOTS_CONFLICT, 1, 27),
	BAD("new begin mode histogram filter roots a fend end", NOT_IN_HISTOGRAM_MODE, 1, 26),
	BAD("new begin filter roots a fend mode count end", NOT_IN_COUNT_MODE, 1, 31),
	/* offcpu: a trace's or a histogram's, once. */
	OK("new begin offcpu filter funclist a fend end"),
	OK("new begin offcpu filter roots a fend filter mintime 5 end"),
	BAD("new begin offcpu offcpu end", DUPLICATE, 1, 18),
	BAD("new begin mode count offcpu end", NOT_IN_COUNT_MODE, 1, 22),
	OK("new begin offcpu mode histogram end"),
	BAD("new begin offcpu mode stacks filter funclist a fend end", NOT_IN_STACKS_MODE, 1, 18),
	BAD("new begin offcpus end", UNKNOWN_STATEMENT, 1, 11),
	/* args: a trace's (and a snoop's), once, with any log and with filter roots. */
	OK("new begin args end"),
	OK("new begin args filter mintime 5 log ring offcpu end"),
	OK("new begin log stream args hooks fast end"),
	/* (errtrace -a's run: every function, errors only, each with its arguments) */
	OK("new begin mode trace filter errors units ns args logentries 65536 end"),
	BAD("new begin args args end", DUPLICATE, 1, 16),
	BAD("new begin mode count args end", NOT_IN_COUNT_MODE, 1, 22),
	BAD("new begin args\nmode count end", NOT_IN_COUNT_MODE, 2, 1),
	BAD("new begin args mode histogram end", NOT_IN_HISTOGRAM_MODE, 1, 16),
	/* In stacks mode, with snoop only: its events keep them. */
	OK("new begin mode stacks snoop 64 args filter funclist a fend end"),
	OK("new begin args mode stacks filter funclist a fend snoop 8 end"),
	BAD("new begin mode stacks args filter funclist a fend end", ARGS_NEED_SNOOP, 1, 23),
	BAD("new begin args filter funclist a fend\nmode stacks end", ARGS_NEED_SNOOP, 2, 1),
	BAD("new begin mode stacks snoop 8 args string 1 filter funclist a fend end",
	    ARGS_NEED_SNOOP, 1, 31),
	BAD("new begin mode stacks snoop 8 args struct 1 8 filter funclist a fend end",
	    ARGS_NEED_SNOOP, 1, 31),
	BAD("new begin mode profile args end", NOT_IN_PROFILE_MODE, 1, 24),
	OK("new begin args filter roots a fend end"),
	OK("new begin filter roots a fend\nargs end"),
	BAD("new begin arg end", UNKNOWN_STATEMENT, 1, 11),
	/*
	 * args string N / ustring N: a register from 1 to N, with any log
	 * (a record made at the exit copies then).
	 */
	OK("new begin args string 1 end"),
	OK("new begin args ustring " KFT_ARGF_REGS_TEXT " log ring filter maxtime 0 end"),
	OK("new begin args string 2 filter funclist a fend hooks fast end"),
	OK("new begin args filter mintime 5 end"),
	BAD("new begin args string 0 end", ARGF_INDEX, 1, 23),
	BAD("new begin args ustring 9 end", ARGF_INDEX, 1, 24),
	BAD("new begin args string x end", BAD_NUMBER, 1, 23),
	BAD("new begin args string end", BAD_NUMBER, 1, 23),
	INCOMPLETE("new begin args string", MISSING_NUMBER, 1, 22),
	BAD("new begin args strings 1 end", UNKNOWN_STATEMENT, 1, 16),
	/*
	 * per-arg N: count and histogram modes only, a register from 1 to N,
	 * once; the other modes' error at the later of it and mode.
	 */
	OK("new begin mode count per-arg 1 end"),
	OK("new begin per-arg " KFT_ARGF_REGS_TEXT " mode count filter arg 1 == 5 end"),
	BAD("new begin mode count per-arg 0 end", ARGF_INDEX, 1, 30),
	BAD("new begin mode count per-arg 9 end", ARGF_INDEX, 1, 30),
	BAD("new begin mode count per-arg x end", BAD_NUMBER, 1, 30),
	BAD("new begin mode count per-arg end", BAD_NUMBER, 1, 30),
	INCOMPLETE("new begin mode count per-arg", MISSING_NUMBER, 1, 29),
	BAD("new begin mode count per-arg 1 per-arg 2 end", DUPLICATE, 1, 32),
	BAD("new begin per-arg 1 end", NOT_IN_TRACE_MODE, 1, 11),
	OK("new begin per-arg 1 mode histogram end"),
	OK("new begin mode histogram units us per-arg 1 filter funclist f fend filter pid 9 end"),
	OK("new begin mode histogram per-arg 2 filter arg 1 == 7 offcpu hooks safe end"),
	BAD("new begin mode histogram per-arg 0 end", ARGF_INDEX, 1, 34),
	BAD("new begin mode histogram per-arg 9 end", ARGF_INDEX, 1, 34),
	BAD("new begin mode histogram per-arg 1 per-arg 1 end", DUPLICATE, 1, 36),
	BAD("new begin mode histogram per-arg 1 args end", NOT_IN_HISTOGRAM_MODE, 1, 36),
	BAD("new begin mode stacks filter funclist f fend per-arg 2 end", NOT_IN_STACKS_MODE,
	    1, 46),
	BAD("new begin mode profile per-arg 1 end", NOT_IN_PROFILE_MODE, 1, 24),
	BAD("new begin args string 1 args end", DUPLICATE, 1, 25),
	BAD("new begin args string 1 string 1 end", UNKNOWN_STATEMENT, 1, 25),
	/* A run that makes its records at the exit copies the string then. */
	OK("new begin args string 1 filter mintime 5 end"),
	OK("new begin filter maxtime 5 args ustring 1 end"),
	OK("new begin args string 1 filter errors log ring end"),
	/* filter roots holds the call from its entry, whatever judges the root. */
	OK("new begin args string 1 filter roots a fend end"),
	OK("new begin filter roots a fend filter mintime 5 filter errors args ustring 2 end"),
	OK("new begin args struct 1 8 filter roots a fend filter maxtime 9 offcpu filter oncpu end"),
	BAD("new begin args string 1 filter roots a fend log stream end", RING_CONFLICT, 1, 45),
	OK("new begin log stream args string 1 end"),
	OK("new begin args ustring 1 filter errors log stream end"),
	BAD("new begin mode count args string 1 end", NOT_IN_COUNT_MODE, 1, 22),
	/* args struct N LEN: as args string, LEN from 1 to 63, at the number. */
	OK("new begin args struct 1 24 end"),
	OK("new begin args struct " KFT_ARGF_REGS_TEXT " 63 log ring end"),
	BAD("new begin args struct 0 8 end", ARGF_INDEX, 1, 23),
	BAD("new begin args struct 1 0 end", STRUCT_LEN, 1, 25),
	BAD("new begin args struct 1 64 end", STRUCT_LEN, 1, 25),
	BAD("new begin args struct 1 x end", BAD_NUMBER, 1, 25),
	INCOMPLETE("new begin args struct 1", MISSING_NUMBER, 1, 24),
	OK("new begin args struct 1 8 filter errors end"),
	OK("new begin log stream args struct 2 8 end"),
	/* filter arg: up to 4, in trace and histogram modes, not with roots. */
	OK("new begin filter arg 1 == 5 end"),
	OK("new begin filter arg 2 int == -22 filter arg 1 ulong >= 0x10 args end"),
	OK("new begin filter arg 1 != 0 filter arg 1 < 10 filter arg 1 <= 9 filter arg 1 & 4 end"),
	OK("new begin filter arg 1 uint > 0xfffffffe filter mintime 5 hooks fast end"),
	OK("new begin mode histogram filter arg 1 long > -1 filter errors end"),
	OK("new begin filter arg 1 long == " LONG_MIN_TEXT " end"),
	OK("new begin filter arg 1 == " ULONG_MAX_TEXT " end"),
	BAD("new begin filter arg 0 == 5 end", ARGF_INDEX, 1, 22),
	BAD("new begin filter arg 9 == 5 end", ARGF_INDEX, 1, 22),
	/* A word before N names the function the statement judges. */
	BAD("new begin filter arg x == 5 end", BAD_NUMBER, 1, 24),
	OK("new begin filter arg vfs_read 3 ulong > 4096 end"),
	OK("new begin filter arg kft_test:kft_test_args 1 == 5 filter arg 2 != 0 end"),
	BAD("new begin filter arg vfs_* 1 == 5 end", ARGF_FUNCTION, 1, 22),
	BAD("new begin filter arg " ADDR_TEXT " 1 == 5 end", BAD_NUMBER, 1, 22),
	BAD("new begin filter arg :x 1 == 5 end", BAD_FUNCTION, 1, 22),
	BAD("new begin filter arg f 9 == 5 end", ARGF_INDEX, 1, 24),
	BAD("new begin filter arg f end", BAD_NUMBER, 1, 24),
	INCOMPLETE("new begin filter arg f", MISSING_NUMBER, 1, 23),
	BAD("new begin filter arg 1 = 5 end", ARGF_OP, 1, 24),
	BAD("new begin filter arg 1 short == 5 end", ARGF_OP, 1, 24),
	BAD("new begin filter arg 1 int int == 5 end", ARGF_OP, 1, 28),
	BAD("new begin filter arg 1 end", ARGF_OP, 1, 24),
	BAD("new begin filter arg 1 == end", MISSING_NUMBER, 1, 27),
	BAD("new begin filter arg 1 == 5x end", BAD_NUMBER, 1, 27),
	BAD("new begin filter arg 1 == 0x end", BAD_NUMBER, 1, 27),
	BAD("new begin filter arg 1 == - end", BAD_NUMBER, 1, 27),
	BAD("new begin filter arg 1 int == 2147483648 end", NUMBER_RANGE, 1, 31),
	OK("new begin filter arg 1 int == -2147483648 end"),
	BAD("new begin filter arg 1 int == -2147483649 end", NUMBER_RANGE, 1, 31),
	BAD("new begin filter arg 1 uint == 0x100000000 end", NUMBER_RANGE, 1, 32),
	BAD("new begin filter arg 1 ulong == -1 end", NUMBER_RANGE, 1, 33),
	BAD("new begin filter arg 1 == " LONG_OVER_TEXT " end", NUMBER_RANGE, 1, 27),
	BAD("new begin filter arg 1 ulong < 0 end", ARGF_CONSTANT, 1, 32),
	BAD("new begin filter arg 1 uint <= 0xffffffff end", ARGF_CONSTANT, 1, 32),
	BAD("new begin filter arg 1 int > 2147483647 end", ARGF_CONSTANT, 1, 30),
	BAD("new begin filter arg 1 int >= -2147483648 end", ARGF_CONSTANT, 1, 31),
	BAD("new begin filter arg 1 & 0 end", ARGF_CONSTANT, 1, 26),
	INCOMPLETE("new begin filter arg", MISSING_NUMBER, 1, 21),
	INCOMPLETE("new begin filter arg 1", ARGF_OP, 1, 23),
	BAD("new begin filter arg 1 == 1 filter arg 2 == 2 filter arg 3 == 3 filter arg 4 == 4\n"
	    "filter arg 5 == 5 end", ARGF_TOO_MANY, 2, 1),
	OK("new begin mode count filter arg 1 == 5 end"),
	OK("new begin filter arg 1 == 5\nmode stacks filter funclist a fend end"),
	BAD("new begin mode profile filter arg 1 == 5 end", ARGF_MODE, 1, 24),
	BAD("new begin filter arg 1 == 5\nmode profile end", ARGF_MODE, 2, 1),
	BAD("new begin filter arg 1 == 5 filter roots a fend end", ARGF_ROOTS, 1, 29),
	BAD("new begin filter roots a fend filter arg 1 == 5 end", ARGF_ROOTS, 1, 31),
	/*
	 * filter arg N string|ustring OP "TEXT": '==', '!=', '~'; TEXT in
	 * double quotes on one line, escapes \" \\ \n \t \xHH (not \x00),
	 * at most 62 bytes; white space or '#' after the closing quote.
	 */
	OK("new begin filter arg 1 string == \"/etc/passwd\" end"),
	OK("new begin filter arg do_sys_openat2 2 ustring ~ \"/etc/*\" end"),
	OK("new begin filter arg 1 string != \"a b # not a comment end\" end"),
	OK("new begin filter arg 1 string == \"\" end"),
	OK("new begin filter arg 1 string == \"q\\\"b\\\\s\\n\\t\\x41\\xff\"#c\nend"),
	OK("new begin filter arg 1 string == \"a\\\"\" end"),
	OK("new begin filter arg 1 string ~ \"*\" end"),
	OK("new begin filter arg 1 string == \"" S62 "\" end"),
	OK("new begin filter arg 1 string == \"\\x41" S61 "\" end"),
	OK("new begin filter arg 1 string == \"a\" filter arg 2 != 0 filter arg 3 ustring ~ \"*x?\"\n"
	   "filter arg 4 int > 5 end"),
	OK("new begin mode count filter arg 1 ustring != \"a\" end"),
	OK("new begin mode stacks filter arg 1 string ~ \"a*\" filter funclist f fend end"),
	OK("new begin mode histogram filter arg f 1 string == \"a\" end"),
	BAD("new begin filter arg 1 string == \"" S62 "x\" end", ARGF_STRING_LEN, 1, 34),
	BAD("new begin filter arg 1 string == \"\\x41" S62 "\" end", ARGF_STRING_LEN, 1, 34),
	BAD("new begin filter arg 1 string < \"a\" end", ARGF_STRING_OP, 1, 31),
	BAD("new begin filter arg 1 ustring & \"a\" end", ARGF_STRING_OP, 1, 32),
	BAD("new begin filter arg 1 string >= \"a\" end", ARGF_STRING_OP, 1, 31),
	BAD("new begin filter arg 1 ~ 5 end", ARGF_OP, 1, 24),
	BAD("new begin filter arg 1 int ~ 5 end", ARGF_OP, 1, 28),
	BAD("new begin filter arg 1 strings == \"a\" end", ARGF_OP, 1, 24),
	BAD("new begin filter arg 1 string == abc end", ARGF_QUOTE, 1, 34),
	BAD("new begin filter arg 1 string == 'abc' end", ARGF_QUOTE, 1, 34),
	BAD("new begin filter arg 1 string == end", ARGF_QUOTE, 1, 34),
	BAD("new begin filter arg 1 string == # \"a\"\n5 end", ARGF_QUOTE, 2, 1),
	INCOMPLETE("new begin filter arg 1 string ==", ARGF_QUOTE, 1, 33),
	INCOMPLETE("new begin filter arg 1 string == \"abc", ARGF_UNTERMINATED, 1, 34),
	INCOMPLETE("new begin filter arg 1 string == \"abc\\\"", ARGF_UNTERMINATED, 1, 34),
	INCOMPLETE("new begin filter arg 1 string == \"abc\\", ARGF_UNTERMINATED, 1, 34),
	BAD("new begin filter arg 1 string == \"abc\nend", ARGF_UNTERMINATED, 1, 34),
	BAD("new begin filter arg 1 string == \"abc\\\nend\"", ARGF_UNTERMINATED, 1, 34),
	BAD("new begin filter arg 1 string == \"a\\qb\" end", ARGF_ESCAPE, 1, 36),
	BAD("new begin filter arg 1 string == \"a\\x00\" end", ARGF_ESCAPE, 1, 36),
	BAD("new begin filter arg 1 string == \"a\\x4\" end", ARGF_ESCAPE, 1, 36),
	BAD("new begin filter arg 1 string == \"a\\xg0\" end", ARGF_ESCAPE, 1, 36),
	BAD("new begin filter arg 1 string == \"abc\"x end", ARGF_AFTER_QUOTE, 1, 39),
	BAD("new begin filter arg 1 string == \"a\"\"b\" end", ARGF_AFTER_QUOTE, 1, 37),
	BAD("new begin filter arg 1 string == \"a\tb\" end", BAD_CHAR, 1, 36),
	BAD("new begin filter arg 1 string == \"caf\xc3\xa9\" end", BAD_CHAR, 1, 38),
	BAD("new begin mode profile filter arg 1 string == \"a\" end", ARGF_MODE, 1, 24),
	BAD("new begin filter arg 1 string == \"a\" filter roots a fend end", ARGF_ROOTS, 1, 38),
	/* Bytes. */
	BAD("new begin\x01 end", BAD_CHAR, 1, 10),
	BAD("new begin trigger start entry f\xc3\xa9 end", BAD_CHAR, 1, 32),
	OK("new begin # caf\xc3\xa9 in a comment is fine\nend"),
};

/* Parses a copy of text (with the spare byte the parser may write). */
static int parse(const char *text, enum kft_command *cmd, struct kft_config *cfg,
		 struct kft_func_ref **funcs, struct kft_parse_error *err, char **buf)
{
	size_t len = strlen(text);
	unsigned int max = kft_config_max_funcs(len);

	*buf = malloc(len + 1);
	*funcs = calloc(max, sizeof(**funcs));
	memcpy(*buf, text, len + 1);
	return kft_config_parse(*buf, len, cmd, cfg, *funcs, max, err);
}

static void test_table(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct parse_case *c = &cases[i];
		struct kft_func_ref *funcs;
		struct kft_parse_error err;
		struct kft_config cfg;
		enum kft_command cmd;
		char *buf;
		int ret = parse(c->text, &cmd, &cfg, &funcs, &err, &buf);

		if (c->err == KFT_ERR_NONE) {
			CHECK(ret == 0, "case %zu \"%s\": expected success, got %d:%d %s",
			      i, c->text, err.pos.line, err.pos.col,
			      kft_parse_strerror(err.code));
		} else {
			CHECK(ret == -1 && err.code == c->err && err.pos.line == c->line &&
			      err.pos.col == c->col && err.at_eof == c->incomplete,
			      "case %zu \"%s\": expected %u:%u %s%s, got %s%u:%u %s%s",
			      i, c->text, c->line, c->col, kft_parse_strerror(c->err),
			      c->incomplete ? " (incomplete)" : "", ret ? "" : "success, ",
			      err.pos.line, err.pos.col, kft_parse_strerror(err.code),
			      err.at_eof ? " (incomplete)" : "");
		}
		free(buf);
		free(funcs);
	}
	CHECK(sizeof(cases) / sizeof(cases[0]) >= 60, "only %zu cases",
	      sizeof(cases) / sizeof(cases[0]));
}

static void test_commands(void)
{
	static const struct { const char *text; enum kft_command cmd; } cmds[] = {
		{ "prime", KFT_CMD_PRIME }, { "start", KFT_CMD_START },
		{ "stop\n", KFT_CMD_STOP }, { " clear ", KFT_CMD_CLEAR },
		{ "new begin end", KFT_CMD_CONFIG },
	};
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		struct kft_func_ref *funcs;
		struct kft_parse_error err;
		struct kft_config cfg;
		enum kft_command cmd = -1;
		char *buf;

		parse(cmds[i].text, &cmd, &cfg, &funcs, &err, &buf);
		CHECK(cmd == cmds[i].cmd, "\"%s\": command %d, expected %d",
		      cmds[i].text, cmd, cmds[i].cmd);
		free(buf);
		free(funcs);
	}
}

static void test_full_config_fields(void)
{
	static const char text[] =
		"new\nbegin\n"
		"  trigger start entry " ADDR_TEXT "\n"
		"  trigger stop exit vfs_read   # when the read returns\n"
		"  filter mintime 10\n  filter maxtime 400\n  filter noints\n"
		"  filter funclist vfs_* ext4:ext4_file_read_iter " MOD_ADDR_TEXT " fend\n"
		"  logentries 500\n  autorepeat\nend\n";
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf;

	CHECK(parse(text, &cmd, &cfg, &funcs, &err, &buf) == 0, "parse failed: %u:%u %s",
	      err.pos.line, err.pos.col, kft_parse_strerror(err.code));
	CHECK(cfg.start.kind == KFT_TRIGGER_ENTRY && cfg.start.func.is_addr &&
	      cfg.start.func.addr == ADDR, "start trigger %d %lx",
	      cfg.start.kind, cfg.start.func.addr);
	CHECK(cfg.stop.kind == KFT_TRIGGER_EXIT, "stop kind %d", cfg.stop.kind);
	CHECK_STR(cfg.stop.func.text, "vfs_read", "stop function");
	CHECK(cfg.stop.func.pos.line == 4 && cfg.stop.func.pos.col == 21,
	      "stop function at %u:%u", cfg.stop.func.pos.line, cfg.stop.func.pos.col);
	CHECK(cfg.mintime_us == 10 && cfg.maxtime_us == 400, "times %llu %llu",
	      cfg.mintime_us, cfg.maxtime_us);
	CHECK(cfg.noints && !cfg.onlyints && cfg.autorepeat, "flags");
	CHECK(cfg.logentries == 500, "logentries %lu", cfg.logentries);
	CHECK(cfg.has_funclist && cfg.nr_funcs == 3, "funclist of %u", cfg.nr_funcs);
	CHECK_STR(cfg.funcs[0].text, "vfs_*", "funcs[0]");
	CHECK(cfg.funcs[0].is_glob && !cfg.funcs[0].is_addr, "funcs[0] is a glob");
	CHECK_STR(cfg.funcs[1].text, "ext4:ext4_file_read_iter", "funcs[1]");
	CHECK(!cfg.funcs[1].is_glob, "funcs[1] is no glob");
	CHECK(cfg.funcs[2].is_addr && cfg.funcs[2].addr == MOD_ADDR, "funcs[2]");
	CHECK(cfg.funcs[2].pos.line == 8 && cfg.funcs[2].pos.col == 50, "funcs[2] at %u:%u",
	      cfg.funcs[2].pos.line, cfg.funcs[2].pos.col);
	free(buf);
	free(funcs);
}

/* filter roots fills the array from its end: in text order there, apart from the funclist. */
static void test_roots_fields(void)
{
	static const char text[] =
		"new begin filter roots r1 mod:r2 r3 fend filter funclist f1 f2 fend\n"
		"holdentries 100 holdtasks 7 end";
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf;

	CHECK(parse(text, &cmd, &cfg, &funcs, &err, &buf) == 0, "parse failed: %u:%u %s",
	      err.pos.line, err.pos.col, kft_parse_strerror(err.code));
	CHECK(cfg.nr_roots == 3 && cfg.nr_funcs == 2, "%u roots, %u funcs", cfg.nr_roots,
	      cfg.nr_funcs);
	CHECK_STR(cfg.roots[0].text, "r1", "roots[0]");
	CHECK_STR(cfg.roots[1].text, "mod:r2", "roots[1]");
	CHECK_STR(cfg.roots[2].text, "r3", "roots[2]");
	CHECK(cfg.roots[2].pos.line == 1 && cfg.roots[2].pos.col == 34, "roots[2] at %u:%u",
	      cfg.roots[2].pos.line, cfg.roots[2].pos.col);
	CHECK_STR(cfg.funcs[0].text, "f1", "funcs[0]");
	CHECK_STR(cfg.funcs[1].text, "f2", "funcs[1]");
	CHECK(cfg.roots >= cfg.funcs + cfg.nr_funcs, "roots overlap the funclist");
	CHECK(cfg.holdentries == 100 && cfg.holdtasks == 7, "hold %lu x %lu", cfg.holdtasks,
	      cfg.holdentries);
	free(buf);
	free(funcs);
	CHECK(parse("new begin filter roots r fend end", &cmd, &cfg, &funcs, &err, &buf) == 0 &&
	      cfg.holdentries == KFT_DEFAULT_HOLDENTRIES &&
	      cfg.holdtasks == KFT_DEFAULT_HOLDTASKS && !cfg.has_funclist,
	      "roots' defaults: %lu x %lu", cfg.holdtasks, cfg.holdentries);
	free(buf);
	free(funcs);
}

static void test_defaults(void)
{
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf;

	CHECK(parse("new begin end", &cmd, &cfg, &funcs, &err, &buf) == 0, "parse");
	CHECK(cfg.logentries == KFT_DEFAULT_LOGENTRIES, "default logentries %lu", cfg.logentries);
	CHECK(cfg.start.kind == KFT_TRIGGER_NONE && cfg.stop.kind == KFT_TRIGGER_NONE,
	      "no triggers");
	CHECK(!cfg.has_funclist && !cfg.mintime_us && !cfg.maxtime_us, "no filters");
	CHECK(cfg.mode == KFT_MODE_TRACE, "default mode %d", cfg.mode);
	CHECK(!cfg.args, "no args unless asked");
	free(buf);
	free(funcs);
	CHECK(parse("new begin mode count end", &cmd, &cfg, &funcs, &err, &buf) == 0 &&
	      cfg.mode == KFT_MODE_COUNT, "mode count: %d", cfg.mode);
	free(buf);
	free(funcs);
}

/* Parses text, which must parse; the caller frees buf and funcs. */
static void parse_ok(const char *text, struct kft_config *cfg, struct kft_func_ref **funcs,
		     char **buf)
{
	struct kft_parse_error err;
	enum kft_command cmd;

	CHECK(parse(text, &cmd, cfg, funcs, &err, buf) == 0, "\"%s\": %u:%u %s", text,
	      err.pos.line, err.pos.col, kft_parse_strerror(err.code));
}

/*
 * The boot's run takes statements from the kernel's command line after
 * its configuration was parsed: each must meet what a parse would check.
 */
static void test_override_error(void)
{
	static const struct {
		const char *text;
		enum kft_stmt stmt;
		enum kft_log_fill log;	/* set before the check, as the override does */
		enum kft_parse_err err;
		const char *token;
	} cases[] = {
		{ "new begin end", KFT_STMT_LOG, KFT_LOG_RING, KFT_ERR_NONE, "" },
		{ "new begin filter funclist f fend end", KFT_STMT_MINTIME, KFT_LOG_LINEAR,
		  KFT_ERR_NONE, "" },
		{ "new begin mode count end", KFT_STMT_LOG, KFT_LOG_RING,
		  KFT_ERR_NOT_IN_COUNT_MODE, "" },
		{ "new begin mode count end", KFT_STMT_MINTIME, KFT_LOG_LINEAR,
		  KFT_ERR_NOT_IN_COUNT_MODE, "" },
		{ "new begin mode profile end", KFT_STMT_FUNCLIST, KFT_LOG_LINEAR,
		  KFT_ERR_NOT_IN_PROFILE_MODE, "" },
		{ "new begin mode histogram end", KFT_STMT_LOG, KFT_LOG_STREAM,
		  KFT_ERR_NOT_IN_HISTOGRAM_MODE, "" },
		{ "new begin filter roots r fend end", KFT_STMT_LOG, KFT_LOG_RING,
		  KFT_ERR_RING_CONFLICT, "roots" },
		{ "new begin filter roots r fend end", KFT_STMT_LOG, KFT_LOG_LINEAR,
		  KFT_ERR_NONE, "" },
		{ "new begin watch stack 100 filter funclist f fend end", KFT_STMT_LOG, KFT_LOG_STREAM,
		  KFT_ERR_RING_CONFLICT, "watch" },
	};
	struct kft_func_ref *funcs;
	struct kft_config cfg;
	const char *token;
	char *buf;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum kft_parse_err err;

		parse_ok(cases[i].text, &cfg, &funcs, &buf);
		cfg.log = cases[i].log;
		err = kft_config_override_error(&cfg, cases[i].stmt, &token);
		CHECK(err == cases[i].err && !strcmp(token, cases[i].token),
		      "\"%s\", statement %d: error %d '%s', expected %d '%s'", cases[i].text,
		      cases[i].stmt, err, token, cases[i].err, cases[i].token);
		free(buf);
		free(funcs);
	}
}


/* args sets its flag and nothing else a run would see. */
static void test_args_field(void)
{
	struct kft_func_ref *funcs;
	struct kft_config cfg;
	char *buf;

	parse_ok("new begin args filter mintime 7 end", &cfg, &funcs, &buf);
	CHECK(cfg.args && cfg.mintime_us == 7 && !cfg.offcpu && cfg.log == KFT_LOG_LINEAR,
	      "args %d mintime %llu offcpu %d log %d", cfg.args, cfg.mintime_us, cfg.offcpu,
	      cfg.log);
	CHECK(!cfg.str_arg, "args alone: string of argument %u", cfg.str_arg);
	free(buf);
	free(funcs);
	parse_ok("new begin args ustring 3 end", &cfg, &funcs, &buf);
	CHECK(cfg.args && cfg.str_arg == 3 && cfg.str_user, "args ustring 3: args %d, %u, user %d",
	      cfg.args, cfg.str_arg, cfg.str_user);
	free(buf);
	free(funcs);
	parse_ok("new begin args string 1 end", &cfg, &funcs, &buf);
	CHECK(cfg.str_arg == 1 && !cfg.str_user && !cfg.mem_len, "args string 1: %u, user %d, %u",
	      cfg.str_arg, cfg.str_user, cfg.mem_len);
	CHECK(!cfg.per_arg, "a trace: per-arg %u", cfg.per_arg);
	free(buf);
	free(funcs);
	parse_ok("new begin args struct 2 24 end", &cfg, &funcs, &buf);
	CHECK(cfg.args && cfg.str_arg == 2 && !cfg.str_user && cfg.mem_len == 24,
	      "args struct 2 24: args %d, %u, user %d, %u bytes", cfg.args, cfg.str_arg,
	      cfg.str_user, cfg.mem_len);
	free(buf);
	free(funcs);
	parse_ok("new begin mode count per-arg 2 end", &cfg, &funcs, &buf);
	CHECK(cfg.per_arg == 2 && cfg.mode == KFT_MODE_COUNT, "per-arg 2: %u, mode %d",
	      cfg.per_arg, cfg.mode);
	free(buf);
	free(funcs);
	parse_ok("new begin mode histogram per-arg 3 end", &cfg, &funcs, &buf);
	CHECK(cfg.per_arg == 3 && cfg.mode == KFT_MODE_HISTOGRAM && !cfg.args,
	      "histogram per-arg 3: %u, mode %d, args %d", cfg.per_arg, cfg.mode, cfg.args);
	free(buf);
	free(funcs);
}

/* filter arg: each statement's register, type, operator and value. */
static void test_argf_fields(void)
{
	struct kft_func_ref *funcs;
	struct kft_config cfg;
	char *buf;

	parse_ok("new begin filter arg 2 int == -22 filter arg 1 uint & 0x80000000\n"
		 "filter arg 4 == " MINUS_16_HEX " end", &cfg, &funcs, &buf);
	CHECK(cfg.nr_argf == 3, "nr_argf %u", cfg.nr_argf);
	CHECK(cfg.argf[0].index == 1 && cfg.argf[0].type == KFT_ARGF_INT &&
	      cfg.argf[0].op == KFT_ARGF_EQ && cfg.argf[0].value == (unsigned long long)-22 &&
	      !strcmp(cfg.argf[0].text, "-22") && cfg.argf[0].pos.col == 11,
	      "first: index %u type %d op %d value %llx text %s col %u", cfg.argf[0].index,
	      cfg.argf[0].type, cfg.argf[0].op, cfg.argf[0].value, cfg.argf[0].text,
	      cfg.argf[0].pos.col);
	CHECK(cfg.argf[1].index == 0 && cfg.argf[1].type == KFT_ARGF_UINT &&
	      cfg.argf[1].op == KFT_ARGF_AND && cfg.argf[1].value == 0x80000000ULL,
	      "second: index %u type %d op %d value %llx", cfg.argf[1].index,
	      cfg.argf[1].type, cfg.argf[1].op, cfg.argf[1].value);
	CHECK(cfg.argf[2].index == 3 && cfg.argf[2].type == KFT_ARGF_LONG &&
	      cfg.argf[2].value == (unsigned long long)-16 && cfg.argf[2].pos.line == 2,
	      "third: index %u type %d value %llx line %u", cfg.argf[2].index,
	      cfg.argf[2].type, cfg.argf[2].value, cfg.argf[2].pos.line);
	CHECK(!strcmp(kft_argf_type_word(KFT_ARGF_UINT), "uint") &&
	      !strcmp(kft_argf_op_word(KFT_ARGF_LE), "<="), "the words of types and operators");
	free(buf);
	free(funcs);
}

/* filter arg's strings: the text unescaped, the type and the operator. */
static void test_argf_string_fields(void)
{
	struct kft_func_ref *funcs;
	struct kft_config cfg;
	char *buf;

	parse_ok("new begin filter arg 2 ustring ~ \"/etc/*\" filter arg f 1 string != "
		 "\"a \\\"b\\\\ \\x41\\t\\n\\xfF#\"# comment\nend", &cfg, &funcs, &buf);
	CHECK(cfg.nr_argf == 2, "nr_argf %u", cfg.nr_argf);
	CHECK(cfg.argf[0].index == 1 && cfg.argf[0].type == KFT_ARGF_USTRING &&
	      cfg.argf[0].op == KFT_ARGF_GLOB && !strcmp(cfg.argf[0].text, "/etc/*"),
	      "first: index %u type %d op %d text %s", cfg.argf[0].index, cfg.argf[0].type,
	      cfg.argf[0].op, cfg.argf[0].text);
	CHECK(cfg.argf[1].index == 0 && cfg.argf[1].type == KFT_ARGF_STRING &&
	      cfg.argf[1].op == KFT_ARGF_NE && cfg.argf[1].has_func &&
	      !strcmp(cfg.argf[1].text, "a \"b\\ A\t\n\xff#"),
	      "second: index %u type %d op %d text %s", cfg.argf[1].index, cfg.argf[1].type,
	      cfg.argf[1].op, cfg.argf[1].text);
	CHECK(!strcmp(kft_argf_type_word(KFT_ARGF_USTRING), "ustring") &&
	      !strcmp(kft_argf_op_word(KFT_ARGF_GLOB), "~"), "the words of strings and globs");
	free(buf);
	free(funcs);
}

/*
 * A string as /proc/kft shows it (kft_argf_quote()) parses back to the
 * same bytes: every byte but NUL, 62 at a time, the longest text whose
 * every byte is escaped, and the words around it.
 */
static void test_argf_string_round_trip(void)
{
	char text[KFT_ARGF_STR_MAX + 1], quoted[KFT_ARGF_QUOTED_MAX], conf[512];
	unsigned int first, i;

	for (first = 1; first < 256; first += KFT_ARGF_STR_MAX) {
		struct kft_func_ref *funcs;
		struct kft_config cfg;
		char *buf;

		for (i = 0; i < KFT_ARGF_STR_MAX && first + i < 256; i++)
			text[i] = (char)(first + i);
		text[i] = '\0';
		kft_argf_quote(quoted, text);
		CHECK(strlen(quoted) < sizeof(quoted), "bytes from %u: quoted in its room", first);
		snprintf(conf, sizeof(conf), "new begin filter arg 3 string == %s end", quoted);
		parse_ok(conf, &cfg, &funcs, &buf);
		CHECK(cfg.nr_argf == 1 && !strcmp(cfg.argf[0].text, text),
		      "bytes from %u: %s read back as another string", first, quoted);
		free(buf);
		free(funcs);
	}
	memset(text, 0x7f, KFT_ARGF_STR_MAX);
	text[KFT_ARGF_STR_MAX] = '\0';
	kft_argf_quote(quoted, text);
	CHECK(strlen(quoted) == 4 * KFT_ARGF_STR_MAX + 2, "the longest quoted text: %zu bytes",
	      strlen(quoted));
	kft_argf_quote(quoted, "a b\"c\\");
	CHECK_STR(quoted, "\"a b\\\"c\\\\\"", "a blank as it is, a quote and a backslash escaped");
}

/* What a block that leaves them out gets, per mode. */
static void test_mode_defaults(void)
{
	static const struct {
		const char *text;
		enum kft_run_mode mode;
		unsigned long logentries;
	} modes[] = {
		{ "new begin end", KFT_MODE_TRACE, KFT_DEFAULT_LOGENTRIES },
		{ "new begin mode trace end", KFT_MODE_TRACE, KFT_DEFAULT_LOGENTRIES },
		{ "new begin mode count end", KFT_MODE_COUNT, KFT_DEFAULT_LOGENTRIES },
		{ "new begin mode stacks filter funclist f fend end", KFT_MODE_STACKS,
		  KFT_DEFAULT_STACKENTRIES },
		{ "new begin mode profile end", KFT_MODE_PROFILE, KFT_DEFAULT_STACKENTRIES },
	};
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		const char *t = modes[i].text;
		struct kft_func_ref *funcs;
		struct kft_config cfg;
		char *buf;

		parse_ok(t, &cfg, &funcs, &buf);
		CHECK(cfg.mode == modes[i].mode, "\"%s\": mode %d", t, cfg.mode);
		CHECK(cfg.logentries == modes[i].logentries, "\"%s\": logentries %lu, expected %lu",
		      t, cfg.logentries, modes[i].logentries);
		CHECK(cfg.sample_hz == KFT_DEFAULT_SAMPLE_HZ && cfg.sample_hz == 49,
		      "\"%s\": sample_hz %u", t, cfg.sample_hz);
		CHECK(cfg.filter_cpu == -1 && !cfg.filter_pid && !cfg.filter_tid &&
		      !cfg.filter_comm[0],
		      "\"%s\": cpu %d pid %d tid %d", t, cfg.filter_cpu, cfg.filter_pid,
		      cfg.filter_tid);
		CHECK(cfg.watch == KFT_WATCH_NONE && !cfg.watch_bytes, "\"%s\": watch %d %lu",
		      t, cfg.watch, cfg.watch_bytes);
		CHECK(!cfg.include_idle && !cfg.per_process && !cfg.snoop,
		      "\"%s\": idle %d per-process %d snoop %lu", t, cfg.include_idle,
		      cfg.per_process, cfg.snoop);
		free(buf);
		free(funcs);
	}
}

/* Each new statement sets its field, and no other. */
static void test_stack_fields(void)
{
	struct kft_func_ref *funcs;
	struct kft_config cfg;
	char *buf;

	parse_ok("new begin mode stacks filter funclist vfs_* fend per-process\n"
		 " filter pid 345 filter cpu 3 snoop 1000 logentries 500 end", &cfg, &funcs, &buf);
	CHECK(cfg.mode == KFT_MODE_STACKS && cfg.per_process && cfg.filter_pid == 345 &&
	      !cfg.filter_tid && cfg.filter_cpu == 3 && cfg.snoop == 1000 &&
	      cfg.logentries == 500, "stacks: per-process %d pid %d tid %d cpu %d snoop %lu "
	      "logentries %lu", cfg.per_process, cfg.filter_pid, cfg.filter_tid, cfg.filter_cpu,
	      cfg.snoop, cfg.logentries);
	CHECK(cfg.has_funclist && cfg.nr_funcs == 1 && cfg.sample_hz == KFT_DEFAULT_SAMPLE_HZ &&
	      !cfg.include_idle && cfg.watch == KFT_WATCH_NONE, "stacks: the rest");
	free(buf);
	free(funcs);

	parse_ok("new begin mode profile sample 99 include idle filter tid 7 filter cpu 0\n"
		 "trigger stop time 5000000 filter comm 123456789012345 end", &cfg, &funcs, &buf);
	CHECK(cfg.mode == KFT_MODE_PROFILE && cfg.sample_hz == 99 && cfg.include_idle &&
	      cfg.filter_tid == 7 && !cfg.filter_pid && cfg.filter_cpu == 0 &&
	      !strcmp(cfg.filter_comm, "123456789012345"),
	      "profile: hz %u idle %d tid %d pid %d cpu %d", cfg.sample_hz, cfg.include_idle,
	      cfg.filter_tid, cfg.filter_pid, cfg.filter_cpu);
	CHECK(!cfg.per_process && !cfg.snoop && !cfg.has_funclist &&
	      cfg.logentries == KFT_DEFAULT_STACKENTRIES, "profile: the rest");
	free(buf);
	free(funcs);

	parse_ok("new begin watch worst-stack 4096 end", &cfg, &funcs, &buf);
	CHECK(cfg.mode == KFT_MODE_TRACE && cfg.watch == KFT_WATCH_WORST &&
	      cfg.watch_bytes == 4096, "worst-stack: %d %lu", cfg.watch, cfg.watch_bytes);
	free(buf);
	free(funcs);

	parse_ok("new begin watch stack 1 logentries 7 end", &cfg, &funcs, &buf);
	CHECK(cfg.watch == KFT_WATCH_STACK && cfg.watch_bytes == 1 && cfg.logentries == 7,
	      "stack: %d %lu, logentries %lu", cfg.watch, cfg.watch_bytes, cfg.logentries);
	free(buf);
	free(funcs);
}

/*
 * Every statement in every mode, written before and after the mode
 * statement: Documentation/kft.rst's table of what means nothing
 * where, written out again here rather than taken from the parser.
 */
static void test_mode_meaning(void)
{
	static const struct {
		const char *text;	/* the statement */
		const char *word;	/* the word its error names */
		const char *not_in;	/* the modes it means nothing in: t c s p h */
	} stmts[] = {
		{ "filter mintime 5", "mintime", "csp" },
		{ "filter maxtime 5", "maxtime", "csp" },
		{ "logentries 5", "logentries", "ch" },
		{ "watch stack 5", "watch", "csph" },
		{ "watch worst-stack 5", "watch", "csph" },
		{ "sample 5", "sample", "tcsh" },
		{ "include idle", "include", "tcsh" },
		{ "per-process", "per-process", "tcph" },
		{ "per-arg 1", "per-arg", "tsp" },
		{ "filter pid 5", "pid", "" },
		{ "filter tid 5", "tid", "" },
		{ "filter cpu 0", "cpu", "" },
		{ "filter comm sh", "comm", "" },
		{ "units ns", "units", "csp" },
		{ "snoop 5", "snoop", "tcph" },
		{ "filter funclist f fend", "funclist", "p" },
		{ "filter noints", "noints", "" },
		{ "filter onlyints", "onlyints", "" },
		{ "filter errors", "errors", "csp" },
		{ "trigger start entry f", "trigger", "" },
		{ "trigger stop time 5", "trigger", "" },
		{ "autorepeat", "autorepeat", "" },
	};
	static const struct {
		char letter;
		const char *mode;
		enum kft_parse_err err;
	} modes[] = {
		{ 't', "trace", KFT_ERR_NOT_IN_TRACE_MODE },
		{ 'c', "count", KFT_ERR_NOT_IN_COUNT_MODE },
		{ 's', "stacks", KFT_ERR_NOT_IN_STACKS_MODE },
		{ 'p', "profile", KFT_ERR_NOT_IN_PROFILE_MODE },
		{ 'h', "histogram", KFT_ERR_NOT_IN_HISTOGRAM_MODE },
	};
	size_t i, m, order;

	for (i = 0; i < sizeof(stmts) / sizeof(stmts[0]); i++) {
		for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			bool bad = strchr(stmts[i].not_in, modes[m].letter);
			/* Stacks mode needs a funclist: one after both, unless tested. */
			const char *tail = modes[m].letter == 's' &&
					   strcmp(stmts[i].word, "funclist") ? "filter funclist g fend\n" : "";

			for (order = 0; order < 2; order++) {
				struct kft_func_ref *funcs;
				struct kft_parse_error err;
				struct kft_config cfg;
				enum kft_command cmd;
				char text[160], *buf;
				int ret;

				/* Line 2 holds one, line 3 the other: the later is 3:1 either way. */
				if (order)
					snprintf(text, sizeof(text), "new begin\n%s\nmode %s\n%send",
						 stmts[i].text, modes[m].mode, tail);
				else
					snprintf(text, sizeof(text), "new begin\nmode %s\n%s\n%send",
						 modes[m].mode, stmts[i].text, tail);
				ret = parse(text, &cmd, &cfg, &funcs, &err, &buf);
				if (bad)
					CHECK(ret == -1 && err.code == modes[m].err && err.pos.line == 3 &&
					      err.pos.col == 1 && !strcmp(err.token, stmts[i].word),
					      "\"%s\": expected 3:1 %s '%s', got %u:%u %s '%s'", text,
					      kft_parse_strerror(modes[m].err), stmts[i].word,
					      err.pos.line, err.pos.col,
					      ret ? kft_parse_strerror(err.code) : "success", err.token);
				else
					CHECK(ret == 0, "\"%s\": %u:%u %s", text, err.pos.line,
					      err.pos.col, kft_parse_strerror(err.code));
				free(buf);
				free(funcs);
			}
		}
	}
}

/* Without "mode" a block is a trace: the error is at the statement. */
static void test_default_trace_meaning(void)
{
	static const char *const texts[] = {
		"sample 5", "include idle", "per-process", "snoop 5",
	};
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct kft_func_ref *funcs;
		struct kft_parse_error err;
		struct kft_config cfg;
		enum kft_command cmd;
		char text[80], *buf;

		snprintf(text, sizeof(text), "new begin\nautorepeat\n%s\nend", texts[i]);
		CHECK(parse(text, &cmd, &cfg, &funcs, &err, &buf) == -1 &&
		      err.code == KFT_ERR_NOT_IN_TRACE_MODE && err.pos.line == 3 &&
		      err.pos.col == 1, "\"%s\": got %u:%u %s", text, err.pos.line, err.pos.col,
		      kft_parse_strerror(err.code));
		free(buf);
		free(funcs);
	}
}

static void test_time_triggers(void)
{
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf;

	parse("new begin trigger start time 5000000 trigger stop time 5000 end",
	      &cmd, &cfg, &funcs, &err, &buf);
	CHECK(cfg.start.kind == KFT_TRIGGER_TIME && cfg.start.time_us == 5000000,
	      "start time %llu", cfg.start.time_us);
	CHECK(cfg.stop.kind == KFT_TRIGGER_TIME && cfg.stop.time_us == 5000,
	      "stop time %llu", cfg.stop.time_us);
	free(buf);
	free(funcs);
}

static void test_oversized(void)
{
	size_t len = KFT_CONFIG_MAX_BYTES + 1;
	char *text = malloc(len + 1);
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf;

	memset(text, ' ', len);
	text[len] = '\0';
	memcpy(text, "new begin", 9);
	CHECK(parse(text, &cmd, &cfg, &funcs, &err, &buf) == -1 &&
	      err.code == KFT_ERR_TOO_LONG, "oversized input: %s",
	      kft_parse_strerror(err.code));
	free(buf);
	free(funcs);
	free(text);
}

static void test_largest_funclist(void)
{
	/* 64 KiB of one-letter functions: the caller's array must suffice. */
	size_t len = KFT_CONFIG_MAX_BYTES, i;
	char *text = malloc(len + 1);
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf;

	memcpy(text, "new begin filter funclist ", 26);
	for (i = 26; i < len - 9; i += 2)
		memcpy(text + i, "a ", 2);
	memcpy(text + i, "fend end", 8);
	text[i + 8] = '\0';
	CHECK(parse(text, &cmd, &cfg, &funcs, &err, &buf) == 0, "parse: %u:%u %s",
	      err.pos.line, err.pos.col, kft_parse_strerror(err.code));
	CHECK(cfg.nr_funcs == (i - 26) / 2, "%u functions, expected %zu",
	      cfg.nr_funcs, (i - 26) / 2);
	free(buf);
	free(funcs);
	free(text);
}

static void test_error_token(void)
{
	static const struct {
		const char *text, *token, *what;
	} cases[] = {
		{ "new begin trigg start end", "trigg", "the offending word" },
		/* A limit known only at the end names the number all the same. */
		{ "new begin logentries 2000000 mode stacks end", "2000000",
		  "logentries over the stack table's limit" },
		{ "new begin mode profile filter funclist f fend end", "funclist",
		  "a filter named by its kind" },
		{ "new begin watch worst-stak 5 end", "worst-stak", "the watch kind" },
		/* A string's unknown escape names the escape, as far as it is printable. */
		{ "new begin filter arg 1 string == \"a\\qb\" end", "\\qb", "an unknown escape" },
		{ "new begin filter arg 1 string == \"a\\\x01\" end", "\\",
		  "an escape of a control byte" },
	};
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	size_t i;
	char *buf;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse(cases[i].text, &cmd, &cfg, &funcs, &err, &buf);
		CHECK_STR(err.token, cases[i].token, cases[i].what);
		free(buf);
		free(funcs);
	}
}

/* Whether the next write could change the verdict on unterminated text. */
static void test_may_continue(void)
{
	static const struct { const char *text; bool may; } cases[] = {
		{ "new begin filter noin", true },	/* "noints" split */
		{ "pri", true },			/* "prime" split */
		{ "new begin filter mintime 5", true },	/* incomplete */
		{ "new begin trig start entry f end", false },
		{ "new begin filter noin end", false },
		{ "new begin end x", false },		/* any word after end is wrong */
		{ "prime now", false },
		{ "new begin watch worst-sta", true },	/* "worst-stack" split */
		{ "new begin mode profile include idl", true },
		{ "new begin per-proc", true },
		{ "new begin watch stac 5", false },
		/* A string: unterminated, or its error in the last word. */
		{ "new begin filter arg 1 string == \"a b", true },
		{ "new begin filter arg 1 string == \"a\\q\"", true },
		{ "new begin filter arg 1 string == \"a\"x", true },
		{ "new begin filter arg 1 string == \"a\\q\" ", false },
		{ "new begin filter arg 1 string == \"a\nb\"", false },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kft_func_ref *funcs;
		struct kft_parse_error err;
		struct kft_config cfg;
		enum kft_command cmd;
		char *buf;

		CHECK(parse(cases[i].text, &cmd, &cfg, &funcs, &err, &buf) == -1,
		      "\"%s\" parsed", cases[i].text);
		CHECK(kft_parse_may_continue(&err) == cases[i].may,
		      "\"%s\": may continue %d, expected %d", cases[i].text,
		      kft_parse_may_continue(&err), cases[i].may);
		free(buf);
		free(funcs);
	}
}

/* The verdict for text[0..len): 1 applies, 0 waits (as the module's writer). */
static int verdict(const char *text, size_t len)
{
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf = malloc(len + 1);
	int ret;

	memcpy(buf, text, len);
	buf[len] = '\0';
	funcs = calloc(kft_config_max_funcs(len), sizeof(*funcs));
	ret = kft_config_parse(buf, len, &cmd, &cfg, funcs, kft_config_max_funcs(len), &err);
	if (ret) {
		bool line_done = len && text[len - 1] == '\n';

		ret = line_done ? !kft_parse_incomplete(&err) : !kft_parse_may_continue(&err);
		ret = ret ? -1 : 0;
	} else {
		ret = 1;
	}
	free(buf);
	free(funcs);
	return ret;
}

/*
 * Byte by byte, skipping the parses kft_config_must_reparse() says cannot
 * change a "wait": the first byte at which the text applies or fails is
 * the one a parse after every byte finds.
 */
static void test_reparse_skips_nothing_that_matters(void)
{
	static const char *const texts[] = {
		"prime", "prime\n", "primex", "stop now", "new begin end",
		"new\nbegin\n filter funclist abc_def ghi fend\n logentries 77\nend\n",
		"new begin filter noints filter noints end",
		"new begin trigger start entry f\x01g end",
		"begin # a comment with end in it\nend", "new begin ends end",
		"new begin filter funclist a fend endx",
		"new begin trigger start time 1 trigger start time 2 end",
		"new begin filter funclist a\nfend filter funclist b fend end",
		"new begin logentries 99999999999 end", "new begin filter mintime 5x end",
		"prime\tstart", "new begin mode count mode count end",
		"new begin filter mintime 5 mode count end", "new begin mode coun end",
		"new begin filter pid 5 filter pid 6 end", "new begin filter tid 5 filter tid 6 end",
		"new begin filter cpu 5 filter cpu 6 end", "new begin filter comm a filter comm b end",
		"new begin watch stack 5 watch worst-stack 6 end",
		"new begin watch worst-stack 5 watch stack 6 end",
		"new begin mode profile include idle include idle end",
		"new begin mode stacks per-process per-process end",
		"new begin mode profile sample 5 sample 6 end", "new begin snoop 1 snoop 2 end",
		"new begin mode stacks mode profile end", "new begin mode profile end",
		"new begin watch stak 5 end", "new begin include idl end",
		"new begin filter arg 1 string == \"a b\" end",
		"new begin filter arg 1 string == \"a\\q\" end",
		"new begin filter arg 1 string == \"a\\\"b end\" end",
		"new begin filter arg 1 string == \"a\"x end", "new begin filter arg 1 string == ab end",
		"new begin filter arg 1 string == \"a\nb\" end",
		"new begin filter arg 1 ustring ~ \"" S62 "x\" end",
		"new begin filter arg 1 string == \"end\" end",
		"new begin offcpu offcpu end", "new begin filter roots f fend wakers wakers end",
		"new begin filter mintime 5 filter oncpu filter oncpu end",
		"new begin filter roots f fend filter roots g fend end",
		"new begin filter roots f fend holdentries 5 holdentries 6 end",
		"new begin filter roots f fend holdtasks 5 holdtasks 6 end",
	};
	size_t t, len, word_start = 0;

	for (t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
		const char *s = texts[t];
		size_t n = strlen(s), oracle = 0, fast = 0;

		for (len = 1; len <= n && !oracle; len++)
			if (verdict(s, len))
				oracle = len;
		for (len = 1; len <= n && !fast; len++)
			if (kft_config_must_reparse(s, len, 1, &word_start) && verdict(s, len))
				fast = len;
		CHECK(fast == oracle, "\"%s\": decided at byte %zu, a parse per byte at %zu",
		      s, fast, oracle);
	}
}

/* What is left of a file after a text that took effect: dropped when blank. */
static void test_blank(void)
{
	static const struct { const char *s; size_t len; bool blank; } cases[] = {
		{ "", 0, true }, { " \t\n\r", 4, true }, { "# done", 6, true },
		{ "\n# a\n  # b\n\t", 12, true }, { "x", 1, false }, { " # c\nx", 6, false },
		{ "# c\0d", 5, true }, { "\0", 1, false }, { "  prime\n", 8, false },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(kft_config_blank(cases[i].s, cases[i].len) == cases[i].blank,
		      "case %zu: blank %d", i, !cases[i].blank);
}

static void test_every_error_has_a_message(void)
{
	int code;

	for (code = 0; code < KFT_ERR_COUNT; code++)
		CHECK(strcmp(kft_parse_strerror(code), "unknown error") != 0,
		      "code %d has no message", code);
	CHECK_STR(kft_parse_strerror(KFT_ERR_COUNT), "unknown error", "past the table");
}

/*
 * Which runs register kprobes (the boot's run may not where kprobes come
 * after its early initcall): safe hooks without fprobe are kretprobes,
 * for a trace's or a histogram's calls, exit triggers and a watch; entry
 * triggers are kprobes beside them where the architecture says so.
 */
static void test_needs_kprobes(void)
{
	static const struct {
		const char *text;
		enum kft_hooks hooks;
		bool fprobe, entry_kprobes, want;
	} cases[] = {
		{ "new begin end", KFT_HOOKS_SAFE, false, false, true },
		{ "new begin end", KFT_HOOKS_SAFE, true, false, false },
		{ "new begin end", KFT_HOOKS_FAST, false, true, false },
		{ "new begin filter funclist f g fend end", KFT_HOOKS_SAFE, false, false, true },
		{ "new begin mode histogram end", KFT_HOOKS_SAFE, false, false, true },
		{ "new begin mode count end", KFT_HOOKS_SAFE, false, true, false },
		{ "new begin mode count trigger stop exit f end", KFT_HOOKS_SAFE, false, false, true },
		{ "new begin mode count trigger stop exit f end", KFT_HOOKS_FAST, false, false, false },
		{ "new begin mode count trigger start entry f end", KFT_HOOKS_SAFE, false, true, true },
		{ "new begin mode count trigger start entry f end", KFT_HOOKS_SAFE, false, false, false },
		{ "new begin mode count trigger stop entry f end", KFT_HOOKS_SAFE, true, true, false },
		{ "new begin mode profile trigger stop time 5 end", KFT_HOOKS_SAFE, false, true, false },
		{ "new begin mode stacks filter funclist f fend end", KFT_HOOKS_SAFE, false, false, false },
		{ "new begin watch stack 5 end", KFT_HOOKS_SAFE, false, false, true },
	};
	struct kft_func_ref *funcs;
	struct kft_config cfg;
	size_t i;
	char *buf;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse_ok(cases[i].text, &cfg, &funcs, &buf);
		CHECK(kft_config_needs_kprobes(&cfg, cases[i].hooks, cases[i].fprobe,
					       cases[i].entry_kprobes) == cases[i].want,
		      "\"%s\", hooks %s%s%s: kprobes %s", cases[i].text,
		      cases[i].hooks == KFT_HOOKS_FAST ? "fast" : "safe",
		      cases[i].fprobe ? ", fprobe" : "",
		      cases[i].entry_kprobes ? ", entry kprobes" : "",
		      cases[i].want ? "expected" : "not expected");
		free(buf);
		free(funcs);
	}
}

UNIT_MAIN(test_table, test_override_error, test_commands, test_args_field, test_argf_fields,
	  test_full_config_fields, test_roots_fields, test_defaults, test_argf_string_fields,
	  test_argf_string_round_trip,
	  test_mode_defaults, test_stack_fields, test_mode_meaning, test_default_trace_meaning,
	  test_time_triggers, test_oversized, test_largest_funclist, test_error_token,
	  test_blank, test_every_error_has_a_message, test_may_continue,
	  test_reparse_skips_nothing_that_matters, test_needs_kprobes)
