// SPDX-License-Identifier: GPL-2.0
/*
 * sym2addr: function names in a kft configuration to 0x addresses, for
 * kernels whose /proc/kft takes only addresses (the original KFT). Lines,
 * comments and spacing are kept; keywords, numbers, strings, globs and
 * addresses are left alone. Which words name functions: cfgnames.h.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfgnames.h"
#include "cfgword.h"
#include "closeout.h"
#include "ksyms.h"
#include "linereader.h"
#include "opterr.h"
#include "version.h"

/* /proc/kft takes 64 KiB: a longer line is no configuration. */
#define SYM2ADDR_LINE_MAX	(64 * 1024 + 2)

static const char *const sym2addr_usage[] = {
	"usage: sym2addr [-m MAP] FILE",
	"",
	"Writes the kft configuration FILE to standard output with every function",
	"name replaced by its address: after 'trigger start|stop entry|exit|error',",
	"a 'filter arg' statement's function, and in 'filter funclist ... fend'",
	"and 'filter roots ... fend'. Globs, addresses, keywords, numbers, strings",
	"in quotes, comm's task and comments are kept as they are. A name not in",
	"MAP is an error: FILE:LINE: unknown function NAME.",
	"",
	"A name that several functions share (static functions of different",
	"files) becomes all of their addresses in a funclist, as ftrace's",
	"filter matches them all; a trigger, a root and filter arg take one",
	"function, so there it is an error: FILE:LINE: NAME names N functions;",
	"a trigger takes one.",
	"",
	"  -m MAP   System.map or a copy of /proc/kallsyms (default: /proc/kallsyms)",
	"  -h       this help",
	"  --version  kft's version",
	"",
	"Example:",
	"  sym2addr -m kallsyms.txt trace.config >/proc/kft",
	NULL,
};

struct sym2addr {
	const struct ksyms *ks;
	const char *file;
	struct cfgnames names;
	int errors;
};

static int is_function_name(const char *w)
{
	if (isdigit((unsigned char)w[0]))
		return 0;	/* an address or a number */
	return !strpbrk(w, "*?[");
}

/*
 * A function's name, as its addresses. Static functions in different
 * files share names: in a funclist (@one NULL) the name stands for all of
 * them, as ftrace's filter matches it, so each address is written. A
 * trigger, a root and filter arg take one function (@one says which):
 * there such a name is an error, which says how many functions it names.
 * The word is kept on any error.
 */
static void sym2addr_name(struct sym2addr *s, const char *w, const char *one,
			  unsigned int line)
{
	size_t first, n = ksyms__find_all(s->ks, w, &first), i;

	if (!n) {
		fprintf(stderr, "%s:%u: unknown function %s\n", s->file, line, w);
	} else if (n > 1 && one) {
		fprintf(stderr, "%s:%u: %s names %zu functions; %s takes one: write its "
			"address\n", s->file, line, w, n, one);
	} else {
		for (i = 0; i < n; i++)
			printf("%s0x%" PRIx64, i ? " " : "", s->ks->by_name[first + i]->addr);
		return;
	}
	s->errors++;
	fputs(w, stdout);
}

/* One word: printed as it is, or as addresses where it names functions. */
static void sym2addr_word(struct sym2addr *s, const char *w, unsigned int line)
{
	const char *one = NULL;
	enum cfgname kind = cfgnames_word(&s->names, w, &one);

	if (kind != CFGNAME_NONE && is_function_name(w))
		sym2addr_name(s, w, kind == CFGNAME_ONE ? one : NULL, line);
	else
		fputs(w, stdout);
}

/* A line's words, as the module's lexer splits them; blanks and comments kept. */
static void sym2addr_line(struct sym2addr *s, char *line, unsigned int lineno)
{
	size_t at = 0, end;
	char saved;

	while (line[at]) {
		if (line[at] == '#') {
			fputs(line + at, stdout);	/* the comment, and the newline */
			return;
		}
		if (isspace((unsigned char)line[at])) {
			putchar(line[at++]);
			continue;
		}
		end = cfgword_end(line, at);
		saved = line[end];
		line[end] = '\0';
		sym2addr_word(s, line + at, lineno);
		line[end] = saved;
		at = end;
	}
}

