// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: a kft log's calls printed typed (typedlog.h) on
 * arbitrary bytes read as a log: each row's args word and return value
 * read (kftrow.c) and printed with written prototypes of the names the
 * seeds use, into buffers of every size up to the text's, which must
 * hold its start, NUL-terminated.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kftlog.h"
#include "typedlog.h"

#define FUZZ_ASSERT(cond) do { if (!(cond)) __builtin_trap(); } while (0)

static struct typedlog *fuzz_types;

/* The prototypes, written to a file once: typedlog reads --proto's files. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char protos[] =
		"int leaf(int n, unsigned char c, bool b, const char *s, void *p, long l)\n"
		"void outer(enum e x, short y, struct s *z, ...)\n"
		"u64 middle(s8 a, u16 b, size_t c, ssize_t d, char **e)\n";
	struct typedlog_files files = { 0 };
	char path[64], err[256];
	FILE *f;

	(void)argc, (void)argv;
	snprintf(path, sizeof(path), "/tmp/fuzz_typedlog.%d", getpid());
	f = fopen(path, "w");
	FUZZ_ASSERT(f && fputs(protos, f) >= 0 && !fclose(f));
	FUZZ_ASSERT(!typedlog_files__add(&files, TYPEDLOG_PROTO, path, err, sizeof(err)));
	fuzz_types = typedlog__open(&files, "/nonexistent", 0, err, sizeof(err));
	unlink(path);
	FUZZ_ASSERT(fuzz_types);
	return 0;
}

static void fuzz_row(const struct kftlog_row *r)
{
	char whole[4096], part[4096];
	size_t n, len;

	n = typedlog__format(fuzz_types, r->func, NULL, r, r->entry & 1, whole, sizeof(whole));
	FUZZ_ASSERT(n == strlen(whole) || n >= sizeof(whole));
	for (len = 1; len < sizeof(part) && len <= n; len += 1 + len / 4) {
		typedlog__format(fuzz_types, r->func, NULL, r, r->entry & 1, part, len);
		FUZZ_ASSERT(strlen(part) == len - 1 && !strncmp(part, whole, len - 1));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kftlog *log = kftlog__parse((const char *)data, size, "fuzz", NULL);
	size_t i;

	for (i = 0; log && i < log->nr; i++)
		fuzz_row(&log->rows[i]);
	kftlog__free(log);
	return 0;
}
