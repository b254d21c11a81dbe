// SPDX-License-Identifier: GPL-2.0
/* Function prototypes as kft prints calls with them: see kftproto.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kftproto.h"

struct kftproto *kftproto__new(const char *name)
{
	struct kftproto *p = calloc(1, sizeof(*p));

	if (p)
		p->name = name;
	return p;
}

void kftproto__add_param(struct kftproto *p, const char *name, const struct kftype *type)
{
	if (p->nr_params == KFTPROTO_MAX_PARAMS) {
		struct kftype dropped = *type;

		kftype__free(&dropped);
		p->variadic = true;
		return;
	}
	p->params[p->nr_params].name = name;
	p->params[p->nr_params].type = *type;
	p->nr_params++;
}

int kftype__alloc_enumvals(struct kftype *t, size_t n)
{
	if (n > KFTPROTO_MAX_ENUMVALS)
		n = KFTPROTO_MAX_ENUMVALS;
	t->nr_enumvals = 0;
	t->enumvals = n ? calloc(n, sizeof(*t->enumvals)) : NULL;
	if (n && !t->enumvals)
		return -ENOMEM;
	t->nr_enumvals = n;
	return 0;
}

int kftype__alloc_members(struct kftype *t, size_t n)
{
	if (n > KFTPROTO_MAX_MEMBERS)
		n = KFTPROTO_MAX_MEMBERS;
	t->nr_members = 0;
	t->members = n ? calloc(n, sizeof(*t->members)) : NULL;
	if (n && !t->members)
		return -ENOMEM;
	t->nr_members = n;
	return 0;
}

void kftype__free(struct kftype *t)
{
	size_t i;

	for (i = 0; i < t->nr_members; i++)
		kftype__free(&t->members[i].type);
	free(t->members);
	t->members = NULL;
	t->nr_members = 0;
	free(t->enumvals);
	t->enumvals = NULL;
	t->nr_enumvals = 0;
}

/*
 * A copy of @t's enumerators and members in @t itself: 0, or -ENOMEM
 * (then what was not copied is none, and kftype__free frees the rest).
 */
static int kftype_dup(struct kftype *t)
{
	const struct kftenumval *from = t->enumvals;
	const struct kftmember *members = t->members;
	size_t n = t->nr_enumvals, nr_members = t->nr_members, i;
	int err = 0;

	t->enumvals = NULL;
	t->nr_enumvals = 0;
	t->members = NULL;
	t->nr_members = 0;
	if (n && kftype__alloc_enumvals(t, n))
		return -ENOMEM;
	if (n)
		memcpy(t->enumvals, from, n * sizeof(*from));
	if (nr_members && kftype__alloc_members(t, nr_members))
		return -ENOMEM;
	for (i = 0; i < t->nr_members; i++) {
		t->members[i] = members[i];
		err |= kftype_dup(&t->members[i].type);
	}
	return err;
}

struct kftproto *kftproto__dup(const struct kftproto *p)
{
	struct kftproto *copy = malloc(sizeof(*copy));
	int i, err;

	if (!copy)
		return NULL;
	*copy = *p;
	err = kftype_dup(&copy->ret);
	for (i = 0; i < copy->nr_params; i++)
		err |= kftype_dup(&copy->params[i].type);
	if (err) {
		kftproto__free(copy);
		return NULL;
	}
	return copy;
}

void kftproto__free(struct kftproto *p)
{
	int i;

	if (!p)
		return;
	kftype__free(&p->ret);
	for (i = 0; i < p->nr_params; i++)
		kftype__free(&p->params[i].type);
	free(p);
}

unsigned long long kftype__value(const struct kftype *t, unsigned long long value)
{
	unsigned int bits = t->size * 8;
	unsigned long long sign;

	if (!bits || bits >= 64)
		return value;
	value &= (1ULL << bits) - 1;
	sign = 1ULL << (bits - 1);
	if (t->is_signed && (value & sign))
		value |= ~((1ULL << bits) - 1);
	return value;
}

const char *kftype__enum_name(const struct kftype *t, unsigned long long value)
{
	unsigned long long v = kftype__value(t, value);
	size_t i;

	for (i = 0; i < t->nr_enumvals; i++)
		if (kftype__value(t, (unsigned long long)t->enumvals[i].value) == v)
			return t->enumvals[i].name;
	return NULL;
}
