// SPDX-License-Identifier: GPL-2.0
/*
 * kft: the command. Options parsed into kft_params without side effects
 * (unit-tested), then the subcommand runs. Usage texts: usage.c.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "errname.h"
#include "kft.h"
#include "opterr.h"

/*
 * The fewest seconds an interval or a duration may have, a millisecond: a
 * summary takes longer than that to read. An interval far less (1e-300)
 * adds nothing to the clock, and the loop of summaries would never end.
 */
#define KFT_SECONDS_MIN		0.001

/*
 * Seconds, the argument of @what (an option, or a subcommand for its
 * operand): a finite number from KFT_SECONDS_MIN to a year. 0, or -1
 * with err.
 */
static int kft_seconds(const char *what, const char *s, double *v, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	/* (ERANGE with a finite value is an underflow: a number below the least.) */
	if (end == s || *end || !isfinite(*v) || *v > 366 * 86400.0 ||
	    (*v <= 0 && errno != ERANGE)) {
		snprintf(err, errlen, "%s: not a number of seconds '%s'", what, s);
		return -1;
	}
	if (*v >= KFT_SECONDS_MIN)
		return 0;
	snprintf(err, errlen, "%s: less than %g seconds, the least kft takes: '%s'", what,
		 KFT_SECONDS_MIN, s);
	return -1;
}

/*
 * funccount -A: the most registers of arguments of any architecture
 * (riscv64's); the module refuses those this machine has not.
 */
#define KFT_MAX_ARGS	8

/* A whole decimal number in [min, max]: 0, or -1. */
static int kft_number(const char *s, long min, long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || end == s || *end || *v < min || *v > max ? -1 : 0;
}

/*
 * -i, or -d (stackcount's -D): seconds into p's interval, or its duration
 * (its text too); 0, or -1 with err.
 */
static int kft_opt_seconds(struct kft_params *p, int opt, char *err, size_t errlen)
{
	char what[3] = { '-', (char)opt, '\0' };

	if (kft_seconds(what, optarg, opt == 'i' ? &p->interval : &p->duration, err, errlen))
		return -1;
	if (opt != 'i')
		p->duration_arg = optarg;
	return 0;
}

/* -p: a process id; 0, or -1 with err. */
static int kft_opt_pid(struct kft_params *p, char *err, size_t errlen)
{
	if (!kft_number(optarg, 1, KFT_MAX_PID, &p->pid))
		return 0;
	snprintf(err, errlen, "-p: not a process id (1..%d): '%s'", KFT_MAX_PID, optarg);
	return -1;
}

/*
 * A subcommand's options (opts, longs; each but -h given to opt_fn) and
 * its operands (at least one, named what): 0, or -1 with err.
 */
static int kft_parse_opts(int argc, char **argv, struct kft_params *p, const char *opts,
			  const struct option *longs,
			  int (*opt_fn)(struct kft_params *p, int opt, char *err, size_t errlen),
			  const char *what, char *err, size_t errlen)
{
	const char *name = kft_subcmd_name(p->sub);
	int opt, at;

	while ((opt = opterr_next(argc, argv, opts, longs, &at)) != -1) {
		if (opt == 'h') {
			p->help = 1;
			return 0;
		}
		if (opt == '?' || opt == ':')
			return opterr_message(name, longs, opt, argv[at], err, errlen);
		if (opt_fn(p, opt, err, errlen))
			return -1;
	}
	if (optind == argc) {
		snprintf(err, errlen, "%s: no %s", name, what);
		return -1;
	}
	if (opterr_operands(name, argc, argv, what, err, errlen))
		return -1;
	p->patterns = argv + optind;
	p->nr_patterns = argc - optind;
	return 0;
}

/* The long options that have no short one. */
enum {
	KFT_OPT_DEBUG = 256,
	KFT_OPT_STACK_STORAGE,
	KFT_OPT_HASH_STORAGE,
	KFT_OPT_CGROUPMAP,
	KFT_OPT_MNTNSMAP,
	KFT_OPT_FAST,
	KFT_OPT_OFFCPU,
	KFT_OPT_TYPES,
	KFT_OPT_STRING,
	KFT_OPT_USTRING,
	KFT_OPT_STRUCT,
};

/* -A N (funccount, funclatency): the module says which registers this machine has. */
static int kft_opt_per_arg(struct kft_params *p, char *err, size_t errlen)
{
	if (!kft_number(optarg, 1, KFT_MAX_ARGS, &p->per_arg))
		return 0;
	snprintf(err, errlen, "-A: not an argument (1..%d) '%s'", KFT_MAX_ARGS, optarg);
	return -1;
}

/*
 * --types, --btf, --dwarf, --proto (funccount, funclatency): 1 when @opt
 * is none of them, else 0, or -1 with why in @err.
 */
static int kft_opt_arg_types(struct kft_params *p, int opt, char *err, size_t errlen)
{
	switch (opt) {
	case KFT_OPT_TYPES:
		p->types.wanted = true;
		return 0;
	case 'B': case 'E': case 'O':
		return typedlog_files__option(&p->types, opt, optarg, err, errlen) ? -1 : 0;
	}
	return 1;
}

