// SPDX-License-Identifier: GPL-2.0
/* getopt_long's errors as messages naming the option: see opterr.h. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "opterr.h"

int opterr_next(int argc, char **argv, const char *shorts, const struct option *longs,
		int *at)
{
	opterr = 0;
	/* optind 0 asks glibc to start again: the first argument is then 1. */
	*at = optind ? optind : 1;
	return getopt_long(argc, argv, shorts, longs, NULL);
}

/* A message after the command's prefix, if any, into err: -1. */
__attribute__((format(printf, 4, 5)))
static int opterr_say(const char *cmd, char *err, size_t errlen, const char *fmt, ...)
{
	size_t at = 0;
	va_list ap;

	if (cmd)
		at = (size_t)snprintf(err, errlen, "%s: ", cmd);
	if (at >= errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + at, errlen - at, fmt, ap);
	va_end(ap);
	return -1;
}

/* The long option of getopt_long's value @val that has @has_arg: its name. */
static const char *opterr_long_name(const struct option *longs, int val, int has_arg)
{
	for (; longs->name; longs++)
		if (!longs->flag && longs->val == val && longs->has_arg == has_arg)
			return longs->name;
	return "?";
}

/*
 * "--name" of @arg (which may go on "=value") abbreviates several long
 * options: the message lists them. glibc calls it ambiguous only when
 * they differ, which is all it says; the list names each.
 */
static int opterr_ambiguous(const char *cmd, const struct option *longs, const char *arg,
			    int len, char *err, size_t errlen)
{
	const struct option *o;
	size_t at;
	int n = 0;

	opterr_say(cmd, err, errlen, "option '%.*s' is ambiguous:", len, arg);
	at = strlen(err);
	for (o = longs; o->name && at < errlen; o++) {
		if (strncmp(o->name, arg + 2, (size_t)len - 2))
			continue;
		snprintf(err + at, errlen - at, "%s --%s", n++ ? "," : "", o->name);
		at += strlen(err + at);
	}
	return -1;
}

/*
 * A long option's error. optopt is the option's value when it was known
 * (given an argument it takes none of, or missing the one it needs), and
 * 0 when no option has that name or several begin so.
 */
static int opterr_long(const char *cmd, const struct option *longs, int opt, const char *arg,
		       char *err, size_t errlen)
{
	int len = (int)strcspn(arg, "="), n = 0;
	const struct option *o;

	if (opt == ':')
		return opterr_say(cmd, err, errlen, "option --%s needs an argument",
				  opterr_long_name(longs, optopt, required_argument));
	if (optopt)
		return opterr_say(cmd, err, errlen, "option --%s takes no argument",
				  opterr_long_name(longs, optopt, no_argument));
	for (o = longs; o->name; o++)
		n += !strncmp(o->name, arg + 2, (size_t)len - 2);
	if (n > 1)
		return opterr_ambiguous(cmd, longs, arg, len, err, errlen);
	return opterr_say(cmd, err, errlen, "unknown option '%.*s'", len, arg);
}

int opterr_message(const char *cmd, const struct option *longs, int opt, const char *arg,
		   char *err, size_t errlen)
{
	if (!strncmp(arg, "--", 2))
		return opterr_long(cmd, longs, opt, arg, err, errlen);
	if (opt == ':')
		return opterr_say(cmd, err, errlen, "option -%c needs an argument", optopt);
	/* A byte of a UTF-8 character, or a control one, would print as garbage. */
	if (optopt > 0 && optopt < 0x7f && isgraph(optopt))
		return opterr_say(cmd, err, errlen, "unknown option '-%c'", optopt);
	return opterr_say(cmd, err, errlen, "unknown option in '%s'", arg);
}

int opterr_operands(const char *cmd, int argc, char **argv, const char *what, char *err,
		    size_t errlen)
{
	int i;

	/* After "--" the user meant each word as an operand. */
	if (optind > 1 && optind <= argc && !strcmp(argv[optind - 1], "--"))
		return 0;
	for (i = optind + 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1])
			return opterr_say(cmd, err, errlen, "%s: options go before %s", argv[i],
					  what);
	return 0;
}
