// SPDX-License-Identifier: GPL-2.0
/*
 * A log's calls printed typed (typedlog.h): the options' files opened as
 * kfttypes' sources, each row's values read by kftrow.c and printed by
 * kfttypes__format_call, the formatter every command shares.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kftparse.h"
#include "kftrow.h"
#include "kfttypes.h"
#include "linereader.h"
#include "namemap.h"
#include "typedlog.h"

/* The modules whose BTF is looked for at most (a kernel has a few hundred). */
#define TYPEDLOG_MAX_MODULES	4096
/* A module's name, as the kernel keeps it (MODULE_NAME_LEN). */
#define TYPEDLOG_MODULE_MAX	56
/* CAP_SYSLOG's bit in /proc/self/status's CapEff (linux/capability.h). */
#define TYPEDLOG_CAP_SYSLOG	34

struct typedlog {
	struct kfttypes *types;
	unsigned int flags;		/* KFTTYPES_HIDE_ADDRS */
	/* Without --btf: the running kernel's, its modules' read when met. */
	bool running_btf;
	char vmlinux[PATH_MAX];
	const char *btf_dir;
	struct namemap modules;		/* the modules looked for */
};

static const char *const typedlog_options[] = {
	[TYPEDLOG_BTF] = "--btf", [TYPEDLOG_DWARF] = "--dwarf", [TYPEDLOG_PROTO] = "--proto",
};

int typedlog_files__add(struct typedlog_files *f, enum typedlog_kind kind, const char *path,
			char *err, size_t errlen)
{
	if (f->nr[kind] == TYPEDLOG_MAX_FILES) {
		snprintf(err, errlen, "%s: at most %d files", typedlog_options[kind],
			 TYPEDLOG_MAX_FILES);
		return -1;
	}
	f->paths[kind][f->nr[kind]++] = path;
	f->wanted = true;
	return 0;
}

int typedlog_files__option(struct typedlog_files *f, int opt, const char *path, char *err,
			   size_t errlen)
{
	enum typedlog_kind kind = opt == 'B' ? TYPEDLOG_BTF : opt == 'E' ? TYPEDLOG_DWARF :
				  TYPEDLOG_PROTO;

	return typedlog_files__add(f, kind, path, err, errlen);
}

/*
 * Whether line[0..len) of a prototypes' file has none: blank, or a '#'
 * comment. Blank is what the parser skips; a NUL byte is no blank, so
 * the parser says where it is.
 */
static bool typedlog_no_prototype(const char *line, size_t len)
{
	size_t i = 0;

	while (i < len && isspace((unsigned char)line[i]))
		i++;
	return i == len || line[i] == '#';
}

/*
 * Line @nr of --proto's @path, line[0..len) as line_read() read it: its
 * newline, then one carriage return before it (a file written on
 * Windows), left out; whatever else it holds, a carriage return or a NUL
 * byte within it, goes to the parser, which says where. 0, or -1 with
 * why in @err.
 */
static int typedlog_proto_line(struct kfttypes *t, const char *path, unsigned int nr,
			       const char *line, size_t len, char *err, size_t errlen)
{
	struct kfttypes_error e = { 0 };

	if (len && line[len - 1] == '\n')
		len--;
	if (len && line[len - 1] == '\r')
		len--;
	if (len > KFTPARSE_MAX_LEN) {
		snprintf(err, errlen, "--proto %s:%u: longer than %d bytes", path, nr,
			 KFTPARSE_MAX_LEN);
		return -1;
	}
	if (typedlog_no_prototype(line, len) || !kfttypes__add_prototype_text(t, line, len, &e))
		return 0;
	if (e.column)
		snprintf(err, errlen, "--proto %s:%u: column %d: %s", path, nr, e.column, e.msg);
	else
		snprintf(err, errlen, "--proto %s:%u: %s", path, nr, e.msg);
	return -1;
}

