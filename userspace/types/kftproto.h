/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A function's prototype as kft prints its calls: the return type and each
 * parameter's name and type, reduced to what printing a register's value
 * needs (how wide, signed or not, a pointer, a string, a truth value, an
 * enumeration's names, the members of a struct a pointer points to, for
 * the bytes args struct captured). Each type source (BTF, DWARF, a written
 * prototype) makes one from its own description; kftcall.c prints calls
 * with it.
 */
#ifndef KFT_KFTPROTO_H
#define KFT_KFTPROTO_H

#include <stdbool.h>
#include <stddef.h>

/* The parameters kept: 8 are passed in registers on riscv64, fewer elsewhere. */
#define KFTPROTO_MAX_PARAMS	16
/* The enumerators kept of one enumeration (the kernel's largest have ~1000). */
#define KFTPROTO_MAX_ENUMVALS	4096
/*
 * The members kept of the struct a pointer points to: a capture holds 63
 * bytes at most, which no more members than that can share.
 */
#define KFTPROTO_MAX_MEMBERS	64

enum kftype_kind {
	KFTYPE_UNKNOWN,		/* not known: printed in hex */
	KFTYPE_VOID,		/* a return type only: nothing printed */
	KFTYPE_INT,		/* an integer (char, short, int, long, ...) */
	KFTYPE_BOOL,		/* true or false */
	KFTYPE_ENUM,		/* an enumerator's name, else its number */
	KFTYPE_PTR,		/* an address */
	KFTYPE_STR,		/* a pointer to char: a string when captured */
	KFTYPE_RECORD,		/* a struct or union passed by value */
};

struct kftenumval {
	long long value;
	const char *name;
};

struct kftmember;

struct kftype {
	enum kftype_kind kind;
	unsigned char size;		/* bytes in a register: 1, 2, 4 or 8 */
	bool is_signed;
	bool user;			/* a __user pointer */
	/* An enumeration's: its source's table (kfttables.h), shared */
	size_t nr_enumvals;
	const struct kftenumval *enumvals;
	/*
	 * A parameter that points to a struct or union: its members in
	 * order (none where the source knows none, and for a member's own
	 * type), its source's table, shared as the enumerators are.
	 */
	size_t nr_members;
	const struct kftmember *members;
};

/* A member of the struct or union a parameter points to. */
struct kftmember {
	const char *name;		/* NULL: an anonymous struct or union */
	unsigned int bit_offset;	/* from the struct's start */
	unsigned int bit_size;		/* a bit-field's width; 0: its type's bytes */
	struct kftype type;		/* a nested struct is KFTYPE_RECORD, an array unknown */
};

struct kftparam {
	const char *name;		/* NULL when the source has none */
	struct kftype type;
};

struct kftproto {
	const char *name;
	struct kftype ret;		/* KFTYPE_UNKNOWN when not written */
	bool variadic;			/* "...", or more than MAX_PARAMS */
	int nr_params;
	struct kftparam params[KFTPROTO_MAX_PARAMS];
};

/* A new prototype with no parameters and an unknown return type; NULL: ENOMEM. */
struct kftproto *kftproto__new(const char *name);
/* Add a parameter; past KFTPROTO_MAX_PARAMS the prototype becomes variadic instead. */
void kftproto__add_param(struct kftproto *p, const char *name, const struct kftype *type);
/* A copy (the names and the types' tables stay shared); NULL: ENOMEM. */
struct kftproto *kftproto__dup(const struct kftproto *p);
void kftproto__free(struct kftproto *p);

/* The name of @value (the type's width of a register) in @t; NULL: none. */
const char *kftype__enum_name(const struct kftype *t, unsigned long long value);
/* @value cut to the type's width, sign-extended when the type is signed. */
unsigned long long kftype__value(const struct kftype *t, unsigned long long value);

#endif
