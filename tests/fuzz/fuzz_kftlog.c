// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the log parser (userspace/lib/kftlog.c), on arbitrary
 * bytes, with the default row limit and with a tiny one (the limit's error
 * path). Every row and stack block it keeps must be one kd can use.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "kftlog.h"

#define FUZZ_ASSERT(cond) do { if (!(cond)) __builtin_trap(); } while (0)

/* A stacks-mode log's blocks: their frames where they say, names not empty. */
static void fuzz_check_stacks(const struct kftstacks *st, size_t max_rows)
{
	size_t i;

	FUZZ_ASSERT(st->nr + st->nr_frames <= max_rows);
	for (i = 0; i < st->nr; i++) {
		const struct kftstacks_block *b = &st->blocks[i];

		FUZZ_ASSERT(b->first + b->nr <= st->nr_frames && b->comm && b->comm[0]);
		FUZZ_ASSERT(b->count >= 0 && b->pid >= -1 && (b->event ? b->cpu >= 0 : b->cpu == -1));
	}
	for (i = 0; i < st->nr_frames; i++)
		FUZZ_ASSERT(st->frames[i].sym && st->frames[i].sym[0] &&
			    (!st->frames[i].module || st->frames[i].module[0]));
}

static void fuzz_check_log(const struct kftlog *log, size_t max_rows)
{
	size_t i;

	FUZZ_ASSERT(log->nr <= max_rows && log->nr == log->scan.rows);
	for (i = 0; i < log->nr; i++) {
		const struct kftlog_row *r = &log->rows[i];

		FUZZ_ASSERT(r->entry >= 0 && r->delta >= KFTLOG_DELTA_WAKE);
		FUZZ_ASSERT(r->waker_comm && (r->slept < 0 || r->delta == KFTLOG_DELTA_WAKE));
		FUZZ_ASSERT(r->delta != KFTLOG_DELTA_WAKE || (r->pid >= 0 && r->comm[0]));
		FUZZ_ASSERT(r->pid >= -1 && r->cpu >= -1);
		FUZZ_ASSERT(r->func && r->caller && r->func[0] && r->caller[0]);
	}
	/* A row makes a log, whatever else is there. */
	FUZZ_ASSERT(!log->nr || kftlog_scan_is_log(&log->scan));
	fuzz_check_stacks(&log->stacks, max_rows);
	FUZZ_ASSERT(!log->stacks.nr || log->scan.stacks_mode);
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