/* The prototypes of --proto's @path, a line each: 0, or -1 with why in @err. */
static int typedlog_read_protos(struct kfttypes *t, const char *path, char *err, size_t errlen)
{
	/* A longest prototype, a carriage return, a newline and the NUL. */
	char line[KFTPARSE_MAX_LEN + 4];
	enum line_status st = LINE_WHOLE;
	unsigned int nr = 0;
	FILE *in = fopen(path, "r");
	int ret = 0;
	size_t len;

	if (!in) {
		snprintf(err, errlen, "--proto %s: %s", path, strerror(errno));
		return -1;
	}
	while (!ret && (st = line_read(in, line, sizeof(line), &len)) != LINE_EOF &&
	       st != LINE_ERROR) {
		nr++;
		if (st == LINE_PART) {
			snprintf(err, errlen, "--proto %s:%u: longer than %d bytes", path, nr,
				 KFTPARSE_MAX_LEN);
			ret = -1;
		} else {
			ret = typedlog_proto_line(t, path, nr, line, len, err, errlen);
		}
	}
	if (!ret && st == LINE_ERROR) {
		snprintf(err, errlen, "--proto %s: %s", path, strerror(errno));
		ret = -1;
	}
	fclose(in);
	return ret;
}

/* A source's refusal, as the option that named it says it. */
static int typedlog_refused(enum typedlog_kind kind, const struct kfttypes_error *e,
			    char *err, size_t errlen)
{
	snprintf(err, errlen, "%s %s", typedlog_options[kind], e->msg);
	return -1;
}

/*
 * --btf's files (the first a vmlinux's, the rest its modules' split BTF),
 * or none given, the running kernel's vmlinux when it has BTF.
 */
static int typedlog_open_btf(struct typedlog *tl, const struct typedlog_files *f,
			     char *err, size_t errlen)
{
	struct kfttypes_error e = { 0 };
	int i;

	for (i = 0; i < f->nr[TYPEDLOG_BTF]; i++) {
		const char *base = i ? f->paths[TYPEDLOG_BTF][0] : NULL;

		if (kfttypes__add_btf(tl->types, f->paths[TYPEDLOG_BTF][i], base, &e))
			return typedlog_refused(TYPEDLOG_BTF, &e, err, errlen);
	}
	if (i)
		return 0;
	snprintf(tl->vmlinux, sizeof(tl->vmlinux), "%s/vmlinux", tl->btf_dir);
	if (access(tl->vmlinux, R_OK))
		return 0;
	i = kfttypes__add_btf(tl->types, tl->vmlinux, NULL, &e);
	/* A build without libbpf reads the other sources named, if any. */
	if (i == -ENOTSUP && (f->nr[TYPEDLOG_DWARF] || f->nr[TYPEDLOG_PROTO]))
		return 0;
	if (i)
		return typedlog_refused(TYPEDLOG_BTF, &e, err, errlen);
	tl->running_btf = true;
	return 0;
}

static int typedlog_open_sources(struct typedlog *tl, const struct typedlog_files *f,
				 char *err, size_t errlen)
{
	struct kfttypes_error e = { 0 };
	int i;

	if (typedlog_open_btf(tl, f, err, errlen))
		return -1;
	for (i = 0; i < f->nr[TYPEDLOG_DWARF]; i++)
		if (kfttypes__add_dwarf(tl->types, f->paths[TYPEDLOG_DWARF][i], &e))
			return typedlog_refused(TYPEDLOG_DWARF, &e, err, errlen);
	for (i = 0; i < f->nr[TYPEDLOG_PROTO]; i++)
		if (typedlog_read_protos(tl->types, f->paths[TYPEDLOG_PROTO][i], err, errlen))
			return -1;
	if (!tl->running_btf && !f->nr[TYPEDLOG_BTF] && !f->nr[TYPEDLOG_DWARF] &&
	    !f->nr[TYPEDLOG_PROTO]) {
		snprintf(err, errlen, "--types: no types: %s/vmlinux: %s (this kernel has no "
			 "BTF?); name them with --btf, --dwarf or --proto", tl->btf_dir,
			 strerror(errno));
		return -1;
	}
	return 0;
}

