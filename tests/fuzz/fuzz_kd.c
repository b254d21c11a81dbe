// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: kd on arbitrary logs, one build per mode (FUZZ_KD_MODE
 * is its enum kd_mode, e.g. KD_SVG). The first byte picks a set of the mode's
 * options and whether a small symbol table symbolizes raw addresses; the
 * rest is the log, parsed, built into the call tree and written out in
 * that mode to /dev/null, as kd does. A stacks-mode log is folded (--folded,
 * --flamegraph); --flamegraph also reads the input as kd does, a kft log
 * or folded stacks, which it draws.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "flame.h"
#include "kd.h"

#define FUZZ_ASSERT(cond) do { if (!(cond)) __builtin_trap(); } while (0)

/* Option sets of every mode; those of other modes are skipped. */
static const char *const fuzz_options[][6] = {
	{ "" }, { "-l" }, { "-f", "Fctarslmnu", "-s", "l" }, { "-f", "uF", "-s", "a", "-n", "3" },
	{ "-s", "F", "-t", "5" }, { "-s", "c" }, { "-s", "s", "-f", "mnr" },
	{ "-c" }, { "-c", "-l" }, { "-c", "-l", "-i" }, { "-c", "-f", "etlp", "-d", "2" },
	{ "-c", "-i", "-d", "1", "-m", "3" },
	{ "-f", "FoqbOQB", "-s", "Q" }, { "-l", "-s", "b" },
	{ "--folded" }, { "--folded", "--snapshots" }, { "--json" }, { "--svg" },
	{ "--folded", "--weigh", "wall" }, { "--folded", "--weigh", "offcpu" },
	{ "--flamegraph" }, { "--flamegraph", "--snapshots", "--title", "<&\"'>" },
	{ "--flamegraph", "--weigh", "oncpu" },
	{ "-P" }, { "--per-process", "-n", "2" },
};

static const char fuzz_map[] =
	"ffffffff81000000 T outer\n"
	"ffffffff81000100 T middle\n"
	"ffffffff81000200 t leaf\n"
	"ffffffffc0000000 t modfn\t[mymod]\n";

static FILE *fuzz_null;
static struct ksyms *fuzz_ks;

/* The option sets of this build's mode, parsed as kd parses them, in p[]. */
static size_t fuzz_mode_params(struct kd_params *p, size_t max)
{
	size_t i, n = 0;
	char err[128];

	for (i = 0; i < sizeof(fuzz_options) / sizeof(fuzz_options[0]) && n < max; i++) {
		char *argv[8] = { (char *)"kd" };
		int argc = 1;

		while (argc < 7 && fuzz_options[i][argc - 1] && fuzz_options[i][argc - 1][0]) {
			argv[argc] = (char *)fuzz_options[i][argc - 1];
			argc++;
		}
		FUZZ_ASSERT(kd_parse_args(argc, argv, &p[n], err, sizeof(err)) == 0);
		if (p[n].mode == FUZZ_KD_MODE)
			n++;
	}
	return n;
}

/* p's output of a parsed log, as kd_run_log() makes it. */
static void fuzz_log(const struct kftlog *log, const struct kd_params *p, const struct ksyms *ks)
{
	struct kd_tree tree;

	/*
	 * A flame graph has limits of its own: a wide log meets them. Not a
	 * deep one: kd folds a log's stacks to the depth a flame graph takes.
	 */
	if (log->scan.stacks_mode && (p->mode == KD_FOLDED || p->mode == KD_FLAMEGRAPH)) {
		FUZZ_ASSERT(kd_stacks_output(fuzz_null, log, ks, p) == 0 || errno == EOVERFLOW);
		return;
	}
	if (kd_tree_build(&tree, log, ks) == 0) {
		FUZZ_ASSERT(kd_output(fuzz_null, &tree, p) == 0 ||
			    (p->mode == KD_FLAMEGRAPH && errno == EOVERFLOW));
		kd_tree_free(&tree);
	}
}

/* --flamegraph: the input told apart as kd does, a log or folded stacks. */
static void fuzz_flame(const uint8_t *data, size_t size, const struct kd_params *p,
		       const struct ksyms *ks)
{
	FILE *in = fmemopen((void *)data, size, "r");
	struct kftcon_info info;
	struct kftlog *log = NULL;
	struct flame f;

	if (!in || flame__init(&f, "samples")) {
		if (in)
			fclose(in);
		return;
	}
	if (kd_read_flame_input(in, "fuzz", NULL, KFTLOG_MAX_ROWS, 0, NULL, &log, &info, &f) == 0) {
		if (log)
			fuzz_log(log, p, ks);
		else
			FUZZ_ASSERT(flame__svg(fuzz_null, &f, p->title) == 0);
	} else {
		FUZZ_ASSERT(errno == E2BIG || errno == EOVERFLOW || errno == EFBIG);
	}
	kftlog__free(log);
	flame__free(&f);
	fclose(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kd_params params[16];
	static size_t nparams;
	const struct kd_params *p;
	const struct ksyms *ks;
	struct kftcon_info info;
	struct kftlog *log;
	FILE *in;

	if (!fuzz_null) {
		fuzz_null = fopen("/dev/null", "w");
		fuzz_ks = ksyms__parse(fuzz_map, sizeof(fuzz_map) - 1);
		nparams = fuzz_mode_params(params, 16);
		FUZZ_ASSERT(fuzz_null && fuzz_ks && nparams);
	}
	if (size < 1)
		return 0;
	p = &params[data[0] % nparams];
	ks = data[0] & 0x80 ? fuzz_ks : NULL;
	if (p->mode == KD_FLAMEGRAPH) {
		fuzz_flame(data + 1, size - 1, p, ks);
		return 0;
	}
	/* As kd reads it: a log, or a saved console's last calls (kftcon.h). */
	in = fmemopen((void *)(data + 1), size - 1, "r");
	if (!in)
		return 0;
	log = kftcon__read(in, "fuzz", NULL, KFTLOG_MAX_ROWS, data[0] & 0x40 ? 1 : 0, NULL,
			   &info);
	fclose(in);
	if (!log)
		return 0;
	fuzz_log(log, p, ks);
	kftlog__free(log);
	return 0;
}
