// SPDX-License-Identifier: GPL-2.0
/*
 * kd ("KFT dump"): summaries, call trees, flame-graph stacks and trace JSON
 * from a kft log. Options as the original kd's, its flaws fixed (see
 * Documentation/kd.rst).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "kd.h"

static const char *const kd_usage_text[] = {
	"usage: kd [options] [FILE]",
	"",
	"Analyzes a kft log (/proc/kft_data; FILE or standard input), raw or",
	"passed through addr2sym.",
	"",
	"Modes (default: summary, one row per function, by total time):",
	"  -c             call tree: one line per call, indented by depth",
	"  --folded       flame-graph stacks: 'root;child;leaf LOCAL_US'",
	"  --json         Chrome trace events (Perfetto UI, chrome://tracing)",
	"  --svg          a timeline picture: a lane per thread, a bar per call",
	"Summary:",
	"  -f LETTERS     columns: F function, c count, t time, a average,",
	"                 r range, s sub-time, l local, m max child, n its calls,",
	"                 u children (default Fctal)",
	"  -l             long: -f Fctalsmn",
	"  -n N           the first N functions only",
	"  -t T           only functions with a total time over T us",
	"  -s X           sort by column X (F ascending; c t a s l descending)",
	"Call tree:",
	"  -f LETTERS     columns: e entry, t duration, l local, p pid (none)",
	"  -l             all four: -f etlp",
	"  -i             interlace threads by entry time; interrupt trees framed",
	"  -d N           deepest level shown (default 20)",
	"  -m N, --width N   longest function name shown (default 40)",
	"Both:",
	"  -m MAP, --map MAP  symbolize raw addresses with MAP (System.map or",
	"                 /proc/kallsyms); -m with a number is the width",
	"  --max-rows N   keep at most N rows (default 16777216, the largest log",
	"                 kft keeps); a longer log is an error",
	"  -V             verbose: say what was read",
	"  -h             this help",
	"",
	"Examples:",
	"  kd kft.log                         top functions by total time",
	"  kd -l -n 20 -s l kft.log           20 functions with most local time",
	"  kd -c -l -m kallsyms.txt kft.log   call tree, raw log, guest symbols",
	"  kd --folded kft.log | flamegraph.pl >kft.svg",
	"  kd --json kft.log >kft.json        then open it in ui.perfetto.dev",
	"  kd --svg kft.log >kft-timeline.svg open it in a browser",
	NULL,
};

void kd_usage(FILE *out)
{
	int i;

	for (i = 0; kd_usage_text[i]; i++)
		fprintf(out, "%s\n", kd_usage_text[i]);
}

static int kd_number(const char *s, long long min, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno || end == s || *end || *v < min ? -1 : 0;
}

static int kd_all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static int kd_check_fields(const struct kd_params *p, char *err, size_t errlen)
{
	const char *allowed = p->mode == KD_CALLTREE ? "etlp" : "Fctarslmnu";
	const char *f;

	for (f = p->fields; f && *f; f++) {
		if (!strchr(allowed, *f)) {
			snprintf(err, errlen, "-f: no column '%c' in this mode (%s)", *f, allowed);
			return -1;
		}
	}
	if (p->sort && !strchr("Fctasl", p->sort)) {
		snprintf(err, errlen, "-s: cannot sort by '%c' (F c t a s l)", p->sort);
		return -1;
	}
	return 0;
}

/* No side effects beyond getopt's state: fills p, or -1 with a message. */
int kd_parse_args(int argc, char **argv, struct kd_params *p, char *err, size_t errlen)
{
	static const struct option longs[] = {
		{ "folded", no_argument, NULL, 'F' },
		{ "json", no_argument, NULL, 'J' },
		{ "svg", no_argument, NULL, 'G' },
		{ "map", required_argument, NULL, 'M' },
		{ "width", required_argument, NULL, 'W' },
		{ "max-rows", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long long v;
	int opt;

	memset(p, 0, sizeof(*p));
	p->max_depth = 20;
	p->name_width = 40;
	p->max_rows = KFTLOG_MAX_ROWS;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+cf:ln:t:s:id:m:Vh", longs, NULL)) != -1) {
		switch (opt) {
		case 'c': p->mode = KD_CALLTREE; break;
		case 'F': p->mode = KD_FOLDED; break;
		case 'J': p->mode = KD_JSON; break;
		case 'G': p->mode = KD_SVG; break;
		case 'f': p->fields = optarg; break;
		case 'l': p->long_fields = 1; break;
		case 'i': p->interlace = 1; break;
		case 'V': p->verbose = 1; break;
		case 'h': p->help = 1; return 0;
		case 'M': p->map = optarg; break;
		case 's':
			if (strlen(optarg) != 1) {
				snprintf(err, errlen, "-s takes one column letter");
				return -1;
			}
			p->sort = optarg[0];
			break;
		case 'R':
			if (kd_number(optarg, 1, &v)) {
				snprintf(err, errlen, "--max-rows: bad number '%s'", optarg);
				return -1;
			}
			p->max_rows = (size_t)v;
			break;
		case 'n': case 't': case 'd': case 'W':
			if (kd_number(optarg, opt == 'd' || opt == 'W' ? 1 : 0, &v)) {
				snprintf(err, errlen, "-%c: bad number '%s'", opt == 'W' ? 'm' : opt, optarg);
				return -1;
			}
			if (opt == 'n')
				p->top = v;
			else if (opt == 't')
				p->min_time = v;
			else if (opt == 'd')
				p->max_depth = (int)v;
			else
				p->name_width = (int)v;
			break;
		case 'm':
			if (kd_all_digits(optarg) && !kd_number(optarg, 1, &v))
				p->name_width = (int)v;
			else
				p->map = optarg;
			break;
		default:
			snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
			return -1;
		}
	}
	if (argc - optind > 1) {
		snprintf(err, errlen, "more than one FILE");
		return -1;
	}
	p->file = argc > optind ? argv[optind] : NULL;
	return kd_check_fields(p, err, errlen);
}

int kd_output(FILE *out, const struct kd_tree *t, const struct kd_params *p)
{
	switch (p->mode) {
	case KD_CALLTREE: return kd_calltree(out, t, p);
	case KD_FOLDED: return kd_folded(out, t);
	case KD_JSON: return kd_json(out, t);
	case KD_SVG: return kd_svg(out, t);
	default: return kd_summary(out, t, p);
	}
}

/* The program proper: the unit tests link the rest without it. */
#ifndef KD_NO_MAIN
#include "closeout.h"

/* The log of p's FILE, or NULL after saying why. */
static struct kftlog *kd_read_log(const struct kd_params *p, const char *name)
{
	FILE *in = p->file ? fopen(p->file, "r") : stdin;
	struct kftlog *log;

	if (!in) {
		fprintf(stderr, "kd: %s: %s\n", name, strerror(errno));
		return NULL;
	}
	log = kftlog__read(in, name, stderr, p->max_rows);
	if (!log && errno == EFBIG)
		fprintf(stderr, "kd: %s: over kd's limit of %zu rows (or of %zu bytes of "
			"distinct names): --max-rows N raises it\n", name, p->max_rows,
			p->max_rows * KFTLOG_NAME_BYTES_PER_ROW);
	else if (!log)
		fprintf(stderr, "kd: %s: %s\n", name, strerror(errno));
	if (in != stdin)
		fclose(in);
	if (log && log->scan.count_mode) {
		fprintf(stderr, "kd: %s is a count-mode log (mode count): its rows are "
			"already a summary; kd analyzes trace logs\n", name);
		kftlog__free(log);
		return NULL;
	}
	if (log && !kftlog_scan_is_log(&log->scan)) {
		fprintf(stderr, "kd: no kft log rows found in %s\n", name);
		kftlog__free(log);
		return NULL;
	}
	if (log && p->verbose)
		fprintf(stderr, "kd: %s: %zu rows, %zu skipped\n", name, log->nr,
			log->scan.malformed);
	return log;
}

static int kd_run(const struct kd_params *p)
{
	const char *name = p->file ? p->file : "(stdin)";
	struct ksyms *ks = NULL;
	struct kftlog *log;
	struct kd_tree tree;
	int ret = 1;

	if (p->map && !(ks = ksyms__load(p->map))) {
		fprintf(stderr, "kd: %s: %s\n", p->map, ksyms__strerror(errno));
		return 1;
	}
	log = kd_read_log(p, name);
	if (!log)
		goto out_ksyms;
	if (kd_tree_build(&tree, log, ks)) {
		fprintf(stderr, "kd: out of memory\n");
		goto out_log;
	}
	ret = kd_output(stdout, &tree, p) ? 1 : 0;
	if (close_stdout("kd"))
		ret = 1;
	kd_tree_free(&tree);
out_log:
	kftlog__free(log);
out_ksyms:
	ksyms__free(ks);
	return ret;
}

int main(int argc, char **argv)
{
	struct kd_params p;
	char err[256];

	if (kd_parse_args(argc, argv, &p, err, sizeof(err))) {
		fprintf(stderr, "kd: %s\n", err);
		kd_usage(stderr);
		return 2;
	}
	if (p.help) {
		kd_usage(stdout);
		return 0;
	}
	return kd_run(&p);
}
#endif
