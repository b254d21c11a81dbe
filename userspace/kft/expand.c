// SPDX-License-Identifier: GPL-2.0
/*
 * A trace configuration's globs named one by one, for kernels whose trace
 * hooks take none: kretprobes (no fprobe, 6.1) hook one named function
 * each, and the kernel exports no walk of its symbols to the module, so
 * the module refuses a glob there ("globs need fprobe") and kft names
 * its functions instead (kft_configure()). The names: the traceable
 * functions (tracefs's available_filter_functions: ftrace can hook them)
 * that /proc/kallsyms has, as "name" or "module:name" (what kprobes look
 * up).
 * The configuration is parsed by the module's own parser (kft_config.c),
 * so that exactly the funclist's globs are replaced, where they stand.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "kft.h"
#include "ksyms.h"
#include "words.h"

/* Far above any kernel's traceable functions (about 60,000). */
#define KFT_FUNCS_MAX		1048576
#define KFT_FUNCS_NAME_MIB	64
#define KFT_FUNCS_NAME_BYTES	(KFT_FUNCS_NAME_MIB << 20)
/* A number macro's digits, as a string. */
#define KFT_STR_(x)		#x
#define KFT_STR(x)		KFT_STR_(x)

struct kft_funcs_reader {
	struct kft_funcs *f;
	const struct ksyms *ks;
};

/* One line of available_filter_functions: "name" or "name [module]". */
static int kft_funcs_line(void *ctx, char *line)
{
	struct kft_funcs_reader *r = ctx;
	struct kft_funcs *f = r->f;
	char key[KSYMS_LINE_MAX];
	struct word w[3];
	size_t n;
	void *v;

	n = line ? words_split(line, strlen(line), w, 3) : 0;
	if (n == 1)
		snprintf(key, sizeof(key), "%.*s", (int)w[0].len, w[0].s);
	else if (n == 2 && w[1].len > 2 && w[1].s[0] == '[' && w[1].s[w[1].len - 1] == ']')
		snprintf(key, sizeof(key), "%.*s:%.*s", (int)w[1].len - 2, w[1].s + 1,
			 (int)w[0].len, w[0].s);
	else
		return 0;	/* no function's line */
	/* ftrace's placeholders (__ftrace_invalid_address___N) are no symbol. */
	if (!ksyms__find_name(r->ks, key))
		return 0;
	v = array_room(f->names, &f->cap, f->nr, sizeof(*f->names), KFT_FUNCS_MAX);
	if (!v)
		return -1;
	f->names = v;
	f->names[f->nr] = strtab__add(&f->text, key, strlen(key));
	return f->names[f->nr++] ? 0 : -1;
}

static int kft_cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int kft_funcs_read(struct kft_funcs *f, const struct ksyms *ks, FILE *traceable)
{
	struct kft_funcs_reader r = { f, ks };
	size_t i, n = 0;

	memset(f, 0, sizeof(*f));
	f->text.limit = KFT_FUNCS_NAME_BYTES;
	if (kft_lines_read(traceable, kft_funcs_line, &r))
		return -1;
	/* Sorted, each once: a function listed twice (two of one name) is one name. */
	if (f->nr)
		qsort(f->names, f->nr, sizeof(*f->names), kft_cmp_str);
	for (i = 0; i < f->nr; i++)
		if (!n || strcmp(f->names[n - 1], f->names[i]))
			f->names[n++] = f->names[i];
	f->nr = n;
	return 0;
}

const char *kft_funcs_strerror(int errnum)
{
	if (errnum == EFBIG)
		return "more than " KFT_STR(KFT_FUNCS_MAX) " traceable functions, or "
		       KFT_STR(KFT_FUNCS_NAME_MIB) " MiB of their names: more than any "
		       "kernel has, so no list of them";
	return strerror(errnum);
}

void kft_funcs_free(struct kft_funcs *f)
{
	free(f->names);
	strtab__free(&f->text);
	memset(f, 0, sizeof(*f));
}

/* Whether glob matches the function: by its name, as the kernel's globs do. */
static int kft_glob_matches(const char *glob, const char *func)
{
	const char *colon = strchr(func, ':');

	return !fnmatch(glob, colon ? colon + 1 : func, 0);
}

