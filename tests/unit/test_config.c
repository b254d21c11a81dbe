// SPDX-License-Identifier: GPL-2.0
/* The configuration language parser (module/kft_config.c), in userspace. */
#include <stdlib.h>
#include "unit.h"
#include "kft_config.h"

#define OK(text) { text, KFT_ERR_NONE, 0, 0, false }
#define BAD(text, code, line, col) { text, KFT_ERR_##code, line, col, false }
#define INCOMPLETE(text, code, line, col) { text, KFT_ERR_##code, line, col, true }

/* One input and what the parser must say of it. */
struct parse_case {
	const char *text;
	enum kft_parse_err err;		/* KFT_ERR_NONE: must parse */
	unsigned int line, col;		/* of the error */
	bool incomplete;		/* error because the input ended */
};

static const struct parse_case cases[] = {
	/* Commands. */
	OK("prime"),
	OK("start\n"),
	OK("  stop  # now\n"),
	OK("clear"),
	BAD("prime start", COMMAND_NOT_ALONE, 1, 7),
	BAD("prim", EXPECTED_BEGIN, 1, 1),
	BAD("primed", EXPECTED_BEGIN, 1, 1),
	INCOMPLETE("", EMPTY, 1, 1),
	INCOMPLETE("  \n # only a comment\n", EMPTY, 3, 1),
	/* Blocks. */
	OK("new\nbegin\nend\n"),
	OK("begin end"),
	OK("new begin trigger start entry vfs_read end"),
	OK("new\nbegin\n  trigger start entry 0xffffffff810a2b40\n  trigger stop time 5000000\n"
	   "  filter mintime 500\n  filter maxtime 0\n  filter noints\nend\n"),
	OK("new\nbegin\n trigger start time 5000000\n trigger stop time 5000\n filter onlyints\nend"),
	OK("new\nbegin\n trigger start time 10000000\n filter funclist schedule fend\nend"),
	OK("begin\n trigger start entry start_kernel\n trigger stop exit to_userspace\n"
	   " filter mintime 500\n filter maxtime 0\n filter noints\nend"),
	OK("new begin filter funclist vfs_* tcp_?end ext4:ext4_* [a-c]* fend end"),
	OK("new begin filter funclist a\nb\n c fend end"),
	OK("new begin logentries 1 end"),
	OK("new begin logentries 16777216 end"),
	OK("new begin autorepeat trigger start exit do_sys_open end"),
	OK("new begin trigger start time 0 end"),
	OK("new begin filter mintime 10 filter maxtime 10 end"),
	OK("new begin filter mintime 1000000000000 end"),
	OK("new\tbegin\r\nend\r\n"),
	OK("new begin#comment\nend#c"),
	OK("new begin trigger start entry f#comment\nend"),
	OK("new begin trigger start entry 0XABCDEF end"),
	OK("new begin filter funclist __x64_sys_read.cold fend end"),
	/* Misspelt or truncated keywords: never a prefix match. */
	BAD("new begin trig start entry f end", UNKNOWN_STATEMENT, 1, 11),
	BAD("new begin trigger sta entry f end", EXPECTED_START_STOP, 1, 19),
	BAD("new begin trigger start ent f end", EXPECTED_TRIGGER_KIND, 1, 25),
	BAD("new begin filter min 5 end", EXPECTED_FILTER, 1, 18),
	BAD("new begin filter noint end", EXPECTED_FILTER, 1, 18),
	BAD("new begin logentry 5 end", UNKNOWN_STATEMENT, 1, 11),
	BAD("new begin autorepeats end", UNKNOWN_STATEMENT, 1, 11),
	BAD("new beg end", EXPECTED_BEGIN, 1, 5),
	BAD("new\nbegin\n  filter funclist a fend\n  ends\n", UNKNOWN_STATEMENT, 4, 3),
	/* Structure. */
	INCOMPLETE("new begin", MISSING_END, 1, 10),
	INCOMPLETE("new\nbegin\nfilter noints\n", MISSING_END, 4, 1),
	INCOMPLETE("new", EXPECTED_BEGIN, 1, 4),
	BAD("new begin end prime", AFTER_END, 1, 15),
	BAD("new begin end\nend", AFTER_END, 2, 1),
	BAD("new begin begin end", NESTED_BEGIN, 1, 11),
	BAD("begin new end", MISPLACED_NEW, 1, 7),
	BAD("new new begin end", EXPECTED_BEGIN, 1, 5),
	BAD("new begin prime end", COMMAND_NOT_ALONE, 1, 11),
	BAD("trigger start entry f", EXPECTED_BEGIN, 1, 1),
	BAD("new begin watch stack 1000 end", UNSUPPORTED, 1, 11),
	/* Funclists. */
	BAD("new begin filter funclist a b end", MISSING_FEND, 1, 18),
	INCOMPLETE("new begin\nfilter funclist a b", MISSING_FEND, 2, 8),
	BAD("new begin filter funclist fend end", EMPTY_FUNCLIST, 1, 18),
	BAD("new begin filter funclist a fend filter funclist b fend end", DUPLICATE, 1, 34),
	BAD("new begin filter funclist 12 fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist a-b fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist a::b fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist :a fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist mod: fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist [ab fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist a-[b] fend end", BAD_FUNCTION, 1, 27),
	/* '!' is ftrace's negation: only a bracket's complement may use it. */
	OK("new begin filter funclist [!a-c]* vfs_[!r]ead fend end"),
	BAD("new begin filter funclist !vfs_read fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist vfs! fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist [a!]* fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist ! fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin trigger start entry !x end", BAD_FUNCTION, 1, 31),
	BAD("new begin trigger stop exit !x end", BAD_FUNCTION, 1, 29),
	BAD("new begin filter funclist vfs_read:mod:ext4 fend end", BAD_FUNCTION, 1, 27),
	BAD("new begin filter funclist \\x fend end", BAD_FUNCTION, 1, 27),
	/* Functions and addresses. */
	BAD("new begin trigger start entry end", MISSING_FUNCTION, 1, 31),
	INCOMPLETE("new begin trigger start entry", MISSING_FUNCTION, 1, 30),
	BAD("new begin trigger start entry 0x end", BAD_FUNCTION, 1, 31),
	BAD("new begin trigger start entry 0xfg end", BAD_FUNCTION, 1, 31),
	BAD("new begin trigger start entry 0x0 end", BAD_FUNCTION, 1, 31),
	BAD("new begin trigger start entry 0x1ffffffffffffffff end", BAD_FUNCTION, 1, 31),
	BAD("new begin trigger stop exit f\"g end", BAD_FUNCTION, 1, 29),
	/* Numbers. */
	BAD("new begin filter mintime end", BAD_NUMBER, 1, 26),
	INCOMPLETE("new begin filter mintime", MISSING_NUMBER, 1, 25),
	BAD("new begin filter mintime -5 end", BAD_NUMBER, 1, 26),
	BAD("new begin filter mintime 5us end", BAD_NUMBER, 1, 26),
	BAD("new begin filter mintime 0x10 end", BAD_NUMBER, 1, 26),
	BAD("new begin filter mintime 1000000000001 end", NUMBER_RANGE, 1, 26),
	BAD("new begin filter maxtime 99999999999999999999999 end", NUMBER_RANGE, 1, 26),
	BAD("new begin logentries 0 end", NUMBER_RANGE, 1, 22),
	BAD("new begin logentries 16777217 end", NUMBER_RANGE, 1, 22),
	BAD("new begin trigger stop time 0 end", NUMBER_RANGE, 1, 29),
	/* Duplicates and conflicts. */
	BAD("new begin trigger start time 1\ntrigger start time 2 end", DUPLICATE, 2, 1),
	BAD("new begin trigger stop time 1 trigger stop entry f end", DUPLICATE, 1, 31),
	BAD("new begin filter mintime 1 filter mintime 2 end", DUPLICATE, 1, 28),
	BAD("new begin filter noints filter noints end", DUPLICATE, 1, 25),
	BAD("new begin logentries 5 logentries 6 end", DUPLICATE, 1, 24),
	BAD("new begin autorepeat autorepeat end", DUPLICATE, 1, 22),
	BAD("new begin\nfilter noints\nfilter onlyints\nend", INTS_CONFLICT, 3, 1),
	BAD("new begin\nfilter onlyints\nfilter noints\nend", INTS_CONFLICT, 3, 1),
	BAD("new begin\nfilter mintime 10\nfilter maxtime 5\nend", MIN_OVER_MAX, 3, 1),
	BAD("new begin\nfilter maxtime 5\nfilter mintime 10\nend", MIN_OVER_MAX, 3, 1),
	/* A passed start time would restart a repeat at once, forever. */
	BAD("new begin\nautorepeat\ntrigger start time 5\nend", AUTOREPEAT_TIME, 3, 1),
	BAD("new begin\ntrigger start time 5\nautorepeat\nend", AUTOREPEAT_TIME, 3, 1),
	OK("new begin trigger start entry f trigger stop time 5 autorepeat end"),
	/* Modes: what count mode has no use for is an error at the later statement. */
	OK("new begin mode count end"),
	OK("new begin mode trace filter mintime 5 logentries 9 end"),
	OK("new begin mode count filter funclist vfs_* fend filter noints "
	   "trigger start entry f trigger stop time 5 autorepeat end"),
	BAD("new begin mode counts end", EXPECTED_MODE, 1, 16),
	BAD("new begin mode end", EXPECTED_MODE, 1, 16),
	INCOMPLETE("new begin mode", EXPECTED_MODE, 1, 15),
	BAD("new begin mode count mode trace end", DUPLICATE, 1, 22),
	BAD("new begin mode count filter mintime 5 end", NOT_IN_COUNT_MODE, 1, 22),
	BAD("new begin filter maxtime 5 mode count end", NOT_IN_COUNT_MODE, 1, 28),
	BAD("new begin\nlogentries 5\nfilter mintime 3\nmode count\nend", NOT_IN_COUNT_MODE, 4, 1),
	BAD("new begin mode count logentries 5 filter mintime 3 end", NOT_IN_COUNT_MODE, 1, 22),
	/* Bytes. */
	BAD("new begin\x01 end", BAD_CHAR, 1, 10),
	BAD("new begin trigger start entry f\xc3\xa9 end", BAD_CHAR, 1, 32),
	OK("new begin # caf\xc3\xa9 in a comment is fine\nend"),
};

