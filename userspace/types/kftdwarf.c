// SPDX-License-Identifier: GPL-2.0
/*
 * Prototypes from DWARF, read by elfutils: a function's DW_TAG_subprogram
 * (its definition, or the abstract instance of an inlined one), its
 * DW_TAG_formal_parameter children and their types, and the DW_TAG_member
 * children of a struct or union a parameter points to. The file is opened
 * through libdwfl as an offline module, which applies the relocations of
 * a kernel module's or an object's debug sections (libdw alone reads them
 * unrelocated). The first lookup indexes the top-level subprograms of
 * every unit by name; a static function defined in two units is the
 * first one's. The names are the DWARF's own strings; an enumeration's
 * enumerators and a struct's members are made once for each type (each
 * DIE) and shared by the prototypes (kfttables.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "dwfl/offline.h"
#include "namemap.h"
#include "kftsource.h"
#include "kfttables.h"

/* The longest chain of typedefs and qualifiers followed (bad DWARF can loop). */
#define KFTDWARF_MAX_CHAIN	32
/* The functions indexed at most (vmlinux has about 100,000). */
#define KFTDWARF_MAX_FUNCS	(1 << 20)

struct kftdwarf {
	struct kftsource src;
	Dwfl *dwfl;
	Dwarf *dw;
	bool indexed;
	struct namemap index;	/* name -> the subprogram's DIE offset */
	struct kfttables tables;	/* the prototypes' enumerators and members */
};

/* @die's attribute @name, its own or its abstract origin's. */
static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
}

/*
 * The DIE @die's DW_AT_type names, in *to: false when it has none. Where
 * that is a declaration with DW_AT_signature (the type is in a type unit,
 * gcc's -fdebug-types-section), the type unit's DIE: the declaration has
 * neither enumerators nor members.
 */
static bool die_type(Dwarf_Die *die, Dwarf_Die *to)
{
	Dwarf_Attribute attr;
	Dwarf_Die unit_type;

	if (!dwarf_formref_die(dwarf_attr_integrate(die, DW_AT_type, &attr), to))
		return false;
	if (dwarf_formref_die(dwarf_attr(to, DW_AT_signature, &attr), &unit_type))
		*to = unit_type;
	return true;
}

/*
 * Whether @die says it is a declaration, itself: a definition whose
 * DW_AT_specification is the declaration (integrated, its attributes
 * would be the definition's) is none.
 */
static bool die_declaration(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	bool flag = false;

	return dwarf_formflag(dwarf_attr(die, DW_AT_declaration, &attr), &flag) == 0 && flag;
}

static bool tag_is_qualifier(int tag)
{
	return tag == DW_TAG_typedef || tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
	       tag == DW_TAG_restrict_type || tag == DW_TAG_atomic_type;
}

/* @die after its typedefs and qualifiers, in place: false for void or none. */
static bool die_strip(Dwarf_Die *die)
{
	int n;

	for (n = 0; n < KFTDWARF_MAX_CHAIN; n++) {
		if (!tag_is_qualifier(dwarf_tag(die)))
			return true;
		if (!die_type(die, die))
			return false;
	}
	return false;
}

/*
 * The key of @die's table in the source's tables: where the DIE lies in
 * memory, and which kind of table. Not its offset: a type unit's offsets
 * (DWARF 4's .debug_types) and an alternate file's (dwz) count from 0 in
 * sections of their own, so that one offset can name an enumeration in one
 * and a struct or another enumeration in the other. libdw keeps each
 * section in memory while the Dwarf lives, so an address names one DIE
 * (dwarf_die_addr_die() takes it back).
 */
static unsigned long long die_table_key(Dwarf_Die *die, bool members)
{
	return (unsigned long long)(uintptr_t)die->addr << 1 | members;
}

