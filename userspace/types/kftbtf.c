// SPDX-License-Identifier: GPL-2.0
/*
 * Prototypes from BTF, read by libbpf: a function's BTF_KIND_FUNC, its
 * FUNC_PROTO's return type and parameters, each type followed through
 * typedefs, qualifiers and type tags ("user": a __user pointer, where
 * the compiler recorded it) to what it is; a parameter that points to a
 * struct or union has its members, each with its type. The names are the
 * BTF's own strings, valid while the source is open; an enumeration's
 * enumerators and a struct's members are made once for each type and
 * shared by the prototypes (kfttables.h). The first lookup indexes the
 * functions by name.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kftsource.h"
#include "kfttables.h"
#include "namemap.h"

/* The longest chain of typedefs and qualifiers followed (bad BTF can loop). */
#define KFTBTF_MAX_CHAIN	32
/* The functions indexed at most (vmlinux has about 60,000). */
#define KFTBTF_MAX_FUNCS	(1 << 20)

struct kftbtf {
	struct kftsource src;
	struct btf *btf;
	struct btf *base;	/* a module's: vmlinux's, under it */
	bool base_owned;	/* parsed for it, not another source's */
	char *path;		/* what it was read from */
	bool indexed;
	struct namemap index;	/* name -> FUNC id */
	struct kfttables tables;	/* the prototypes' enumerators and members */
};

static bool btf_is_qualifier(const struct btf_type *t)
{
	return btf_is_typedef(t) || btf_is_const(t) || btf_is_volatile(t) || btf_is_restrict(t) ||
	       btf_is_type_tag(t);
}

/* @id after its typedefs and qualifiers (NULL: void or none); a "user" tag said. */
static const struct btf_type *btf_strip(const struct btf *btf, __u32 id, bool *user)
{
	const struct btf_type *t;
	int n;

	for (n = 0; n < KFTBTF_MAX_CHAIN && id; n++) {
		t = btf__type_by_id(btf, id);
		if (!t)
			return NULL;
		if (!btf_is_qualifier(t))
			return t;
		if (btf_is_type_tag(t) && user && !strcmp(btf__name_by_offset(btf, t->name_off) ?: "", "user"))
			*user = true;
		id = t->type;
	}
	return NULL;
}

/* The enumerators of the enum @t, a new table of them in *vals: -ENOMEM, else 0. */
static int btf_enum_table(const struct btf *btf, const struct btf_type *t,
			  struct kftenumval **vals, size_t *nr)
{
	size_t n = btf_vlen(t) < KFTPROTO_MAX_ENUMVALS ? btf_vlen(t) : KFTPROTO_MAX_ENUMVALS, i;

	*nr = 0;
	*vals = n ? calloc(n, sizeof(**vals)) : NULL;
	if (n && !*vals)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct kftenumval *v = &(*vals)[i];

		if (btf_is_enum64(t)) {
			const struct btf_enum64 *e = btf_enum64(t) + i;

			v->value = (long long)btf_enum64_value(e);
			v->name = btf__name_by_offset(btf, e->name_off);
		} else {
			const struct btf_enum *e = btf_enum(t) + i;

			v->value = btf_kflag(t) ? (long long)e->val : (long long)(__u32)e->val;
			v->name = btf__name_by_offset(btf, e->name_off);
		}
		if (!v->name)
			v->name = "?";
	}
	*nr = n;
	return 0;
}

/*
 * The enumerators of the enum @t into @type, from the table its first
 * use made: -ENOMEM, else 0. With all the tables kept that may be, the
 * enum goes without, and its values print as numbers.
 */
static int btf_enumvals(struct kftbtf *b, const struct btf_type *t, struct kftype *type)
{
	const void *table;
	struct kftenumval *vals;
	size_t n;
	int err;

	if (kfttables__get(&b->tables, (uintptr_t)t, &table, &type->nr_enumvals)) {
		type->enumvals = table;
		return 0;
	}
	err = btf_enum_table(b->btf, t, &vals, &n);
	if (!err)
		err = kfttables__keep(&b->tables, (uintptr_t)t, vals, n);
	if (err)
		return err == -ENOSPC ? 0 : err;
	type->enumvals = vals;
	type->nr_enumvals = n;
	return 0;
}

/* A pointer's type: a string when it points to char, const or not. */
static struct kftype btf_pointer(const struct btf *btf, const struct btf_type *t)
{
	struct kftype type = { .kind = KFTYPE_PTR, .size = btf__pointer_size(btf) };
	const struct btf_type *to = btf_strip(btf, t->type, &type.user);