/* Parses a copy of text (with the spare byte the parser may write). */
static int parse(const char *text, enum kft_command *cmd, struct kft_config *cfg,
		 struct kft_func_ref **funcs, struct kft_parse_error *err, char **buf)
{
	size_t len = strlen(text);
	unsigned int max = kft_config_max_funcs(len);

	*buf = malloc(len + 1);
	*funcs = calloc(max, sizeof(**funcs));
	memcpy(*buf, text, len + 1);
	return kft_config_parse(*buf, len, cmd, cfg, *funcs, max, err);
}

static void test_table(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct parse_case *c = &cases[i];
		struct kft_func_ref *funcs;
		struct kft_parse_error err;
		struct kft_config cfg;
		enum kft_command cmd;
		char *buf;
		int ret = parse(c->text, &cmd, &cfg, &funcs, &err, &buf);

		if (c->err == KFT_ERR_NONE) {
			CHECK(ret == 0, "case %zu \"%s\": expected success, got %d:%d %s",
			      i, c->text, err.pos.line, err.pos.col,
			      kft_parse_strerror(err.code));
		} else {
			CHECK(ret == -1 && err.code == c->err && err.pos.line == c->line &&
			      err.pos.col == c->col && err.at_eof == c->incomplete,
			      "case %zu \"%s\": expected %u:%u %s%s, got %s%u:%u %s%s",
			      i, c->text, c->line, c->col, kft_parse_strerror(c->err),
			      c->incomplete ? " (incomplete)" : "", ret ? "" : "success, ",
			      err.pos.line, err.pos.col, kft_parse_strerror(err.code),
			      err.at_eof ? " (incomplete)" : "");
		}
		free(buf);
		free(funcs);
	}
	CHECK(sizeof(cases) / sizeof(cases[0]) >= 60, "only %zu cases",
	      sizeof(cases) / sizeof(cases[0]));
}