/* The enumerators of the enumeration @die, a new table of them in *vals: -ENOMEM, else 0. */
static int die_enum_table(Dwarf_Die *die, struct kftenumval **vals, size_t *nr)
{
	Dwarf_Die child;
	size_t n = 0, i = 0;

	if (dwarf_child(die, &child) == 0)
		do
			n += dwarf_tag(&child) == DW_TAG_enumerator;
		while (n < KFTPROTO_MAX_ENUMVALS && dwarf_siblingof(&child, &child) == 0);
	*nr = 0;
	*vals = n ? calloc(n, sizeof(**vals)) : NULL;
	if (n && !*vals)
		return -ENOMEM;
	if (!n || dwarf_child(die, &child))
		return 0;
	do {
		Dwarf_Attribute attr;
		Dwarf_Sword s = 0;
		Dwarf_Word u = 0;

		if (dwarf_tag(&child) != DW_TAG_enumerator ||
		    !dwarf_attr(&child, DW_AT_const_value, &attr))
			continue;
		if (dwarf_whatform(&attr) == DW_FORM_sdata || dwarf_whatform(&attr) == DW_FORM_implicit_const)
			dwarf_formsdata(&attr, &s);
		else if (dwarf_formudata(&attr, &u) == 0)
			s = (Dwarf_Sword)u;
		(*vals)[i].value = s;
		(*vals)[i].name = die_name(&child) ?: "?";
		i++;
	} while (i < n && dwarf_siblingof(&child, &child) == 0);
	*nr = i;
	return 0;
}

/*
 * The enumerators of the enumeration @die into @type, from the table its
 * first use made: -ENOMEM, else 0. With all the tables kept that may be,
 * the enumeration goes without, and its values print as numbers.
 */
static int die_enumvals(struct kftdwarf *d, Dwarf_Die *die, struct kftype *type)
{
	struct kftenumval *vals;
	const void *table;
	size_t n;
	int err;

	if (kfttables__get(&d->tables, die_table_key(die, false), &table, &type->nr_enumvals)) {
		type->enumvals = table;
		return 0;
	}
	err = die_enum_table(die, &vals, &n);
	if (!err)
		err = kfttables__keep(&d->tables, die_table_key(die, false), vals, n);
	if (err)
		return err == -ENOSPC ? 0 : err;
	type->enumvals = vals;
	type->nr_enumvals = n;
	return 0;
}

/* A base type: an integer or a truth value (anything else is unknown). */
static void die_base(Dwarf_Die *die, struct kftype *type)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	int size = dwarf_bytesize(die);

	if (size <= 0 || size > 8 || dwarf_formudata(dwarf_attr(die, DW_AT_encoding, &attr), &enc))
		return;
	type->size = size;
	switch (enc) {
	case DW_ATE_boolean:
		type->kind = KFTYPE_BOOL;
		break;
	case DW_ATE_signed:
	case DW_ATE_signed_char:
		type->is_signed = true;
		/* fall through */
	case DW_ATE_unsigned:
	case DW_ATE_unsigned_char:
	case DW_ATE_UTF:
		type->kind = KFTYPE_INT;
		break;
	}
}

/* An enumeration: its width, signedness (its underlying type's) and enumerators. */
static int die_enum(struct kftdwarf *d, Dwarf_Die *die, struct kftype *type)
{
	Dwarf_Die under;
	int size = dwarf_bytesize(die);

	if (size <= 0 || size > 8)
		return 0;
	type->kind = KFTYPE_ENUM;
	type->size = size;
	if (die_type(die, &under) && die_strip(&under) && dwarf_tag(&under) == DW_TAG_base_type) {
		struct kftype base = { 0 };

		die_base(&under, &base);
		type->is_signed = base.is_signed;
	}
	return die_enumvals(d, die, type);
}

/* A pointer: a string when it points to char, const or not. */
static void die_pointer(Dwarf_Die *die, struct kftype *type)
{
	Dwarf_Die to;
	int size = dwarf_bytesize(die);
	const char *name;

	type->kind = KFTYPE_PTR;
	type->size = size > 0 && size <= 8 ? size : 8;
	if (die_type(die, &to) && die_strip(&to) && dwarf_tag(&to) == DW_TAG_base_type) {
		name = die_name(&to);
		if (name && !strcmp(name, "char"))
			type->kind = KFTYPE_STR;
	}
}

/* The type @die has (void when it has none): -ENOMEM, else 0. */
static int die_kftype(struct kftdwarf *d, Dwarf_Die *die, struct kftype *type)
{
	Dwarf_Die t;

	memset(type, 0, sizeof(*type));
	if (!die_type(die, &t)) {
		type->kind = KFTYPE_VOID;
		return 0;
	}
	if (!die_strip(&t))
		return 0;	/* a qualified void is no value to print */
	switch (dwarf_tag(&t)) {
	case DW_TAG_base_type:
		die_base(&t, type);
		break;
	case DW_TAG_enumeration_type:
		return die_enum(d, &t, type);
	case DW_TAG_pointer_type:
		die_pointer(&t, type);
		break;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		type->kind = KFTYPE_RECORD;
		break;
	}
	return 0;
}

