// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the parser of written prototypes
 * (userspace/types/kftparse.c) on arbitrary bytes; what parses is then a
 * call's type, printed with registers and a capture made of the same
 * bytes, into buffers of every size up to the text's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kftcall.h"
#include "kftparse.h"
#include "strtab.h"

#define FUZZ_ASSERT(cond) do { if (!(cond)) __builtin_trap(); } while (0)

/* @p's calls with registers and strings from @data: the same text in any buffer. */
static void fuzz_format(const struct kftproto *p, const uint8_t *data, size_t size)
{
	unsigned long long args[KFTTYPES_MAX_ARGS] = { 0 };
	struct kfttypes_capture caps[KFTTYPES_MAX_ARGS];
	struct kfttypes_call call = {
		.args = args, .nr_args = KFTTYPES_MAX_ARGS, .captures = caps, .has_ret = true,
	};
	char whole[4096], part[4096];
	size_t n, len;
	int i;

	memcpy(args, data, size < sizeof(args) ? size : sizeof(args));
	for (i = 0; i < KFTTYPES_MAX_ARGS; i++)
		caps[i] = (struct kfttypes_capture){
			.bytes = data, .len = size > 16 ? 16 : size,
			/* Half the arguments a struct's bytes (args struct), half a string's. */
			.is_struct = size && (data[0] >> (i % 8)) & 1,
		};
	call.ret = args[0];
	n = kftcall__format(p, NULL, &call, args[1] & 2 ? 4 : 8, args[1] & 1, whole, sizeof(whole));
	FUZZ_ASSERT(n == strlen(whole) || n >= sizeof(whole));
	for (len = 1; len < sizeof(part) && len <= n; len += 1 + len / 4) {
		kftcall__format(p, NULL, &call, args[1] & 2 ? 4 : 8, args[1] & 1, part, len);
		FUZZ_ASSERT(strlen(part) == len - 1 && !strncmp(part, whole, len - 1));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strtab names = { .limit = 1 << 20 };
	struct kfttypes_error err;
	struct kftproto *p = kftparse__prototype((const char *)data, size, 8, &names, &err);

	if (p) {
		FUZZ_ASSERT(p->name && p->name[0] && p->nr_params <= KFTPROTO_MAX_PARAMS);
		fuzz_format(p, data, size);
	} else {
		FUZZ_ASSERT(err.msg[0] && err.column >= 0 && (size_t)err.column <= size + 1);
	}
	kftproto__free(p);
	strtab__free(&names);
	return 0;
}
