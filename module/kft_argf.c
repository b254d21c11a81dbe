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
 *
 * A string test reads the string its register points to, out of line (its
 * buffer is no number test's stack), without faulting (kft_str_read(), as
 * args string copies one): only as many bytes as can decide it, the
 * text's and one more for '==', '!=' and a glob without '*'; for a glob
 * with '*', one more than the longest text. A string that cannot be read
 * fails every test, '!=' too: the filter keeps calls whose string it read.
 *
 * An '==' on a kernel string (and a glob "TEXT*") first loads the
 * string's first word, inline: most strings that differ from the text
 * differ there, and are rejected without the copy. (Not '!=': a string
 * unreadable past its first word fails the copy, and with it every
 * test.) A kernel string is then read a word at a time, inline, up to
 * its NUL; the copy reads it only where it goes on into the next page,
 * or the kernel has no inline load.
 *
 * The read calls the kernel's nofault copy and memchr(), which a run may
 * trace. Count and stacks modes' ftrace callbacks take no recursion lock
 * (they call nothing traceable otherwise), so a string test guards its own
 * read: a call that the read itself makes, at the same context level on
 * the same CPU, fails its test instead of reading again, without end.
 */
#include <linux/bits.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "kft_argf.h"
#include "kft_argstr.h"
#include "kft_compat.h"
#include "kft_own.h"

/* A glob reads the longest text and one byte more: a longer string's first bytes. */
static_assert(KFT_ARGF_STR_MAX + 1 <= U8_MAX, "a test's read holds the bytes a glob reads");

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

/*
 * Loops of their own, inlined: a compare calls no function, which a run
 * may trace (the library's string functions).
 */
static __always_inline bool kft_argf_streq(const char *a, const char *b)
{
	for (; *a == *b; a++, b++)
		if (!*a)
			return true;
	return false;
}

/*
 * Whether @s matches the glob @pat: '*' any bytes (none too), '?' one,
 * any other byte itself. On a mismatch past a '*', the '*' takes one byte
 * more and the rest is matched again: at most as many steps as the
 * pattern's bytes times the string's, both bounded.
 */
