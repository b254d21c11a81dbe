// SPDX-License-Identifier: GPL-2.0
/*
 * The parser as kft_confgen builds it for a cross-built 32-bit ARM kernel
 * (module/Kbuild's KFT_TARGET_* flags): the target's registers and word
 * size, whatever the host's, so that a compiled-in configuration the
 * kernel would refuse at boot fails the build.
 */
#define KFT_TARGET_LONG_BITS	32
#define KFT_TARGET_ARGF_REGS	4
#include "kft_config.c"

#include <stdlib.h>
#include "unit.h"

/* What the parser says of @text: KFT_ERR_NONE when it parses. */
static enum kft_parse_err target_parse(const char *text)
{
	size_t len = strlen(text);
	char *buf = malloc(len + 1);
	struct kft_func_ref funcs[8];
	struct kft_parse_error err = { .code = KFT_ERR_NONE };
	struct kft_config cfg;
	enum kft_command cmd;

	if (!buf)
		abort();
	memcpy(buf, text, len + 1);
	if (kft_config_parse(buf, len, &cmd, &cfg, funcs, 8, &err) == 0)
		err.code = KFT_ERR_NONE;
	free(buf);
	return err.code;
}

static const struct {
	const char *text;
	enum kft_parse_err err;
} target_cases[] = {
	{ "begin filter arg 4 int == 1 end", KFT_ERR_NONE },
	{ "begin filter arg 5 int == 1 end", KFT_ERR_ARGF_INDEX },
	{ "begin mode count per-arg 5 end", KFT_ERR_ARGF_INDEX },
	{ "begin args string 5 end", KFT_ERR_ARGF_INDEX },
	{ "begin filter arg 1 ulong == 0xffffffff end", KFT_ERR_NONE },
	{ "begin filter arg 1 ulong == 0x100000000 end", KFT_ERR_NUMBER_RANGE },
	{ "begin filter arg 1 long > -2147483648 end", KFT_ERR_NONE },
	{ "begin trigger start entry 0xc00a2b40 end", KFT_ERR_NONE },
	{ "begin trigger start entry 0x1c00a2b40 end", KFT_ERR_BAD_FUNCTION },
};

static void test_target_facts(void)
{
	size_t i;

	CHECK(KFT_ARGF_REGS == 4 && !strcmp(KFT_ARGF_REGS_TEXT, "4"),
	      "registers %d, '%s'", KFT_ARGF_REGS, KFT_ARGF_REGS_TEXT);
	for (i = 0; i < sizeof(target_cases) / sizeof(target_cases[0]); i++) {
		enum kft_parse_err got = target_parse(target_cases[i].text);

		CHECK(got == target_cases[i].err, "\"%s\": expected '%s', got '%s'",
		      target_cases[i].text, kft_parse_strerror(target_cases[i].err),
		      kft_parse_strerror(got));
	}
}

UNIT_MAIN(test_target_facts)
