// SPDX-License-Identifier: GPL-2.0
/*
 * kft trace's globs named one by one (expand.c): the traceable functions
 * read from kallsyms and available_filter_functions, and configurations
 * rewritten, with the limit of kretprobes.
 */
#include <stdlib.h>
#include "unit.h"
#include "kft.h"
#include "ksyms.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char kallsyms[] =
	"ffffffff81000000 T vfs_read\n"
	"ffffffff81000100 T vfs_readv\n"
	"ffffffff81000200 T vfs_write\n"
	"ffffffff81000300 t vfs_writev\n"
	"ffffffff81000400 T tcp_sendmsg\n"
	"ffffffff81000500 D vfs_data\n"
	"ffffffff81000600 t dup_name\n"
	"ffffffff81000700 t dup_name\n"
	"ffffffffc0000000 t kft_test_leaf\t[kft_test]\n"
	"ffffffffc0000100 t kft_test_middle\t[kft_test]\n";

/* ftrace's list: a placeholder, a name kallsyms lacks, a malformed line. */
static const char traceable[] =
	"vfs_write\n"
	"vfs_read\n"
	"__ftrace_invalid_address___64\n"
	"vfs_readv\n"
	"vfs_writev\n"
	"tcp_sendmsg\n"
	"not_in_kallsyms\n"
	"dup_name\n"
	"dup_name\n"
	"kft_test_leaf [kft_test]\n"
	"kft_test_middle [kft_test]\n"
	"three words here\n";

/* The functions of map and list text: 0, or -1. */
static int funcs_of(const char *map, const char *list, struct kft_funcs *f)
{
	struct ksyms *ks = ksyms__parse(map, strlen(map));
	FILE *in = fmemopen((void *)list, strlen(list), "r");
	int ret = ks && in ? kft_funcs_read(f, ks, in) : -1;

	if (in)
		fclose(in);
	ksyms__free(ks);
	return ret;
}

static void test_funcs_read(void)
{
	static const char *const want[] = {
		"dup_name", "kft_test:kft_test_leaf", "kft_test:kft_test_middle", "tcp_sendmsg",
		"vfs_read", "vfs_readv", "vfs_write", "vfs_writev",
	};
	struct kft_funcs f;
	size_t i;

	CHECK(!funcs_of(kallsyms, traceable, &f), "read failed");
	CHECK(f.nr == ARRAY_SIZE(want), "%zu functions, expected %zu", f.nr, ARRAY_SIZE(want));
	for (i = 0; i < f.nr && i < ARRAY_SIZE(want); i++)
		CHECK_STR(f.names[i], want[i], "sorted, each once, module:name");
	kft_funcs_free(&f);
}

struct name_case {
	const char *in;
	const char *out;	/* NULL: refused */
	size_t named;
	const char *err;	/* refused: the start of the message */
};

static void test_globs_name(void)
{
	static const struct name_case cases[] = {
		{ "new begin filter funclist vfs_r* fend end\n",
		  "new begin filter funclist vfs_read vfs_readv fend end\n", 2, NULL },
		/* A function named already is not named again. */
		{ "new begin filter funclist vfs_read vfs_* tcp_sendmsg fend end\n",
		  "new begin filter funclist vfs_read vfs_readv vfs_write vfs_writev tcp_sendmsg "
		  "fend end\n", 3, NULL },
		{ "new begin filter funclist vfs_w* vfs_*v fend end\n",
		  "new begin filter funclist vfs_write vfs_writev vfs_readv fend end\n", 3, NULL },
		/* Lines, comments and the other statements stay where they were. */
		{ "new\nbegin\n  # vfs_* stays\n  trigger start entry vfs_read\n"
		  "  filter funclist vfs_[!r]?ite kft_test_* fend\nend\n",
		  "new\nbegin\n  # vfs_* stays\n  trigger start entry vfs_read\n"
		  "  filter funclist vfs_write kft_test:kft_test_leaf kft_test:kft_test_middle fend\n"
		  "end\n", 3, NULL },
		/* A string filter's text stays as written, escapes and globs in it too. */
		{ "new begin filter arg 2 ustring ~ \"/etc/* \\\"vfs_*\\\"\"\n"
		  "filter funclist vfs_r* fend end\n",
		  "new begin filter arg 2 ustring ~ \"/etc/* \\\"vfs_*\\\"\"\n"
		  "filter funclist vfs_read vfs_readv fend end\n", 2, NULL },
		/* Two of one name: one name, kprobes' choice. */
		{ "new begin filter funclist dup_* fend end\n",
		  "new begin filter funclist dup_name fend end\n", 1, NULL },
		{ "new begin filter funclist vfs_read nosuch_* fend end\n", NULL, 0,
		  "line 1, column 36: no traceable function matches 'nosuch_*'" },
		{ "new begin filter funclist vfs_read vfs_data* fend end\n", NULL, 0,
		  "line 1, column 36: no traceable function matches 'vfs_data*'" },
		{ "new begin filter funclist vfs_* fend\n", NULL, 0, "line 2, column 1: missing 'end'" },
		/* No glob in the funclist (a trigger's was refused): "". */
		{ "new begin filter funclist vfs_read fend end\n", NULL, 0, "" },
		{ "new begin trigger start entry vfs_* filter funclist vfs_read fend end\n", NULL, 0,
		  "" },
	};
	struct kft_funcs f;
	char err[512], *out;
	size_t i, named;

	CHECK(!funcs_of(kallsyms, traceable, &f), "read failed");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		err[0] = '\0';
		named = 99;
		out = kft_globs_name(cases[i].in, &f, &named, err, sizeof(err));
		if (cases[i].out) {
			CHECK_STR(out, cases[i].out, cases[i].in);
			CHECK(named == cases[i].named, "'%s': named %zu, expected %zu",
			      cases[i].in, named, cases[i].named);
		} else {
			CHECK(!out && !strncmp(err, cases[i].err, strlen(cases[i].err)) &&
			      (cases[i].err[0] || !err[0]),
			      "'%s': '%s', expected refused: '%s'", cases[i].in, out ? out : err,
			      cases[i].err);
		}
		free(out);
	}
	kft_funcs_free(&f);
}

