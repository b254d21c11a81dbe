/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit-test framework: each test is a function; CHECK records a
 * failure with the input and expected value in the message, and the test
 * goes on. Output is KTAP, closed by "N passed, N failed" (tests, not checks).
 *
 *	static void test_empty(void) { CHECK(f("") == 0, "f(\"\") = %d", f("")); }
 *	UNIT_MAIN(test_empty)
 */
#ifndef KFT_UNIT_H
#define KFT_UNIT_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct unit_test {
	const char *name;
	void (*fn)(void);
};

extern int unit_failed_checks;
extern FILE *unit_out;	/* where failures are described; stdout by default */

void unit_fail(const char *file, int line, const char *cond, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int unit_run(const struct unit_test *tests, int n);

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			unit_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
	} while (0)

/* Strings equal, printing both when not. */
#define CHECK_STR(actual, expected, what)				\
	do {								\
		const char *a_ = (actual), *e_ = (expected);		\
		if (!a_ || strcmp(a_, e_))				\
			unit_fail(__FILE__, __LINE__, what,		\
				  "expected \"%s\", got \"%s\"", e_,	\
				  a_ ? a_ : "(null)");			\
	} while (0)

#define UNIT_T(fn) { #fn, fn },
#define UNIT_MAIN(...)							\
	int main(void)							\
	{								\
		static const struct unit_test tests[] = {		\
			UNIT_FOR_EACH(UNIT_T, __VA_ARGS__)		\
		};							\
		return unit_run(tests, sizeof(tests) / sizeof(tests[0])); \
	}

/* UNIT_FOR_EACH(M, a, b, ...) -> M(a) M(b) ...; up to 32 arguments. */
#define UNIT_FE_1(M, x) M(x)
#define UNIT_FE_2(M, x, ...) M(x) UNIT_FE_1(M, __VA_ARGS__)
#define UNIT_FE_3(M, x, ...) M(x) UNIT_FE_2(M, __VA_ARGS__)
#define UNIT_FE_4(M, x, ...) M(x) UNIT_FE_3(M, __VA_ARGS__)
#define UNIT_FE_5(M, x, ...) M(x) UNIT_FE_4(M, __VA_ARGS__)
#define UNIT_FE_6(M, x, ...) M(x) UNIT_FE_5(M, __VA_ARGS__)
#define UNIT_FE_7(M, x, ...) M(x) UNIT_FE_6(M, __VA_ARGS__)
#define UNIT_FE_8(M, x, ...) M(x) UNIT_FE_7(M, __VA_ARGS__)
#define UNIT_FE_9(M, x, ...) M(x) UNIT_FE_8(M, __VA_ARGS__)
#define UNIT_FE_10(M, x, ...) M(x) UNIT_FE_9(M, __VA_ARGS__)
#define UNIT_FE_11(M, x, ...) M(x) UNIT_FE_10(M, __VA_ARGS__)
#define UNIT_FE_12(M, x, ...) M(x) UNIT_FE_11(M, __VA_ARGS__)
#define UNIT_FE_13(M, x, ...) M(x) UNIT_FE_12(M, __VA_ARGS__)
#define UNIT_FE_14(M, x, ...) M(x) UNIT_FE_13(M, __VA_ARGS__)
#define UNIT_FE_15(M, x, ...) M(x) UNIT_FE_14(M, __VA_ARGS__)
#define UNIT_FE_16(M, x, ...) M(x) UNIT_FE_15(M, __VA_ARGS__)
#define UNIT_FE_17(M, x, ...) M(x) UNIT_FE_16(M, __VA_ARGS__)
#define UNIT_FE_18(M, x, ...) M(x) UNIT_FE_17(M, __VA_ARGS__)
#define UNIT_FE_19(M, x, ...) M(x) UNIT_FE_18(M, __VA_ARGS__)
#define UNIT_FE_20(M, x, ...) M(x) UNIT_FE_19(M, __VA_ARGS__)
#define UNIT_FE_21(M, x, ...) M(x) UNIT_FE_20(M, __VA_ARGS__)
#define UNIT_FE_22(M, x, ...) M(x) UNIT_FE_21(M, __VA_ARGS__)
#define UNIT_FE_23(M, x, ...) M(x) UNIT_FE_22(M, __VA_ARGS__)
#define UNIT_FE_24(M, x, ...) M(x) UNIT_FE_23(M, __VA_ARGS__)
#define UNIT_FE_25(M, x, ...) M(x) UNIT_FE_24(M, __VA_ARGS__)
#define UNIT_FE_26(M, x, ...) M(x) UNIT_FE_25(M, __VA_ARGS__)
#define UNIT_FE_27(M, x, ...) M(x) UNIT_FE_26(M, __VA_ARGS__)
#define UNIT_FE_28(M, x, ...) M(x) UNIT_FE_27(M, __VA_ARGS__)
#define UNIT_FE_29(M, x, ...) M(x) UNIT_FE_28(M, __VA_ARGS__)
#define UNIT_FE_30(M, x, ...) M(x) UNIT_FE_29(M, __VA_ARGS__)
#define UNIT_FE_31(M, x, ...) M(x) UNIT_FE_30(M, __VA_ARGS__)
#define UNIT_FE_32(M, x, ...) M(x) UNIT_FE_31(M, __VA_ARGS__)
#define UNIT_NTH(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, \
		 _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, \
		 _26, _27, _28, _29, _30, _31, _32, N, ...) N
#define UNIT_FOR_EACH(M, ...)						\
	UNIT_NTH(__VA_ARGS__, UNIT_FE_32, UNIT_FE_31, UNIT_FE_30,	\
		 UNIT_FE_29, UNIT_FE_28, UNIT_FE_27, UNIT_FE_26, UNIT_FE_25, \
		 UNIT_FE_24, UNIT_FE_23, UNIT_FE_22, UNIT_FE_21, UNIT_FE_20, \
		 UNIT_FE_19, UNIT_FE_18, UNIT_FE_17, UNIT_FE_16, UNIT_FE_15, \
		 UNIT_FE_14, UNIT_FE_13, UNIT_FE_12, UNIT_FE_11, UNIT_FE_10, \
		 UNIT_FE_9, UNIT_FE_8, UNIT_FE_7, UNIT_FE_6, UNIT_FE_5,	\
		 UNIT_FE_4, UNIT_FE_3, UNIT_FE_2, UNIT_FE_1)(M, __VA_ARGS__)

#endif