/* The types of funccount's or funclatency's -A: without -A, nothing to type. */
static int kft_arg_types_need_per_arg(const struct kft_params *p, char *err, size_t errlen)
{
	if (!p->types.wanted || p->per_arg || p->help)
		return 0;
	snprintf(err, errlen, "%s: --types, --btf, --dwarf and --proto type the argument -A "
		 "%s by: add -A", kft_subcmd_name(p->sub),
		 p->sub == KFT_SUB_FUNCCOUNT ? "counts" : "buckets");
	return -1;
}

static int kft_parse_funccount(int argc, char **argv, struct kft_params *p,
			       char *err, size_t errlen)
{
	static const struct option longs[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "module", no_argument, NULL, 'M' },
		{ "per-arg", required_argument, NULL, 'A' },
		{ "types", no_argument, NULL, KFT_OPT_TYPES },
		TYPEDLOG_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	int opt, at;

	while ((opt = opterr_next(argc, argv, "+:A:d:hi:Mt:T", longs, &at)) != -1) {
		switch (kft_opt_arg_types(p, opt, err, errlen)) {
		case 0:
			continue;
		case -1:
			return -1;
		}
		switch (opt) {
		case 'A':
			if (kft_opt_per_arg(p, err, errlen))
				return -1;
			break;
		case 'd':
		case 'i':
			if (kft_opt_seconds(p, opt, err, errlen))
				return -1;
			break;
		case 't':
			if (kft_number(optarg, 1, LONG_MAX, &p->top)) {
				snprintf(err, errlen, "-t: not a positive number '%s'", optarg);
				return -1;
			}
			break;
		case 'T':
			p->timestamps = 1;
			break;
		case 'M':
			p->module = 1;
			break;
		case 'h':
			p->help = 1;
			return 0;
		default:
			return opterr_message("funccount", longs, opt, argv[at], err, errlen);
		}
	}
	if (kft_arg_types_need_per_arg(p, err, errlen))
		return -1;
	if (optind == argc) {
		snprintf(err, errlen, "funccount: no PATTERN");
		return -1;
	}
	if (opterr_operands("funccount", argc, argv, "PATTERN", err, errlen))
		return -1;
	p->patterns = argv + optind;
	p->nr_patterns = argc - optind;
	return 0;
}

static int kft_parse_trace(int argc, char **argv, struct kft_params *p,
			   char *err, size_t errlen)
{
	static const struct option longs[] = {
		{ "help", no_argument, NULL, 'h' },
		TYPEDLOG_LONG_OPTIONS,
		SRCLINE_LONG_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	int opt, at;

	while ((opt = opterr_next(argc, argv, "+:o:haT", longs, &at)) != -1) {
		switch (opt) {
		case 'o':
			p->output = optarg;
			break;
		case 'a':
			p->args = 1;
			break;
		case 'T':
			p->types.wanted = true;
			break;
		case 'B': case 'E': case 'O':
			if (typedlog_files__option(&p->types, opt, optarg, err, errlen))
				return -1;
			break;
		case SRCLINE_OPT:
			if (srcline_files__add(&p->srcline, "kft", optarg, err, errlen))
				return -1;
			break;
		case 'h':
			p->help = 1;
			return 0;
		default:
			return opterr_message("trace", longs, opt, argv[at], err, errlen);
		}
	}
	if (opterr_operands("trace", argc, argv, "CONFIG", err, errlen))
		return -1;
	/* The saved log is for kd, which takes --srcline itself. */
	if (p->srcline.nr && !p->types.wanted) {
		snprintf(err, errlen, "trace: --srcline ends each line of -T's listing of the "
			 "calls: add -T (a saved log takes kd -c --srcline)");
		return -1;
	}
	if (argc - optind != 1) {
		snprintf(err, errlen, "trace: %s", optind == argc ? "no CONFIG (a file, or -)" :
			 "more than one CONFIG");
		return -1;
	}
	p->config = argv[optind];
	return 0;
}

/* -e: an error by name (ENOENT) or number (2, -2): 0, or -1. */
static int kft_errnum(const char *s, long long *v)
{
	long n;
	long long e;
	const char *name;

	if (!kft_number(s, -KFT_MAX_ERRNO, KFT_MAX_ERRNO, &n) && n) {
		*v = n < 0 ? n : -n;
		return 0;
	}
	for (e = -1; e >= -KFT_MAX_ERRNO; e--) {
		name = errname(e);
		if (name && !strcmp(name, s)) {
			*v = e;
			return 0;
		}
	}
	return -1;
}

/* -c: a task's name as the kernel keeps it, one word of the language. */
static int kft_comm_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n > (KFT_COMM_LEN - 1) || !strcmp(s, "end"))
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] >= 0x7f || s[i] == '#')
			return 0;
	return 1;
}

static int kft_errtrace_opt(struct kft_params *p, int opt, char *err, size_t errlen)
{
	switch (opt) {
	case 'd':
		return kft_opt_seconds(p, opt, err, errlen);
	case 'e':
		if (!kft_errnum(optarg, &p->errnum))
			return 0;
		snprintf(err, errlen, "-e: not an error number (1..%d) or name (ENOENT): '%s'",
			 KFT_MAX_ERRNO, optarg);
		return -1;
	case 'p':
		return kft_opt_pid(p, err, errlen);
	case 'c':
		if (kft_comm_ok(optarg)) {
			p->comm = optarg;
			return 0;
		}
		snprintf(err, errlen, "-c: not a task's name (1 to %d bytes, no blank or '#', "
			 "not 'end'): '%s'", (KFT_COMM_LEN - 1), optarg);
		return -1;
	case 'n':
		if (!kft_number(optarg, 1, (long)KFT_MAX_LOGENTRIES, &p->entries))
			return 0;
		snprintf(err, errlen, "-n: not a number of calls (1..%lu): '%s'",
			 KFT_MAX_LOGENTRIES, optarg);
		return -1;
	case KFT_OPT_FAST:
		p->fast = 1;
		return 0;
	}
	return -1;
}

