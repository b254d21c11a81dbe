// SPDX-License-Identifier: GPL-2.0
/* Kernel symbol tables: see ksyms.h. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"
#include "linereader.h"

/* Symbols of types that are not code or data (absolute, weak undefined). */
static int ksyms__wanted_type(char type)
{
	return type != 'a' && type != 'A' && type != 'U' && type != 'w' && type != 'v';
}

/*
 * Symbols that name no function, which /proc/kallsyms lists for modules at
 * their functions' addresses: ARM's and RISC-V's mapping symbols ("$a",
 * "$d", "$t", "$x", "$xrv64i2p1_..."), and the assembler's local labels
 * that RISC-V keeps for relaxation (".LPFE3268" at a function's start,
 * ".LFB...", ".L0 "). The kernel's is_mapping_symbol() skips the same ones
 * when it names an address.
 */
static int ksyms__mapping_symbol(const char *name)
{
	return name[0] == '$' || (name[0] == '.' && name[1] == 'L') ||
	       (name[0] == 'L' && name[1] == '0');
}

/* Two symbols' modules: vmlinux's (NULL) first, then by name. */
static int cmp_module(const char *x, const char *y)
{
	if (x == y)
		return 0;
	if (!x || !y)
		return x ? 1 : -1;
	return strcmp(x, y);
}

/*
 * By address, then name, then module: a line the map repeats lands next
 * to its twin for ksyms__drop_repeats(), whatever lines lie between them
 * in the map (another module's symbol of the same name and address).
 */
static int cmp_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	int c;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	c = strcmp(x->name, y->name);
	return c ? c : cmp_module(x->module, y->module);
}

/*
 * By name, then by module (vmlinux's first), then by address: the symbols
 * of one name, and of one name in one module, are each a run, in an order
 * that does not depend on the map's.
 */
