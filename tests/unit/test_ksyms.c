// SPDX-License-Identifier: GPL-2.0
/* Symbol tables, the symbolizer, and addr2sym's options. */
#include <stdlib.h>
#include "unit.h"
#include "ksyms.h"
#include "symbolize.h"
#include "addr2sym.h"

static const char map[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81001000 t do_one_thing\n"
	"ffffffff81002000 T vfs_read\n"
	"ffffffff81002000 A an_absolute\n"
	"this line is not a symbol\n"
	"ffffffffc0001000 t ext4_file_read_iter\t[ext4]\n"
	"ffffffffc0002000 t helper\t[ext4]\n"
	"ffffffffc0003000 t helper\t[xfs]\n";

static struct ksyms *load(void)
{
	return ksyms__parse(map, sizeof(map) - 1);
}

/* The malformed line is counted as skipped; the absolute symbol is only left out. */
static void test_load_skips_malformed_and_absolute(void)
{
	struct ksyms *ks = load();

	CHECK(ks->nr == 7, "loaded %zu symbols, expected 7", ks->nr);
	CHECK(ks->skipped == 1, "skipped %zu lines, expected 1", ks->skipped);
	ksyms__free(ks);
}

/*
 * One line each, after a good one: an address is hex digits from the
 * line's first byte (strtoull took blanks, a sign and "0x" before them),
 * and a NUL byte makes a line none (strtok stopped at it, the rest lost).
 * A malformed line is counted as skipped; a blank one, an absolute
 * symbol and a mapping symbol are left out uncounted, as /proc/kallsyms
 * has them.
 */
static void test_load_line_forms(void)
{
	static const struct {
		const char *line;
		size_t len;	/* 0: strlen(line) */
		size_t nr, skipped;
	} cases[] = {
		{ "ffffffffc0000000 t foo\t[mod]\n", 0, 2, 0 },
		{ "ffffffffc0000000 t foo [mod]\n", 0, 2, 0 },
		{ "ffffffffc0000000\tt\tfoo\n", 0, 2, 0 },
		{ "FFFFFFFFC0000000 T foo", 0, 2, 0 },
		{ "\n", 0, 1, 0 },
		{ "0000000000000000 A abs\n", 0, 1, 0 },
		{ "ffffffffc0000000 t $x\t[mod]\n", 0, 1, 0 },
		{ "-1 T neg\n", 0, 1, 1 },
		{ "+10 T plus\n", 0, 1, 1 },
		{ "  +0x10 T plus\n", 0, 1, 1 },
		{ " ffffffff81000200 T lead\n", 0, 1, 1 },
		{ "0x10 T hex\n", 0, 1, 1 },
		{ "1ffffffffffffffff T big\n", 0, 1, 1 },
		{ "ffffffff81000200 T good\0junk\n", 29, 1, 1 },
		{ "ffffffff81000200\0 T nul\n", 24, 1, 1 },
		{ "ffffffff81000200 T\n", 0, 1, 1 },
	};
	char text[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static const char first[] = "ffffffff81000100 T first\n";
		size_t len = cases[i].len ? cases[i].len : strlen(cases[i].line);
		struct ksyms *ks;

		memcpy(text, first, sizeof(first) - 1);
		memcpy(text + sizeof(first) - 1, cases[i].line, len);
		ks = ksyms__parse(text, sizeof(first) - 1 + len);
		CHECK(ks && ks->nr == cases[i].nr && ks->skipped == cases[i].skipped,
		      "'%s': %zu symbols and %zu skipped, expected %zu and %zu", cases[i].line,
		      ks ? ks->nr : 0, ks ? ks->skipped : 0, cases[i].nr, cases[i].skipped);
		ksyms__free(ks);
	}
}

/* The warning the tools give: once, with the count and the map's name; none without. */
static void test_say_skipped(void)
{
	static const char bad[] = "ffffffff81000100 T first\n-1 T neg\n0x10 T hex\n";
	struct ksyms *ks = ksyms__parse(bad, sizeof(bad) - 1);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	ksyms__say_skipped(ks, "kd", "System.map", f);
	ksyms__free(ks);
	ks = load();
	ksyms__say_skipped(ks, "kd", "kallsyms", f);
	ksyms__free(ks);
	fclose(f);
	CHECK_STR(out, "kd: warning: 2 lines of System.map skipped (not 'ADDRESS TYPE NAME "
		  "[MODULE]', or over 1 KiB)\nkd: warning: 1 line of kallsyms skipped (not "
		  "'ADDRESS TYPE NAME [MODULE]', or over 1 KiB)\n", "the warnings");
	free(out);
}

static void test_map_addr(void)
{
	static const struct { unsigned long long addr; const char *expected; } cases[] = {
		{ 0xffffffff81002000ULL, "vfs_read" },
		{ 0xffffffff81002010ULL, "vfs_read+0x10" },
		{ 0xffffffff81000004ULL, "_stext+0x4" },	/* first of equals */
		{ 0xffffffffc0001abcULL, "ext4:ext4_file_read_iter+0xabc" },
		{ 0xffffffffc0003000ULL, "xfs:helper" },
	};
	struct ksyms *ks = load();
	char buf[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ksym *s = ksyms__map_addr(ks, cases[i].addr);

		CHECK_STR(s ? ksyms__format(s, cases[i].addr, buf, sizeof(buf)) : NULL,
			  cases[i].expected, "address to symbol");
	}
	CHECK(!ksyms__map_addr(ks, 0xffffffff80000000ULL), "below the first symbol");
	CHECK(!ksyms__map_addr(ks, 0xffffffffd0000000ULL), "far past the last symbol");
	ksyms__free(ks);
}

/*
 * An address 1 MiB or more past the symbol below it is in none, between
 * two symbols as after the last (vfs_read's next is ext4's, 1 GiB on).
 * Within 1 MiB it is still the symbol's (the control).
 */
static void test_map_addr_gap(void)
{
	static const struct { unsigned long long addr; const char *expected; } cases[] = {
		{ 0xffffffff810fffffULL, "vfs_read+0xfdfff" },
		{ 0xffffffff81102000ULL, NULL },
		{ 0xffffffff90000000ULL, NULL },
		{ 0xffffffffc0000fffULL, NULL },
		{ 0xffffffffc0001000ULL, "ext4:ext4_file_read_iter" },
		{ 0xffffffffc00fffffULL, "xfs:helper+0xfcfff" },
		{ 0xffffffffc0103000ULL, NULL },
	};
	struct ksyms *ks = load();
	char buf[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ksym *s = ksyms__map_addr(ks, cases[i].addr);
		const char *got = s ? ksyms__format(s, cases[i].addr, buf, sizeof(buf)) : NULL;
		const char *want = cases[i].expected;

		CHECK(want ? got && !strcmp(got, want) : !got, "0x%llx: expected %s, got %s",
		      cases[i].addr, want ? want : "none", got ? got : "none");
	}
	ksyms__free(ks);
}

/*
 * A map with CRLF line ends (copied through Windows): the same names and
 * modules as without, no '\r' in them, and a module's symbol still its
 * module's.
 */
static void test_load_crlf(void)
{
	static const char crlf[] = "ffffffff81000000 T vfs_read\r\n"
				   "ffffffffc0001000 t helper\t[ext4]\r\n"
				   "\r\n";
	struct ksyms *ks = ksyms__parse(crlf, sizeof(crlf) - 1);
	const struct ksym *s;

	CHECK(ks && ks->nr == 2 && !ks->skipped, "two symbols, none skipped: %zu, %zu",
	      ks ? ks->nr : 0, ks ? ks->skipped : 0);
	s = ks ? ksyms__find_name(ks, "vfs_read") : NULL;
	CHECK(s && !s->module, "vfs_read found by its name, in vmlinux");
	s = ks ? ksyms__find_name(ks, "ext4:helper") : NULL;
	CHECK(s && s->addr == 0xffffffffc0001000ULL, "ext4:helper found by its module");
	s = ks ? ksyms__map_addr(ks, 0xffffffffc0001000ULL) : NULL;
	CHECK_STR(s ? s->module : NULL, "ext4", "helper's module");
	CHECK_STR(s ? s->name : NULL, "helper", "helper's name");
	ksyms__free(ks);
}

/*
 * 32-bit ARM's /proc/kallsyms: a module's mapping symbols ($a: ARM code
 * begins, $d: data) at its functions' addresses name none of them.
 */
static void test_arm_mapping_symbols(void)
{
	static const char arm[] =
		"bf005000 t $a\t[kft_test]\n"
		"bf005000 t kft_test_leaf\t[kft_test]\n"
		"bf005020 t $d\t[kft_test]\n"
		"bf005040 t $a.1\t[kft_test]\n"
		"bf005040 t kft_test_middle\t[kft_test]\n";
	struct ksyms *ks = ksyms__parse(arm, sizeof(arm) - 1);
	const struct ksym *s;
	char buf[128];

	CHECK(ks && ks->nr == 2, "loaded %zu symbols, expected 2", ks ? ks->nr : 0);
	s = ksyms__map_addr(ks, 0xbf005000);
	CHECK_STR(s ? ksyms__format(s, 0xbf005000, buf, sizeof(buf)) : NULL,
		  "kft_test:kft_test_leaf", "a function at its mapping symbol");
	s = ksyms__map_addr(ks, 0xbf005024);
	CHECK_STR(s ? ksyms__format(s, 0xbf005024, buf, sizeof(buf)) : NULL,
		  "kft_test:kft_test_leaf+0x24", "past a data mapping symbol");
	CHECK(!ksyms__find_name(ks, "$a"), "a mapping symbol found by name");
	ksyms__free(ks);
}

/*
 * RISC-V's /proc/kallsyms (Debian 13's 6.12): a module's mapping symbol
 * with its ISA string, and the assembler's local labels (".LPFE" at each
 * function's start, ".LFB", ".LBB", ".L0 ") name none of its functions;
 * seen hiding kft_test_err_outer from kft errtrace.
 */
static void test_riscv_local_labels(void)
{
	static const char rv[] =
		"ffffffff0220e000 t $xrv64i2p1_m2p0_a2p1_c2p0\t[kft_test]\n"
		"ffffffff0220e000 t kft_test_leaf\t[kft_test]\n"
		"ffffffff0220e080 t .LPFE3268\t[kft_test]\n"
		"ffffffff0220e080 t kft_test_err_outer\t[kft_test]\n"
		"ffffffff0220e0a8 t .LFB3269\t[kft_test]\n"
		"ffffffff0220e0b0 t .LBB89\t[kft_test]\n"
		"ffffffff0220e0e8 t .L0 \t[kft_test]\n"
		"ffffffff0220e0f4 t kft_test_sleep\t[kft_test]\n";
	struct ksyms *ks = ksyms__parse(rv, sizeof(rv) - 1);
	const struct ksym *s;
	char buf[128];

	CHECK(ks && ks->nr == 3, "loaded %zu symbols, expected 3", ks ? ks->nr : 0);
	s = ksyms__map_addr(ks, 0xffffffff0220e080);
	CHECK_STR(s ? ksyms__format(s, 0xffffffff0220e080, buf, sizeof(buf)) : NULL,
		  "kft_test:kft_test_err_outer", "a function at its local label");
	s = ksyms__map_addr(ks, 0xffffffff0220e0b2);
	CHECK_STR(s ? ksyms__format(s, 0xffffffff0220e0b2, buf, sizeof(buf)) : NULL,
		  "kft_test:kft_test_err_outer+0x32", "past two local labels");
	CHECK(!ksyms__find_name(ks, ".LPFE3268"), "a local label found by name");
	ksyms__free(ks);
}

static void test_find_name(void)
{
	struct ksyms *ks = load();
	const struct ksym *s;

	s = ksyms__find_name(ks, "vfs_read");
	CHECK(s && s->addr == 0xffffffff81002000ULL, "vfs_read");
	s = ksyms__find_name(ks, "xfs:helper");
	CHECK(s && s->addr == 0xffffffffc0003000ULL, "xfs:helper");
	s = ksyms__find_name(ks, "ext4:helper");
	CHECK(s && s->addr == 0xffffffffc0002000ULL, "ext4:helper");
	CHECK(!ksyms__find_name(ks, "btrfs:helper"), "btrfs:helper is no symbol");
	CHECK(!ksyms__find_name(ks, "nothing"), "nothing");
	ksyms__free(ks);
}

/*
 * Static functions of one name: every one of them, vmlinux's first, then
 * by module and address; a line listed twice is one function.
 */
static void test_find_all(void)
{
	static const char dups[] =
		"ffffffff81000300 t init_once\n"
		"ffffffffc0000000 t init_once\t[b]\n"
		"ffffffff81000100 t init_once\n"
		"ffffffffc0001000 t init_once\t[a]\n"
		"ffffffff81000100 t init_once\n"
		"ffffffff81000200 T other\n";
	static const struct { const char *name; size_t n; unsigned long long addr[3]; } cases[] = {
		{ "init_once", 4, { 0xffffffff81000100ULL, 0xffffffff81000300ULL, 0xffffffffc0001000ULL } },
		{ "b:init_once", 1, { 0xffffffffc0000000ULL } },
		{ "other", 1, { 0xffffffff81000200ULL } },
		{ "c:init_once", 0, { 0 } },
		{ "init", 0, { 0 } },
	};
	struct ksyms *ks = ksyms__parse(dups, sizeof(dups) - 1);
	size_t i, k, first, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = ksyms__find_all(ks, cases[i].name, &first);
		CHECK(n == cases[i].n, "%s: %zu symbols, expected %zu", cases[i].name, n, cases[i].n);
		for (k = 0; k < n && k < 3; k++)
			CHECK(ks->by_name[first + k]->addr == cases[i].addr[k],
			      "%s: #%zu at 0x%llx, expected 0x%llx", cases[i].name, k,
			      (unsigned long long)ks->by_name[first + k]->addr, cases[i].addr[k]);
	}
	CHECK(ksyms__find_name(ks, "init_once") == ks->by_name[0], "find_name: the first");
	ksyms__free(ks);
}

