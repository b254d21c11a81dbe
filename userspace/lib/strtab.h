/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A string table: strings copied into chunks that never move (so pointers
 * to them stay valid as the table grows), optionally interned (one copy of
 * each distinct string: a log repeats a few thousand names millions of
 * times), with a limit on the bytes it holds.
 */
#ifndef KFT_STRTAB_H
#define KFT_STRTAB_H

#include <stddef.h>

struct strtab_chunk;

struct strtab {
	struct strtab_chunk *chunks;	/* newest first */
	const char **slots;		/* interned strings, open addressing */
	size_t nr_slots, cap_slots;
	size_t bytes;			/* held, NUL bytes included */
	size_t limit;			/* bytes; 0: none */
};

/*
 * A copy of s[0..len), cut at a NUL byte if s has one, NUL-terminated;
 * NULL with errno ENOMEM or EFBIG (over the limit).
 */
const char *strtab__add(struct strtab *st, const char *s, size_t len);
/* The same, but the first copy of equal strings is returned again. */
const char *strtab__intern(struct strtab *st, const char *s, size_t len);
void strtab__free(struct strtab *st);
/* The hash of s[0..len) the table files strings by (hash.h: keyed). */
size_t strtab__hash(const char *s, size_t len);

#endif
