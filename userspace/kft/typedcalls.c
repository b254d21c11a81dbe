// SPDX-License-Identifier: GPL-2.0
/*
 * kft trace -a and -T: the configuration given the word args, so that
 * each logged call keeps its argument registers, and the log's calls
 * listed typed, one a line, by the formatter kd -c --types uses too
 * (typedlog.h):
 *
 *	     Entry   Duration      PID Comm             Call
 *	   1203394         12      157 cat              do_sys_openat2(dfd=-100, ...) = 3
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kft.h"
#include "ksyms.h"
#include "symbolize.h"

/* A function's name, symbolized, at most this long. */
#define KFT_TYPED_NAME_MAX	512
/* A call's text is cut at this length. */
#define KFT_TYPED_CALL_MAX	4096

/* Whether text[i..) starts the word @w (a whole word: space, '#' or the end after it). */
static int kft_word_at(const char *text, size_t i, const char *w)
{
	size_t n = strlen(w);
	char next = text[i + n];

	return !strncmp(text + i, w, n) && (!next || strchr(" \t\r\n#", next));
}

/*
 * The word args after each word begin of @config, found as the module's
 * lexer splits words (white space between them; '#' begins a comment to
 * the end of its line, copied as it is).
 */
char *kft_config_with_args(const char *config, char *err, size_t errlen)
{
	size_t len = strlen(config), i = 0, o = 0;
	char *text = malloc(len * 2 + 1);

	if (!text) {
		snprintf(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	while (i < len) {
		int word = !i || strchr(" \t\r\n", config[i - 1]);

		if (config[i] == '#') {
			for (; i < len && config[i] != '\n'; i++)
				text[o++] = config[i];
			continue;
		}
		if (word && kft_word_at(config, i, "begin")) {
			memcpy(text + o, "begin args", 10);
			o += 10;
			i += 5;
			continue;
		}
		text[o++] = config[i++];
	}
	text[o] = '\0';
	if (o > KFT_CONFIG_MAX) {
		snprintf(err, errlen, "-a: with args the configuration is longer than kft "
			 "takes (%d bytes)", KFT_CONFIG_MAX);
		free(text);
		return NULL;
	}
	return text;
}

/* The name a row's function is printed by: its symbol when it is an address. */
static const char *kft_typed_name(const struct ksyms *ks, const char *func, char *buf,
				  size_t len)
{
	const char *sym = ks ? symbolize_word(ks, func, buf, len) : NULL;

	return sym ? sym : func;
}

static void kft_typed_row(FILE *out, const struct kftlog_row *r, const struct ksyms *ks,
			  struct typedlog *types)
{
	char name[KFT_TYPED_NAME_MAX], call[KFT_TYPED_CALL_MAX];
	const char *func = kft_typed_name(ks, r->func, name, sizeof(name));

	typedlog__format(types, func, NULL, r, false, call, sizeof(call));
	if (r->delta >= 0)
		fprintf(out, "%10lld %10lld ", r->entry, r->delta);
	else
		fprintf(out, "%10lld %10s ", r->entry, "-");
	if (r->pid >= 0)
		fprintf(out, "%8d ", r->pid);
	else
		fprintf(out, "%8s ", "irq");
	fprintf(out, "%-16s %s\n", r->comm, call);
}

int kft_typed_calls(FILE *in, const char *name, FILE *out, const struct ksyms *ks,
		    struct typedlog *types)
{
	struct kftlog *log = kftlog__read(in, name, stderr, KFTLOG_MAX_ROWS);
	size_t i;

	if (!log || kftlog__sort(log)) {
		fprintf(stderr, "kft: %s: %s\n", name, strerror(errno));
		kftlog__free(log);
		return -1;
	}
	fprintf(out, "%10s %10s %8s %-16s %s\n", "Entry", "Duration", "PID", "Comm", "Call");
	for (i = 0; i < log->nr; i++)
		if (log->rows[i].delta >= 0 || log->rows[i].delta == KFTLOG_DELTA_OPEN)
			kft_typed_row(out, &log->rows[i], ks, types);
	kftlog__free(log);
	return 0;
}
