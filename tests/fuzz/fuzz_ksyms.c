// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the symbol table loader (userspace/lib/ksyms.c) on
 * arbitrary bytes, then lookups of every symbol it kept, both ways, and the
 * bytes themselves symbolized as text (userspace/lib/symbolize.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"
#include "symbolize.h"

#define FUZZ_ASSERT(cond) do { if (!(cond)) __builtin_trap(); } while (0)

static FILE *fuzz_null;

/* Every symbol of a name has the name, once each, in by_name's order. */
static void fuzz_find_all(const struct ksyms *ks, const char *name)
{
	size_t first = 0, n = strchr(name, ':') ? 0 : ksyms__find_all(ks, name, &first), i;

	for (i = 0; i < n; i++) {
		const struct ksym *k = ks->by_name[first + i];

		FUZZ_ASSERT(first + i < ks->nr && !strcmp(k->name, name));
		FUZZ_ASSERT(!i || k != ks->by_name[first + i - 1]);
	}
}

static void fuzz_lookups(const struct ksyms *ks)
{
	char buf[64];
	size_t i;

	for (i = 0; i < ks->nr; i++) {
		const struct ksym *s = &ks->syms[i], *m = ksyms__map_addr(ks, s->addr);

		/* Address 0, and every address of a map whose all are 0, name nothing. */
		if (s->addr && !ksyms__hidden(ks))
			FUZZ_ASSERT(m && m->addr == s->addr);
		else
			FUZZ_ASSERT(!m);
		/* "mod:name" is a module's symbol: a name with a colon is not found so. */
		FUZZ_ASSERT(strchr(s->name, ':') || ksyms__find_name(ks, s->name));
		fuzz_find_all(ks, s->name);
		ksyms__format(s, s->addr + 0x10, buf, sizeof(buf));
		FUZZ_ASSERT(strlen(buf) < sizeof(buf));
	}
	FUZZ_ASSERT(!ksyms__map_addr(ks, 0));
	ksyms__map_addr(ks, UINT64_MAX);
}

/* The input as text: into a small buffer (cut) and to a stream (whole). */
static void fuzz_symbolize(const struct ksyms *ks, const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), out[256];

	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	symbolize_line(ks, text, out, sizeof(out));
	FUZZ_ASSERT(strlen(out) < sizeof(out));
	symbolize_fputs(ks, text, fuzz_null);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksyms *ks = ksyms__parse((const char *)data, size);

	if (!fuzz_null)
		fuzz_null = fopen("/dev/null", "w");
	if (!ks)
		return 0;
	fuzz_lookups(ks);
	fuzz_symbolize(ks, data, size);
	ksyms__free(ks);
	return 0;
}