/*
 * kft trace -a: args after begin, unless the configuration says args; a
 * string filter's text is one word, whatever words it holds.
 */
static void test_config_with_args(void)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "new begin filter funclist f fend end", "new begin args filter funclist f fend end" },
		{ "begin args end", "begin args end" },
		{ "new begin # args\nend", "new begin args # args\nend" },
		{ "new begin filter arg 1 string == \"args\" end",
		  "new begin args filter arg 1 string == \"args\" end" },
		{ "new begin filter arg 1 string == \"a # b \\\" args\" end",
		  "new begin args filter arg 1 string == \"a # b \\\" args\" end" },
		{ "new # \"\nbegin filter arg 1 string ~ \"* begin *\" end",
		  "new # \"\nbegin args filter arg 1 string ~ \"* begin *\" end" },
	};
	char err[256], *out;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		out = kft_config_with_args(cases[i].in, err, sizeof(err));
		CHECK_STR(out, cases[i].out, cases[i].in);
		free(out);
	}
}

/* nr functions f_NNN (each name padded to width), as kallsyms and ftrace list them. */
static int many_funcs(unsigned int nr, int width, struct kft_funcs *f)
{
	char *map = malloc(nr * (width + 40) + 1), *list = malloc(nr * (width + 2) + 1);
	size_t m = 0, l = 0;
	unsigned int i;
	int ret = -1;

	if (map && list) {
		for (i = 0; i < nr; i++) {
			m += sprintf(map + m, "ffffffff8%07x T f_%0*u\n", i * 16, width - 2, i);
			l += sprintf(list + l, "f_%0*u\n", width - 2, i);
		}
		ret = funcs_of(map, list, f);
	}
	free(map);
	free(list);
	return ret;
}

/* At most KFT_MAX_KRETPROBES functions, names and globs' together. */
static void test_globs_name_limit(void)
{
	static const char over[] = "line 1, column 36: 'f_*' brings the funclist to 513 functions";
	struct kft_funcs f;
	char err[512], *out;
	size_t named;

	CHECK(!many_funcs(KFT_MAX_KRETPROBES, 8, &f), "read failed");
	out = kft_globs_name("new begin filter funclist f_* fend end\n", &f, &named, err,
			     sizeof(err));
	CHECK(out && named == KFT_MAX_KRETPROBES, "the most: %s", out ? "" : err);
	free(out);
	out = kft_globs_name("new begin filter funclist vfs_read f_* fend end\n", &f, &named,
			     err, sizeof(err));
	CHECK(!out && !strncmp(err, over, strlen(over)) && strstr(err, "at most 512"),
	      "one over: '%s', expected '%s... at most 512'", out ? out : err, over);
	free(out);
	/* f_000001 named too is still 512. */
	out = kft_globs_name("new begin filter funclist f_000001 f_* fend end\n", &f, &named,
			     err, sizeof(err));
	CHECK(out && named == KFT_MAX_KRETPROBES - 1, "a name among them: %s", out ? "" : err);
	free(out);
	kft_funcs_free(&f);
	/* 500 names of 140 bytes: more than a configuration holds. */
	CHECK(!many_funcs(500, 140, &f), "read failed");
	out = kft_globs_name("new begin filter funclist f_* fend end\n", &f, &named, err,
			     sizeof(err));
	CHECK(!out && strstr(err, "longer than kft takes (65536 bytes)"), "too long: '%s'",
	      out ? out : err);
	free(out);
	kft_funcs_free(&f);
}

UNIT_MAIN(test_funcs_read, test_globs_name, test_globs_name_limit, test_config_with_args)
