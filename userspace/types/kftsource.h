/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A source of prototypes: something that, given a function's name, says
 * its parameters' and return value's types. Three of them, each in its
 * own file: BTF (kftbtf.c, through libbpf), DWARF (kftdwarf.c, through
 * libdw) and prototypes the user wrote (kftwritten.c). kfttypes.c asks
 * them in the order of their rank.
 */
#ifndef KFT_KFTSOURCE_H
#define KFT_KFTSOURCE_H

#include "kftproto.h"
#include "kfttypes.h"

enum kftsource_rank { KFTSOURCE_BTF, KFTSOURCE_DWARF, KFTSOURCE_WRITTEN };

/*
 * Whose functions a source describes: a module's (its name in
 * kftsource.module), the kernel proper's (vmlinux), or anyone's (written
 * prototypes, a file that is neither). A source of another module or of
 * the kernel proper never types a module's function: its function of
 * that name is another.
 */
enum kftsource_owner { KFTSOURCE_ANY, KFTSOURCE_KERNEL, KFTSOURCE_MODULE };

/* A module's name as the kernel keeps it (MODULE_NAME_LEN), with its NUL. */
#define KFTSOURCE_MODULE_MAX	56

struct kftsource;

struct kftsource_ops {
	enum kftsource_rank rank;
	/*
	 * A new prototype of @func (the caller frees it); its names stay
	 * valid while the source lives. NULL with errno ENOENT when the
	 * source does not know @func, ENOMEM.
	 */
	struct kftproto *(*find)(struct kftsource *src, const char *func);
	void (*free)(struct kftsource *src);
};

struct kftsource {
	const struct kftsource_ops *ops;
	struct kftsource *next;		/* kfttypes' list */
	enum kftsource_owner owner;	/* set by kfttypes, from the file's name */
	char module[KFTSOURCE_MODULE_MAX];	/* KFTSOURCE_MODULE's */
};

/*
 * The sources: NULL with @err said (and errno) when the file cannot be
 * read or has no such information.
 */
struct kftsource *kftbtf__open(const char *path, struct kftsource *base, const char *base_path,
			       struct kfttypes_error *err);
/*
 * For a module's split BTF over @base_path: @base, a BTF source read from
 * it (kftbtf__read_from()), lends its types, which are then parsed once
 * for every module; without one, @base_path is parsed for this source.
 */
bool kftbtf__read_from(const struct kftsource *src, const char *path);
struct kftsource *kftdwarf__open(const char *path, struct kfttypes_error *err);
/* An empty set of written prototypes, for kftwritten__add. */
struct kftsource *kftwritten__new(unsigned int word_bytes);
/* kfttypes__add_prototype's work, on a source kftwritten__new made. */
int kftwritten__add(struct kftsource *src, const char *text, size_t len,
		    struct kfttypes_error *err);

#endif
