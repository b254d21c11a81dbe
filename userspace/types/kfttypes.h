/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed calls: a function's name and the raw values kft logged for a call
 * (the registers its arguments came in, its return value, the bytes an
 * argument pointed to), printed as C would write the call:
 *
 *	do_sys_openat2(dfd=-100, filename="/etc/passwd", how=0xffff888012345678) = 3
 *
 * The types come from three sources, asked in this order whatever the
 * order they were added in: the kernel's BTF (libbpf), the DWARF of a
 * vmlinux or module built with debug information (libdw), and prototypes
 * the user writes. Documentation/types.rst describes the printed form.
 *
 *	struct kfttypes *t = kfttypes__new(0);
 *	kfttypes__add_btf(t, "/sys/kernel/btf/vmlinux", NULL, &err);
 *	kfttypes__add_prototype(t, "int my_fn(unsigned int flags, const char *name)", &err);
 *	kfttypes__format_call(t, "do_sys_openat2", &call, 0, buf, sizeof(buf));
 *	kfttypes__free(t);
 */
#ifndef KFT_KFTTYPES_H
#define KFT_KFTTYPES_H

#include <stdbool.h>
#include <stddef.h>

struct kfttypes;
struct kftproto;

/*
 * The kernel proper's name where a module's would be ("vmlinux:name"):
 * no module has it, and its functions are vmlinux's.
 */
#define KFTTYPES_KERNEL		"vmlinux"

/* The arguments a call can have logged (8 registers on riscv64). */
#define KFTTYPES_MAX_ARGS	8

/* Why a source or a prototype was refused. */
struct kfttypes_error {
	int column;		/* of a prototype's text, from 1; 0: not in one */
	char msg[160];
};

/*
 * What an argument pointed to, as the kernel copied it at the call: a
 * string (args string), or the first bytes of a struct (args struct),
 * which a pointer to a struct or union prints as its members.
 */
struct kfttypes_capture {
	const void *bytes;	/* NULL: nothing captured */
	size_t len;		/* a string without its NUL here was cut */
	int error;		/* the copy's error (-EFAULT); 0: none */
	bool is_struct;		/* the bytes of a struct, not a string */
};

struct kfttypes_call {
	const unsigned long long *args;	/* the first nr_args arguments' registers */
	int nr_args;			/* 0..KFTTYPES_MAX_ARGS (more are not read) */
	/* NULL, or one for each of the nr_args arguments */
	const struct kfttypes_capture *captures;
	bool has_ret;			/* the call returned, with ret */
	unsigned long long ret;
	/*
	 * The values the log hid from its reader (kft's "hidden": a reader
	 * without CAP_SYSLOG sees only errors and zeros): bit i for
	 * argument i, KFTTYPES_RET_HIDDEN for the return value; each prints
	 * as "hidden", whatever its type.
	 */
	unsigned int hidden;
};

#define KFTTYPES_RET_HIDDEN	(1u << KFTTYPES_MAX_ARGS)

/* Addresses print as "hidden" (kft's readers without CAP_SYSLOG). */
#define KFTTYPES_HIDE_ADDRS	0x1
/* The log has no arguments for the call: its name and return value only. */
#define KFTTYPES_RETURN_ONLY	0x2

/*
 * A set of type sources for a machine whose long and pointers have
 * @word_bytes (4 or 8; 0: this machine's): written prototypes use it.
 * NULL: ENOMEM.
 */
struct kfttypes *kfttypes__new(unsigned int word_bytes);
void kfttypes__free(struct kfttypes *t);

/*
 * The BTF at @path (raw, as /sys/kernel/btf/vmlinux, or an ELF file's
 * .BTF section); a module's (/sys/kernel/btf/MODULE) is split BTF, read
 * over @base_path's (vmlinux's). 0, or a negative errno with @err said.
 */
int kfttypes__add_btf(struct kfttypes *t, const char *path, const char *base_path,
		      struct kfttypes_error *err);
/*
 * The same of the module @module's split BTF (the running kernel's
 * /sys/kernel/btf/MODULE): that module's functions ("module:name") are
 * asked of it first, and another's never. Split BTF added without a
 * module's name (kfttypes__add_btf) types any module's function it knows.
 */
int kfttypes__add_module_btf(struct kfttypes *t, const char *module, const char *path,
			     const char *base_path, struct kfttypes_error *err);
/*
 * The DWARF of an ELF file (vmlinux, a module, an object): 0, or a
 * negative errno. MODULE.ko's is that module's, a vmlinux's the kernel
 * proper's, any other file's anyone's.
 */
int kfttypes__add_dwarf(struct kfttypes *t, const char *path, struct kfttypes_error *err);
/*
 * A prototype the user wrote, "int my_fn(unsigned int flags, const char
 * *name)" (kftparse.h says what parses): 0, or -EINVAL with the column
 * in @err, -EEXIST when the function has one already.
 */
int kfttypes__add_prototype(struct kfttypes *t, const char *text, struct kfttypes_error *err);
/*
 * The same, of text[0..len): a line of a file, whose every byte the
 * parser reads (a NUL byte in it is refused, with its column).
 */
int kfttypes__add_prototype_text(struct kfttypes *t, const char *text, size_t len,
				 struct kfttypes_error *err);

/*
 * The prototype of @func ("name" or "module:name") from the first source
 * that knows it; NULL when none does. Valid until kfttypes__free.
 */
const struct kftproto *kfttypes__find(struct kfttypes *t, const char *func);

/*
 * @call of @func printed into buf[0..len) (NUL-terminated when len > 0),
 * typed by kfttypes__find's prototype, else in hex. Returns the length
 * of the whole text, as snprintf.
 */
size_t kfttypes__format_call(struct kfttypes *t, const char *func,
			     const struct kfttypes_call *call, unsigned int flags, char *buf,
			     size_t len);
/* The same, the call printed as a call of @shown (NULL: @func), a name cut to fit. */
size_t kfttypes__format_shown(struct kfttypes *t, const char *func, const char *shown,
			      const struct kfttypes_call *call, unsigned int flags, char *buf,
			      size_t len);
/*
 * One argument register of a call of @func, the @reg'th (from 0), whose
 * value is @v, printed as the parameter it passes (kftcall.h).
 */
size_t kfttypes__format_register(struct kfttypes *t, const char *func, int reg,
				 unsigned long long v, bool hidden, unsigned int flags, char *buf,
				 size_t len);

#endif