static void test_commands(void)
{
	static const struct { const char *text; enum kft_command cmd; } cmds[] = {
		{ "prime", KFT_CMD_PRIME }, { "start", KFT_CMD_START },
		{ "stop\n", KFT_CMD_STOP }, { " clear ", KFT_CMD_CLEAR },
		{ "new begin end", KFT_CMD_CONFIG },
	};
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		struct kft_func_ref *funcs;
		struct kft_parse_error err;
		struct kft_config cfg;
		enum kft_command cmd = -1;
		char *buf;

		parse(cmds[i].text, &cmd, &cfg, &funcs, &err, &buf);
		CHECK(cmd == cmds[i].cmd, "\"%s\": command %d, expected %d",
		      cmds[i].text, cmd, cmds[i].cmd);
		free(buf);
		free(funcs);
	}
}

static void test_full_config_fields(void)
{
	static const char text[] =
		"new\nbegin\n"
		"  trigger start entry 0xffffffff810a2b40\n"
		"  trigger stop exit vfs_read   # when the read returns\n"
		"  filter mintime 10\n  filter maxtime 400\n  filter noints\n"
		"  filter funclist vfs_* ext4:ext4_file_read_iter 0xffffffffc0001000 fend\n"
		"  logentries 500\n  autorepeat\nend\n";
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf;

	CHECK(parse(text, &cmd, &cfg, &funcs, &err, &buf) == 0, "parse failed: %u:%u %s",
	      err.pos.line, err.pos.col, kft_parse_strerror(err.code));
	CHECK(cfg.start.kind == KFT_TRIGGER_ENTRY && cfg.start.func.is_addr &&
	      cfg.start.func.addr == 0xffffffff810a2b40UL, "start trigger %d %lx",
	      cfg.start.kind, cfg.start.func.addr);
	CHECK(cfg.stop.kind == KFT_TRIGGER_EXIT, "stop kind %d", cfg.stop.kind);
	CHECK_STR(cfg.stop.func.text, "vfs_read", "stop function");
	CHECK(cfg.stop.func.pos.line == 4 && cfg.stop.func.pos.col == 21,
	      "stop function at %u:%u", cfg.stop.func.pos.line, cfg.stop.func.pos.col);
	CHECK(cfg.mintime_us == 10 && cfg.maxtime_us == 400, "times %llu %llu",
	      cfg.mintime_us, cfg.maxtime_us);
	CHECK(cfg.noints && !cfg.onlyints && cfg.autorepeat, "flags");
	CHECK(cfg.logentries == 500, "logentries %lu", cfg.logentries);
	CHECK(cfg.has_funclist && cfg.nr_funcs == 3, "funclist of %u", cfg.nr_funcs);
	CHECK_STR(cfg.funcs[0].text, "vfs_*", "funcs[0]");
	CHECK(cfg.funcs[0].is_glob && !cfg.funcs[0].is_addr, "funcs[0] is a glob");
	CHECK_STR(cfg.funcs[1].text, "ext4:ext4_file_read_iter", "funcs[1]");
	CHECK(!cfg.funcs[1].is_glob, "funcs[1] is no glob");
	CHECK(cfg.funcs[2].is_addr && cfg.funcs[2].addr == 0xffffffffc0001000UL, "funcs[2]");
	CHECK(cfg.funcs[2].pos.line == 8 && cfg.funcs[2].pos.col == 50, "funcs[2] at %u:%u",
	      cfg.funcs[2].pos.line, cfg.funcs[2].pos.col);
	free(buf);
	free(funcs);
}

