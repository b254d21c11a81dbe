// SPDX-License-Identifier: GPL-2.0
/*
 * kd --srcline's files and their addresses (srcline.h): each file is its
 * own libdwfl session, reported as an offline module, so that a module's
 * .ko has its sections laid out and its debug sections relocated as
 * libdwfl does for eu-addr2line; its symbols, and the addresses of its
 * lines, are then in that one layout. A file's symbols are indexed by
 * name the first time a name is looked up.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "dwfl/offline.h"
#include "frames.h"
#include "srcline.h"

/* A module's name, as the kernel keeps it (MODULE_NAME_LEN). */
#define SRCLINE_MODULE_MAX	56
/* A symbol's name in a log's word; a longer one is no symbol of ours. */
#define SRCLINE_NAME_MAX	512

struct srcline_sym {
	const char *name;	/* the ELF's string */
	GElf_Addr addr;		/* in the file's layout */
	int func;		/* STT_FUNC: preferred among symbols of one name */
};

struct srcline_file {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	char module[SRCLINE_MODULE_MAX];	/* "": the kernel image */
	struct srcline_sym *syms;		/* by name, then functions first */
	size_t nr_syms;
	int indexed;
};

struct srcline {
	struct srcline_file files[SRCLINE_MAX_FILES];
	size_t nr;
};

/* A log's word, taken apart. */
struct srcline_word {
	int is_addr;
	uint64_t addr;			/* is_addr */
	char module[SRCLINE_MODULE_MAX];	/* "": the image */
	char name[SRCLINE_NAME_MAX];
	uint64_t off;
};

int srcline__available(void)
{
	return 1;
}

struct srcline *srcline__new(void)
{
	return calloc(1, sizeof(struct srcline));
}

/* The module name of a .ko's path, as the kernel makes it: '-' is '_'. */
static void srcline_module_name(const char *path, char *name, size_t size)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t i, len = strcspn(base, ".");

	for (i = 0; i < len && i + 1 < size; i++)
		name[i] = base[i] == '-' ? '_' : base[i];
	name[i] = '\0';
}

/* The kind of file f is: "" for an image, the module's name for a .ko. */
static int srcline_kind(struct srcline_file *f, const char *path, char *err, size_t errlen)
{
	GElf_Addr bias = 0;
	GElf_Ehdr ehdr;
	Elf *elf = dwfl_module_getelf(f->mod, &bias);

	if (!elf || !gelf_getehdr(elf, &ehdr)) {
		snprintf(err, errlen, "%s: %s", path, dwfl_errmsg(-1));
		return -1;
	}
	if (ehdr.e_type == ET_REL)
		srcline_module_name(path, f->module, sizeof(f->module));
	else if (ehdr.e_type != ET_EXEC && ehdr.e_type != ET_DYN) {
		snprintf(err, errlen, "%s: an ELF file of no code (neither a vmlinux nor a "
			 "module's .ko)", path);
		return -1;
	}
	if (!dwfl_module_getdwarf(f->mod, &bias)) {
		snprintf(err, errlen, "%s: no DWARF in it (%s): give the vmlinux or .ko "
			 "built with debug information (CONFIG_DEBUG_INFO, or Debian's "
			 "-dbg package's)", path, dwfl_errmsg(-1));
		return -1;
	}
	return 0;
}

/* The file of a module ("" or NULL: the image), NULL if none was added. */
static struct srcline_file *srcline_file_of(struct srcline *sl, const char *module)
{
	size_t i;

	for (i = 0; i < sl->nr; i++)
		if (!strcmp(sl->files[i].module, module ? module : ""))
			return &sl->files[i];
	return NULL;
}

static void srcline_file_free(struct srcline_file *f)
{
	if (f->dwfl)
		dwfl_end(f->dwfl);
	free(f->syms);
	memset(f, 0, sizeof(*f));
}

int srcline__add(struct srcline *sl, const char *path, char *err, size_t errlen)
{
	struct srcline_file *f;

	if (sl->nr == SRCLINE_MAX_FILES) {
		snprintf(err, errlen, "%s: more than %d files", path, SRCLINE_MAX_FILES);
		return -1;
	}
	f = &sl->files[sl->nr];
	f->mod = dwfl_offline__open(path, path, &f->dwfl);
	if (!f->mod) {
		snprintf(err, errlen, "%s: %s", path, dwfl_errmsg(-1));
		return -1;
	}
	if (srcline_kind(f, path, err, errlen)) {
		srcline_file_free(f);
		return -1;
	}
	if (srcline_file_of(sl, f->module)) {
		snprintf(err, errlen, "%s: a second file of %s%s", path,
			 *f->module ? "module " : "the kernel image", f->module);
		srcline_file_free(f);
		return -1;
	}
	sl->nr++;
	return 0;
}

void srcline__free(struct srcline *sl)
{
	size_t i;

	if (!sl)
		return;
	for (i = 0; i < sl->nr; i++)
		srcline_file_free(&sl->files[i]);
	free(sl);
}