/* The configuration being rewritten. */
struct kft_naming {
	const struct kft_funcs *f;
	char *taken;		/* per function: named already, or written as a name */
	size_t named;		/* the functions the globs added */
	size_t nr_names;	/* the funclist's names, each once */
	char *out;		/* KFT_CONFIG_MAX + 1 bytes */
	size_t len;
	int over;		/* longer than the module takes */
};

static void kft_naming_put(struct kft_naming *nm, const char *s, size_t len)
{
	if (nm->over || len > KFT_CONFIG_MAX - nm->len) {
		nm->over = 1;
		return;
	}
	memcpy(nm->out + nm->len, s, len);
	nm->len += len;
}

/*
 * The funclist's names and addresses (what is no glob): counted once each,
 * as the module counts its kretprobes, and the functions named taken.
 * 0, or -1 (no memory).
 */
static int kft_naming_names(struct kft_naming *nm, const struct kft_config *cfg)
{
	const char **texts = calloc(cfg->nr_funcs + 1, sizeof(*texts)), **found;
	unsigned int i, n = 0;

	if (!texts)
		return -1;
	for (i = 0; i < cfg->nr_funcs; i++)
		if (!cfg->funcs[i].is_glob)
			texts[n++] = cfg->funcs[i].text;
	qsort(texts, n, sizeof(*texts), kft_cmp_str);
	for (i = 0; i < n; i++) {
		if (i && !strcmp(texts[i - 1], texts[i]))
			continue;
		nm->nr_names++;
		found = bsearch(&texts[i], nm->f->names, nm->f->nr, sizeof(*nm->f->names),
				kft_cmp_str);
		if (found)
			nm->taken[found - nm->f->names] = 1;
	}
	free(texts);
	return 0;
}

/*
 * One glob's functions, those not named yet, written space-separated:
 * 0, or -1 with err (it matches none; the funclist gets too many).
 */
static int kft_naming_glob(struct kft_naming *nm, const struct kft_func_ref *g,
			   char *err, size_t errlen)
{
	const struct kft_funcs *f = nm->f;
	size_t i, matched = 0, sep = 0;

	for (i = 0; i < f->nr; i++) {
		if (!kft_glob_matches(g->text, f->names[i]))
			continue;
		matched++;
		if (nm->taken[i])
			continue;
		nm->taken[i] = 1;
		nm->named++;
		if (sep++)
			kft_naming_put(nm, " ", 1);
		kft_naming_put(nm, f->names[i], strlen(f->names[i]));
	}
	if (!matched)
		snprintf(err, errlen, "line %u, column %u: %s '%s'", g->pos.line, g->pos.col,
			 kft_parse_strerror(KFT_ERR_UNKNOWN_FUNCTION), g->text);
	else if (nm->nr_names + nm->named > KFT_MAX_KRETPROBES)
		snprintf(err, errlen, "line %u, column %u: '%s' brings the funclist to %zu "
			 "functions: this kernel's trace hooks (kretprobes, no fprobe) take at "
			 "most %d and no globs: narrow the globs", g->pos.line, g->pos.col,
			 g->text, nm->nr_names + nm->named, KFT_MAX_KRETPROBES);
	else
		return 0;
	return -1;
}

/* The parsed copy's globs replaced in text: nm->out, or -1 with err. */
static int kft_naming_write(struct kft_naming *nm, const char *text, const char *copy,
			    const struct kft_config *cfg, char *err, size_t errlen)
{
	const struct kft_func_ref *g;
	size_t at = 0, from, globs = 0;
	unsigned int i;

	if (kft_naming_names(nm, cfg)) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -1;
	}
	for (i = 0; i < cfg->nr_funcs; i++) {
		g = &cfg->funcs[i];
		if (!g->is_glob)
			continue;
		globs++;
		/* The parser's tokens point into the copy it was given. */
		from = (size_t)(g->text - copy);
		kft_naming_put(nm, text + at, from - at);
		if (kft_naming_glob(nm, g, err, errlen))
			return -1;
		at = from + strlen(g->text);
	}
	kft_naming_put(nm, text + at, strlen(text + at));
	if (!globs) {
		err[0] = '\0';	/* the glob refused was not the funclist's */
		return -1;
	}
	if (nm->over) {
		snprintf(err, errlen, "with its globs named one by one, longer than kft takes "
			 "(%d bytes): narrow the globs", KFT_CONFIG_MAX);
		return -1;
	}
	nm->out[nm->len] = '\0';
	return 0;
}

