// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the configuration language parser (module/kft_config.c,
 * plain C, the same file the module builds). The bytes are what a writer of
 * /proc/kft sends; the module hands the parser a NUL-terminated copy, and so
 * does this. Whatever the input, the parser must return, and what it
 * returns must hold together: the checks below trap when it does not.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kft_config.h"

/* A broken promise of the parser's interface: a crash for the fuzzer. */
#define FUZZ_ASSERT(cond) do { if (!(cond)) __builtin_trap(); } while (0)

/* Every function reference points into the text, NUL-terminated there. */
static void fuzz_check_func(const struct kft_func_ref *f, const char *text, size_t len)
{
	if (f->is_addr)
		return;
	FUZZ_ASSERT(f->text >= text && f->text < text + len + 1);
	FUZZ_ASSERT(strnlen(f->text, text + len + 1 - f->text) < (size_t)(text + len + 1 - f->text));
	FUZZ_ASSERT(f->pos.line >= 1 && f->pos.col >= 1);
}

/* The stack modes' fields: in range, and left alone where they mean nothing. */
static void fuzz_check_stacks(const struct kft_config *cfg)
{
	bool stacks = cfg->mode == KFT_MODE_STACKS, profile = cfg->mode == KFT_MODE_PROFILE;
	unsigned long max = stacks || profile ? KFT_MAX_STACKENTRIES : KFT_MAX_LOGENTRIES;

	FUZZ_ASSERT(cfg->mode <= KFT_MODE_HISTOGRAM);
	FUZZ_ASSERT(cfg->logentries >= 1 && cfg->logentries <= max);
	FUZZ_ASSERT(!(cfg->filter_pid && cfg->filter_tid));
	FUZZ_ASSERT(cfg->filter_pid >= 0 && cfg->filter_pid <= KFT_MAX_PID);
	FUZZ_ASSERT(cfg->filter_tid >= 0 && cfg->filter_tid <= KFT_MAX_PID);
	FUZZ_ASSERT(cfg->filter_cpu >= -1 && cfg->filter_cpu <= KFT_MAX_CPU);
	FUZZ_ASSERT(cfg->sample_hz >= 1 && cfg->sample_hz <= KFT_MAX_SAMPLE_HZ);
	FUZZ_ASSERT(cfg->snoop <= KFT_MAX_SNOOP);
	FUZZ_ASSERT((cfg->watch == KFT_WATCH_NONE) == !cfg->watch_bytes);
	FUZZ_ASSERT(cfg->watch_bytes <= KFT_MAX_WATCH_BYTES);
	FUZZ_ASSERT(cfg->mode == KFT_MODE_TRACE || cfg->watch == KFT_WATCH_NONE);
	FUZZ_ASSERT(profile || (cfg->sample_hz == KFT_DEFAULT_SAMPLE_HZ && !cfg->include_idle));
	FUZZ_ASSERT(stacks || (!cfg->per_process && !cfg->snoop));
	/* The task filters hold in every mode; a name fits with its NUL. */
	FUZZ_ASSERT(memchr(cfg->filter_comm, '\0', KFT_COMM_LEN));
	/* Units are a trace log's columns or a histogram's buckets (ns by default). */
	FUZZ_ASSERT(cfg->mode == KFT_MODE_TRACE || cfg->mode == KFT_MODE_HISTOGRAM ||
		    (!cfg->units_ns && !cfg->units_ms));
	FUZZ_ASSERT(!(cfg->units_ns && cfg->units_ms));
	FUZZ_ASSERT(!cfg->units_ms || cfg->mode == KFT_MODE_HISTOGRAM);
	FUZZ_ASSERT(!stacks || cfg->has_funclist);
	FUZZ_ASSERT(!profile || !cfg->has_funclist);
}

/*
 * A filter arg's string: in the text, at most KFT_ARGF_STR_MAX bytes, and
 * what /proc/kft shows of it (kft_argf_quote()) parses back to it.
 */
static void fuzz_check_argf_string(const struct kft_argf *f, const char *text, size_t len)
{
	char quoted[KFT_ARGF_QUOTED_MAX], conf[KFT_ARGF_QUOTED_MAX + 64];
	struct kft_func_ref funcs[1];
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;
	size_t n;

	FUZZ_ASSERT(f->text >= text && f->text < text + len + 1);
	FUZZ_ASSERT(strnlen(f->text, KFT_ARGF_STR_MAX + 1) <= KFT_ARGF_STR_MAX);
	kft_argf_quote(quoted, f->text);
	FUZZ_ASSERT(memchr(quoted, '\0', sizeof(quoted)));
	n = (size_t)snprintf(conf, sizeof(conf), "begin filter arg 1 string == %s end", quoted);
	FUZZ_ASSERT(n < sizeof(conf));
	FUZZ_ASSERT(kft_config_parse(conf, n, &cmd, &cfg, funcs, 1, &err) == 0);
	FUZZ_ASSERT(cfg.nr_argf == 1 && !strcmp(cfg.argf[0].text, f->text));
}

static void fuzz_check_config(const struct kft_config *cfg, unsigned int max,
			      const char *text, size_t len)
{
	unsigned int i;

	FUZZ_ASSERT(cfg->nr_argf <= KFT_ARGF_MAX);
	for (i = 0; i < cfg->nr_argf; i++)
		if (cfg->argf[i].type == KFT_ARGF_STRING || cfg->argf[i].type == KFT_ARGF_USTRING)
			fuzz_check_argf_string(&cfg->argf[i], text, len);

	FUZZ_ASSERT(cfg->nr_funcs <= max);
	FUZZ_ASSERT(!(cfg->noints && cfg->onlyints));
	fuzz_check_stacks(cfg);
	for (i = 0; i < cfg->nr_funcs; i++)
		fuzz_check_func(&cfg->funcs[i], text, len);
	if (cfg->start.kind == KFT_TRIGGER_ENTRY || cfg->start.kind == KFT_TRIGGER_EXIT)
		fuzz_check_func(&cfg->start.func, text, len);
	if (cfg->stop.kind == KFT_TRIGGER_ENTRY || cfg->stop.kind == KFT_TRIGGER_EXIT)
		fuzz_check_func(&cfg->stop.func, text, len);
}

static void fuzz_check_error(const struct kft_parse_error *err)
{
	FUZZ_ASSERT(err->code > KFT_ERR_NONE && err->code < KFT_ERR_COUNT);
	FUZZ_ASSERT(err->pos.line >= 1 && err->pos.col >= 1);
	FUZZ_ASSERT(memchr(err->token, '\0', sizeof(err->token)));
	FUZZ_ASSERT(strcmp(kft_parse_strerror(err->code), "unknown error"));
	/* Incomplete implies that more text may change the verdict. */
	FUZZ_ASSERT(!kft_parse_incomplete(err) || kft_parse_may_continue(err));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int max = kft_config_max_funcs(size);
	struct kft_func_ref *funcs = calloc(max, sizeof(*funcs));
	char *text = malloc(size + 1);
	struct kft_parse_error err;
	struct kft_config cfg;
	enum kft_command cmd;

	if (!funcs || !text)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	if (kft_config_parse(text, size, &cmd, &cfg, funcs, max, &err) == 0) {
		if (cmd == KFT_CMD_CONFIG)
			fuzz_check_config(&cfg, max, text, size);
	} else {
		fuzz_check_error(&err);
	}
out:
	free(text);
	free(funcs);
	return 0;
}
