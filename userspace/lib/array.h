/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KFT_ARRAY_H
#define KFT_ARRAY_H

#include <stddef.h>

/*
 * Room for one more element of size bytes in the array v (nr used of *cap,
 * at most max): v, or the array it moved to, or NULL (errno ENOMEM, or
 * EFBIG at max) with v as it was. The room doubles, but never past max
 * elements, nor past the bytes a size_t counts (4 GiB on 32 bits).
 */
void *array_room(void *v, size_t *cap, size_t nr, size_t size, size_t max);

#endif