static __always_inline bool kft_argf_glob(const char *pat, const char *s)
{
	const char *star = NULL, *back = s;

	while (*s) {
		if (*pat == '*') {
			star = ++pat;
			back = s;
		} else if (*pat && (*pat == '?' || *pat == *s)) {
			pat++;
			s++;
		} else if (star) {
			pat = star;
			s = ++back;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	return !*pat;
}

/*
 * The bytes of @s before its NUL. A little-endian kernel counts them a
 * word at a time (@s is word-aligned, and its NUL's word within its
 * buffer): the word's bytes after the NUL, left from an earlier string,
 * cannot change which byte is found to be the first zero.
 */
static __always_inline size_t kft_argf_strlen(const char *s)
{
	const u64 *w = (const u64 *)s;
	const char *p = s;
	unsigned int i;
	u64 zero;

	if (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN)) {
		while (*p)
			p++;
		return p - s;
	}
	for (i = 0;; i++) {
		zero = (w[i] - 0x0101010101010101ULL) & ~w[i] & 0x8080808080808080ULL;
		if (zero)
			return i * sizeof(*w) + __ffs64(zero) / BITS_PER_BYTE;
	}
}

/*
 * A kernel string's first bytes into @dst, a word at a time and inline
 * (kft_kernel_words_nofault()), up to the word that holds its NUL or
 * @want bytes: a short string costs a load or two, where the kernel's
 * copy is a call that reads every word of @want.
 *
 * Return: 0 when read; -EFAULT when it cannot be, as the copy would fail;
 * 1 when it goes on into the next page, or the kernel has no inline load:
 * kft_str_read() reads the string then.
 */
static __always_inline int kft_argf_read_words(u64 *dst, unsigned long addr, size_t want)
{
	unsigned int nr = DIV_ROUND_UP(want, sizeof(*dst));
	unsigned int room = (PAGE_SIZE - (addr & ~PAGE_MASK)) / sizeof(*dst);
	unsigned int got;

	if (!KFT_HAVE_KERNEL_NOFAULT_LOAD || !room)
		return 1;
	got = kft_kernel_words_nofault(addr, dst, min(nr, room));
	if (!got)
		return -EFAULT;
	if (got == room && room < nr && !kft_word_ends_string(dst[got - 1]))
		return 1;
	return 0;
}

/*
 * Whether @s, read to @t->read bytes, ends with @text: a string as long
 * as its read may go on past it, and is not kept. Its last 8 bytes are
 * compared first, in one load, where it has them (@t->tail_mask set).
 */
static __always_inline bool kft_argf_ends_with(const struct kft_argf_test *t, const char *s,
					       const char *text)
{
	size_t n = kft_argf_strlen(s);

	if (n >= t->read || n < t->text_len)
		return false;
	if (t->tail_mask && n >= sizeof(u64) &&
	    (get_unaligned((const u64 *)(s + n - sizeof(u64))) & t->tail_mask) != t->tail)
		return false;
	return kft_argf_streq(s + n - t->text_len, text);
}

/*
 * An '==' test's first word (@t->head_mask set), under the read's guard:
 * whether the string at @addr certainly differs from the text. Not known
 * (false) when its word crosses a page (its NUL may end it before) or
 * cannot be read: the copy decides then.
 */
static __always_inline bool kft_argf_head_differs(const struct kft_argf_test *t,
						  unsigned long addr)
{
	u64 w;

	return (addr & ~PAGE_MASK) <= PAGE_SIZE - sizeof(w) &&
	       kft_kernel_word_nofault(addr, &w) && (w & t->head_mask) != t->head;
}

/*
 * Whether the string at @addr passes the string test @t, of @set: its
 * first word, then its read (kft_str_read()), unless a read is already
 * under way at this context level of this CPU (kft_own_take()):
 * then the call is the read's own, and fails. (The first word's load
 * takes the guard too: it can fault, and the fault's calls be traced.)
 * Preemption is off (every hook's entry).
 *
 * A string longer than the bytes a glob reads matches it when the bytes
 * read do and the glob ends with '*', which takes any rest: whether
 * another pattern matches the rest is not known, and the call is not kept.
 * The buffer is left uninitialized: the compares stop at the NUL that
 * ends the bytes read, and the bytes past it are never looked at.
 */
static __always_inline bool kft_argf_str_pass(const struct kft_argf_set *set,
					      const struct kft_argf_test *t, unsigned long addr)
{
	const char *text = set->texts[t - set->tests];
	union {
		char c[KFT_ARGF_STR_MAX + 2];
		u64 words[DIV_ROUND_UP(KFT_ARGF_STR_MAX + 2, sizeof(u64))];
	} buf __uninitialized;
	char *s = buf.c;
	u8 *reading = kft_own_take();
	bool differs;
	long ret = 0;

	if (!reading)
		return false;
	differs = t->head_mask && kft_argf_head_differs(t, addr);
	if (!differs) {
		ret = t->user ? 1 : kft_argf_read_words(buf.words, addr, t->read);
		if (ret > 0)
			ret = kft_str_read(s, addr, t->read, t->user);
	}
	kft_own_drop(reading);
	/* (A string that could not be read was not: NULL, a fault.) */
	if (!differs && !ret)
		this_cpu_inc(*set->reads);
	if (differs || ret)
		return false;
	s[t->read] = '\0';
	if (t->kind == KFT_ARGF_TEST_EQUAL)
		return kft_argf_streq(s, text) != t->negate;
	if (t->kind == KFT_ARGF_TEST_SUFFIX)
		return kft_argf_ends_with(t, s, text);
	return kft_argf_glob(text, s) && (t->open_end || kft_argf_strlen(s) < t->read);
}

/*
 * A first word's test: the text's first bytes, with its NUL when it is
 * shorter than a word (an '==''s @len + 1; a glob's prefix, which the
 * string goes on after, its @len), as a little-endian load reads them.
 */
static void kft_argf_compile_head(struct kft_argf_test *t, const char *text, size_t len)
{
	size_t i, n = min_t(size_t, len, sizeof(t->head));

	t->head = 0;
	for (i = 0; i < n; i++)
		t->head |= (u64)(u8)text[i] << (8 * i);
	t->head_mask = n == sizeof(t->head) ? ~0ULL : (1ULL << (8 * n)) - 1;
}

/*
 * A suffix test's last word: the text's last bytes, at most 8, in the
 * word's last bytes, as a little-endian load of a string's last 8 bytes
 * reads them.
 */
static void kft_argf_compile_tail(struct kft_argf_test *t, const char *text, size_t len)
{
	size_t i, n = min_t(size_t, len, sizeof(t->tail));
	unsigned int skip = sizeof(t->tail) - n;

	t->tail = 0;
	for (i = 0; i < n; i++)
		t->tail |= (u64)(u8)text[len - n + i] << (8 * (skip + i));
	t->tail_mask = ~0ULL << (8 * skip);
}

/*
 * A glob that is one '*' and text without wildcards on one side of it is
 * a simpler test. "*TEXT" compares the string's end (a test of its own
 * kind). "TEXT*" is matched as any glob (the string read as far, and
 * rejected if it cannot be), but its text is the string's first bytes: a
 * kernel string whose first word differs is rejected by that word alone,
 * as by an '=='. Return: the bytes of a prefix's text, which its first
 * word compares; 0 for none.
 */
static size_t kft_argf_compile_glob(struct kft_argf_test *t, char *text, size_t len)
{
	const char *wild = strpbrk(text, "*?");

	if (len < 2 || !wild || *wild != '*' || strpbrk(wild + 1, "*?"))
		return 0;
	if (wild == text + len - 1)
		return len - 1;
	if (wild == text) {
		memmove(text, text + 1, len--);
		t->kind = KFT_ARGF_TEST_SUFFIX;
		t->text_len = len;
		if (!IS_ENABLED(CONFIG_CPU_BIG_ENDIAN))
			kft_argf_compile_tail(t, text, len);
	}
	return 0;
}

/* A string statement as the traced path tests it, its text into @text. */
static void kft_argf_compile_string(struct kft_argf_test *t, char *text, const struct kft_argf *f)
{
	bool glob = f->op == KFT_ARGF_GLOB;
	size_t len, head;

	strscpy(text, f->text, KFT_ARGF_STR_MAX + 1);
	len = strlen(text);

	*t = (struct kft_argf_test){
		.index = KFT_ARGF_STR_INDEX + f->index,
		.kind = glob ? KFT_ARGF_TEST_GLOB : KFT_ARGF_TEST_EQUAL,
		.user = f->type == KFT_ARGF_USTRING,
		.negate = f->op == KFT_ARGF_NE,
		.open_end = glob && len && text[len - 1] == '*',
		.read = glob && strchr(text, '*') ? KFT_ARGF_STR_MAX + 1 : len + 1,
	};
	head = glob ? kft_argf_compile_glob(t, text, len) : len + 1;
	if (KFT_HAVE_KERNEL_NOFAULT_LOAD && !IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) &&
	    head && !t->negate && !t->user)
		kft_argf_compile_head(t, text, head);
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

	for (i = 0; i < nr; i++) {
		if (argf[i].type == KFT_ARGF_STRING || argf[i].type == KFT_ARGF_USTRING)
			kft_argf_compile_string(&set->tests[i], set->texts[i], &argf[i]);
		else
			kft_argf_compile_one(&set->tests[i], &argf[i]);
	}
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

/* The register @n of a call's: ftrace's, else the entry's, else 0. */
static __always_inline unsigned long kft_argf_register(struct ftrace_regs *fregs,
						       struct pt_regs *regs, unsigned int n)
{
	return fregs ? kft_fregs_argument(fregs, n) : regs ? kft_regs_argument(regs, n) : 0;
}

/*
 * kft_argf_passes() from the test @t on, of a run with a string test (@t
 * is one): each test, a string's or a number's. Out of line: its buffer
 * and its call of the string's read stay out of the number tests' loop.
 */
static notrace noinline bool kft_argf_passes_from(const struct kft_argf_set *set,
						  const struct kft_argf_test *t, unsigned long ip,
						  struct ftrace_regs *fregs, struct pt_regs *regs)
{
	unsigned int n;
	bool string;

	for (; t < set->tests + set->nr; t++) {
		n = t->index;
		string = n >= KFT_ARGF_STR_INDEX;
		if (string)
			n -= KFT_ARGF_STR_INDEX;
		/* (As below: no argument from the stack.) */
		if (n >= KFT_ARGS_MAX)
			return false;
		if (!kft_argf_judges(t, ip))
			continue;
		if (string ? !kft_argf_str_pass(set, t, kft_argf_register(fregs, regs, n)) :
			     !kft_argf_pass(t, kft_argf_register(fregs, regs, n)))
			return false;
	}
	return true;
}
NOKPROBE_SYMBOL(kft_argf_passes_from);

/**
 * kft_argf_passes() - whether a call's registers pass each of a run's tests
 * @set:	the run's tests (at least one)
 * @ip:		where the hook saw the call (the function's ftrace call site)
 * @fregs:	what ftrace passed the hook, or NULL
 * @regs:	else the registers at the function's first instruction, or
 *		NULL (every register reads as 0)
 *
 * On the traced path, out of line: inlined into the hooks' entry, its
 * registers were saved and restored by every call of every run. The
 * number tests' loop calls nothing, and saves no register for a call: a
 * string test (its index past the registers') goes on in a loop of its
 * own, a tail call from the bound check every test takes.
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
		 * registers saved for that, nor its stack protector). Past
		 * the registers: a string test.
		 */
		if (n >= KFT_ARGS_MAX)
			return kft_argf_passes_from(set, t, ip, fregs, regs);
		if (!kft_argf_judges(t, ip))
			continue;
		if (!kft_argf_pass(t, kft_argf_register(fregs, regs, n)))
			return false;
	}
	return true;
}
NOKPROBE_SYMBOL(kft_argf_passes);
