// SPDX-License-Identifier: GPL-2.0
/*
 * kft: the command. Usage texts, options parsed into kft_params without
 * side effects (unit-tested), then the subcommand runs.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kft.h"

static const char *const kft_usage_main[] = {
	"usage: kft COMMAND [options]",
	"",
	"Drives the kft kernel module (/proc/kft, /proc/kft_data); needs root.",
	"",
	"Commands:",
	"  trace [-o FILE] CONFIG|-   run a configuration (a file, or standard",
	"                             input) to its end or Ctrl-C, then save the",
	"                             log, symbolized with /proc/kallsyms",
	"  funccount [-hT] [-i secs] [-d secs] [-t top] PATTERN...",
	"                             count the calls of kernel functions",
	"  status                     print the state of the run (/proc/kft)",
	"  stop                       stop the run",
	"  clear                      drop the run and free its memory",
	"",
	"'kft COMMAND -h' shows a command's options. trace and funccount refuse",
	"to replace a run that is primed or running, and hold a lock so that two",
	"kft commands cannot race.",
	"",
	"Environment:",
	"  KFT_PROC=DIR   read kft, kft_data and kallsyms in DIR, not /proc",
	"                 (tests on fake files; writes to DIR/kft are appended)",
	"  KFT_LOCK=FILE  the lock file (default /run/kft.lock; DIR/kft.lock",
	"                 with KFT_PROC)",
	"",
	"Examples:",
	"  kft trace -o kft.log open.cfg     trace as open.cfg says, save the log",
	"  kft funccount 'vfs_*'             count vfs_* calls until Ctrl-C",
	"  kft funccount -i 1 -t 5 'tcp_*'   the top 5 tcp_* functions every second",
	"  kft status                        what the module is doing",
	"  kft stop; kft clear               end the run; free its memory",
	NULL,
};

static const char *const kft_usage_trace[] = {
	"usage: kft trace [-o FILE] CONFIG|-",
	"",
	"Writes the configuration CONFIG (a file; '-': standard input; at most",
	"65536 bytes, the language of Documentation/kft.rst) to /proc/kft, primes",
	"the run (or starts it, when it has no start trigger), waits until it is",
	"complete (a stop trigger, a full log) or Ctrl-C (which stops it), and",
	"writes /proc/kft_data with its addresses symbolized by /proc/kallsyms",
	"(as addr2sym does). The run stays, for kft status; kft clear frees it.",
	"",
	"  -o FILE  write the log to FILE (default: standard output)",
	"  -h       this help",
	"",
	"Examples:",
	"  kft trace -o kft.log open.cfg && kd -c kft.log",
	"  printf 'new begin filter funclist vfs_* fend end' | kft trace - | kd",
	NULL,
};

static const char *const kft_usage_funccount[] = {
	"usage: kft funccount [-hT] [-i secs] [-d secs] [-t top] PATTERN...",
	"",
	"Counts the calls of the kernel functions that match the PATTERNs (names,",
	"globs such as 'vfs_*', module:name) in the kernel, per CPU, until",
	"Ctrl-C or the end of -d, then prints FUNC and COUNT, ascending by count",
	"(the largest last). Module functions are named module:name.",
	"",
	"  -d seconds   total duration of the count",
	"  -h           this usage message",
	"  -i seconds   a summary every interval, of the calls in that interval",
	"  -t top       show the top num entries only",
	"  -T           include a timestamp (for -i)",
	"",
	"Seconds may have decimals (-i 0.5). Counts are the module's, summed over",
	"the CPUs; -i summaries are differences of its counts, so no call is",
	"lost or counted twice between two of them.",
	"",
	"Examples:",
	"  kft funccount 'vfs*'              trace all funcs that match \"vfs*\"",
	"  kft funccount -d 5 'tcp*'         trace \"tcp*\" funcs for 5 seconds",
	"  kft funccount -t 10 'ext4*'       show top 10 \"ext4*\" funcs",
	"  kft funccount -i 1 'ext4*'        summary every 1 second",
	"  kft funccount -i 1 -d 5 'ext4*'   5 x 1 second summaries",
	"  kft funccount vfs_read ext4:ext4_file_read_iter",
	NULL,
};

static const char *const kft_usage_status[] = {
	"usage: kft status",
	"",
	"Prints /proc/kft: the run's state, configuration, counters and the last",
	"error of a write.",
	"",
	"Examples:",
	"  kft status",
	"  kft status | head -n 1",
	NULL,
};

static const char *const kft_usage_stop[] = {
	"usage: kft stop",
	"",
	"Stops the run: its log (or counts) stays readable, its hooks come off",
	"the kernel's functions. Stopping a run that is not running is no error.",
	"",
	"Examples:",
	"  kft stop",
	NULL,
};

static const char *const kft_usage_clear[] = {
	"usage: kft clear",
	"",
	"Drops the run and frees its memory: kft is then attached to nothing.",
	"",
	"Examples:",
	"  kft stop; kft clear",
	NULL,
};

static const struct {
	const char *name;
	enum kft_subcmd sub;
	const char *const *usage;
} kft_subcmds[] = {
	{ NULL, KFT_SUB_NONE, kft_usage_main },
	{ "trace", KFT_SUB_TRACE, kft_usage_trace },
	{ "funccount", KFT_SUB_FUNCCOUNT, kft_usage_funccount },
	{ "status", KFT_SUB_STATUS, kft_usage_status },
	{ "stop", KFT_SUB_STOP, kft_usage_stop },
	{ "clear", KFT_SUB_CLEAR, kft_usage_clear },
};

#define KFT_NR_SUBCMDS	(sizeof(kft_subcmds) / sizeof(kft_subcmds[0]))

void kft_usage(FILE *out, enum kft_subcmd sub)
{
	const char *const *text = kft_usage_main;
	size_t i;

	for (i = 0; i < KFT_NR_SUBCMDS; i++)
		if (kft_subcmds[i].sub == sub)
			text = kft_subcmds[i].usage;
	for (i = 0; text[i]; i++)
		fprintf(out, "%s\n", text[i]);
}

/* Seconds: a positive finite number, at most a year. */
static int kft_seconds(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || !isfinite(*v) || *v <= 0 || *v > 366 * 86400.0 ?
	       -1 : 0;
}

