// SPDX-License-Identifier: GPL-2.0
/*
 * What every view of kd reads from one call or one frame: its thread, its
 * time and end, its return value, a frame's function name. Below the tree (tree.c) and the
 * snapshots placed in it (snapshot.c), which both use them.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "errname.h"
#include "kd.h"

const char *kd_retval(const struct kftlog_row *r, char *buf, size_t len)
{
	const char *name;

	switch (r->ret) {
	case KFTLOG_RET_ERROR:
		name = errname(r->ret_error);
		snprintf(buf, len, "%lld%s%s", r->ret_error, name ? " " : "", name ? name : "");
		break;
	case KFTLOG_RET_VALUE:
		snprintf(buf, len, "0x%llx", r->ret_value);
		break;
	case KFTLOG_RET_HIDDEN:
		snprintf(buf, len, "hidden");
		break;
	default:
		snprintf(buf, len, "%s", "");
	}
	return buf;
}

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
	/* A row may name CPU INT_MAX: the CPUs past INT_MAX - 2 share one thread. */
	int cpu = r->cpu > 0 ? r->cpu : 0;

	if (r->pid >= 0)
		return r->pid;
	return -2 - (cpu < INT_MAX - 2 ? cpu : INT_MAX - 2);
}

size_t kd_function_len(const char *frame)
{
	return strcspn(frame, "+");
}
