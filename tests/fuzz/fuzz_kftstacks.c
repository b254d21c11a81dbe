// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the kft command's reader of stacks- and profile-mode
 * logs (userspace/kft/stacks.c), on arbitrary bytes, keeping the stacks or
 * only the events; every block's frames must lie in the frame array; the
 * difference of a snapshot with itself is empty, with nothing ascending
 * by count; every style prints.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kft.h"

#define FUZZ_ASSERT(cond) do { if (!(cond)) __builtin_trap(); } while (0)

static void fuzz_check_blocks(const struct kft_stacks *s, const struct kft_stack *v, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		FUZZ_ASSERT(v[i].first + v[i].nr <= s->nr_frames && v[i].comm);
		for (j = 0; j < v[i].nr; j++)
			FUZZ_ASSERT(!s->frames[v[i].first + j].name ||
				    s->frames[v[i].first + j].name[0]);
	}
}

static void fuzz_print(const struct kft_stacks *s, FILE *out)
{
	static const struct kft_stack_style styles[] = {
		{ .comm = 1, .offsets = 1, .addresses = 1, .module = 1 },
		{ .folded = 1, .comm = 1 },
		{ .profile = 1, .comm = 1 },
		{ .profile = 1, .folded = 1, .comm = 1, .annotate = 1 },
	};
	struct kft_stack_row *rows;
	size_t i, n;

	rows = kft_stacks_delta(s, NULL, &n);
	FUZZ_ASSERT(rows || !s->nr_stacks || errno == ENOMEM);
	for (i = 1; i < n; i++)
		FUZZ_ASSERT(rows[i - 1].count <= rows[i].count);
	for (i = 0; i < sizeof(styles) / sizeof(styles[0]); i++)
		kft_stacks_print(out, rows, n, &styles[i]);
	free(rows);
	rows = kft_stacks_delta(s, s, &n);
	FUZZ_ASSERT(n == 0);
	free(rows);
	for (i = 0; i < s->nr_events; i++) {
		const struct kft_stack_style st = {
			.comm = (int)(i & 1), .offsets = (int)(i & 2), .module = (int)(i & 4),
		};

		kft_snoop_print(out, s, &s->events[i], s->head.start_us, "f", &st);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in, *out = fopen("/dev/null", "w");
	struct kft_stacks s;
	int flags;

	if (!out)
		return 0;
	for (flags = 0; flags <= KFT_STACKS_EVENTS_ONLY; flags += KFT_STACKS_EVENTS_ONLY) {
		in = fmemopen((void *)data, size, "r");
		if (!in)
			break;
		if (kft_stacks_read(&s, in, flags) == 0) {
			FUZZ_ASSERT(!flags || !s.nr_stacks);
			fuzz_check_blocks(&s, s.stacks, s.nr_stacks);
			fuzz_check_blocks(&s, s.events, s.nr_events);
			fuzz_print(&s, out);
		} else {
			FUZZ_ASSERT(errno == EFBIG || errno == ENOMEM);
		}
		kft_stacks_free(&s);
		fclose(in);
	}
	fclose(out);
	return 0;
}