static int srcline_cmp_sym(const void *a, const void *b)
{
	const struct srcline_sym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->func != y->func)
		return y->func - x->func;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* f's named symbols that have an address, sorted by name; -1 without memory. */
static int srcline_index(struct srcline_file *f)
{
	int i, n = dwfl_module_getsymtab(f->mod);

	f->indexed = 1;
	if (n <= 0)
		return 0;
	f->syms = calloc((size_t)n, sizeof(*f->syms));
	if (!f->syms)
		return -1;
	for (i = 1; i < n; i++) {
		GElf_Word shndx;
		GElf_Addr addr;
		GElf_Sym sym;
		const char *name = dwfl_module_getsym_info(f->mod, i, &sym, &addr, &shndx,
							   NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);

		if (!name || !*name || shndx == SHN_UNDEF || type == STT_FILE ||
		    type == STT_SECTION)
			continue;
		f->syms[f->nr_syms++] = (struct srcline_sym){
			.name = name, .addr = addr, .func = type == STT_FUNC,
		};
	}
	qsort(f->syms, f->nr_syms, sizeof(*f->syms), srcline_cmp_sym);
	return 0;
}

/*
 * The address of name in f (a function before another symbol of the
 * name, then the lowest): 1 and *addr, 0 when f has none, -1 without
 * memory for the index.
 */
static int srcline_sym_addr(struct srcline_file *f, const char *name, GElf_Addr *addr)
{
	size_t lo = 0, hi;

	if (!f->indexed && srcline_index(f))
		return -1;
	hi = f->nr_syms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(f->syms[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == f->nr_syms || strcmp(f->syms[lo].name, name))
		return 0;
	*addr = f->syms[lo].addr;
	return 1;
}

/* "0x1234", or "[module:]name[+0xoff]" (a size, "/0x40", after it is ignored). */
static int srcline_parse_word(const char *word, struct srcline_word *w)
{
	const char *colon = strchr(word, ':'), *plus, *name = word;
	char *end;
	size_t len;

	memset(w, 0, sizeof(*w));
	if (!strncmp(word, "0x", 2) || !strncmp(word, "0X", 2)) {
		if (!isxdigit((unsigned char)word[2]))
			return -1;
		errno = 0;
		w->addr = strtoull(word + 2, &end, 16);
		w->is_addr = 1;
		return errno || end == word + 2 || *end ? -1 : 0;
	}
	if (colon && colon < word + strcspn(word, "+/")) {
		if ((size_t)(colon - word) >= sizeof(w->module))
			return -1;
		memcpy(w->module, word, (size_t)(colon - word));
		name = colon + 1;
	}
	len = strcspn(name, "+/");
	if (!len || len >= sizeof(w->name))
		return -1;
	memcpy(w->name, name, len);
	plus = name + len;
	if (*plus != '+')
		return 0;
	if (strncmp(plus + 1, "0x", 2) || !isxdigit((unsigned char)plus[3]))
		return -1;
	errno = 0;
	w->off = strtoull(plus + 3, &end, 16);
	return errno || (*end && *end != '/') ? -1 : 0;
}

/*
 * The distance the image was moved by, from the map's _text and the
 * file's: 1 and *delta, or 0 when either lacks it.
 */
static int srcline_image_delta(struct srcline_file *f, const struct ksyms *ks, uint64_t *delta)
{
	const struct ksym *text = ksyms__find_name(ks, "_text");
	GElf_Addr own;

	if (!text || text->module || srcline_sym_addr(f, "_text", &own) != 1)
		return 0;
	*delta = text->addr - own;
	return 1;
}

/*
 * Where a log's word lies in the file that has it: 1 with *file and
 * *addr, 0 when no file of the set has it, -1 without memory.
 */
static int srcline_locate(struct srcline *sl, const struct ksyms *ks, const struct srcline_word *w,
			  struct srcline_file **file, GElf_Addr *addr)
{
	const struct ksym *s = NULL;
	uint64_t delta;
	int found;

	if (w->is_addr && !ks) {
		*file = srcline_file_of(sl, NULL);
		*addr = w->addr;
		return *file != NULL;
	}
	if (w->is_addr && !(s = ksyms__map_addr(ks, w->addr)))
		return 0;
	*file = srcline_file_of(sl, s ? s->module : w->module);
	if (!*file)
		return 0;
	if (s && !s->module && srcline_image_delta(*file, ks, &delta)) {
		*addr = w->addr - delta;
		return 1;
	}
	found = srcline_sym_addr(*file, s ? s->name : w->name, addr);
	if (found == 1)
		*addr += s ? w->addr - s->addr : w->off;
	return found;
}

int srcline__lookup(struct srcline *sl, const struct ksyms *ks, const char *word,
		    int is_return, struct srcline_frame *frames, int max)
{
	struct srcline_file *file;
	struct srcline_word w;
	GElf_Addr addr;
	int found;

	if (srcline_parse_word(word, &w))
		return 0;
	found = srcline_locate(sl, ks, &w, &file, &addr);
	if (found <= 0)
		return found;
	if (is_return && addr)
		addr--;
	return srcline_frames(file->mod, addr, frames, max);
}
