// SPDX-License-Identifier: GPL-2.0
/*
 * addr2sym: kernel addresses in a kft log (or any text) to symbol names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "closeout.h"
#include "kftlog.h"
#include "ksyms.h"
#include "linereader.h"
#include "symbolize.h"
#include "addr2sym.h"

static const char *const addr2sym_usage[] = {
	"usage: addr2sym [-a] [-m MAP] [FILE]",
	"",
	"Replaces every kernel address in the kft log FILE (default: standard",
	"input) by its symbol: name, name+0xoff, or module:name+0xoff. Addresses",
	"are hex words with 0x (any length), or without it of exactly 8 or 16",
	"digits, in any case; columns stay aligned; an address outside every",
	"symbol is kept; a line over 64 KiB is copied as it is. Input with no",
	"kft log row (nor a log's header) is an error, after its output.",
	"",
	"  -a       any text, not only kft logs",
	"  -m MAP   System.map or a copy of /proc/kallsyms of the kernel that",
	"           wrote the log (default: /proc/kallsyms)",
	"  -h       this help",
	"",
	"Examples:",
	"  addr2sym kft.log >kft.sym.log           (on the traced machine)",
	"  addr2sym -m kallsyms.txt kft.log | kd -c",
	"  dmesg | addr2sym -a",
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
	while ((opt = getopt(argc, argv, "+am:h")) != -1) {
		switch (opt) {
		case 'a':
			p->any_text = 1;
			break;
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
#define ADDR2SYM_LINE_MAX	(64 * 1024)

/* One line, symbolized; a NUL byte in it is copied too. */
static void addr2sym__line(const struct ksyms *ks, const char *line, size_t len)
{
	const char *p = line;

	for (;;) {
		symbolize_fputs(ks, p, stdout);
		p += strlen(p);
		if (p == line + len)
			break;
		putchar(*p++);
	}
}

/*
 * Streams in to stdout a line at a time, the parts of an over-long line as
 * they are; scans the lines as a kft log. -1 on a read or write error.
 */
static int addr2sym__filter(const struct ksyms *ks, FILE *in, char *line,
			    struct kftlog_scan *scan)
{
	struct kftlog_names names;
	struct kftlog_row row;
	enum line_status st;
	int in_long = 0;
	size_t len;

	while ((st = line_read(in, line, ADDR2SYM_LINE_MAX, &len)) == LINE_WHOLE ||
	       st == LINE_PART) {
		/* A count-mode log's rows name their functions already. */
		if (st == LINE_PART || in_long || (scan->count_mode && scan->in_rows))
			fwrite(line, 1, len, stdout);
		else
			addr2sym__line(ks, line, len);
		/* One row tells it is a log: the scan stops there. */
		if (st == LINE_WHOLE && !scan->rows)
			kftlog_scan_line(scan, in_long ? NULL : line, len, &row, &names);
		in_long = st == LINE_PART;
		if (ferror(stdout))
			return -1;	/* close_stdout() says why */
	}
	if (in_long && !scan->rows)
		kftlog_scan_line(scan, NULL, 0, &row, &names);
	if (st == LINE_ERROR)
		return -1;
	return 0;
}

static int addr2sym__run(const struct addr2sym_params *p)
{
	const char *name = p->file ? p->file : "(stdin)";
	FILE *in = p->file ? fopen(p->file, "r") : stdin;
	struct kftlog_scan scan = { 0 };
	char *line = malloc(ADDR2SYM_LINE_MAX);
	struct ksyms *ks = NULL;
	int ret = 1;

	if (!in || !line) {
		fprintf(stderr, "addr2sym: %s: %s\n", name, strerror(errno));
		goto out;
	}
	ks = ksyms__load(p->map);
	if (!ks) {
		fprintf(stderr, "addr2sym: %s: %s\n", p->map, ksyms__strerror(errno));
		goto out;
	}
	if (addr2sym__filter(ks, in, line, &scan) && ferror(in))
		fprintf(stderr, "addr2sym: %s: %s\n", name, strerror(errno));
	else if (ferror(stdout))
		;	/* close_stdout() says it */
	else if (!p->any_text && !kftlog_scan_is_log(&scan) && !scan.count_mode)
		fprintf(stderr, "addr2sym: no kft log rows found in %s (-a: any text)\n", name);
	else
		ret = 0;
	if (close_stdout("addr2sym"))
		ret = 1;
out:
	free(line);
	ksyms__free(ks);
	if (in && in != stdin)
		fclose(in);
	return ret;
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