static void test_defaults(void)
{
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf;

	CHECK(parse("new begin end", &cmd, &cfg, &funcs, &err, &buf) == 0, "parse");
	CHECK(cfg.logentries == KFT_DEFAULT_LOGENTRIES, "default logentries %lu", cfg.logentries);
	CHECK(cfg.start.kind == KFT_TRIGGER_NONE && cfg.stop.kind == KFT_TRIGGER_NONE,
	      "no triggers");
	CHECK(!cfg.has_funclist && !cfg.mintime_us && !cfg.maxtime_us, "no filters");
	CHECK(cfg.mode == KFT_MODE_TRACE, "default mode %d", cfg.mode);
	free(buf);
	free(funcs);
	CHECK(parse("new begin mode count end", &cmd, &cfg, &funcs, &err, &buf) == 0 &&
	      cfg.mode == KFT_MODE_COUNT, "mode count: %d", cfg.mode);
	free(buf);
	free(funcs);
}

static void test_time_triggers(void)
{
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf;

	parse("new begin trigger start time 5000000 trigger stop time 5000 end",
	      &cmd, &cfg, &funcs, &err, &buf);
	CHECK(cfg.start.kind == KFT_TRIGGER_TIME && cfg.start.time_us == 5000000,
	      "start time %llu", cfg.start.time_us);
	CHECK(cfg.stop.kind == KFT_TRIGGER_TIME && cfg.stop.time_us == 5000,
	      "stop time %llu", cfg.stop.time_us);
	free(buf);
	free(funcs);
}