/* The types are those of the arguments: without -a the log has none. */
static int kft_types_need_args(const char *cmd, const struct kft_params *p, char *err,
			       size_t errlen)
{
	if (!p->types.wanted || p->args || p->help)
		return 0;
	snprintf(err, errlen, "%s: -T, --btf, --dwarf and --proto type the arguments -a "
		 "keeps: add -a", cmd);
	return -1;
}

/*
 * -a, -T and the types' files, the commands that print calls with their
 * arguments: 0, -1 with err, or 1 when @opt is none of them.
 */
static int kft_call_args_opt(struct kft_params *p, int opt, char *err, size_t errlen)
{
	switch (opt) {
	case 'a':
		p->args = 1;
		return 0;
	case 'T':
		p->types.wanted = true;
		return 0;
	case 'B': case 'E': case 'O':
		return typedlog_files__option(&p->types, opt, optarg, err, errlen);
	}
	return 1;
}

/*
 * --string N, --ustring N, --struct N:LEN (errtrace, slowtrace): the run copies what
 * argument N points to, as args string (ustring, struct) does, and so
 * keeps the registers too (-a). One of them: 0, or -1 with err.
 */
static int kft_opt_str(struct kft_params *p, int opt, char *err, size_t errlen)
{
	const char *name = opt == KFT_OPT_STRUCT ? "--struct" :
			   opt == KFT_OPT_USTRING ? "--ustring" : "--string";
	char n[16], *colon = strchr(optarg, ':');
	size_t len = colon ? (size_t)(colon - optarg) : strlen(optarg);

	if (p->str_arg) {
		snprintf(err, errlen, "%s: one of --string, --ustring and --struct", name);
		return -1;
	}
	if (len >= sizeof(n) || (opt == KFT_OPT_STRUCT) != !!colon)
		len = 0;
	memcpy(n, optarg, len);
	n[len] = '\0';
	if (!len || kft_number(n, 1, KFT_MAX_ARGS, &p->str_arg) ||
	    (colon && kft_number(colon + 1, 1, KFT_STRUCT_LEN_MAX, &p->mem_len))) {
		if (opt == KFT_OPT_STRUCT)
			snprintf(err, errlen, "--struct: not N:LEN, an argument (1..%d) and a "
				 "length (1..%d): '%s'", KFT_MAX_ARGS, KFT_STRUCT_LEN_MAX, optarg);
		else
			snprintf(err, errlen, "%s: not an argument (1..%d): '%s'", name,
				 KFT_MAX_ARGS, optarg);
		p->str_arg = 0;
		p->mem_len = 0;
		return -1;
	}
	p->str_user = opt == KFT_OPT_USTRING;
	p->args = 1;
	return 0;
}

/*
 * errtrace's own options (-a, -T and the types' files, --srcline); the
 * rest as record's.
 */
static int kft_errtrace_own_opt(struct kft_params *p, int opt, char *err, size_t errlen)
{
	int ret = kft_call_args_opt(p, opt, err, errlen);

	if (ret <= 0)
		return ret;
	switch (opt) {
	case SRCLINE_OPT:
		return srcline_files__add(&p->srcline, "kft", optarg, err, errlen);
	case KFT_OPT_STRING:
	case KFT_OPT_USTRING:
	case KFT_OPT_STRUCT:
		return kft_opt_str(p, opt, err, errlen);
	}
	return kft_errtrace_opt(p, opt, err, errlen);
}

static int kft_parse_errtrace(int argc, char **argv, struct kft_params *p,
			      char *err, size_t errlen)
{
	static const struct option longs[] = {
		{ "fast", no_argument, NULL, KFT_OPT_FAST },
		{ "help", no_argument, NULL, 'h' },
		{ "string", required_argument, NULL, KFT_OPT_STRING },
		{ "ustring", required_argument, NULL, KFT_OPT_USTRING },
		{ "struct", required_argument, NULL, KFT_OPT_STRUCT },
		TYPEDLOG_LONG_OPTIONS,
		SRCLINE_LONG_OPTION,
		{ NULL, 0, NULL, 0 },
	};

	p->entries = KFT_ERRTRACE_ENTRIES;
	if (kft_parse_opts(argc, argv, p, "+:ac:d:e:hn:p:T", longs, kft_errtrace_own_opt,
			   "FUNCTION", err, errlen))
		return -1;
	return kft_types_need_args("errtrace", p, err, errlen);
}

