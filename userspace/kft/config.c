// SPDX-License-Identifier: GPL-2.0
/*
 * The configurations the subcommands write to /proc/kft: one line of the
 * language of Documentation/kft.rst each, built from the options without
 * side effects (unit-tested), at most what the module takes.
 *
 *	funccount	new begin mode count [per-arg N] filter funclist P... fend end
 *	stackcount	new begin mode stacks filter funclist P... fend
 *			[filter pid N] [filter cpu N] [per-process] end
 *	stacksnoop	new begin mode stacks filter funclist F fend
 *			[filter pid N] snoop 65536 [args] end
 *	profile		new begin mode profile sample HZ [include idle]
 *			[filter pid N | filter tid N] [filter cpu N] logentries N end
 *	funclatency	new begin mode histogram units ns|us|ms [per-arg N]
 *			filter funclist P... fend
 *			[filter pid N] end
 *	errtrace	new begin mode trace [hooks fast] filter errors units ns
 *			[filter pid N] [filter comm NAME] logentries N end
 *	record		new begin mode trace [hooks fast] log stream units ns
 *			[filter funclist P... fend] [filter pid N] [filter comm NAME]
 *			[logentries N] end
 *	slowtrace	new begin mode trace [hooks fast] filter roots R... fend
 *			[filter mintime US] [filter errors] units ns offcpu wakers
 *			[filter pid N] [filter comm NAME] logentries N
 *			[holdentries N] end
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kft.h"

/* A configuration being written, word by word. */
struct kft_text {
	char *buf;		/* KFT_CONFIG_MAX + 1 bytes */
	size_t len;
	int over;		/* it got longer than the module takes */
};

static void kft_text_add(struct kft_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void kft_text_add(struct kft_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->over)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, KFT_CONFIG_MAX + 1 - t->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n > KFT_CONFIG_MAX - t->len)
		t->over = 1;
	else
		t->len += (size_t)n;
}

/* "new begin mode MODE": 0, or -1 (no memory, said in err). */
static int kft_text_begin(struct kft_text *t, const char *mode, char *err, size_t errlen)
{
	t->len = 0;
	t->over = 0;
	t->buf = malloc(KFT_CONFIG_MAX + 1);
	if (!t->buf) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	kft_text_add(t, "new begin mode %s", mode);
	return 0;
}

/* " end\n", and the text; NULL when it failed or is too long (err says which). */
static char *kft_text_end(struct kft_text *t, int failed, char *err, size_t errlen)
{
	kft_text_add(t, " end\n");
	if (t->over && !failed)
		snprintf(err, errlen, "the patterns are longer than kft takes (%d bytes)",
			 KFT_CONFIG_MAX);
	if (t->over || failed) {
		free(t->buf);
		return NULL;
	}
	return t->buf;
}

/*
 * A pattern is one word of the configuration language: white space or
 * '#' would end it and let the rest through as statements.
 */
static int kft_pattern_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 0x7f || *s == '#')
			return 0;
	return 1;
}

/*
 * In a funclist "fend" ends the list and "end" (the parser's, wherever it
 * stands) the configuration: as a pattern either would leave the rest of
 * the configuration to be read as something else, and the module's
 * complaint would not name the pattern. No function has either name.
 */
int kft_pattern_reserved(const char *s)
{
	return !strcmp(s, "end") || !strcmp(s, "fend");
}

static int kft_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '$' || c == ':';
}

static int kft_regex_repeat(char c)
{
	return c == '*' || c == '+' || c == '?' || c == '{';
}

/* A class "[a-z_]" or "[^0-9]" at s as a glob's "[a-z_]" or "[!0-9]": past it, or NULL. */
static const char *kft_regex_class(const char *s, char **o)
{
	const char *c = s + 1;

	*(*o)++ = '[';
	if (*c == '^') {
		*(*o)++ = '!';
		c++;
	}
	if (*c == ']')
		return NULL;
	for (; *c && *c != ']'; c++) {
		if (!kft_name_char(*c) && *c != '-')
			return NULL;
		*(*o)++ = *c;
	}
	if (*c != ']')
		return NULL;
	*(*o)++ = ']';
	return c + 1;
}

