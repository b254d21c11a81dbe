// SPDX-License-Identifier: GPL-2.0
/*
 * getopt_long's errors as every tool says them (userspace/lib/opterr.c),
 * with and without a command's prefix: the option in question named, the
 * one of several short ones together, a long one by its full name, the
 * candidates of an ambiguous abbreviation, an option after an operand.
 */
#include "unit.h"
#include "opterr.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Options as kd's and kft's have them: short ones, long ones of each kind. */
static const char test_shorts[] = "+:A:cd:im:lMPh";
static const struct option test_longs[] = {
	{ "folded", no_argument, NULL, 'F' },
	{ "json", no_argument, NULL, 'J' },
	{ "flamegraph", no_argument, NULL, 'L' },
	{ "title", required_argument, NULL, 'T' },
	{ "weigh", required_argument, NULL, 'w' },
	{ "width", required_argument, NULL, 'W' },
	{ "srcline", required_argument, NULL, 'S' },
	{ "module", no_argument, NULL, 'M' },
	{ "per-arg", required_argument, NULL, 'A' },
	{ "string", required_argument, NULL, 's' },
	{ "struct", required_argument, NULL, 't' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A command line (after the command's name) and the message, "" for none. */
struct opterr_case {
	const char *args[6];
	const char *err;
};

/* The options and operands of @args as a tool reads them: 0, or -1 with err. */
static int parse(const char *cmd, const char *const *args, char *err, size_t errlen)
{
	char *argv[8] = { (char *)"cmd" };
	int argc = 1, opt, at;

	while (args[argc - 1]) {
		argv[argc] = (char *)args[argc - 1];
		argc++;
	}
	optind = 0;
	while ((opt = opterr_next(argc, argv, test_shorts, test_longs, &at)) != -1)
		if (opt == '?' || opt == ':')
			return opterr_message(cmd, test_longs, opt, argv[at], err, errlen);
	return opterr_operands(cmd, argc, argv, "FILE", err, errlen);
}

/* Each case parsed in turn (a parse after one that failed starts afresh), as @cmd's. */
static void check_cases(const char *cmd, const struct opterr_case *cases, size_t n)
{
	char err[128], want[160], line[128];
	size_t i, j, len;
	int ret;

	for (i = 0; i < n; i++) {
		for (j = 0, len = 0; cases[i].args[j]; j++)
			len += snprintf(line + len, sizeof(line) - len, " %s", cases[i].args[j]);
		err[0] = '\0';
		ret = parse(cmd, cases[i].args, err, sizeof(err));
		CHECK(ret == (cases[i].err[0] ? -1 : 0), "%s:%s: returned %d (%s)",
		      cmd ? cmd : "(no prefix)", line, ret, err);
		if (!cases[i].err[0])
			continue;
		snprintf(want, sizeof(want), "%s%s%s", cmd ? cmd : "", cmd ? ": " : "",
			 cases[i].err);
		CHECK_STR(err, want, line);
	}
}

static const struct opterr_case option_cases[] = {
	/* The one of several short options together, wherever it is. */
	{ { "-Qc", "x", NULL }, "unknown option '-Q'" },
	{ { "-cQ", NULL }, "unknown option '-Q'" },
	{ { "-c", "-lQi", NULL }, "unknown option '-Q'" },
	{ { "-c", "-i", NULL }, "" },
	{ { "--bogus", NULL }, "unknown option '--bogus'" },
	{ { "--bogus=1", NULL }, "unknown option '--bogus'" },
	/* An option without its argument, alone or after others together. */
	{ { "-m", NULL }, "option -m needs an argument" },
	{ { "-c", "-lm", NULL }, "option -m needs an argument" },
	{ { "-c", "-d", NULL }, "option -d needs an argument" },
	{ { "-MA", NULL }, "option -A needs an argument" },
	{ { "--flamegraph", "--title", NULL }, "option --title needs an argument" },
	{ { "--flamegraph", "--ti", NULL }, "option --title needs an argument" },
	{ { "--srcline", NULL }, "option --srcline needs an argument" },
	/* A long option's value is also a short one's: still the long option. */
	{ { "--per-arg", NULL }, "option --per-arg needs an argument" },
	{ { "--json=yes", NULL }, "option --json takes no argument" },
	{ { "--module=1", "f", NULL }, "option --module takes no argument" },
	{ { "--mod=1", "f", NULL }, "option --module takes no argument" },
	{ { "--help=1", NULL }, "option --help takes no argument" },
	/* An abbreviation of several, with or without a value. */
	{ { "--w", "3", NULL }, "option '--w' is ambiguous: --weigh, --width" },
	{ { "--str", "2", "f", NULL }, "option '--str' is ambiguous: --string, --struct" },
	{ { "--str=2", "f", NULL }, "option '--str' is ambiguous: --string, --struct" },
	{ { "--wi", "3", "-c", NULL }, "" },
	/* A byte that is no printable character: the argument it is in. */
	{ { "-\xc3\xa9", "cfg", NULL }, "unknown option in '-\xc3\xa9'" },
	{ { "-c\x01", NULL }, "unknown option in '-c\x01'" },
};

static void test_option_errors(void)
{
	check_cases(NULL, option_cases, ARRAY_SIZE(option_cases));
}

static void test_option_errors_prefixed(void)
{
	check_cases("funccount", option_cases, ARRAY_SIZE(option_cases));
}

/*
 * getopt stops at the first operand: an option after it is an operand to
 * getopt, and is refused saying where options go. "-" (standard input)
 * is an operand, and after "--" every word is one.
 */
static const struct opterr_case operand_cases[] = {
	{ { "log", "-m", "map", NULL }, "-m: options go before FILE" },
	{ { "-c", "log", "x", "--json", NULL }, "--json: options go before FILE" },
	{ { "log", "x", NULL }, "" },
	{ { "log", "-", NULL }, "" },
	{ { "-", NULL }, "" },
	{ { "--", "log", "-m", NULL }, "" },
	{ { "--", "-m", NULL }, "" },
};

static void test_options_after_operands(void)
{
	check_cases(NULL, operand_cases, ARRAY_SIZE(operand_cases));
	check_cases("kft", operand_cases, ARRAY_SIZE(operand_cases));
}

UNIT_MAIN(test_option_errors, test_option_errors_prefixed, test_options_after_operands)