/* record's own options; -d, -p, -c, --fast as errtrace's. */
static int kft_record_opt(struct kft_params *p, int opt, char *err, size_t errlen)
{
	switch (opt) {
	case 'a':
		p->args = 1;
		return 0;
	case KFT_OPT_OFFCPU:
		p->offcpu = 1;
		return 0;
	case KFT_OPT_STRING:
	case KFT_OPT_USTRING:
	case KFT_OPT_STRUCT:
		return kft_opt_str(p, opt, err, errlen);
	case 'o':
		if (*optarg) {
			p->output = optarg;
			return 0;
		}
		snprintf(err, errlen, "-o: an empty FILE");
		return -1;
	case 'e':
		if (!kft_number(optarg, 1, (long)KFT_MAX_LOGENTRIES, &p->entries))
			return 0;
		snprintf(err, errlen, "-e: not a number of calls a CPU (1..%lu): '%s'",
			 KFT_MAX_LOGENTRIES, optarg);
		return -1;
	}
	return kft_errtrace_opt(p, opt, err, errlen);
}

/* record -o FILE [options] [FUNCTION...]: no FUNCTION, every function. */
static int kft_parse_record(int argc, char **argv, struct kft_params *p,
			    char *err, size_t errlen)
{
	static const struct option longs[] = {
		{ "comm", required_argument, NULL, 'c' },
		{ "duration", required_argument, NULL, 'd' },
		{ "entries", required_argument, NULL, 'e' },
		{ "fast", no_argument, NULL, KFT_OPT_FAST },
		{ "help", no_argument, NULL, 'h' },
		{ "offcpu", no_argument, NULL, KFT_OPT_OFFCPU },
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "string", required_argument, NULL, KFT_OPT_STRING },
		{ "ustring", required_argument, NULL, KFT_OPT_USTRING },
		{ "struct", required_argument, NULL, KFT_OPT_STRUCT },
		{ NULL, 0, NULL, 0 },
	};
	int opt, at;

	while ((opt = opterr_next(argc, argv, "+:ac:d:e:ho:p:", longs, &at)) != -1) {
		if (opt == 'h') {
			p->help = 1;
			return 0;
		}
		if (opt == '?' || opt == ':')
			return opterr_message("record", longs, opt, argv[at], err, errlen);
		if (kft_record_opt(p, opt, err, errlen))
			return -1;
	}
	if (opterr_operands("record", argc, argv, "FUNCTION", err, errlen))
		return -1;
	if (!p->output) {
		snprintf(err, errlen, "record: no -o FILE");
		return -1;
	}
	p->patterns = argv + optind;
	p->nr_patterns = argc - optind;
	return 0;
}

/*
 * -L: microseconds, or a number with its unit (us, ms, s), at most
 * the language's longest time: 0, or -1.
 */
static int kft_min_time(const char *s, long long *us)
{
	static const struct {
		const char *unit;
		long long us;
	} units[] = { { "", 1 }, { "us", 1 }, { "ms", 1000 }, { "s", 1000000 } };
	char *end;
	long long v;
	size_t i;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		if (errno || v > (long long)KFT_MAX_TIME_US / units[i].us)
			return -1;
		*us = v * units[i].us;
		return 0;
	}
	return -1;
}

static int kft_slowtrace_opt(struct kft_params *p, int opt, char *err, size_t errlen)
{
	switch (opt) {
	case 'L':
		if (kft_min_time(optarg, &p->min_us)) {
			snprintf(err, errlen, "-L: not a time (microseconds, or with us, ms or s, "
				 "at most %llu us): '%s'", KFT_MAX_TIME_US, optarg);
			return -1;
		}
		/* 0 would pick every root call; and min_us 0 is "no -L" to the rest. */
		if (!p->min_us) {
			snprintf(err, errlen, "-L: not a time more than 0 (every root call takes "
				 "0 or more): '%s'", optarg);
			return -1;
		}
		p->min_arg = optarg;
		return 0;
	case 'e':
		p->errors = 1;
		return 0;
	case 'a':
	case 'T':
	case 'B': case 'E': case 'O':
	case SRCLINE_OPT:
		return kft_errtrace_own_opt(p, opt, err, errlen);
	case KFT_OPT_STRING:
	case KFT_OPT_USTRING:
	case KFT_OPT_STRUCT:
		return kft_opt_str(p, opt, err, errlen);
	case 'n':
		if (!kft_number(optarg, 1, LONG_MAX, &p->max_shown))
			return 0;
		snprintf(err, errlen, "-n: not a positive number of calls: '%s'", optarg);
		return -1;
	case 'H':
		if (!kft_number(optarg, 2, (long)KFT_MAX_HOLDENTRIES, &p->hold))
			return 0;
		snprintf(err, errlen, "-H: not a number of calls (2..%lu): '%s'",
			 KFT_MAX_HOLDENTRIES, optarg);
		return -1;
	}
	/* -d, -p, -c, --fast: as errtrace's. */
	return kft_errtrace_opt(p, opt, err, errlen);
}

static int kft_parse_slowtrace(int argc, char **argv, struct kft_params *p,
			       char *err, size_t errlen)
{
	static const struct option longs[] = {
		{ "fast", no_argument, NULL, KFT_OPT_FAST },
		{ "help", no_argument, NULL, 'h' },
		{ "string", required_argument, NULL, KFT_OPT_STRING },
		{ "ustring", required_argument, NULL, KFT_OPT_USTRING },
		{ "struct", required_argument, NULL, KFT_OPT_STRUCT },
		TYPEDLOG_LONG_OPTIONS,
		SRCLINE_LONG_OPTION,
		{ NULL, 0, NULL, 0 },
	};

	if (kft_parse_opts(argc, argv, p, "+:ac:d:eH:hL:n:p:T", longs, kft_slowtrace_opt,
			   "ROOT", err, errlen))
		return -1;
	if (!p->help && !p->min_us && !p->errors) {
		snprintf(err, errlen, "slowtrace: which root calls: -L MIN (the slow ones), -e "
			 "(the failing ones), or both");
		return -1;
	}
	return kft_types_need_args("slowtrace", p, err, errlen);
}

