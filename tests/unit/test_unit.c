// SPDX-License-Identifier: GPL-2.0
/* The framework itself: a failed check is counted and does not stop a test. */
#include "unit.h"

static void test_failed_check_is_counted(void)
{
	int before = unit_failed_checks, counted;
	FILE *quiet = fopen("/dev/null", "w");

	unit_out = quiet;
	CHECK(1 == 2, "deliberate");
	CHECK_STR("a", "b", "deliberate");
	CHECK_STR(NULL, "b", "deliberate");
	unit_out = stdout;
	fclose(quiet);
	/* Undo the three deliberate failures before checking their count. */
	counted = unit_failed_checks - before;
	unit_failed_checks = before;
	CHECK(counted == 3, "expected 3 counted failures, got %d", counted);
}

static void test_passing_checks_count_nothing(void)
{
	int before = unit_failed_checks;

	CHECK(1 == 1, "never");
	CHECK_STR("same", "same", "never");
	CHECK(unit_failed_checks == before, "a passing check was counted");
}

UNIT_MAIN(test_failed_check_is_counted, test_passing_checks_count_nothing)