/* Every line of in, in bounded memory: a configuration is at most 64 KiB. */
static void sym2addr_file(struct sym2addr *s, FILE *in)
{
	char *line = malloc(SYM2ADDR_LINE_MAX);
	enum line_status st = LINE_ERROR;
	unsigned int lineno = 0;
	size_t len;

	while (line && (st = line_read(in, line, SYM2ADDR_LINE_MAX, &len)) == LINE_WHOLE &&
	       strlen(line) == len)
		sym2addr_line(s, line, ++lineno);
	free(line);
	if (st == LINE_EOF)
		return;
	fprintf(stderr, "%s:%u: %s\n", s->file, lineno + 1, st == LINE_ERROR ? strerror(errno) :
		"a NUL byte or a line over 64 KiB: no kft configuration");
	s->errors++;
}

/* The usage text, to @out. */
static void sym2addr_usage_to(FILE *out)
{
	int i;

	for (i = 0; sym2addr_usage[i]; i++)
		fprintf(out, "%s\n", sym2addr_usage[i]);
}

/* What the command line asks for. */
struct sym2addr_params {
	const char *map;
	const char *file;
	int help;
	int version;
};

/* No side effects beyond getopt's state: fills p, or -1 with a message in err. */
static int sym2addr_parse_args(int argc, char **argv, struct sym2addr_params *p, char *err,
			       size_t errlen)
{
	static const struct option longs[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, at;

	p->map = "/proc/kallsyms";
	while ((opt = opterr_next(argc, argv, "+:m:h", longs, &at)) != -1) {
		switch (opt) {
		case 'm':
			p->map = optarg;
			break;
		case 'h':
			p->help = 1;
			return 0;
		case 'v':
			p->version = 1;
			return 0;
		default:
			return opterr_message(NULL, longs, opt, argv[at], err, errlen);
		}
	}
	if (opterr_operands(NULL, argc, argv, "FILE", err, errlen))
		return -1;
	if (argc - optind != 1) {
		snprintf(err, errlen, "one FILE expected");
		return -1;
	}
	p->file = argv[optind];
	return 0;
}

int main(int argc, char **argv)
{
	struct sym2addr_params p = { 0 };
	struct sym2addr s = { 0 };
	char err[256];
	FILE *in;

	if (sym2addr_parse_args(argc, argv, &p, err, sizeof(err))) {
		fprintf(stderr, "sym2addr: %s\n", err);
		sym2addr_usage_to(stderr);
		return 2;
	}
	if (p.help) {
		sym2addr_usage_to(stdout);
		return close_stdout("sym2addr") ? 1 : 0;
	}
	if (p.version)
		return print_version("sym2addr");
	s.file = p.file;
	in = fopen(s.file, "r");
	if (!in) {
		fprintf(stderr, "sym2addr: %s: %s\n", s.file, strerror(errno));
		return 1;
	}
	s.ks = ksyms__load(p.map);
	if (!s.ks) {
		fprintf(stderr, "sym2addr: %s: %s\n", p.map, ksyms__strerror(errno));
		return 1;
	}
	ksyms__say_skipped(s.ks, "sym2addr", p.map, stderr);
	if (ksyms__hidden(s.ks)) {
		ksyms__say_hidden("sym2addr", p.map, stderr);
		ksyms__free((struct ksyms *)s.ks);
		fclose(in);
		return 1;
	}
	sym2addr_file(&s, in);
	fclose(in);
	ksyms__free((struct ksyms *)s.ks);
	if (close_stdout("sym2addr"))
		return 1;
	return s.errors ? 1 : 0;
}