/*
 * A bit offset as a member keeps it: one past what that holds is past
 * every copy of a struct kft reads, and is kept as the farthest, never
 * cut to a small one that would read another member's bits.
 */
static unsigned int die_bits(Dwarf_Word bits)
{
	return bits > UINT_MAX ? UINT_MAX : (unsigned int)bits;
}

/*
 * Where a member starts, in bits from its struct's start: its
 * DW_AT_data_member_location, and a bit-field's DW_AT_data_bit_offset
 * (DWARF 4 on) or DW_AT_bit_offset (before it, counted from the top of
 * its storage unit: the kernels kft reads are little-endian). The DWARF
 * may say anything: a storage unit is an integer of at most 8 bytes,
 * and the sums are made in 64 bits.
 */
static unsigned int die_member_bit_offset(Dwarf_Die *m, int bit_size)
{
	Dwarf_Attribute attr;
	Dwarf_Word loc = 0, bits = 0;
	int unit, old;

	if (dwarf_formudata(dwarf_attr(m, DW_AT_data_bit_offset, &attr), &bits) == 0)
		return die_bits(bits);
	dwarf_formudata(dwarf_attr(m, DW_AT_data_member_location, &attr), &loc);
	if (loc > UINT_MAX / 8)
		return UINT_MAX;
	old = bit_size > 0 ? dwarf_bitoffset(m) : -1;
	unit = dwarf_bytesize(m);
	if (old < 0 || unit <= 0 || unit > 8 ||
	    (Dwarf_Word)unit * 8 < (Dwarf_Word)old + (Dwarf_Word)bit_size)
		return die_bits(loc * 8);
	return die_bits(loc * 8 + (Dwarf_Word)unit * 8 - (Dwarf_Word)old - (Dwarf_Word)bit_size);
}

/*
 * The members of the struct or union @rec, a new table of them in
 * *members (nested ones not followed): -ENOMEM, else 0.
 */
static int die_member_table(struct kftdwarf *d, Dwarf_Die *rec, struct kftmember **members,
			    size_t *nr)
{
	Dwarf_Die child;
	size_t n = 0, i = 0;

	*nr = 0;
	*members = NULL;
	if (dwarf_child(rec, &child))
		return 0;
	do
		n += dwarf_tag(&child) == DW_TAG_member;
	while (n < KFTPROTO_MAX_MEMBERS && dwarf_siblingof(&child, &child) == 0);
	*members = n ? calloc(n, sizeof(**members)) : NULL;
	if (n && !*members)
		return -ENOMEM;
	if (!n || dwarf_child(rec, &child))
		return 0;
	do {
		struct kftmember *km = &(*members)[i];
		int bit_size;

		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		bit_size = dwarf_bitsize(&child);
		km->name = die_name(&child);
		km->bit_size = bit_size > 0 ? bit_size : 0;
		km->bit_offset = die_member_bit_offset(&child, bit_size);
		i++;
		if (die_kftype(d, &child, &km->type)) {
			free(*members);
			*members = NULL;
			return -ENOMEM;
		}
	} while (i < n && dwarf_siblingof(&child, &child) == 0);
	*nr = i;
	return 0;
}

/*
 * The members of the struct or union the parameter @param points to, into
 * @type, from the table the struct's first use made; nothing for a
 * pointer to anything else, nor once all the tables that may be are
 * kept. -ENOMEM, else 0.
 */
