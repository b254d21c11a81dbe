// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the log parser (userspace/lib/kftlog.c), on arbitrary
 * bytes, with the default row limit and with a tiny one (the limit's error
 * path). Every row it keeps must be one kd can use.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "kftlog.h"

#define FUZZ_ASSERT(cond) do { if (!(cond)) __builtin_trap(); } while (0)

static void fuzz_check_log(const struct kftlog *log, size_t max_rows)
{
	size_t i;

	FUZZ_ASSERT(log->nr <= max_rows && log->nr == log->scan.rows);
	for (i = 0; i < log->nr; i++) {
		const struct kftlog_row *r = &log->rows[i];

		FUZZ_ASSERT(r->entry >= 0 && r->delta >= KFTLOG_DELTA_STACK);
		FUZZ_ASSERT(r->pid >= -1 && r->cpu >= -1);
		FUZZ_ASSERT(r->func && r->caller && r->func[0] && r->caller[0]);
	}
	/* A row makes a log, whatever else is there. */
	FUZZ_ASSERT(!log->nr || kftlog_scan_is_log(&log->scan));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kftlog *log = kftlog__parse((const char *)data, size, "fuzz", NULL);
	FILE *in;

	if (log)
		fuzz_check_log(log, KFTLOG_MAX_ROWS);
	kftlog__free(log);
	in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	log = kftlog__read(in, "fuzz", NULL, 3);
	FUZZ_ASSERT(log || errno == EFBIG || errno == ENOMEM);
	if (log)
		fuzz_check_log(log, 3);
	kftlog__free(log);
	fclose(in);
	return 0;
}
