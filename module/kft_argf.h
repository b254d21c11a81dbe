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

/*
 * A string test's index is its register's plus this, past every register:
 * the number tests' loop leaves at the bound check it makes anyway
 * (kft_argf.c).
 */
#define KFT_ARGF_STR_INDEX	KFT_ARGS_MAX

/* What a test compares: the register, or the string it points to. */
enum kft_argf_kind {
	KFT_ARGF_TEST_NUMBER,
	KFT_ARGF_TEST_EQUAL,		/* the string is the text ('!=': negate) */
	KFT_ARGF_TEST_GLOB,		/* the string matches the text as a glob */
	KFT_ARGF_TEST_SUFFIX,		/* the string ends with the text (a glob "*TEXT") */
};

/*
 * A test's function that went with its module (or its module's init
 * code): no hook's address lies within 0 bytes of it, so the test judges
 * no function, as a function of a module loaded there later is another.
 */
#define KFT_ARGF_FUNC_GONE	1UL

/* One filter arg statement, ready for the traced path. */
struct kft_argf_test {
	unsigned long lo;
	unsigned long span;
	unsigned long mask;		/* '&': the bits, else 0 */
	unsigned long bias;		/* a signed type's sign bit, else 0 */
	unsigned long func;		/* its function's start, 0: all, or KFT_ARGF_FUNC_GONE */
	unsigned long func_sites;	/* how far past its start its call site may lie */
	unsigned char index;		/* the register; a string test's + KFT_ARGF_STR_INDEX */
	bool narrow;			/* int or uint, on a 64-bit kernel */
	bool sign;			/* int: sign-extended when narrow */
	bool negate;			/* '!=' */
	u8 kind;			/* enum kft_argf_kind */
	bool user;			/* a string: in user space (ustring) */
	u8 read;			/* a string: the bytes to read of it */
	bool open_end;			/* a glob: ends with '*' */
	u8 text_len;			/* a suffix test: its text's bytes */
	/*
	 * '==' on a kernel string (and a glob "TEXT*"): the text's first
	 * 8 bytes (an '==''s NUL among them when shorter) and which of a
	 * word's bytes they are, or a mask of 0. A string whose first word
	 * differs is not the text (nor begins with it), known from one
	 * load (kft_kernel_word_nofault()).
	 */
	u64 head;
	u64 head_mask;
	/*
	 * A suffix test, on a little-endian kernel: its text's last 8 bytes
	 * (all of a shorter one) and which of a word's bytes they are, as
	 * the load of a string's last 8 bytes reads them; else a mask of 0.
	 * Most strings that do not end with the text differ there.
	 */
	u64 tail;
	u64 tail_mask;
};

/* Every filter arg of a run: a call must pass all of them. */
struct kft_argf_set {
	unsigned int nr;		/* 0: the run has none */
	struct kft_argf_test tests[KFT_ARGF_MAX];
	/* A string test's text, by the test's index (apart: the numbers' stay dense). */
	char texts[KFT_ARGF_MAX][KFT_ARGF_STR_MAX + 1];
	/* The run's count of strings copied to be compared (its kft_counters). */
	unsigned long __percpu *reads;
};

/* Whether a test of @set reads a string (its index past the registers'). */
static inline bool kft_argf_reads_strings(const struct kft_argf_set *set)
{
	unsigned int i;

	for (i = 0; i < set->nr; i++)
		if (set->tests[i].index >= KFT_ARGF_STR_INDEX)
			return true;
	return false;
}

static_assert(KFT_ARGF_REGS == KFT_ARGS_MAX, "the parser and the module count other registers");

void kft_argf_compile(struct kft_argf_set *set, const struct kft_argf *argf, unsigned int nr);
bool kft_argf_passes(const struct kft_argf_set *set, unsigned long ip,
		     struct ftrace_regs *fregs, struct pt_regs *regs);

#endif