static int kft_parse_funccount(int argc, char **argv, struct kft_params *p,
			       char *err, size_t errlen)
{
	static const struct option longs[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int opt;

	while ((opt = getopt_long(argc, argv, "+d:hi:t:T", longs, NULL)) != -1) {
		switch (opt) {
		case 'd':
		case 'i':
			if (kft_seconds(optarg, opt == 'd' ? &p->duration : &p->interval)) {
				snprintf(err, errlen, "-%c: not a number of seconds '%s'", opt, optarg);
				return -1;
			}
			if (opt == 'd')
				p->duration_arg = optarg;
			break;
		case 't':
			errno = 0;
			p->top = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || p->top < 1) {
				snprintf(err, errlen, "-t: not a positive number '%s'", optarg);
				return -1;
			}
			break;
		case 'T':
			p->timestamps = 1;
			break;
		case 'h':
			p->help = 1;
			return 0;
		default:
			snprintf(err, errlen, "funccount: unknown option '%s'", argv[optind - 1]);
			return -1;
		}
	}
	if (optind == argc) {
		snprintf(err, errlen, "funccount: no PATTERN");
		return -1;
	}
	p->patterns = argv + optind;
	p->nr_patterns = argc - optind;
	return 0;
}

static int kft_parse_trace(int argc, char **argv, struct kft_params *p,
			   char *err, size_t errlen)
{
	static const struct option longs[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "+o:h", longs, NULL)) != -1) {
		switch (opt) {
		case 'o':
			p->output = optarg;
			break;
		case 'h':
			p->help = 1;
			return 0;
		default:
			snprintf(err, errlen, "trace: unknown option '%s'", argv[optind - 1]);
			return -1;
		}
	}
	if (argc - optind != 1) {
		snprintf(err, errlen, "trace: %s", optind == argc ? "no CONFIG (a file, or -)" :
			 "more than one CONFIG");
		return -1;
	}
	p->config = argv[optind];
	return 0;
}

/* status, stop, clear: -h only. */
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

/*
 * No side effects beyond getopt's state: fills p from argv ("kft SUB
 * ..."), or returns -1 with a message in err (p->sub says whose usage).
 */
int kft_parse_args(int argc, char **argv, struct kft_params *p, char *err, size_t errlen)
{
	const char *name = argc > 1 ? argv[1] : "";
	size_t i;

	memset(p, 0, sizeof(*p));
	/* 0, not 1: glibc forgets the rest of an earlier parse (tests parse many). */
	optind = 0;
	opterr = 0;
	if (!strcmp(name, "-h") || !strcmp(name, "--help") || !strcmp(name, "help")) {
		p->help = 1;
		return 0;
	}
	for (i = 1; i < KFT_NR_SUBCMDS; i++)
		if (!strcmp(name, kft_subcmds[i].name))
			p->sub = kft_subcmds[i].sub;
	if (p->sub == KFT_SUB_NONE) {
		if (argc > 1)
			snprintf(err, errlen, "unknown command '%s'", name);
		else
			snprintf(err, errlen, "no command");
		return -1;
	}
	/* The subcommand's options: argv[1] is its argv[0]. */
	argc--;
	argv++;
	switch (p->sub) {
	case KFT_SUB_TRACE:
		return kft_parse_trace(argc, argv, p, err, errlen);
	case KFT_SUB_FUNCCOUNT:
		return kft_parse_funccount(argc, argv, p, err, errlen);
	default:
		return kft_parse_plain(argc, argv, p, err, errlen);
	}
}

/*
 * A pattern is one word of the configuration language: white space or
 * '#' would end it and let the rest through as statements.
 */
static int kft_pattern_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 0x7f || *s == '#')
			return 0;
	return 1;
}

char *kft_funccount_config(const struct kft_params *p, char *err, size_t errlen)
{
	static const char head[] = "new begin mode count filter funclist";
	static const char tail[] = " fend end\n";
	size_t len = sizeof(head) + sizeof(tail), o;
	char *text;
	int i;

	for (i = 0; i < p->nr_patterns; i++) {
		if (!kft_pattern_ok(p->patterns[i])) {
			snprintf(err, errlen, "not a function pattern: '%s'", p->patterns[i]);
			return NULL;
		}
		len += strlen(p->patterns[i]) + 1;
		if (len > KFT_CONFIG_MAX) {
			snprintf(err, errlen, "the patterns are longer than kft takes (%d bytes)",
				 KFT_CONFIG_MAX);
			return NULL;
		}
	}
	text = malloc(len);
	if (!text) {
		snprintf(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	o = (size_t)sprintf(text, "%s", head);
	for (i = 0; i < p->nr_patterns; i++)
		o += (size_t)sprintf(text + o, " %s", p->patterns[i]);
	sprintf(text + o, "%s", tail);
	return text;
}

/* The program proper: the unit tests link the rest without it. */
#ifndef KFT_NO_MAIN
#include "closeout.h"

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

	if (kft_paths_init(&paths))
		return 1;
	switch (p->sub) {
	case KFT_SUB_TRACE:
		return kft_trace(p, &paths);
	case KFT_SUB_FUNCCOUNT:
		return kft_funccount(p, &paths);
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
	return kft_run(&p);
}
#endif