static int cmp_name(const void *a, const void *b)
{
	const struct ksym *x = *(struct ksym *const *)a, *y = *(struct ksym *const *)b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	c = cmp_module(x->module, y->module);
	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * A symbol listed twice (the same address, name and module) is one: a
 * name's count of functions must not count a line repeated. Module names
 * are interned, so one module is one pointer.
 */
static void ksyms__drop_repeats(struct ksyms *ks)
{
	size_t i, kept = 0;

	for (i = 0; i < ks->nr; i++) {
		const struct ksym *k = &ks->syms[i], *prev = kept ? &ks->syms[kept - 1] : NULL;

		if (prev && prev->addr == k->addr && prev->module == k->module &&
		    !strcmp(prev->name, k->name))
			continue;
		ks->syms[kept++] = *k;
	}
	ks->nr = kept;
}

/* What parse_line() made of a line. */
enum ksyms_line {
	KSYMS_LINE_SYMBOL,	/* a symbol, in sym */
	KSYMS_LINE_UNWANTED,	/* a symbol that names no code or data: left out */
	KSYMS_LINE_MALFORMED,	/* no symbol line: counted as skipped */
};

/*
 * line[0..len), "ADDR TYPE NAME [MOD]": sym filled with pointers into
 * line. ADDR is hex digits only, from the line's first byte, as the
 * kernel and nm write it (no blank, sign or "0x" before it), and a line
 * with a NUL byte in it is none (the bytes after the NUL would be lost).
 */
static enum ksyms_line parse_line(char *line, size_t len, struct ksym *sym)
{
	size_t digits = strspn(line, "0123456789abcdefABCDEF");
	char *end, *type, *name, *mod;

	if (strlen(line) != len || !digits || (line[digits] != ' ' && line[digits] != '\t'))
		return KSYMS_LINE_MALFORMED;
	errno = 0;
	sym->addr = strtoull(line, &end, 16);
	if (errno || end != line + digits)
		return KSYMS_LINE_MALFORMED;
	type = strtok(end, " \t\n");
	name = strtok(NULL, " \t\n");
	mod = strtok(NULL, " \t\n");
	if (!type || !name || type[1] || !isalpha((unsigned char)type[0]))
		return KSYMS_LINE_MALFORMED;
	if (!ksyms__wanted_type(type[0]) || ksyms__mapping_symbol(name))
		return KSYMS_LINE_UNWANTED;
	sym->name = name;
	sym->module = NULL;
	if (mod && mod[0] == '[' && mod[strlen(mod) - 1] == ']') {
		mod[strlen(mod) - 1] = '\0';
		sym->module = mod + 1;
	}
	return KSYMS_LINE_SYMBOL;
}

static int ksyms__index(struct ksyms *ks)
{
	size_t i;

	qsort(ks->syms, ks->nr, sizeof(*ks->syms), cmp_addr);
	ksyms__drop_repeats(ks);
	ks->by_name = malloc((ks->nr ? ks->nr : 1) * sizeof(*ks->by_name));
	if (!ks->by_name)
		return -1;
	for (i = 0; i < ks->nr; i++)
		ks->by_name[i] = &ks->syms[i];
	qsort(ks->by_name, ks->nr, sizeof(*ks->by_name), cmp_name);
	return 0;
}

/*
 * line[0..len) into the table; malformed lines are counted and skipped,
 * blank ones and symbols kft has no use for skipped only.
 */
static int ksyms__line(struct ksyms *ks, size_t *cap, char *line, size_t len)
{
	enum ksyms_line what;
	const char *module;
	struct ksym sym;

	if (len && line[len - 1] == '\n')
		line[--len] = '\0';
	/* A map copied through Windows ends its lines in CRLF: '\r' is no name's. */
	if (len && line[len - 1] == '\r')
		line[--len] = '\0';
	if (!len)
		return 0;
	what = parse_line(line, len, &sym);
	if (what != KSYMS_LINE_SYMBOL) {
		ks->skipped += what == KSYMS_LINE_MALFORMED;
		return 0;
	}
	if (ks->nr == KSYMS_MAX_SYMS) {
		errno = EFBIG;
		return -1;
	}
	if (ks->nr == *cap) {
		size_t n = *cap ? *cap * 2 : 1024;
		struct ksym *more = realloc(ks->syms, n * sizeof(*more));

		if (!more)
			return -1;
		ks->syms = more;
		*cap = n;
	}
	module = sym.module;
	sym.name = strtab__add(&ks->names, sym.name, strlen(sym.name));
	/* Module names repeat for each of their symbols: one copy each. */
	sym.module = sym.name && module ?
		     strtab__intern(&ks->names, module, strlen(module)) : NULL;
	if (!sym.name || (module && !sym.module))
		return -1;
	ks->syms[ks->nr++] = sym;
	return 0;
}

/* Every line of in; a line too long for a symbol is skipped. */
static int ksyms__lines(struct ksyms *ks, FILE *in)
{
	char *line = malloc(KSYMS_LINE_MAX);
	enum line_status st;
	size_t len, cap = 0;
	int too_long = 0, ret = -1;

	if (!line)
		return -1;
	while ((st = line_read(in, line, KSYMS_LINE_MAX, &len)) == LINE_WHOLE ||
	       st == LINE_PART) {
		if (st == LINE_PART || too_long) {
			ks->skipped += st == LINE_PART && !too_long;
			too_long = st == LINE_PART;
			continue;
		}
		if (ksyms__line(ks, &cap, line, len))
			goto out;
	}
	ret = st == LINE_ERROR ? -1 : 0;
out:
	free(line);
	return ret;
}

struct ksyms *ksyms__read(FILE *in)
{
	struct ksyms *ks = calloc(1, sizeof(*ks));
	int err;

	if (!ks)
		return NULL;
	ks->names.limit = KSYMS_MAX_NAME_BYTES;
	if (ksyms__lines(ks, in))
		goto err;
	if (!ks->nr) {
		errno = ENODATA;
		goto err;
	}
	if (ksyms__index(ks))
		goto err;
	return ks;
err:
	err = errno;
	ksyms__free(ks);
	errno = err;
	return NULL;
}

/* ksyms__read(f), then f closed, keeping the errno of a failure. */
static struct ksyms *ksyms__read_close(FILE *f)
{
	struct ksyms *ks;
	int err;

	if (!f)
		return NULL;
	ks = ksyms__read(f);
	err = errno;
	fclose(f);
	errno = err;
	return ks;
}

struct ksyms *ksyms__load(const char *path)
{
	return ksyms__read_close(fopen(path, "r"));
}

struct ksyms *ksyms__parse(const char *text, size_t len)
{
	return ksyms__read_close(fmemopen((void *)text, len, "r"));
}

const char *ksyms__strerror(int errnum)
{
	switch (errnum) {
	case EFBIG:
		return "more than 4194304 symbols or 256 MiB of names: not a symbol table";
	case ENODATA:
		return "no symbols in it (not a System.map or /proc/kallsyms)";
	default:
		return strerror(errnum);
	}
}

void ksyms__say_skipped(const struct ksyms *ks, const char *prog, const char *path, FILE *out)
{
	if (ks->skipped)
		fprintf(out, "%s: warning: %zu line%s of %s skipped (not 'ADDRESS TYPE NAME "
			"[MODULE]', or over 1 KiB)\n", prog, ks->skipped, ks->skipped == 1 ? "" : "s",
			path);
}

void ksyms__free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->by_name);
	strtab__free(&ks->names);
	free(ks);
}