/*
 * One alternative of a regular expression, from s to '|' or the end, as a
 * glob at *o (the caller's buffer holds twice the expression): past it, or
 * NULL with why.
 */
static const char *kft_regex_alt(const char *s, char **o, const char **why)
{
	char *start = *o;
	int anchored = 0;

	if (*s == '^')
		s++;
	while (*s && *s != '|') {
		if (*s == '$' && (!s[1] || s[1] == '|')) {
			anchored = 1;
			s++;
			continue;
		}
		if (s[0] == '.' && (s[1] == '*' || s[1] == '+')) {
			if (s[1] == '+')
				*(*o)++ = '?';
			*(*o)++ = '*';
			s += 2;
			continue;
		}
		if (*s == '[') {
			s = kft_regex_class(s, o);
			if (!s) {
				*why = "a class other than names' characters and ranges";
				return NULL;
			}
		} else if (*s == '\\' && (s[1] == '.' || s[1] == '$' || s[1] == '_')) {
			*(*o)++ = s[1];
			s += 2;
		} else if (*s == '.' || (kft_name_char(*s) && *s != '$')) {
			*(*o)++ = *s == '.' ? '?' : *s;
			s++;
		} else {
			*why = *s == '\\' ? "an escape other than '\\.', '\\$' or '\\_'" :
			       "a group, a repeat or an anchor inside";
			return NULL;
		}
		if (kft_regex_repeat(*s)) {
			*why = "a repeated character or class ('x*', 'x+', 'x?', 'x{n}')";
			return NULL;
		}
	}
	if (*o == start) {
		*why = anchored ? "it matches an empty name only" :
		       "an empty alternative, which matches every function";
		return NULL;
	}
	/* re.match() matches from the start: without '$', a prefix is enough. */
	if (!anchored && (*o)[-1] != '*')
		*(*o)++ = '*';
	return s;
}

/*
 * stackcount -r: bcc matches a Python regular expression with re.match(),
 * from the start of a function's name. The expressions a glob can say are
 * written as globs: name characters ('\.' for a dot), '.' (any one: '?'),
 * '.*' ('*'), '.+' ('?*'), a class ("[a-z_]", "[^0-9]": "[!0-9]"), '^' at
 * the start, '$' at the end (without it a trailing '*'), and '|' between
 * alternatives (a glob each). Others (groups, repeated characters, '\d')
 * are refused with the reason.
 */
static int kft_regex_globs(struct kft_text *t, const char *re, char *err, size_t errlen)
{
	char *globs = malloc(2 * strlen(re) + 2), *o = globs, *g;
	const char *s = re, *why = "";

	if (!globs) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	do {
		g = o;
		s = kft_regex_alt(s, &o, &why);
		if (!s) {
			snprintf(err, errlen, "-r: no glob says what '%s' says: %s (kft takes "
				 "names and globs: '*', '?', [classes])", re, why);
			free(globs);
			return -1;
		}
		*o++ = '\0';
		if (kft_pattern_reserved(g)) {
			snprintf(err, errlen, "-r: '%s' matches the name '%s' only, a word of the "
				 "configuration language, no function's", re, g);
			free(globs);
			return -1;
		}
		kft_text_add(t, " %s", g);
	} while (*s++ == '|');
	free(globs);
	return 0;
}

/* " filter funclist P... fend": 0, or -1 with err. */
static int kft_text_funclist(struct kft_text *t, const struct kft_params *p,
			     char *err, size_t errlen)
{
	const char *s;
	int i;

	kft_text_add(t, " filter funclist");
	for (i = 0; i < p->nr_patterns; i++) {
		s = p->patterns[i];
		/* (kft_parse_args() refused a reserved one: for the other callers.) */
		if (!kft_pattern_ok(s) || (!p->regexp && kft_pattern_reserved(s))) {
			snprintf(err, errlen, "not a function pattern: '%s'", s);
			return -1;
		}
		/* bcc's t:cat:event, u:lib:probe, p:lib:func. */
		if ((s[0] == 't' || s[0] == 'u' || s[0] == 'p') && s[1] == ':') {
			snprintf(err, errlen, "'%s': tracepoints, USDT probes and user functions "
				 "are not supported: kft traces kernel functions (names, globs, "
				 "module:name)", s);
			return -1;
		}
		if (!p->regexp)
			kft_text_add(t, " %s", s);
		else if (kft_regex_globs(t, s, err, errlen))
			return -1;
	}
	kft_text_add(t, " fend");
	return 0;
}