struct typedlog *typedlog__open(const struct typedlog_files *f, const char *btf_dir,
				unsigned int word_bytes, char *err, size_t errlen)
{
	struct typedlog *tl = calloc(1, sizeof(*tl));

	if (tl)
		tl->types = kfttypes__new(word_bytes);
	if (!tl || !tl->types) {
		snprintf(err, errlen, "out of memory");
		free(tl);
		return NULL;
	}
	tl->btf_dir = btf_dir;
	tl->modules.max = TYPEDLOG_MAX_MODULES;
	tl->flags = typedlog__sees_addresses() ? 0 : KFTTYPES_HIDE_ADDRS;
	if (typedlog_open_sources(tl, f, err, errlen)) {
		typedlog__free(tl);
		return NULL;
	}
	return tl;
}

void typedlog__free(struct typedlog *tl)
{
	if (!tl)
		return;
	kfttypes__free(tl->types);
	namemap__clear(&tl->modules);
	free(tl);
}

/*
 * Whether @name can be a module's (and so a file's name under btf_dir).
 * "vmlinux" is the kernel proper's, whose BTF is read already: read as a
 * module's, it would be parsed again over itself.
 */
static bool typedlog_module_name(const char *name, size_t len)
{
	size_t i;

	if (!len || len >= TYPEDLOG_MODULE_MAX ||
	    (len == strlen(KFTTYPES_KERNEL) && !strncmp(name, KFTTYPES_KERNEL, len)))
		return false;
	for (i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-",
			    name[i]))
			return false;
	return true;
}

/*
 * The running kernel's BTF of @func's module ("module:name"), read the
 * first time one of its functions is met. A module without BTF, or whose
 * BTF does not read, has its calls printed by the other sources, or in hex.
 */
static void typedlog_module_btf(struct typedlog *tl, const char *func)
{
	const char *colon = strchr(func, ':');
	char module[TYPEDLOG_MODULE_MAX], path[PATH_MAX];
	struct kfttypes_error e;
	size_t seen;

	if (!tl->running_btf || !colon || !typedlog_module_name(func, (size_t)(colon - func)))
		return;
	snprintf(module, sizeof(module), "%.*s", (int)(colon - func), func);
	if (namemap__get(&tl->modules, module, &seen) || namemap__set(&tl->modules, module, 1))
		return;
	snprintf(path, sizeof(path), "%s/%s", tl->btf_dir, module);
	if (!access(path, R_OK))
		kfttypes__add_module_btf(tl->types, module, path, tl->vmlinux, &e);
}

size_t typedlog__format(struct typedlog *tl, const char *func, const char *shown,
			const struct kftlog_row *r, bool every_return, char *buf, size_t len)
{
	unsigned long long regs[KFTTYPES_MAX_ARGS];
	unsigned int flags = tl->flags;
	struct kfttypes_call call;
	struct kftrow_str str;

	typedlog_module_btf(tl, func);
	kftrow__call(r, regs, &call);
	kftrow__captures(r, &str, &call);
	if (!kfttypes__find(tl->types, func) && !every_return && r->ret != KFTLOG_RET_ERROR)
		call.has_ret = false;
	if (!r->args || !*r->args)
		flags |= KFTTYPES_RETURN_ONLY;
	return kfttypes__format_shown(tl->types, func, shown, &call, flags, buf, len);
}

size_t typedlog__format_register(struct typedlog *tl, const char *func, int reg,
				 unsigned long long v, bool hidden, char *buf, size_t len)
{
	typedlog_module_btf(tl, func);
	return kfttypes__format_register(tl->types, func, reg, v, hidden, tl->flags, buf, len);
}

int typedlog__check_kernel(const struct typedlog *tl, const char *log_kernel, const char *tool,
			   const char *name, FILE *warn)
{
	struct utsname u;

	if (!tl->running_btf || !log_kernel[0] || uname(&u) || !strcmp(u.release, log_kernel))
		return 0;
	if (warn)
		fprintf(warn, "%s: warning: %s is a log of kernel %s, but the types are this "
			"kernel's (%s): give --btf the traced kernel's BTF\n", tool, name,
			log_kernel, u.release);
	return 1;
}

bool typedlog__sees_addresses(void)
{
	char line[256];
	unsigned long long caps = 0;
	FILE *in = fopen("/proc/self/status", "r");
	bool found = false;

	while (in && !found && fgets(line, sizeof(line), in))
		found = sscanf(line, "CapEff: %llx", &caps) == 1;
	if (in)
		fclose(in);
	return found && (caps >> TYPEDLOG_CAP_SYSLOG & 1);
}