/* funclatency: bcc's options (not -r, -v: unknown options), and -A. */
static int kft_funclatency_opt(struct kft_params *p, int opt, char *err, size_t errlen)
{
	int ret = kft_opt_arg_types(p, opt, err, errlen);

	if (ret <= 0)
		return ret;
	switch (opt) {
	case 'A':
		return kft_opt_per_arg(p, err, errlen);
	case 'd':
	case 'i':
		return kft_opt_seconds(p, opt, err, errlen);
	case 'p':
		return kft_opt_pid(p, err, errlen);
	case 'u':
	case 'm':
		if (p->units && p->units != (opt == 'u' ? 1 : 2)) {
			snprintf(err, errlen, "funclatency: -u and -m exclude each other");
			return -1;
		}
		p->units = opt == 'u' ? 1 : 2;
		return 0;
	case 'F':
		p->per_function = 1;
		return 0;
	case 'T':
		p->timestamps = 1;
		return 0;
	case 'M':
		p->module = 1;
		return 0;
	}
	return -1;
}

static int kft_parse_funclatency(int argc, char **argv, struct kft_params *p,
				 char *err, size_t errlen)
{
	static const struct option longs[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "function", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "interval", required_argument, NULL, 'i' },
		{ "microseconds", no_argument, NULL, 'u' },
		{ "milliseconds", no_argument, NULL, 'm' },
		{ "module", no_argument, NULL, 'M' },
		{ "per-arg", required_argument, NULL, 'A' },
		{ "pid", required_argument, NULL, 'p' },
		{ "timestamp", no_argument, NULL, 'T' },
		{ "types", no_argument, NULL, KFT_OPT_TYPES },
		TYPEDLOG_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};

	if (kft_parse_opts(argc, argv, p, "+:A:d:Fhi:mMp:Tu", longs, kft_funclatency_opt,
			   "PATTERN", err, errlen))
		return -1;
	return kft_arg_types_need_per_arg(p, err, errlen);
}

static const struct option kft_longs_stackcount[] = {
	{ "cpu", required_argument, NULL, 'c' },
	{ "delimited", no_argument, NULL, 'd' },
	{ "duration", required_argument, NULL, 'D' },
	{ "folded", no_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "interval", required_argument, NULL, 'i' },
	{ "kernel-stacks-only", no_argument, NULL, 'K' },
	{ "module", no_argument, NULL, 'M' },
	{ "pid", required_argument, NULL, 'p' },
	{ "perpid", no_argument, NULL, 'P' },
	{ "regexp", no_argument, NULL, 'r' },
	{ "offset", no_argument, NULL, 's' },
	{ "timestamp", no_argument, NULL, 'T' },
	{ "user-stacks-only", no_argument, NULL, 'U' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "debug", no_argument, NULL, KFT_OPT_DEBUG },
	SRCLINE_LONG_OPTION,
	{ NULL, 0, NULL, 0 },
};

static const struct option kft_longs_stacksnoop[] = {
	{ "args", no_argument, NULL, 'a' },
	{ "help", no_argument, NULL, 'h' },
	{ "module", no_argument, NULL, 'M' },
	{ "pid", required_argument, NULL, 'p' },
	{ "offset", no_argument, NULL, 's' },
	{ "types", no_argument, NULL, 'T' },
	{ "verbose", no_argument, NULL, 'v' },
	TYPEDLOG_LONG_OPTIONS,
	SRCLINE_LONG_OPTION,
	{ NULL, 0, NULL, 0 },
};

static const struct option kft_longs_profile[] = {
	{ "annotations", no_argument, NULL, 'a' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "count", required_argument, NULL, 'c' },
	{ "delimited", no_argument, NULL, 'd' },
	{ "folded", no_argument, NULL, 'f' },
	{ "frequency", required_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ "include-idle", no_argument, NULL, 'I' },
	{ "kernel-stacks-only", no_argument, NULL, 'K' },
	{ "tid", required_argument, NULL, 'L' },
	{ "module", no_argument, NULL, 'M' },
	{ "pid", required_argument, NULL, 'p' },
	{ "user-stacks-only", no_argument, NULL, 'U' },
	{ "stack-storage-size", required_argument, NULL, KFT_OPT_STACK_STORAGE },
	{ "hash-storage-size", required_argument, NULL, KFT_OPT_HASH_STORAGE },
	{ "cgroupmap", required_argument, NULL, KFT_OPT_CGROUPMAP },
	{ "mntnsmap", required_argument, NULL, KFT_OPT_MNTNSMAP },
	SRCLINE_LONG_OPTION,
	{ NULL, 0, NULL, 0 },
};