	if (!type.size)
		type.size = 8;
	if (to && btf_is_int(to) && !strcmp(btf__name_by_offset(btf, to->name_off) ?: "", "char"))
		type.kind = KFTYPE_STR;
	return type;
}

/* The type of @id as kft prints it: -ENOMEM, else 0. */
static int btf_kftype(struct kftbtf *b, __u32 id, struct kftype *type)
{
	const struct btf_type *t;

	memset(type, 0, sizeof(*type));
	if (!id) {
		type->kind = KFTYPE_VOID;
		return 0;
	}
	t = btf_strip(b->btf, id, NULL);
	if (!t)
		return 0;	/* unknown */
	if (btf_is_int(t) && t->size <= 8) {
		type->kind = btf_int_encoding(t) & BTF_INT_BOOL ? KFTYPE_BOOL : KFTYPE_INT;
		type->size = t->size;
		type->is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
	} else if (btf_is_any_enum(t) && t->size <= 8) {
		type->kind = KFTYPE_ENUM;
		type->size = t->size;
		type->is_signed = btf_kflag(t);
		return btf_enumvals(b, t, type);
	} else if (btf_is_ptr(t)) {
		*type = btf_pointer(b->btf, t);
	} else if (btf_is_composite(t)) {
		type->kind = KFTYPE_RECORD;
	}
	return 0;
}

/*
 * The members of the struct or union @rec, a new table of them in
 * *members: their names, places and types (a nested struct's own members
 * are not followed). -ENOMEM, else 0.
 */
static int btf_member_table(struct kftbtf *b, const struct btf_type *rec,
			    struct kftmember **members, size_t *nr)
{
	const struct btf_member *m = btf_members(rec);
	size_t n = btf_vlen(rec) < KFTPROTO_MAX_MEMBERS ? btf_vlen(rec) : KFTPROTO_MAX_MEMBERS, i;

	*nr = 0;
	*members = n ? calloc(n, sizeof(**members)) : NULL;
	if (n && !*members)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct kftmember *km = &(*members)[i];
		const char *name = btf__name_by_offset(b->btf, m[i].name_off);

		km->name = name && name[0] ? name : NULL;
		km->bit_offset = btf_member_bit_offset(rec, i);
		km->bit_size = btf_member_bitfield_size(rec, i);
		if (btf_kftype(b, m[i].type, &km->type)) {
			free(*members);
			return -ENOMEM;
		}
	}
	*nr = n;
	return 0;
}

/*
 * The members of the struct or union the pointer @id points to, into
 * @type, from the table the struct's first use made. Nothing for a
 * pointer to anything else, nor once all the tables that may be are
 * kept. -ENOMEM, else 0.
 */
static int btf_pointee_members(struct kftbtf *b, __u32 id, struct kftype *type)
{
	const struct btf_type *ptr = btf_strip(b->btf, id, NULL), *rec;
	struct kftmember *members;
	const void *table;
	size_t n;
	int err;

	rec = ptr && btf_is_ptr(ptr) ? btf_strip(b->btf, ptr->type, NULL) : NULL;
	if (!rec || !btf_is_composite(rec))
		return 0;
	if (kfttables__get(&b->tables, (uintptr_t)rec, &table, &type->nr_members)) {
		type->members = table;
		return 0;
	}
	err = btf_member_table(b, rec, &members, &n);
	if (!err)
		err = kfttables__keep(&b->tables, (uintptr_t)rec, members, n);
	if (err)
		return err == -ENOSPC ? 0 : err;
	type->members = members;
	type->nr_members = n;
	return 0;
}

/* The prototype of FUNC @t, whose FUNC_PROTO is @fp. */
static struct kftproto *btf_proto(struct kftbtf *b, const struct btf_type *t,
				  const struct btf_type *fp)
{
	const struct btf_param *params = btf_params(fp);
	struct kftproto *p = kftproto__new(btf__name_by_offset(b->btf, t->name_off));
	int i, n = btf_vlen(fp);

	if (!p || btf_kftype(b, fp->type, &p->ret))
		goto err_free_proto;
	for (i = 0; i < n; i++) {
		struct kftype type;

		if (i == n - 1 && !params[i].type && !params[i].name_off) {
			p->variadic = true;
			break;
		}
		if (btf_kftype(b, params[i].type, &type))
			goto err_free_proto;
		if (type.kind == KFTYPE_PTR && btf_pointee_members(b, params[i].type, &type))
			goto err_free_proto;
		kftproto__add_param(p, btf__name_by_offset(b->btf, params[i].name_off), &type);
	}
	for (i = 0; i < p->nr_params; i++)
		if (p->params[i].name && !p->params[i].name[0])
			p->params[i].name = NULL;
	return p;

err_free_proto:
	kftproto__free(p);
	errno = ENOMEM;
	return NULL;
}