static void test_oversized(void)
{
	size_t len = KFT_CONFIG_MAX_BYTES + 1;
	char *text = malloc(len + 1);
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf;

	memset(text, ' ', len);
	text[len] = '\0';
	memcpy(text, "new begin", 9);
	CHECK(parse(text, &cmd, &cfg, &funcs, &err, &buf) == -1 &&
	      err.code == KFT_ERR_TOO_LONG, "oversized input: %s",
	      kft_parse_strerror(err.code));
	free(buf);
	free(funcs);
	free(text);
}

static void test_largest_funclist(void)
{
	/* 64 KiB of one-letter functions: the caller's array must suffice. */
	size_t len = KFT_CONFIG_MAX_BYTES, i;
	char *text = malloc(len + 1);
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf;

	memcpy(text, "new begin filter funclist ", 26);
	for (i = 26; i < len - 9; i += 2)
		memcpy(text + i, "a ", 2);
	memcpy(text + i, "fend end", 8);
	text[i + 8] = '\0';
	CHECK(parse(text, &cmd, &cfg, &funcs, &err, &buf) == 0, "parse: %u:%u %s",
	      err.pos.line, err.pos.col, kft_parse_strerror(err.code));
	CHECK(cfg.nr_funcs == (i - 26) / 2, "%u functions, expected %zu",
	      cfg.nr_funcs, (i - 26) / 2);
	free(buf);
	free(funcs);
	free(text);
}

static void test_error_token(void)
{
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf;

	parse("new begin trigg start end", &cmd, &cfg, &funcs, &err, &buf);
	CHECK_STR(err.token, "trigg", "the offending word");
	free(buf);
	free(funcs);
}