/* A number option of the stacks commands: 0, or -1 with err. */
static int kft_stacks_number(int opt, const char *arg, long *v, char *err, size_t errlen)
{
	static const struct {
		int opt;
		const char *name, *what;
		long min, max;
	} nums[] = {
		{ 'p', "-p", "process id", 1, KFT_MAX_PID },
		{ 'L', "-L", "thread id", 1, KFT_MAX_PID },
		{ 'c', "-c", "CPU number", 0, KFT_MAX_CPU },
		{ 'C', "-C", "CPU number", 0, KFT_MAX_CPU },
		{ 'F', "-F", "frequency in Hertz", 1, KFT_MAX_SAMPLE_HZ },
		{ KFT_OPT_STACK_STORAGE, "--stack-storage-size", "number of stacks", 1,
		  KFT_MAX_STACKENTRIES },
	};
	size_t i;

	for (i = 0; nums[i].opt != opt; i++)
		;
	if (!kft_number(arg, nums[i].min, nums[i].max, v))
		return 0;
	if ((opt == 'p' || opt == 'L') && strchr(arg, ','))
		snprintf(err, errlen, "%s: one %s, not a list: '%s'", nums[i].name, nums[i].what,
			 arg);
	else
		snprintf(err, errlen, "%s: not a %s (%ld..%ld): '%s'", nums[i].name, nums[i].what,
			 nums[i].min, nums[i].max, arg);
	return -1;
}

/* bcc's options that kft cannot honour: -1 with the reason. */
static int kft_stacks_refuse(int opt, const char *arg, char *err, size_t errlen)
{
	if (opt == 'U')
		snprintf(err, errlen, "-U: user stacks are not supported: the kernel exports no "
			 "user-stack walker to modules (kft shows kernel stacks, as -K)");
	else if (opt == 'c')
		snprintf(err, errlen, "-c %s: sampling every COUNT events needs perf events; "
			 "kft samples by time: -F FREQUENCY", arg);
	else if (opt == KFT_OPT_HASH_STORAGE)
		snprintf(err, errlen, "--hash-storage-size: kft keeps stacks and processes in "
			 "one table: --stack-storage-size sizes it");
	else
		snprintf(err, errlen, "--%s: BPF maps are not supported: filter with -p, -L or -C",
			 opt == KFT_OPT_CGROUPMAP ? "cgroupmap" : "mntnsmap");
	return -1;
}

/* One option of stackcount, stacksnoop or profile: 0, or -1 with err. */
static int kft_stacks_opt(struct kft_params *p, int opt, char *err, size_t errlen)
{
	switch (opt) {
	case 'c':
		if (p->sub == KFT_SUB_PROFILE)
			return kft_stacks_refuse(opt, optarg, err, errlen);
		/* fall through */
	case 'C':
		return kft_stacks_number(opt, optarg, &p->cpu, err, errlen);
	case 'p':
		return kft_stacks_number(opt, optarg, &p->pid, err, errlen);
	case 'L':
		return kft_stacks_number(opt, optarg, &p->tid, err, errlen);
	case 'F':
		return kft_stacks_number(opt, optarg, &p->frequency, err, errlen);
	case KFT_OPT_STACK_STORAGE:
		return kft_stacks_number(opt, optarg, &p->stack_storage, err, errlen);
	case SRCLINE_OPT:
		return srcline_files__add(&p->srcline, "kft", optarg, err, errlen);
	case 'D':
	case 'i':
		return kft_opt_seconds(p, opt, err, errlen);
	case 'U':
	case KFT_OPT_HASH_STORAGE:
	case KFT_OPT_CGROUPMAP:
	case KFT_OPT_MNTNSMAP:
		return kft_stacks_refuse(opt, optarg, err, errlen);
	}
	/* The flags. */
	p->annotate |= opt == 'a';
	p->delimited |= opt == 'd';
	p->folded |= opt == 'f';
	p->include_idle |= opt == 'I';
	p->module |= opt == 'M';
	p->per_process |= opt == 'P';
	p->regexp |= opt == 'r';
	p->offsets |= opt == 's';
	p->timestamps |= opt == 'T';
	p->verbose |= opt == 'v';
	p->debug |= opt == KFT_OPT_DEBUG;
	return 0;
}

/*
 * stacksnoop's own options: -a, each event's registers; -T and the types'
 * files, typed. The rest as stackcount's.
 */
static int kft_snoop_opt(struct kft_params *p, int opt, char *err, size_t errlen)
{
	int ret = kft_call_args_opt(p, opt, err, errlen);

	return ret <= 0 ? ret : kft_stacks_opt(p, opt, err, errlen);
}

/* profile's operand, [duration]; its -p and -L exclude each other, as bcc's. */
static int kft_profile_operands(int n, char **args, struct kft_params *p,
				char *err, size_t errlen)
{
	if (p->pid && p->tid) {
		snprintf(err, errlen, "profile: -p and -L exclude each other");
		return -1;
	}
	if (p->srcline.nr && p->folded) {
		snprintf(err, errlen, "profile: --srcline ends each frame's line: not with -f, "
			 "whose stack is one line");
		return -1;
	}
	if (n > 1) {
		snprintf(err, errlen, "profile: unexpected '%s' after the duration", args[1]);
		return -1;
	}
	if (n && kft_seconds("profile", args[0], &p->duration, err, errlen))
		return -1;
	p->duration_arg = n ? args[0] : NULL;
	return 0;
}

