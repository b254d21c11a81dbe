// SPDX-License-Identifier: GPL-2.0
/*
 * filter arg (kft_argf.h): a run's statements made tests when it is
 * created, and the test of a call's registers at its entry. Each test
 * reads one register and makes one compare, without a branch per
 * operator:
 *
 * - the register is read as the statement's type: an int's or a uint's
 *   upper half (on 64-bit kernels) is whatever the caller left there, so
 *   it is replaced by the sign or by zeros;
 * - a signed order is made an unsigned one by flipping the sign bit of
 *   both sides (the bias), so that every comparison but '&' is a range
 *   of unsigned values: lo <= v <= lo + span, which is one subtraction
 *   and one compare (v - lo <= span, wrapping below lo);
 * - '!=' is '==' negated, '>' and '<' ranges that start or end one past
 *   the value (the parser refuses the ones no value passes).
 */
#include <linux/bits.h>
#include <linux/kprobes.h>

#include "kft_argf.h"

/* The register @v as @t's type reads it, in @t's (biased) unsigned order. */
static __always_inline unsigned long kft_argf_value(const struct kft_argf_test *t,
						    unsigned long v)
{
	if (BITS_PER_LONG > 32 && t->narrow)
		v = t->sign ? (unsigned long)(long)(s32)v : (unsigned long)(u32)v;
	return v ^ t->bias;
}

/* Whether the register @v passes @t. */
static __always_inline bool kft_argf_pass(const struct kft_argf_test *t, unsigned long v)
{
	bool in;

	v = kft_argf_value(t, v);
	in = t->mask ? (v & t->mask) != 0 : v - t->lo <= t->span;
	return in != t->negate;
}

/* A statement as the traced path tests it (its value already in its type's width). */
static void kft_argf_compile_one(struct kft_argf_test *t, const struct kft_argf *f)
{
	bool is_signed = f->type == KFT_ARGF_LONG || f->type == KFT_ARGF_INT;
	unsigned long x;

	*t = (struct kft_argf_test){ .index = f->index, .sign = is_signed };
	t->narrow = BITS_PER_LONG > 32 && (f->type == KFT_ARGF_INT || f->type == KFT_ARGF_UINT);
	if (f->op == KFT_ARGF_AND) {
		t->mask = f->value;
		return;
	}
	t->bias = is_signed ? BIT(BITS_PER_LONG - 1) : 0;
	x = (unsigned long)f->value ^ t->bias;
	switch (f->op) {
	case KFT_ARGF_NE:
		t->negate = true;
		fallthrough;
	case KFT_ARGF_EQ:
		t->lo = x;
		break;
	case KFT_ARGF_LT:
		t->span = x - 1;
		break;
	case KFT_ARGF_LE:
		t->span = x;
		break;
	case KFT_ARGF_GT:
		t->lo = x + 1;
		t->span = ~0UL - t->lo;
		break;
	default:	/* KFT_ARGF_GE */
		t->lo = x;
		t->span = ~0UL - x;
		break;
	}
}

/**
 * kft_argf_compile() - a run's filter arg statements, as tests
 * @set:	set here
 * @argf:	the statements, as parsed
 * @nr:		how many (0: the run has none)
 */
void kft_argf_compile(struct kft_argf_set *set, const struct kft_argf *argf, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		kft_argf_compile_one(&set->tests[i], &argf[i]);
	set->nr = nr;
}

/*
 * Whether @t judges the function whose hook saw @ip: the function's
 * ftrace call site, a few bytes past its start, inside it.
 */
static __always_inline bool kft_argf_judges(const struct kft_argf_test *t, unsigned long ip)
{
	return !t->func || ip - t->func <= t->func_sites;
}

/**
 * kft_argf_passes() - whether a call's registers pass each of a run's tests
 * @set:	the run's tests (at least one)
 * @ip:		where the hook saw the call (the function's ftrace call site)
 * @fregs:	what ftrace passed the hook, or NULL
 * @regs:	else the registers at the function's first instruction, or
 *		NULL (every register reads as 0)
 *
 * On the traced path, out of line: inlined into the hooks' entry, its
 * registers were saved and restored by every call of every run.
 *
 * Return: true when every test that judges the call's function passes.
 */
notrace noinline bool kft_argf_passes(const struct kft_argf_set *set, unsigned long ip,
				      struct ftrace_regs *fregs, struct pt_regs *regs)
{
	const struct kft_argf_test *t;
	unsigned int n;

	for (t = set->tests; t < set->tests + set->nr; t++) {
		n = t->index;
		/*
		 * The parser takes no other register; said to the compiler,
		 * the index reads no argument from the stack (nor its
		 * registers saved for that, nor its stack protector).
		 */
		if (n >= KFT_ARGS_MAX)
			return false;
		if (!kft_argf_judges(t, ip))
			continue;
		if (!kft_argf_pass(t, fregs ? kft_fregs_argument(fregs, n) :
				      regs ? kft_regs_argument(regs, n) : 0))
			return false;
	}
	return true;
}
NOKPROBE_SYMBOL(kft_argf_passes);
