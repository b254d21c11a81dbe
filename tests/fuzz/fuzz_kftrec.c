// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: kft record's file as text (userspace/lib/kftrec.c),
 * on arbitrary bytes, written out (kft report) and read as a stream (kd,
 * addr2sym). Its text is bounded by its input: the header as it is, a
 * line of less than KFTREC_TEXT_MAX bytes a row of 64 or more. The same
 * bytes as a read of /proc/kft_stream, each row checked as kft record does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kftrec.h"

#define FUZZ_ASSERT(cond) do { if (!(cond)) __builtin_trap(); } while (0)

/* Each call the bytes hold, whole, within them, and checked. */
static void fuzz_stream_rows(const uint8_t *data, size_t size)
{
	struct kftrec_call call;
	size_t at = 0, n;

	while ((n = kftrec_call_from(data + at, size - at, &call)) > 0) {
		FUZZ_ASSERT(n >= sizeof(call.row) && n <= size - at);
		kftrec_call_invalid(&call, KFTREC_VERSION);
		at += n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in = fmemopen((void *)data, size ? size : 1, "r");
	FILE *warn = fopen("/dev/null", "w");
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len), *stream;
	char chunk[4096];
	size_t n;

	if (!in || !warn || !out)
		__builtin_trap();
	if (!size)
		fgetc(in);
	kftrec__to_text(in, out, "fuzz", warn);
	fclose(out);
	FUZZ_ASSERT(len <= size + (size / sizeof(struct kft_stream_row)) * KFTREC_TEXT_MAX);
	free(text);
	rewind(in);
	if (!size)
		fgetc(in);
	stream = kftrec__text_of(in, "fuzz", warn, NULL);
	len = 0;
	while (stream && (n = fread(chunk, 1, sizeof(chunk), stream)) > 0)
		len += n;
	FUZZ_ASSERT(len <= size + (size / sizeof(struct kft_stream_row)) * KFTREC_TEXT_MAX);
	if (stream && stream != in)
		fclose(stream);
	fclose(in);
	fclose(warn);
	fuzz_stream_rows(data, size);
	return 0;
}