/* What follows the options: PATTERN..., FUNCTION, or [duration]. */
static int kft_stacks_operands(int argc, char **argv, struct kft_params *p,
			       char *err, size_t errlen)
{
	int n = argc - optind;

	if (p->sub == KFT_SUB_PROFILE)
		return kft_profile_operands(n, argv + optind, p, err, errlen);
	p->patterns = argv + optind;
	p->nr_patterns = n;
	if (p->sub == KFT_SUB_STACKCOUNT && !n)
		snprintf(err, errlen, "stackcount: no PATTERN");
	else if (p->srcline.nr && p->folded)
		snprintf(err, errlen, "stackcount: --srcline ends each frame's line: not with "
			 "-f, whose stack is one line");
	else if (p->sub == KFT_SUB_STACKSNOOP && n != 1)
		snprintf(err, errlen, "stacksnoop: %s", n ? "one FUNCTION only" : "no FUNCTION");
	else
		return 0;
	return -1;
}

/* stackcount, stacksnoop, profile: the options of bcc's tools of those names. */
static int kft_parse_stacks(int argc, char **argv, struct kft_params *p,
			    char *err, size_t errlen)
{
	const struct option *longs = kft_longs_profile;
	const char *opts = "+:aC:c:dfF:hIKL:Mp:U";
	int opt, at;

	if (p->sub == KFT_SUB_STACKCOUNT) {
		longs = kft_longs_stackcount;
		opts = "+:c:dD:fhi:KMp:PrsTUv";
	} else if (p->sub == KFT_SUB_STACKSNOOP) {
		longs = kft_longs_stacksnoop;
		opts = "+:ahMp:sTv";
	}
	while ((opt = opterr_next(argc, argv, opts, longs, &at)) != -1) {
		if (opt == 'h') {
			p->help = 1;
			return 0;
		}
		if (opt == '?' || opt == ':')
			return opterr_message(argv[0], longs, opt, argv[at], err, errlen);
		if ((p->sub == KFT_SUB_STACKSNOOP ? kft_snoop_opt : kft_stacks_opt)(p, opt, err,
										     errlen))
			return -1;
	}
	if (p->sub == KFT_SUB_STACKSNOOP && kft_types_need_args("stacksnoop", p, err, errlen))
		return -1;
	if (opterr_operands(argv[0], argc, argv, p->sub == KFT_SUB_PROFILE ? "duration" :
			    p->sub == KFT_SUB_STACKSNOOP ? "FUNCTION" : "PATTERN", err, errlen))
		return -1;
	return kft_stacks_operands(argc, argv, p, err, errlen);
}

/* report FILE */
static int kft_parse_report(int argc, char **argv, struct kft_params *p,
			    char *err, size_t errlen)
{
	static const struct option longs[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, at;

	while ((opt = opterr_next(argc, argv, "+:h", longs, &at)) != -1) {
		if (opt != 'h')
			return opterr_message("report", longs, opt, argv[at], err, errlen);
		p->help = 1;
		return 0;
	}
	if (optind >= argc) {
		snprintf(err, errlen, "report: no FILE");
		return -1;
	}
	if (opterr_operands("report", argc, argv, "FILE", err, errlen))
		return -1;
	if (optind + 1 < argc) {
		snprintf(err, errlen, "report: unexpected '%s'", argv[optind + 1]);
		return -1;
	}
	p->config = argv[optind];
	return 0;
}

/* status, stop, clear: -h only. */
/* last-boot [--forget] */
static int kft_parse_last_boot(int argc, char **argv, struct kft_params *p,
			       char *err, size_t errlen)
{
	static const struct option longs[] = {
		{ "forget", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, at;

	while ((opt = opterr_next(argc, argv, "+:h", longs, &at)) != -1) {
		switch (opt) {
		case 'f':
			p->forget = 1;
			break;
		case 'h':
			p->help = 1;
			return 0;
		default:
			return opterr_message("last-boot", longs, opt, argv[at], err, errlen);
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "last-boot: unexpected '%s'", argv[optind]);
		return -1;
	}
	return 0;
}

static int kft_parse_plain(int argc, char **argv, struct kft_params *p,
			   char *err, size_t errlen)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		p->help = 1;
		return 0;
	}
	if (argc > 1) {
		snprintf(err, errlen, "%s: unexpected '%s'", argv[0], argv[1]);
		return -1;
	}
	return 0;
}

/* The subcommand's own parse: argv[0] is its name. */
static int kft_parse_sub(int argc, char **argv, struct kft_params *p, char *err, size_t errlen)
{
	switch (p->sub) {
	case KFT_SUB_TRACE:
		return kft_parse_trace(argc, argv, p, err, errlen);
	case KFT_SUB_FUNCCOUNT:
		return kft_parse_funccount(argc, argv, p, err, errlen);
	case KFT_SUB_STACKCOUNT:
	case KFT_SUB_STACKSNOOP:
	case KFT_SUB_PROFILE:
		return kft_parse_stacks(argc, argv, p, err, errlen);
	case KFT_SUB_ERRTRACE:
		return kft_parse_errtrace(argc, argv, p, err, errlen);
	case KFT_SUB_FUNCLATENCY:
		return kft_parse_funclatency(argc, argv, p, err, errlen);
	case KFT_SUB_SLOWTRACE:
		return kft_parse_slowtrace(argc, argv, p, err, errlen);
	case KFT_SUB_RECORD:
		return kft_parse_record(argc, argv, p, err, errlen);
	case KFT_SUB_REPORT:
		return kft_parse_report(argc, argv, p, err, errlen);
	case KFT_SUB_LAST_BOOT:
		return kft_parse_last_boot(argc, argv, p, err, errlen);
	default:
		return kft_parse_plain(argc, argv, p, err, errlen);
	}
}

/*
 * The operands named as functions (not -r's regular expressions): "end"
 * and "fend" are refused here, as -c refuses "end", with the argument
 * named; in the configuration the module would take them as its words.
 */
static int kft_patterns_ok(const struct kft_params *p, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < p->nr_patterns && !p->regexp; i++) {
		if (!kft_pattern_reserved(p->patterns[i]))
			continue;
		snprintf(err, errlen, "%s: not a function pattern: '%s' ('end' and 'fend' are "
			 "words of the configuration language, no function's names)",
			 kft_subcmd_name(p->sub), p->patterns[i]);
		return -1;
	}
	return 0;
}

