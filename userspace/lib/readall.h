/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KFT_READALL_H
#define KFT_READALL_H

#include <stddef.h>
#include <stdio.h>

/*
 * All of a stream, NUL-terminated (files like /proc/kallsyms have no size:
 * read until the end). NULL with errno set on failure; free() the result.
 */
char *read_all(FILE *in, size_t *len);

#endif