#define KSYMS_MAX_SIZE (1ULL << 20)

int ksyms__hidden(const struct ksyms *ks)
{
	/* Sorted: all are zero when the last is. */
	return ks->nr && !ks->syms[ks->nr - 1].addr;
}

void ksyms__say_hidden(const char *prog, const char *path, FILE *out)
{
	fprintf(out, "%s: %s: every address in it is 0 (kallsyms read without CAP_SYSLOG, "
		"or with kernel.kptr_restrict 2): it names no address\n", prog, path);
}

/*
 * The first of the symbols at the address of syms[i], found by a binary
 * search: a map may put any number of symbols at one address, and a
 * step back at a time cost their number for each lookup.
 */
static size_t ksyms__first_at(const struct ksyms *ks, size_t i)
{
	uint64_t addr = ks->syms[i].addr;
	size_t lo = 0, hi = i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct ksym *ksyms__map_addr(const struct ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->nr;

	if (!addr || ksyms__hidden(ks))
		return NULL;
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
	/*
	 * No function is 1 MiB long: an address that far past the symbol
	 * below it is in a gap between symbols, or past the last, and in
	 * none of them.
	 */
	if (addr - ks->syms[lo - 1].addr >= KSYMS_MAX_SIZE)
		return NULL;
	/* Prefer the first of several symbols at the same address. */
	return &ks->syms[ksyms__first_at(ks, lo - 1)];
}

/*
 * k against a name and, with a module (@modlen bytes at @module, or NULL
 * for any), that module, in by_name's order (cmp_name(): the name, then
 * the module, the kernel's own first).
 */
static int ksyms__cmp_key(const struct ksym *k, const char *sym, const char *module,
			  size_t modlen)
{
	int c = strcmp(k->name, sym);
	size_t len;

	if (c || !module)
		return c;
	if (!k->module)
		return -1;
	c = strncmp(k->module, module, modlen);
	if (c)
		return c;
	len = strlen(k->module);
	return len > modlen;
}

size_t ksyms__find_all(const struct ksyms *ks, const char *name, size_t *first)
{
	const char *colon = strchr(name, ':');
	const char *sym = colon ? colon + 1 : name, *module = colon ? name : NULL;
	size_t lo = 0, hi = ks->nr, modlen = colon ? (size_t)(colon - name) : 0, n;

	/*
	 * The first of the name's run (with a module: of the module's run
	 * inside it), a binary search on both: a name that thousands of
	 * modules share is no walk.
	 */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ksyms__cmp_key(ks->by_name[mid], sym, module, modlen) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	for (n = 0; lo + n < ks->nr && !ksyms__cmp_key(ks->by_name[lo + n], sym, module, modlen);)
		n++;
	return n;
}

const struct ksym *ksyms__find_name(const struct ksyms *ks, const char *name)
{
	size_t first;

	return ksyms__find_all(ks, name, &first) ? ks->by_name[first] : NULL;
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