char *kft_funccount_config(const struct kft_params *p, char *err, size_t errlen)
{
	struct kft_text t;
	int failed;

	if (kft_text_begin(&t, "count", err, errlen))
		return NULL;
	if (p->per_arg)
		kft_text_add(&t, " per-arg %ld", p->per_arg);
	failed = kft_text_funclist(&t, p, err, errlen);
	return kft_text_end(&t, failed, err, errlen);
}

char *kft_funclatency_config(const struct kft_params *p, char *err, size_t errlen)
{
	static const char *const units[] = { "ns", "us", "ms" };
	struct kft_text t;
	int failed;

	if (kft_text_begin(&t, "histogram", err, errlen))
		return NULL;
	kft_text_add(&t, " units %s", units[p->units]);
	if (p->per_arg)
		kft_text_add(&t, " per-arg %ld", p->per_arg);
	failed = kft_text_funclist(&t, p, err, errlen);
	if (p->pid)
		kft_text_add(&t, " filter pid %ld", p->pid);
	return kft_text_end(&t, failed, err, errlen);
}

/* stackcount's (snoop 0) and stacksnoop's: a stacks run. */
static char *kft_stacks_config(const struct kft_params *p, int snoop, char *err, size_t errlen)
{
	struct kft_text t;
	int failed;

	if (kft_text_begin(&t, "stacks", err, errlen))
		return NULL;
	failed = kft_text_funclist(&t, p, err, errlen);
	if (p->pid)
		kft_text_add(&t, " filter pid %ld", p->pid);
	if (p->cpu >= 0)
		kft_text_add(&t, " filter cpu %ld", p->cpu);
	/* As bcc: -p keys by process too, so that folded output has the comm. */
	if (!snoop && (p->per_process || p->pid))
		kft_text_add(&t, " per-process");
	if (snoop)
		kft_text_add(&t, " snoop %d", snoop);
	if (snoop && p->args)
		kft_text_add(&t, " args");
	return kft_text_end(&t, failed, err, errlen);
}

char *kft_stackcount_config(const struct kft_params *p, char *err, size_t errlen)
{
	return kft_stacks_config(p, 0, err, errlen);
}

char *kft_stacksnoop_config(const struct kft_params *p, char *err, size_t errlen)
{
	return kft_stacks_config(p, KFT_SNOOP_EVENTS, err, errlen);
}

char *kft_profile_config(const struct kft_params *p, char *err, size_t errlen)
{
	struct kft_text t;

	if (kft_text_begin(&t, "profile", err, errlen))
		return NULL;
	kft_text_add(&t, " sample %ld", p->frequency);
	if (p->include_idle)
		kft_text_add(&t, " include idle");
	if (p->pid)
		kft_text_add(&t, " filter pid %ld", p->pid);
	if (p->tid)
		kft_text_add(&t, " filter tid %ld", p->tid);
	if (p->cpu >= 0)
		kft_text_add(&t, " filter cpu %ld", p->cpu);
	kft_text_add(&t, " logentries %ld", p->stack_storage);
	return kft_text_end(&t, 0, err, errlen);
}

/* -a, --string N, --ustring N, --struct N:LEN: args, and what it copies. */
static void kft_text_args(struct kft_text *t, const struct kft_params *p)
{
	if (p->mem_len)
		kft_text_add(t, " args struct %ld %ld", p->str_arg, p->mem_len);
	else if (p->str_arg)
		kft_text_add(t, " args %s %ld", p->str_user ? "ustring" : "string", p->str_arg);
	else if (p->args)
		kft_text_add(t, " args");
}