/* Whether the next write could change the verdict on unterminated text. */
static void test_may_continue(void)
{
	static const struct { const char *text; bool may; } cases[] = {
		{ "new begin filter noin", true },	/* "noints" split */
		{ "pri", true },			/* "prime" split */
		{ "new begin filter mintime 5", true },	/* incomplete */
		{ "new begin trig start entry f end", false },
		{ "new begin filter noin end", false },
		{ "new begin end x", false },		/* any word after end is wrong */
		{ "prime now", false },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kft_func_ref *funcs;
		struct kft_parse_error err;
		struct kft_config cfg;
		enum kft_command cmd;
		char *buf;

		CHECK(parse(cases[i].text, &cmd, &cfg, &funcs, &err, &buf) == -1,
		      "\"%s\" parsed", cases[i].text);
		CHECK(kft_parse_may_continue(&err) == cases[i].may,
		      "\"%s\": may continue %d, expected %d", cases[i].text,
		      kft_parse_may_continue(&err), cases[i].may);
		free(buf);
		free(funcs);
	}
}

/* The verdict for text[0..len): 1 applies, 0 waits (as the module's writer). */
static int verdict(const char *text, size_t len)
{
	struct kft_func_ref *funcs;
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	char *buf = malloc(len + 1);
	int ret;

	memcpy(buf, text, len);
	buf[len] = '\0';
	funcs = calloc(kft_config_max_funcs(len), sizeof(*funcs));
	ret = kft_config_parse(buf, len, &cmd, &cfg, funcs, kft_config_max_funcs(len), &err);
	if (ret) {
		bool line_done = len && text[len - 1] == '\n';

		ret = line_done ? !kft_parse_incomplete(&err) : !kft_parse_may_continue(&err);
		ret = ret ? -1 : 0;
	} else {
		ret = 1;
	}
	free(buf);
	free(funcs);
	return ret;
}

/*
 * Byte by byte, skipping the parses kft_config_must_reparse() says cannot
 * change a "wait": the first byte at which the text applies or fails is
 * the one a parse after every byte finds.
 */
static void test_reparse_skips_nothing_that_matters(void)
{
	static const char *const texts[] = {
		"prime", "prime\n", "primex", "stop now", "new begin end",
		"new\nbegin\n filter funclist abc_def ghi fend\n logentries 77\nend\n",
		"new begin filter noints filter noints end",
		"new begin trigger start entry f\x01g end",
		"begin # a comment with end in it\nend", "new begin ends end",
		"new begin filter funclist a fend endx",
		"new begin trigger start time 1 trigger start time 2 end",
		"new begin filter funclist a\nfend filter funclist b fend end",
		"new begin logentries 99999999999 end", "new begin filter mintime 5x end",
		"prime\tstart", "new begin mode count mode count end",
		"new begin filter mintime 5 mode count end", "new begin mode coun end",
	};
	size_t t, len, word_start = 0;

	for (t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
		const char *s = texts[t];
		size_t n = strlen(s), oracle = 0, fast = 0;

		for (len = 1; len <= n && !oracle; len++)
			if (verdict(s, len))
				oracle = len;
		for (len = 1; len <= n && !fast; len++)
			if (kft_config_must_reparse(s, len, 1, &word_start) && verdict(s, len))
				fast = len;
		CHECK(fast == oracle, "\"%s\": decided at byte %zu, a parse per byte at %zu",
		      s, fast, oracle);
	}
}

static void test_every_error_has_a_message(void)
{
	int code;

	for (code = 0; code < KFT_ERR_COUNT; code++)
		CHECK(strcmp(kft_parse_strerror(code), "unknown error") != 0,
		      "code %d has no message", code);
	CHECK_STR(kft_parse_strerror(KFT_ERR_COUNT), "unknown error", "past the table");
}

UNIT_MAIN(test_table, test_commands, test_full_config_fields, test_defaults,
	  test_time_triggers, test_oversized, test_largest_funclist, test_error_token,
	  test_every_error_has_a_message, test_may_continue,
	  test_reparse_skips_nothing_that_matters)