/* text parsed by the module's parser into cfg (funcs, copy: the caller frees). 0, or -1. */
static int kft_naming_parse(const char *text, char **copy, struct kft_func_ref **funcs,
			    struct kft_config *cfg, char *err, size_t errlen)
{
	size_t len = strlen(text);
	struct kft_parse_error perr;
	enum kft_command cmd;

	*copy = strdup(text);
	*funcs = calloc(kft_config_max_funcs(len), sizeof(**funcs));
	if (!*copy || !*funcs) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -1;
	}
	if (kft_config_parse(*copy, len, &cmd, cfg, *funcs, kft_config_max_funcs(len), &perr)) {
		snprintf(err, errlen, "line %u, column %u: %s%s%s%s", perr.pos.line, perr.pos.col,
			 kft_parse_strerror(perr.code), perr.token[0] ? " '" : "", perr.token,
			 perr.token[0] ? "'" : "");
		return -1;
	}
	return 0;
}

char *kft_globs_name(const char *text, const struct kft_funcs *f, size_t *named,
		     char *err, size_t errlen)
{
	struct kft_naming nm = { .f = f };
	struct kft_func_ref *funcs = NULL;
	struct kft_config cfg;
	char *copy = NULL;
	int ret = -1;

	if (strlen(text) > KFT_CONFIG_MAX) {
		snprintf(err, errlen, "larger than kft takes (%d bytes)", KFT_CONFIG_MAX);
		return NULL;
	}
	nm.taken = calloc(f->nr + 1, 1);
	nm.out = malloc(KFT_CONFIG_MAX + 1);
	if (!nm.taken || !nm.out)
		snprintf(err, errlen, "%s", strerror(ENOMEM));
	else if (!kft_naming_parse(text, &copy, &funcs, &cfg, err, errlen))
		ret = kft_naming_write(&nm, text, copy, &cfg, err, errlen);
	free(copy);
	free(funcs);
	free(nm.taken);
	if (ret) {
		free(nm.out);
		return NULL;
	}
	*named = nm.named;
	return nm.out;
}

/*
 * config with its funclist's globs named one by one from kallsyms and the
 * traceable functions, or NULL after saying why (the module's
 * refusal when the funclist has no glob: a trigger's was refused); said
 * too: what became of the globs.
 */
static char *kft_globs_name_from_kernel(const struct kft_paths *paths, const char *name,
					const char *config, const char *refusal)
{
	struct ksyms *ks = kft_ksyms_load(paths->kallsyms);
	struct kft_funcs f = { 0 };
	char err[512], *text = NULL;
	FILE *in = NULL;
	size_t named;

	if (!ks)
		fprintf(stderr, "kft: %s: %s\n", paths->kallsyms, ksyms__strerror(errno));
	else if (!(in = fopen(paths->traceable, "r")))
		fprintf(stderr, "kft: %s: %s (kft names the functions of globs from it on "
			"this kernel: mount tracefs)\n", paths->traceable, strerror(errno));
	else if (kft_funcs_read(&f, ks, in))
		fprintf(stderr, "kft: %s: %s\n", paths->traceable, kft_funcs_strerror(errno));
	else if (!(text = kft_globs_name(config, &f, &named, err, sizeof(err))))
		fprintf(stderr, "kft: %s: %s\n", err[0] ? name : paths->ctl, err[0] ? err : refusal);
	else
		fprintf(stderr, "kft: this kernel's trace hooks (kretprobes, no fprobe) take "
			"no globs: the funclist's globs named as %zu traceable functions\n", named);
	if (in)
		fclose(in);
	kft_funcs_free(&f);
	ksyms__free(ks);
	return text;
}

/*
 * The configuration written. Where the module refuses globs ("globs need
 * fprobe": its hooks are kretprobes, whatever the kernel), it is written
 * again with each glob named one by one. 0, or -1 after saying why.
 */
int kft_configure(const struct kft_paths *paths, const char *name, const char *config)
{
	struct kft_status st;
	char *named;
	int ret = kft_ctl_try(paths, config, 0, &st);

	if (ret != 1)
		return ret;
	if (!strstr(st.error, kft_parse_strerror(KFT_ERR_GLOB_NEEDS_FPROBE))) {
		fprintf(stderr, "kft: %s: %s\n", paths->ctl, st.error);
		return -1;
	}
	named = kft_globs_name_from_kernel(paths, name, config, st.error);
	if (!named)
		return -1;
	ret = kft_ctl_write(paths, named, 0);
	free(named);
	return ret;
}
