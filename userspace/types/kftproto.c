// SPDX-License-Identifier: GPL-2.0
/* Function prototypes as kft prints calls with them: see kftproto.h. */
#include <stdlib.h>

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
		p->variadic = true;
		return;
	}
	p->params[p->nr_params].name = name;
	p->params[p->nr_params].type = *type;
	p->nr_params++;
}

struct kftproto *kftproto__dup(const struct kftproto *p)
{
	struct kftproto *copy = malloc(sizeof(*copy));

	if (copy)
		*copy = *p;
	return copy;
}

void kftproto__free(struct kftproto *p)
{
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
