/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The words of a kft configuration as the module's lexer splits them:
 * white space between them; '#' begins a comment to the end of its line;
 * a word that opens with '"', a string filter's text, runs to its closing
 * quote, blanks and '#' in it (a backslash takes the byte after it), or to
 * its line's end if it has none.
 */
#ifndef KFT_CFGWORD_H
#define KFT_CFGWORD_H

#include <stddef.h>

/* The end of the word that starts at text[start] (no blank, no '#'). */
size_t cfgword_end(const char *text, size_t start);

/*
 * The next word at or after text[*i], past blanks and comments: its start
 * and length, and *i past it; 0 at the end.
 */
size_t cfgword_next(const char *text, size_t *i, size_t *start);

#endif