/*
 * No side effects beyond getopt's state: fills p from argv ("kft SUB
 * ..."), or returns -1 with a message in err (p->sub says whose usage).
 */
int kft_parse_args(int argc, char **argv, struct kft_params *p, char *err, size_t errlen)
{
	const char *name = argc > 1 ? argv[1] : "";

	memset(p, 0, sizeof(*p));
	p->cpu = -1;
	p->frequency = KFT_DEFAULT_SAMPLE_HZ;
	p->stack_storage = KFT_DEFAULT_STACKENTRIES;
	/* 0, not 1: glibc forgets the rest of an earlier parse (tests parse many). */
	optind = 0;
	if (!strcmp(name, "-h") || !strcmp(name, "--help") || !strcmp(name, "help")) {
		p->help = 1;
		return 0;
	}
	if (!strcmp(name, "--version")) {
		p->version = 1;
		return 0;
	}
	p->sub = kft_subcmd_named(name);
	if (p->sub == KFT_SUB_NONE) {
		if (argc > 1)
			snprintf(err, errlen, "unknown command '%s'", name);
		else
			snprintf(err, errlen, "no command");
		return -1;
	}
	/* The subcommand's options: argv[1] is its argv[0]. */
	if (kft_parse_sub(argc - 1, argv + 1, p, err, errlen))
		return -1;
	return kft_patterns_ok(p, err, errlen);
}

/* The program proper: the unit tests link the rest without it. */
#ifndef KFT_NO_MAIN
#include "closeout.h"
#include "version.h"

/* kft status: /proc/kft as it is. */
static int kft_status_cmd(const struct kft_paths *paths)
{
	FILE *in = fopen(paths->ctl, "r");
	char buf[4096];
	size_t n;
	int ret = 0;

	if (!in) {
		fprintf(stderr, "kft: %s: %s%s\n", paths->ctl, strerror(errno),
			errno == ENOENT ? " (is the kft module loaded?)" : "");
		return 1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, stdout);
	if (ferror(in)) {
		fprintf(stderr, "kft: %s: %s\n", paths->ctl, strerror(errno));
		ret = 1;
	}
	fclose(in);
	return close_stdout("kft") ? 1 : ret;
}

static int kft_run(const struct kft_params *p)
{
	struct kft_paths paths;

	if (p->sub == KFT_SUB_REPORT)
		return kft_report(p);
	if (kft_paths_init(&paths))
		return 1;
	switch (p->sub) {
	case KFT_SUB_TRACE:
		return kft_trace(p, &paths);
	case KFT_SUB_FUNCCOUNT:
		return kft_funccount(p, &paths);
	case KFT_SUB_STACKCOUNT:
		return kft_stackcount(p, &paths);
	case KFT_SUB_STACKSNOOP:
		return kft_stacksnoop(p, &paths);
	case KFT_SUB_PROFILE:
		return kft_profile(p, &paths);
	case KFT_SUB_ERRTRACE:
		return kft_errtrace(p, &paths);
	case KFT_SUB_FUNCLATENCY:
		return kft_funclatency(p, &paths);
	case KFT_SUB_SLOWTRACE:
		return kft_slowtrace(p, &paths);
	case KFT_SUB_RECORD:
		return kft_record(p, &paths);
	case KFT_SUB_LAST_BOOT:
		return kft_last_boot(p, &paths);
	case KFT_SUB_STATUS:
		return kft_status_cmd(&paths);
	case KFT_SUB_STOP:
		return kft_ctl_write(&paths, "stop\n", 1) ? 1 : 0;
	case KFT_SUB_CLEAR:
		return kft_ctl_write(&paths, "clear\n", 0) ? 1 : 0;
	default:
		return 2;
	}
}

int main(int argc, char **argv)
{
	struct kft_params p;
	char err[256];

	if (kft_parse_args(argc, argv, &p, err, sizeof(err))) {
		fprintf(stderr, "kft: %s\n", err);
		kft_usage(stderr, p.sub);
		return 2;
	}
	if (p.help) {
		kft_usage(stdout, p.sub);
		return close_stdout("kft") ? 1 : 0;
	}
	if (p.version)
		return print_version("kft");
	return kft_run(&p);
}
#endif