/*
 * Without --fast the run gets the hooks the machine's owner chose for every
 * run (the module parameter hooks): fast hooks cost every traced call less,
 * but cut stack traces and keep the module loaded, a choice errtrace leaves
 * to the owner or to its user.
 */
char *kft_errtrace_config(const struct kft_params *p, char *err, size_t errlen)
{
	struct kft_text t;

	if (kft_text_begin(&t, "trace", err, errlen))
		return NULL;
	if (p->fast)
		kft_text_add(&t, " hooks fast");
	/* No funclist: every function, the errors' origins among them. */
	kft_text_add(&t, " filter errors units ns");
	kft_text_args(&t, p);
	if (p->pid)
		kft_text_add(&t, " filter pid %ld", p->pid);
	if (p->comm)	/* one word (kft_parse_args() checked) */
		kft_text_add(&t, " filter comm %s", p->comm);
	kft_text_add(&t, " logentries %ld", p->entries);
	return kft_text_end(&t, 0, err, errlen);
}

/*
 * record: a stream run; no FUNCTION, no funclist: every function. Its
 * hooks as errtrace's. Times in ns: a call and one it makes within the
 * same microsecond stay apart in entry order (kd sorts a record's rows by
 * entry; equal entries keep the order they were read in, a call's after
 * the calls it made, which returned first).
 */
char *kft_record_config(const struct kft_params *p, char *err, size_t errlen)
{
	struct kft_text t;
	int failed = 0;

	if (kft_text_begin(&t, "trace", err, errlen))
		return NULL;
	if (p->fast)
		kft_text_add(&t, " hooks fast");
	kft_text_add(&t, " log stream units ns");
	if (p->offcpu)
		kft_text_add(&t, " offcpu");
	kft_text_args(&t, p);
	if (p->nr_patterns)
		failed = kft_text_funclist(&t, p, err, errlen);
	if (p->pid)
		kft_text_add(&t, " filter pid %ld", p->pid);
	if (p->comm)	/* one word (kft_parse_args() checked) */
		kft_text_add(&t, " filter comm %s", p->comm);
	if (p->entries)
		kft_text_add(&t, " logentries %ld", p->entries);
	return kft_text_end(&t, failed, err, errlen);
}

/*
 * slowtrace: every function traced (no funclist), the root calls judged.
 * The roots are traceable functions' names ("name", "module:name"),
 * each one word.
 */
char *kft_slowtrace_config(const struct kft_params *p, const char *const *roots, size_t nr,
			   char *err, size_t errlen)
{
	struct kft_text t;
	int bad = 0;
	size_t i;

	if (kft_text_begin(&t, "trace", err, errlen))
		return NULL;
	if (p->fast)
		kft_text_add(&t, " hooks fast");
	if (!nr) {
		snprintf(err, errlen, "no ROOT");
		bad = 1;
	}
	kft_text_add(&t, " filter roots");
	for (i = 0; i < nr && !bad; i++) {
		bad = !kft_pattern_ok(roots[i]);
		if (bad)
			snprintf(err, errlen, "'%s' is no function name", roots[i]);
		kft_text_add(&t, " %s", roots[i]);
	}
	kft_text_add(&t, " fend");
	if (p->min_us)
		kft_text_add(&t, " filter mintime %lld", p->min_us);
	if (p->errors)
		kft_text_add(&t, " filter errors");
	kft_text_add(&t, " units ns offcpu wakers");
	kft_text_args(&t, p);
	if (p->pid)
		kft_text_add(&t, " filter pid %ld", p->pid);
	if (p->comm)	/* one word (kft_parse_args() checked) */
		kft_text_add(&t, " filter comm %s", p->comm);
	kft_text_add(&t, " logentries %d", KFT_SLOWTRACE_ENTRIES);
	if (p->hold)
		kft_text_add(&t, " holdentries %ld", p->hold);
	return kft_text_end(&t, bad || !nr, err, errlen);
}
