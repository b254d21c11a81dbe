// SPDX-License-Identifier: GPL-2.0
/* Kernel symbol tables: see ksyms.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"
#include "readall.h"

/* Symbols of types that are not code or data (absolute, weak undefined). */
static int ksyms__wanted_type(char type)
{
	return type != 'a' && type != 'A' && type != 'U' && type != 'w' && type != 'v';
}

static int cmp_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_name(const void *a, const void *b)
{
	const struct ksym *x = *(struct ksym *const *)a, *y = *(struct ksym *const *)b;

	return strcmp(x->name, y->name);
}

/* One line: "ADDR TYPE NAME [MOD]". Fills sym with pointers into line. */
static int parse_line(char *line, struct ksym *sym)
{
	char *end, *type, *name, *mod;

	errno = 0;
	sym->addr = strtoull(line, &end, 16);
	if (errno || end == line || (*end != ' ' && *end != '\t'))
		return -1;
	type = strtok(end, " \t\n");
	name = strtok(NULL, " \t\n");
	mod = strtok(NULL, " \t\n");
	if (!type || !name || type[1] || !ksyms__wanted_type(type[0]))
		return -1;
	sym->name = name;
	sym->module = NULL;
	if (mod && mod[0] == '[' && mod[strlen(mod) - 1] == ']') {
		mod[strlen(mod) - 1] = '\0';
		sym->module = mod + 1;
	}
	return 0;
}

static int ksyms__index(struct ksyms *ks)
{
	size_t i;

	qsort(ks->syms, ks->nr, sizeof(*ks->syms), cmp_addr);
	ks->by_name = malloc((ks->nr ? ks->nr : 1) * sizeof(*ks->by_name));
	if (!ks->by_name)
		return -1;
	for (i = 0; i < ks->nr; i++)
		ks->by_name[i] = &ks->syms[i];
	qsort(ks->by_name, ks->nr, sizeof(*ks->by_name), cmp_name);
	return 0;
}

struct ksyms *ksyms__parse(const char *text, size_t len)
{
	struct ksyms *ks = calloc(1, sizeof(*ks));
	size_t cap = 1024, lines = 0;
	char *p, *nl;

	if (!ks)
		return NULL;
	ks->strings = malloc(len + 1);
	ks->syms = malloc(cap * sizeof(*ks->syms));
	if (!ks->strings || !ks->syms)
		goto err;
	memcpy(ks->strings, text, len);
	ks->strings[len] = '\0';
	for (p = ks->strings; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		lines++;
		if (ks->nr == cap) {
			struct ksym *more = realloc(ks->syms, 2 * cap * sizeof(*more));

			if (!more)
				goto err;
			ks->syms = more;
			cap *= 2;
		}
		if (*p && parse_line(p, &ks->syms[ks->nr]) == 0)
			ks->nr++;
		else if (*p)
			ks->skipped++;
		if (!nl)
			break;
	}
	if (ksyms__index(ks))
		goto err;
	return ks;
err:
	ksyms__free(ks);
	errno = ENOMEM;
	return NULL;
}

struct ksyms *ksyms__load(const char *path)
{
	struct ksyms *ks = NULL;
	FILE *f = fopen(path, "r");
	char *text;
	size_t len;

	if (!f)
		return NULL;
	text = read_all(f, &len);
	fclose(f);
	if (text)
		ks = ksyms__parse(text, len);
	free(text);
	return ks;
}

void ksyms__free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->by_name);
	free(ks->strings);
	free(ks);
}

#define KSYMS_MAX_SIZE (1ULL << 20)

const struct ksym *ksyms__map_addr(const struct ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->nr;

	/* The last symbol whose address is <= addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* Past the last symbol: only if close (the end of the last function). */
	if (lo == ks->nr && addr - ks->syms[lo - 1].addr >= KSYMS_MAX_SIZE)
		return NULL;
	/* Prefer the first of several symbols at the same address. */
	while (lo > 1 && ks->syms[lo - 2].addr == ks->syms[lo - 1].addr)
		lo--;
	return &ks->syms[lo - 1];
}

const struct ksym *ksyms__find_name(const struct ksyms *ks, const char *name)
{
	const char *colon = strchr(name, ':');
	const char *sym = colon ? colon + 1 : name;
	size_t lo = 0, hi = ks->nr, modlen = colon ? (size_t)(colon - name) : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ks->by_name[mid]->name, sym) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < ks->nr && !strcmp(ks->by_name[lo]->name, sym); lo++) {
		const struct ksym *k = ks->by_name[lo];

		if (!colon || (k->module && strlen(k->module) == modlen &&
			       !strncmp(k->module, name, modlen)))
			return k;
	}
	return NULL;
}

char *ksyms__format(const struct ksym *sym, uint64_t addr, char *buf, size_t size)
{
	const char *mod = sym->module ? sym->module : "";
	const char *sep = sym->module ? ":" : "";

	if (addr == sym->addr)
		snprintf(buf, size, "%s%s%s", mod, sep, sym->name);
	else
		snprintf(buf, size, "%s%s%s+0x%" PRIx64, mod, sep, sym->name,
			 addr - sym->addr);
	return buf;
}
