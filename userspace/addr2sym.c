// SPDX-License-Identifier: GPL-2.0
/*
 * addr2sym: kernel addresses in a kft log (or any text) to symbol names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ksyms.h"
#include "symbolize.h"
#include "addr2sym.h"

static const char *const addr2sym_usage[] = {
	"usage: addr2sym [-m MAP] [FILE]",
	"",
	"Replaces every kernel address in FILE (default: standard input) by its",
	"symbol: name, name+0xoff, or module:name+0xoff. Addresses are hex words",
	"with 0x (any length), or without it of exactly 8 or 16 digits, in any",
	"case; columns stay aligned; an address outside every symbol is kept.",
	"",
	"  -m MAP   System.map or a copy of /proc/kallsyms of the kernel that",
	"           wrote the log (default: /proc/kallsyms)",
	"  -h       this help",
	"",
	"Examples:",
	"  addr2sym kft.log >kft.sym.log           (on the traced machine)",
	"  addr2sym -m kallsyms.txt kft.log | kd -c",
	NULL,
};

void addr2sym__usage(FILE *out)
{
	int i;

	for (i = 0; addr2sym_usage[i]; i++)
		fprintf(out, "%s\n", addr2sym_usage[i]);
}

/* No side effects: fills params, or returns -1 with a message in err. */
int addr2sym__parse_args(int argc, char **argv, struct addr2sym_params *p,
			 char *err, size_t errlen)
{
	int opt;

	memset(p, 0, sizeof(*p));
	p->map = "/proc/kallsyms";
	optind = 1;
	opterr = 0;
	while ((opt = getopt(argc, argv, "+m:h")) != -1) {
		switch (opt) {
		case 'm':
			p->map = optarg;
			break;
		case 'h':
			p->help = 1;
			return 0;
		default:
			snprintf(err, errlen, "unknown option '-%c'", optopt);
			return -1;
		}
	}
	if (argc - optind > 1) {
		snprintf(err, errlen, "more than one FILE");
		return -1;
	}
	p->file = argc > optind ? argv[optind] : NULL;
	return 0;
}

/* The program proper: the unit tests link the rest without it. */
#ifndef ADDR2SYM_NO_MAIN
static int addr2sym__run(const struct addr2sym_params *p)
{
	FILE *in = p->file ? fopen(p->file, "r") : stdin;
	char *line = NULL, *out = NULL;
	size_t cap = 0, outcap = 0;
	struct ksyms *ks;
	ssize_t n;

	if (!in) {
		fprintf(stderr, "addr2sym: %s: %s\n", p->file, strerror(errno));
		return 1;
	}
	ks = ksyms__load(p->map);
	if (!ks) {
		fprintf(stderr, "addr2sym: %s: %s\n", p->map, strerror(errno));
		return 1;
	}
	while ((n = getline(&line, &cap, in)) >= 0) {
		/* A symbol is at most a few hundred bytes longer than its address. */
		if (outcap < (size_t)n * 2 + 1024) {
			outcap = (size_t)n * 2 + 1024;
			free(out);
			out = malloc(outcap);
			if (!out)
				return 1;
		}
		symbolize_line(ks, line, out, outcap);
		fputs(out, stdout);
	}
	free(line);
	free(out);
	ksyms__free(ks);
	if (in != stdin)
		fclose(in);
	return 0;
}

int main(int argc, char **argv)
{
	struct addr2sym_params p;
	char err[256];

	if (addr2sym__parse_args(argc, argv, &p, err, sizeof(err))) {
		fprintf(stderr, "addr2sym: %s\n", err);
		addr2sym__usage(stderr);
		return 2;
	}
	if (p.help) {
		addr2sym__usage(stdout);
		return 0;
	}
	return addr2sym__run(&p);
}
#endif