/*
 * A line repeated with another module's symbol of the same name and
 * address between the two (vmlinux's here) is still one symbol.
 */
static void test_find_all_repeats_apart(void)
{
	static const char map3[] =
		"ffffffffc0001000 t foo\t[m1]\n"
		"ffffffffc0001000 t foo\n"
		"ffffffffc0001000 t foo\t[m1]\n"
		"ffffffffc0001000 t foo\t[m2]\n"
		"ffffffffc0001000 t foo\n";
	struct ksyms *ks = ksyms__parse(map3, sizeof(map3) - 1);
	size_t first, n;

	n = ksyms__find_all(ks, "m1:foo", &first);
	CHECK(n == 1, "m1:foo: %zu symbols, expected 1", n);
	n = ksyms__find_all(ks, "foo", &first);
	CHECK(n == 3, "foo: %zu symbols, expected 3 (vmlinux's, m1's, m2's)", n);
	CHECK(n == 3 && !ks->by_name[first]->module &&
	      !strcmp(ks->by_name[first + 1]->module, "m1") &&
	      !strcmp(ks->by_name[first + 2]->module, "m2"), "foo: vmlinux's first, then m1, m2");
	CHECK(ks->nr == 3, "%zu symbols kept, expected 3", ks->nr);
	ksyms__free(ks);
}

