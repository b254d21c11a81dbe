// SPDX-License-Identifier: GPL-2.0
/*
 * kft trace -a and -T: the configuration given the word args, so that
 * each logged call keeps its argument registers, and the log's calls
 * listed typed, one a line, by the formatter kd -c --types uses too
 * (typedlog.h); errtrace -a prints the calls of its chains by the same
 * function, kft_call_text():
 *
 *	     Entry   Duration      PID Comm             Call
 *	   1203394         12      157 cat              do_sys_openat2(dfd=-100, ...) = 3
 *
 * And what the commands that print calls share besides: the sources
 * their options name, -T's types and --srcline's files, opened before a
 * run starts; a call's source lines, at the end of its line as kd -c
 * ends it (srcline__text(), the same text), and a stack frame's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cfgword.h"
#include "kft.h"
#include "kftrow.h"
#include "ksyms.h"
#include "symbolize.h"

/* A call's text is cut at this length. */
#define KFT_TYPED_CALL_MAX	4096

static int kft_is_word(const char *text, size_t start, size_t len, const char *w)
{
	return len == strlen(w) && !strncmp(text + start, w, len);
}

/* Whether @config says args already (a second one would be an error). */
static int kft_config_has_args(const char *config)
{
	size_t i = 0, start, len;

	while ((len = cfgword_next(config, &i, &start)))
		if (kft_is_word(config, start, len, "args"))
			return 1;
	return 0;
}

/*
 * The word args after each word begin of @config (unless it says args
 * already), found as the module's lexer finds words: not in a comment.
 */
char *kft_config_with_args(const char *config, char *err, size_t errlen)
{
	size_t len = strlen(config), i = 0, o = 0, from = 0, start, n;
	int has_args = kft_config_has_args(config);
	/* Each begin, 5 bytes, gets 5 more at most. */
	char *text = malloc(len * 2 + 1);

	if (!text) {
		snprintf(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	while (!has_args && (n = cfgword_next(config, &i, &start))) {
		if (!kft_is_word(config, start, n, "begin"))
			continue;
		memcpy(text + o, config + from, i - from);
		o += i - from;
		memcpy(text + o, " args", 5);
		o += 5;
		from = i;
	}
	memcpy(text + o, config + from, len - from + 1);
	o += len - from;
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

size_t kft_call_text(struct typedlog *types, const char *func, const struct kftlog_row *r,
		     char *buf, size_t len)
{
	size_t n;

	if (types)
		return typedlog__format(types, func, NULL, r, false, buf, len);
	n = (size_t)snprintf(buf, len, "%s", func);
	/* A row without the args word (none kept) is its name alone, as kd -c prints it. */
	if (!r->args || !*r->args)
		return n;
	return n + kftrow__args_text(r, n < len ? buf + n : NULL, n < len ? len - n : 0);
}

int kft_srcline_open(const struct kft_params *p, const char *sub, struct srcline **sl)
{
	char err[PATH_MAX + 256];

	*sl = NULL;
	if (p->srcline.nr && !(*sl = srcline_files__open(&p->srcline, err, sizeof(err)))) {
		fprintf(stderr, "kft: %s: %s\n", sub, err);
		return -1;
	}
	return 0;
}

int kft_types_open(const struct kft_params *p, const char *sub, struct typedlog **types)
{
	char err[PATH_MAX + 256];

	*types = NULL;
	if (p->types.wanted &&
	    !(*types = typedlog__open(&p->types, TYPEDLOG_BTF_DIR, 0, err, sizeof(err)))) {
		fprintf(stderr, "kft: %s: %s\n", sub, err);
		return -1;
	}
	return 0;
}

const char *kft_typed_value(struct typedlog *types, const char *func, unsigned int arg,
			    const char *value, char *buf, size_t len)
{
	bool hidden = !strcmp(value, "hidden");
	unsigned long long v = 0;
	char *end;

	if (!hidden) {
		errno = 0;
		v = value[0] == '-' ? (unsigned long long)strtoll(value, &end, 10) :
		    strtoull(value, &end, 10);
		if (errno || end == value || *end)
			return value;
	}
	return typedlog__format_register(types, func, (int)arg - 1, v, hidden, buf, len) ?
	       buf : value;
}

int kft_call_sources_open(const struct kft_params *p, const char *sub, struct typedlog **types,
			  struct srcline **sl)
{
	*sl = NULL;
	if (kft_types_open(p, sub, types))
		return -1;
	return kft_srcline_open(p, sub, sl);
}

int kft_word_srcline(FILE *out, struct srcline *sl, const struct ksyms *ks, const char *word,
		     enum srcline_at at, const char *before, const char *after)
{
	char text[SRCLINE_TEXT_MAX];

	if (srcline__text(sl, ks, word, at, text, sizeof(text)))
		return -1;
	fprintf(out, "%s%s%s", before, text, after);
	return 0;
}

int kft_call_srcline(FILE *out, struct srcline *sl, const struct ksyms *ks,
		     const struct kftlog_row *r, bool caller)
{
	if (kft_word_srcline(out, sl, ks, r->func, SRCLINE_ENTRY, "  [", "]"))
		return -1;
	return caller ? kft_word_srcline(out, sl, ks, r->caller, SRCLINE_RETURN, " <- ", "") : 0;
}

/* One call's line of the listing: 0, or -1 without memory (--srcline's). */
static int kft_typed_row(FILE *out, const struct kftlog_row *r, const struct ksyms *ks,
			 struct typedlog *types, struct srcline *sl)
{
	char name[KSYMS_FORMAT_MAX], call[KFT_TYPED_CALL_MAX];
	const char *func = kft_typed_name(ks, r->func, name, sizeof(name));

	kft_call_text(types, func, r, call, sizeof(call));
	if (r->delta >= 0)
		fprintf(out, "%10lld %10lld ", r->entry, r->delta);
	else
		fprintf(out, "%10lld %10s ", r->entry, "-");
	if (r->pid >= 0)
		fprintf(out, "%8d ", r->pid);
	else
		fprintf(out, "%8s ", "irq");
	fprintf(out, "%-16s %s", r->comm, call);
	if (sl && kft_call_srcline(out, sl, ks, r, true))
		return -1;
	fputc('\n', out);
	return 0;
}

int kft_typed_calls(FILE *in, const char *name, FILE *out, const struct ksyms *ks,
		    struct typedlog *types, struct srcline *sl)
{
	struct kftlog *log = kftlog__read(in, name, stderr, KFTLOG_MAX_ROWS);
	size_t i;
	int ret = 0;

	if (!log || kftlog__sort(log)) {
		fprintf(stderr, "kft: %s: %s\n", name, strerror(errno));
		kftlog__free(log);
		return -1;
	}
	fprintf(out, "%10s %10s %8s %-16s %s\n", "Entry", "Duration", "PID", "Comm", "Call");
	for (i = 0; i < log->nr && !ret; i++)
		if (log->rows[i].delta >= 0 || log->rows[i].delta == KFTLOG_DELTA_OPEN)
			ret = kft_typed_row(out, &log->rows[i], ks, types, sl);
	if (ret)
		fprintf(stderr, "kft: %s: out of memory\n", name);
	kftlog__free(log);
	return ret;
}
