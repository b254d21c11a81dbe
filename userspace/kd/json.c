// SPDX-License-Identifier: GPL-2.0
/*
 * kd --json: Chrome Trace Event Format, for Perfetto UI and chrome://tracing.
 * One complete event ("ph":"X") per call with a known duration, a begin
 * event ("ph":"B", never ended) for a call still open at the stop; ts and
 * dur in microseconds. Tasks are threads (tid = pid) of process 1 ("kernel");
 * interrupt context is one thread per CPU, named "irq cpuN", its tid
 * 4194304 + N: past every pid, which the kernel keeps below PID_MAX_LIMIT
 * (2^22), so that no task shares an interrupt thread's lane. With
 * --srcline, each event's args have "src" and "caller_src", as the call
 * tree shows them.
 */
#include <string.h>

#include "kd.h"

/* A JSON string: valid UTF-8 whatever s holds (a byte that is none is U+FFFD). */
static void kd_json_string(FILE *out, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n;

	fputc('"', out);
	for (; *u; u += n ? n : 1) {
		n = kd_utf8_char(u);
		if (*u == '"' || *u == '\\')
			fprintf(out, "\\%c", *u);
		else if (*u < 0x20)
			fprintf(out, "\\u%04x", *u);
		else if (n)
			fwrite(u, 1, n, out);
		else
			fputs("\\ufffd", out);
	}
	fputc('"', out);
}

/* The first interrupt thread's tid: PID_MAX_LIMIT, one past the largest pid. */
#define KD_JSON_IRQ_TID		4194304LL

/* Long long: a log may name CPU numbers up to INT_MAX (kd_thread_of()). */
static long long kd_tid(const struct kd_call *c)
{
	return c->thread >= 0 ? c->thread : KD_JSON_IRQ_TID + (-2 - c->thread);
}

/* A time in us, as the format wants; a log in ns keeps its digits. */
static void kd_json_time(FILE *out, const char *key, long long v, int ns)
{
	if (ns)
		fprintf(out, ",\"%s\":%lld.%03lld", key, v / 1000, v % 1000);
	else
		fprintf(out, ",\"%s\":%lld", key, v);
}

int kd_json(FILE *out, const struct kd_tree *t)
{
	char ret[48];
	size_t i;

	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", out);
	fputs("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
	      "\"args\":{\"name\":\"kernel\"}}", out);
	/* A name for each thread, once. */
	for (i = 0; i < t->nr; i++) {
		if (t->calls[i].thread_first != (long)i)
			continue;
		fprintf(out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%lld,"
			"\"args\":{\"name\":", kd_tid(&t->calls[i]));
		if (t->calls[i].thread >= 0)
			fprintf(out, "\"pid %d\"}}", t->calls[i].thread);
		else
			fprintf(out, "\"irq cpu%d\"}}", -2 - t->calls[i].thread);
	}
	for (i = 0; i < t->nr; i++) {
		const struct kd_call *c = &t->calls[i];

		fputs(",\n{\"name\":", out);
		kd_json_string(out, c->name);
		fprintf(out, ",\"ph\":\"%s\"", c->row->delta >= 0 ? "X" : "B");
		kd_json_time(out, "ts", c->row->entry, t->units_ns);
		if (c->row->delta >= 0)
			kd_json_time(out, "dur", c->row->delta, t->units_ns);
		fprintf(out, ",\"pid\":1,\"tid\":%lld,\"args\":{\"cpu\":%d,\"caller\":",
			kd_tid(c), c->row->cpu);
		kd_json_string(out, c->row->caller);
		if (c->src) {
			fputs(",\"src\":", out);
			kd_json_string(out, c->src);
			fputs(",\"caller_src\":", out);
			kd_json_string(out, c->caller_src);
		}
		if (*kd_retval(c->row, ret, sizeof(ret))) {
			fputs(",\"return\":", out);
			kd_json_string(out, ret);
		}
		fputs("}}", out);
	}
	fputs("\n]}\n", out);
	return 0;
}
