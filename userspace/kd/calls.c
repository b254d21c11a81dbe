// SPDX-License-Identifier: GPL-2.0
/*
 * What every view of kd reads from one call or one frame: its thread, its
 * time and end, a frame's function name. Below the tree (tree.c) and the
 * snapshots placed in it (snapshot.c), which both use them.
 */
#include <limits.h>
#include <string.h>

#include "kd.h"

long long kd_call_time(const struct kd_call *c)
{
	return c->row->delta > 0 ? c->row->delta : 0;
}

long long kd_time_add(long long a, long long b)
{
	long long sum;

	return __builtin_add_overflow(a, b, &sum) ? LLONG_MAX : sum;
}

long long kd_call_end(const struct kd_call *c)
{
	return kd_time_add(c->row->entry, kd_call_time(c));
}

int kd_thread_of(const struct kftlog_row *r)
{
	return r->pid >= 0 ? r->pid : -2 - (r->cpu > 0 ? r->cpu : 0);
}

size_t kd_function_len(const char *frame)
{
	return strcspn(frame, "+");
}
