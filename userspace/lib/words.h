/* SPDX-License-Identifier: GPL-2.0 */
/* The words of a text line (blank-separated), and decimal numbers in them. */
#ifndef KFT_WORDS_H
#define KFT_WORDS_H

#include <stddef.h>

struct word {
	const char *s;
	size_t len;
};

/* Space, tab, CR or LF. */
int word_blank(char c);
/* Splits line into up to n words; returns how many there are (at most n). */
size_t words_split(const char *line, size_t len, struct word *w, size_t n);
/* A decimal number filling the whole word: 0, or -1 if it is none. */
int word_ll(const struct word *w, long long *v);
/* Whether the word is s. */
int word_is(const struct word *w, const char *s);

#endif
