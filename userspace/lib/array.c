// SPDX-License-Identifier: GPL-2.0
/* Arrays that grow to a limit: see array.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "array.h"

/* An array's first room, in elements. */
#define ARRAY_FIRST_ROOM	256

void *array_room(void *v, size_t *cap, size_t nr, size_t size, size_t max)
{
	size_t fits = SIZE_MAX / (size ? size : 1), limit = max < fits ? max : fits, n;

	if (nr < *cap)
		return v;
	if (nr >= limit) {
		errno = nr >= max ? EFBIG : ENOMEM;
		return NULL;
	}
	if (!*cap)
		n = ARRAY_FIRST_ROOM < limit ? ARRAY_FIRST_ROOM : limit;
	else
		n = *cap < limit / 2 ? *cap * 2 : limit;
	v = realloc(v, n * size);
	if (v)
		*cap = n;
	return v;
}