static void test_symbolize_line(void)
{
	static const struct { const char *in, *out; } cases[] = {
		/* A kft row: columns stay where they were. */
		{ "       3       60    33.1  0xffffffff81002000               0xffffffff81001010\n",
		  "       3       60    33.1  vfs_read                         do_one_thing+0x10 \n" },
		/* Upper case, no 0x with 16 digits, 8-digit and short ones left alone. */
		{ "at 0XFFFFFFFF81002004 and ffffffff81001000 but not 12345678 or 0x10",
		  "at vfs_read+0x4       and do_one_thing     but not 12345678 or 0x10" },
		/* Inside a word, or followed by one: not an address. */
		{ "id_ffffffff81002000 0xffffffff81002000z", "id_ffffffff81002000 0xffffffff81002000z" },
		/* A module symbol is one word. */
		{ "0xffffffffc0001000 x", "ext4:ext4_file_read_iter x" },
		{ "", "" },
	};
	struct ksyms *ks = load();
	char out[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		symbolize_line(ks, cases[i].in, out, sizeof(out));
		CHECK_STR(out, cases[i].out, cases[i].in);
	}
	/* A short buffer is cut, never overrun. */
	symbolize_line(ks, cases[0].in, out, 10);
	CHECK(strlen(out) == 9, "cut to %zu bytes", strlen(out));
	ksyms__free(ks);
}