/*
 * The FUNCs of this BTF by name (a module's own, not its base's: those
 * are vmlinux's source's to answer); the first of a name wins. libbpf's
 * btf__find_by_name_kind reads every type each time: 2 ms on vmlinux.
 */
static int btf_index(struct kftbtf *b)
{
	__u32 id = b->base ? btf__type_cnt(b->base) : 1, end = btf__type_cnt(b->btf);
	int err = 0;

	b->index.max = KFTBTF_MAX_FUNCS;
	for (; id < end && !err; id++) {
		const struct btf_type *t = btf__type_by_id(b->btf, id);
		const char *name = t && btf_is_func(t) ? btf__name_by_offset(b->btf, t->name_off) : NULL;
		size_t ignored;

		if (name && name[0] && !namemap__get(&b->index, name, &ignored))
			err = namemap__set(&b->index, name, id);
	}
	b->indexed = true;
	return err == -ENOSPC ? 0 : err;
}

static struct kftproto *kftbtf_find(struct kftsource *src, const char *func)
{
	struct kftbtf *b = (struct kftbtf *)src;
	const struct btf_type *t = NULL, *fp = NULL;
	size_t id;

	if (!b->indexed && btf_index(b)) {
		errno = ENOMEM;
		return NULL;
	}
	if (namemap__get(&b->index, func, &id))
		t = btf__type_by_id(b->btf, id);
	if (t)
		fp = btf__type_by_id(b->btf, t->type);
	if (!fp || !btf_is_func_proto(fp)) {
		errno = ENOENT;
		return NULL;
	}
	return btf_proto(b, t, fp);
}

static void kftbtf_free(struct kftsource *src)
{
	struct kftbtf *b = (struct kftbtf *)src;

	btf__free(b->btf);
	if (b->base_owned)
		btf__free(b->base);
	free(b->path);
	namemap__clear(&b->index);
	kfttables__free(&b->tables);
	free(b);
}

static const struct kftsource_ops kftbtf_ops = {
	.rank = KFTSOURCE_BTF,
	.find = kftbtf_find,
	.free = kftbtf_free,
};

/* libbpf's pointer-or-NULL results: the error, or 0. */
static int btf_error(const void *p)
{
	int err = -errno;

	return p ? 0 : err ? err : -EINVAL;
}

/* libbpf's messages kept quiet: a file without BTF is said in @err once. */
static int btf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* Why @path has no BTF: libbpf's own errors (-4000 and below) by its words. */
static void btf_say(struct kfttypes_error *err, const char *path, int e)
{
	char why[96];

	if (libbpf_strerror(e, why, sizeof(why)))
		snprintf(why, sizeof(why), "%s", strerror(-e));
	snprintf(err->msg, sizeof(err->msg), "%s: no BTF: %s", path, why);
}

/* kftbtf__open's work, with libbpf quiet. */
static int btf_open(struct kftbtf *b, const char *path, const char *base_path,
		    struct kfttypes_error *err)
{
	int e = 0;

	if (base_path && !b->base) {
		b->base = btf__parse(base_path, NULL);
		b->base_owned = true;
		e = btf_error(b->base);
		if (e)
			btf_say(err, base_path, e);
	}
	if (!e) {
		b->btf = base_path ? btf__parse_split(path, b->base) : btf__parse(path, NULL);
		e = btf_error(b->btf);
		if (e)
			btf_say(err, path, e);
	}
	return e;
}

bool kftbtf__read_from(const struct kftsource *src, const char *path)
{
	const struct kftbtf *b = (const struct kftbtf *)src;

	return src->ops == &kftbtf_ops && !b->base && !strcmp(b->path, path);
}

struct kftsource *kftbtf__open(const char *path, struct kftsource *base, const char *base_path,
			       struct kfttypes_error *err)
{
	struct kftbtf *b = calloc(1, sizeof(*b));
	int e = -ENOMEM;

	err->column = 0;
	if (b && base_path && base)
		b->base = ((struct kftbtf *)base)->btf;
	if (b)
		b->path = strdup(path);
	if (b && b->path) {
		libbpf_print_fn_t was = libbpf_set_print(btf_quiet);

		e = btf_open(b, path, base_path, err);
		libbpf_set_print(was);
	}
	if (e) {
		if (e == -ENOMEM)
			snprintf(err->msg, sizeof(err->msg), "out of memory");
		if (b)
			kftbtf_free(&b->src);
		errno = -e;
		return NULL;
	}
	b->src.ops = &kftbtf_ops;
	return &b->src;
}
