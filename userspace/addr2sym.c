// SPDX-License-Identifier: GPL-2.0
/*
 * addr2sym: kernel addresses in a kft log (or any text) to symbol names.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "closeout.h"
#include "kftlog.h"
#include "kftrec.h"
#include "ksyms.h"
#include "opterr.h"
#include "symbolize.h"
#include "version.h"
#include "addr2sym.h"

static const char *const addr2sym_usage[] = {
	"usage: addr2sym [-a] [-m MAP] [FILE]",
	"",
	"Replaces every kernel address in the kft log FILE (default: standard",
	"input) by its symbol: name, name+0xoff, or module:name+0xoff. Addresses",
	"are hex words with 0x (1 to 16 digits), or without it of exactly 8 or 16",
	"digits, in any case; columns stay aligned; an address outside every",
	"symbol is kept; a line over 64 KiB is copied as it is. In a trace",
	"log's rows only the function and caller are symbolized (the return",
	"value and arguments are values). Input with no kft log row (nor a",
	"log's header) is an error, after its output. A kft record file (kft",
	"record -o FILE) is read as the log it holds.",
	"",
	"  -a       any text, not only kft logs",
	"  -m MAP   System.map or a copy of /proc/kallsyms of the kernel that",
	"           wrote the log (default: /proc/kallsyms); a warning if MAP is",
	"           known to be another kernel's than the log's 'Kernel:' line",
	"           (/proc/kallsyms: uname -r; System.map-RELEASE: RELEASE); a",
	"           second 'Kernel:' line is a warning too (the first is the log's)",
	"  -h       this help",
	"  --version  kft's version",
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
	static const struct option longs[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, at;

	memset(p, 0, sizeof(*p));
	p->map = "/proc/kallsyms";
	/* 0, not 1: glibc forgets the rest of an earlier parse (the tests parse many). */
	optind = 0;
	while ((opt = opterr_next(argc, argv, "+:am:h", longs, &at)) != -1) {
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
		case 'v':
			p->version = 1;
			return 0;
		default:
			return opterr_message(NULL, longs, opt, argv[at], err, errlen);
		}
	}
	if (opterr_operands(NULL, argc, argv, "FILE", err, errlen))
		return -1;
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
	const char *name = p->file ? p->file : "(stdin)";
	FILE *in = p->file ? fopen(p->file, "r") : stdin, *text;
	char label[PATH_MAX + 16];
	struct kftlog_scan scan = { 0 };
	struct ksyms *ks = NULL;
	int ret = 1, failed, said;

	if (!in) {
		fprintf(stderr, "addr2sym: %s: %s\n", name, strerror(errno));
		goto out;
	}
	ks = ksyms__load(p->map);
	if (!ks) {
		fprintf(stderr, "addr2sym: %s: %s\n", p->map, ksyms__strerror(errno));
		goto out;
	}
	ksyms__say_skipped(ks, "addr2sym", p->map, stderr);
	if (ksyms__hidden(ks)) {
		ksyms__say_hidden("addr2sym", p->map, stderr);
		goto out;
	}
	/* A kft record file is read as its text. */
	snprintf(label, sizeof(label), "addr2sym: %s", name);
	text = kftrec__text_of(in, label, stderr, NULL);
	if (!text)
		goto out;
	failed = symbolize_stream(ks, text, stdout, &scan);
	/* A record file's text ends at a damaged row with EBADMSG: kftrec said why. */
	said = failed && text != in && errno == EBADMSG;
	if (text != in)
		fclose(text);
	if (failed && ferror(stdout))
		;	/* close_stdout() says it */
	else if (said)
		;
	else if (failed)	/* a read error, or no memory */
		fprintf(stderr, "addr2sym: %s: %s\n", name, strerror(errno));
	else if (!p->any_text && kftlog_scan_empty(&scan))
		fprintf(stderr, "addr2sym: %s %s: no kft log (a log starts with its header; "
			"-a: any text)\n", name, kftlog_scan_empty(&scan));
	else if (!p->any_text && !kftlog_scan_is_log(&scan) && !scan.count_mode &&
		 !scan.stacks_mode)
		fprintf(stderr, "addr2sym: no kft log rows found in %s (-a: any text)\n", name);
	else
		ret = 0;
	/* After the output (the header came first): a warning, as kd's. */
	if (!failed)
		symbolize_check_kernel(p->map, &scan, "addr2sym", name, stderr);
	if (close_stdout("addr2sym"))
		ret = 1;
out:
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
		return close_stdout("addr2sym") ? 1 : 0;
	}
	if (p.version)
		return print_version("addr2sym");
	return addr2sym__run(&p);
}
#endif