/*
 * kallsyms' names have up to 511 bytes since 6.1: a name of 507 with its
 * offset, "+0x1f4", and with a module's name before it, is written whole.
 */
static void test_symbolize_long_names(void)
{
	char name[508], text[1200], want[1100], out[1100];
	const char *sym;
	struct ksyms *ks;

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(text, sizeof(text), "ffffffff81000000 T %s\nffffffffc0000000 t %s\t[mymod]\n",
		 name, name);
	ks = ksyms__parse(text, strlen(text));
	snprintf(want, sizeof(want), "%s+0x1f4", name);
	symbolize_line(ks, "0xffffffff810001f4", out, sizeof(out));
	CHECK_STR(out, want, "a 507-byte name at +0x1f4 (symbolize_line)");
	sym = symbolize_word(ks, "0xffffffff810001f4", out, sizeof(out));
	CHECK_STR(sym, want, "a 507-byte name at +0x1f4 (symbolize_word)");
	snprintf(want, sizeof(want), "mymod:%s+0x1f4", name);
	symbolize_line(ks, "0xffffffffc00001f4", out, sizeof(out));
	CHECK_STR(out, want, "a module's 507-byte name at +0x1f4");
	ksyms__free(ks);
}

static void test_addr2sym_args(void)
{
	char a0[] = "addr2sym", a1[] = "-m", a2[] = "map.txt", a3[] = "log", a4[] = "-x";
	char *ok[] = { a0, a1, a2, a3, NULL };
	char *bad[] = { a0, a4, NULL };
	char *two[] = { a0, a3, a3, NULL };
	struct addr2sym_params p;
	char err[128];

	CHECK(addr2sym__parse_args(4, ok, &p, err, sizeof(err)) == 0, "valid: %s", err);
	CHECK_STR(p.map, "map.txt", "map");
	CHECK_STR(p.file, "log", "file");
	CHECK(addr2sym__parse_args(2, bad, &p, err, sizeof(err)) == -1, "-x accepted");
	CHECK_STR(err, "unknown option '-x'", "message");
	CHECK(addr2sym__parse_args(3, two, &p, err, sizeof(err)) == -1, "two files accepted");
	CHECK_STR(err, "more than one FILE", "two files");
	CHECK(addr2sym__parse_args(1, ok, &p, err, sizeof(err)) == 0 && !p.file &&
	      !strcmp(p.map, "/proc/kallsyms"), "defaults");
}