static int die_pointee_members(struct kftdwarf *d, Dwarf_Die *param, struct kftype *type)
{
	struct kftmember *members;
	const void *table;
	Dwarf_Die rec;
	size_t n;
	int err;

	if (!die_type(param, &rec) || !die_strip(&rec) || dwarf_tag(&rec) != DW_TAG_pointer_type ||
	    !die_type(&rec, &rec) || !die_strip(&rec) ||
	    (dwarf_tag(&rec) != DW_TAG_structure_type && dwarf_tag(&rec) != DW_TAG_union_type))
		return 0;
	if (kfttables__get(&d->tables, die_table_key(&rec, true), &table, &type->nr_members)) {
		type->members = table;
		return 0;
	}
	err = die_member_table(d, &rec, &members, &n);
	if (!err)
		err = kfttables__keep(&d->tables, die_table_key(&rec, true), members, n);
	if (err)
		return err == -ENOSPC ? 0 : err;
	type->members = members;
	type->nr_members = n;
	return 0;
}

static struct kftproto *die_proto(struct kftdwarf *d, Dwarf_Die *fn)
{
	struct kftproto *p = kftproto__new(die_name(fn));
	Dwarf_Die child;

	if (!p || die_kftype(d, fn, &p->ret))
		goto err_free_proto;
	if (dwarf_child(fn, &child) == 0) {
		do {
			struct kftype type;

			if (dwarf_tag(&child) == DW_TAG_unspecified_parameters)
				p->variadic = true;
			if (dwarf_tag(&child) != DW_TAG_formal_parameter)
				continue;
			if (die_kftype(d, &child, &type))
				goto err_free_proto;
			if (type.kind == KFTYPE_PTR && die_pointee_members(d, &child, &type))
				goto err_free_proto;
			kftproto__add_param(p, die_name(&child), &type);
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	return p;

err_free_proto:
	kftproto__free(p);
	errno = ENOMEM;
	return NULL;
}

/*
 * Each unit's top-level subprograms that define a function, by name. A
 * type unit defines none, and its DIEs' offsets are of .debug_types
 * (DWARF 4), which dwarf_offdie() would read in .debug_info: left out.
 */
static int dwarf_index(struct kftdwarf *d)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, die;
	uint8_t unit_type;
	int err = 0;

	d->index.max = KFTDWARF_MAX_FUNCS;
	while (!err && dwarf_get_units(d->dw, cu, &cu, NULL, &unit_type, &cudie, NULL) == 0) {
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type ||
		    dwarf_child(&cudie, &die))
			continue;
		do {
			const char *name;
			size_t ignored;

			if (dwarf_tag(&die) != DW_TAG_subprogram || die_declaration(&die))
				continue;
			name = die_name(&die);
			if (name && !namemap__get(&d->index, name, &ignored))
				err = namemap__set(&d->index, name, dwarf_dieoffset(&die));
		} while (!err && dwarf_siblingof(&die, &die) == 0);
	}
	d->indexed = true;
	return err == -ENOSPC ? 0 : err;
}

static struct kftproto *kftdwarf_find(struct kftsource *src, const char *func)
{
	struct kftdwarf *d = (struct kftdwarf *)src;
	Dwarf_Die die;
	size_t off;

	if (!d->indexed && dwarf_index(d)) {
		errno = ENOMEM;
		return NULL;
	}
	if (!namemap__get(&d->index, func, &off) || !dwarf_offdie(d->dw, off, &die)) {
		errno = ENOENT;
		return NULL;
	}
	return die_proto(d, &die);
}

static void kftdwarf_free(struct kftsource *src)
{
	struct kftdwarf *d = (struct kftdwarf *)src;

	if (d->dwfl)
		dwfl_end(d->dwfl);
	namemap__clear(&d->index);
	kfttables__free(&d->tables);
	free(d);
}

static const struct kftsource_ops kftdwarf_ops = {
	.rank = KFTSOURCE_DWARF,
	.find = kftdwarf_find,
	.free = kftdwarf_free,
};

struct kftsource *kftdwarf__open(const char *path, struct kfttypes_error *err)
{
	struct kftdwarf *d = calloc(1, sizeof(*d));
	Dwfl_Module *mod = NULL;
	Dwarf_Addr bias;

	err->column = 0;
	if (!d) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	mod = dwfl_offline__open("kft", path, &d->dwfl);
	d->dw = mod ? dwfl_module_getdwarf(mod, &bias) : NULL;
	if (!d->dw) {
		snprintf(err->msg, sizeof(err->msg), "%s: no DWARF: %s", path, dwfl_errmsg(-1));
		kftdwarf_free(&d->src);
		errno = ENOENT;
		return NULL;
	}
	d->src.ops = &kftdwarf_ops;
	return &d->src;
}
