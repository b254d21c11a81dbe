/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter arg: a call judged at its entry by its argument registers
 * (Documentation/kft.rst): each statement of a run's configuration, as a
 * test (kft_argf.c says how it tests).
 */
#ifndef KFT_ARGF_H
#define KFT_ARGF_H

#include <linux/ftrace.h>
#include <linux/types.h>

#include "kft_arch.h"
#include "kft_config.h"

/* One filter arg statement, ready for the traced path. */
struct kft_argf_test {
	unsigned long lo;
	unsigned long span;
	unsigned long mask;		/* '&': the bits, else 0 */
	unsigned long bias;		/* a signed type's sign bit, else 0 */
	unsigned long func;		/* the function it judges (its start), or 0: all */
	unsigned long func_sites;	/* how far past its start its call site may lie */
	unsigned char index;		/* the register */
	bool narrow;			/* int or uint, on a 64-bit kernel */
	bool sign;			/* int: sign-extended when narrow */
	bool negate;			/* '!=' */
};

/* Every filter arg of a run: a call must pass all of them. */
struct kft_argf_set {
	unsigned int nr;		/* 0: the run has none */
	struct kft_argf_test tests[KFT_ARGF_MAX];
};

static_assert(KFT_ARGF_REGS == KFT_ARGS_MAX, "the parser and the module count other registers");

void kft_argf_compile(struct kft_argf_set *set, const struct kft_argf *argf, unsigned int nr);
bool kft_argf_passes(const struct kft_argf_set *set, unsigned long ip,
		     struct ftrace_regs *fregs, struct pt_regs *regs);

#endif
