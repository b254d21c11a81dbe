// SPDX-License-Identifier: GPL-2.0
/* The runner behind unit.h. */
#include "unit.h"

int unit_failed_checks;
FILE *unit_out;

void unit_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;

	unit_failed_checks++;
	fprintf(unit_out, "# %s:%d: %s: ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(unit_out, fmt, ap);
	va_end(ap);
	fputc('\n', unit_out);
}

int unit_run(const struct unit_test *tests, int n)
{
	int i, passed = 0, failed = 0, before;

	unit_out = stdout;
	printf("KTAP version 1\n1..%d\n", n);
	for (i = 0; i < n; i++) {
		before = unit_failed_checks;
		tests[i].fn();
		if (unit_failed_checks == before) {
			printf("ok %d %s\n", i + 1, tests[i].name);
			passed++;
		} else {
			printf("not ok %d %s\n", i + 1, tests[i].name);
			failed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