/*
 * getopt's errors as every tool says them (test_opterr.c has the rest):
 * -m without its map, a long option given a value it takes none of, an
 * option after FILE.
 */
static void test_addr2sym_option_errors(void)
{
	static const struct {
		const char *args[4];
		const char *err;
	} cases[] = {
		{ { "-m", NULL }, "option -m needs an argument" },
		{ { "-am", NULL }, "option -m needs an argument" },
		{ { "--help=1", NULL }, "option --help takes no argument" },
		{ { "log", "-m", "map", NULL }, "-m: options go before FILE" },
	};
	struct addr2sym_params p;
	char err[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[5] = { (char *)"addr2sym" };
		int argc = 1;

		while (cases[i].args[argc - 1]) {
			argv[argc] = (char *)cases[i].args[argc - 1];
			argc++;
		}
		err[0] = '\0';
		CHECK(addr2sym__parse_args(argc, argv, &p, err, sizeof(err)) == -1,
		      "%s: accepted", cases[i].args[0]);
		CHECK_STR(err, cases[i].err, cases[i].args[0]);
	}
}

UNIT_MAIN(test_load_skips_malformed_and_absolute, test_load_line_forms, test_say_skipped,
	  test_map_addr, test_map_addr_gap, test_load_crlf, test_arm_mapping_symbols,
	  test_riscv_local_labels,
	  test_find_name, test_find_all, test_find_all_repeats_apart,
	  test_symbolize_line, test_symbolize_long_names, test_addr2sym_args, test_addr2sym_option_errors)
