/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which words of a kft configuration name functions, statement by
 * statement (Documentation/kft.rst, "The configuration language"):
 *
 *	trigger start|stop entry|exit|error F	one function
 *	filter arg [F] N [TYPE] OP VALUE	one function, if a word before N
 *	filter roots F... fend			one function each
 *	filter funclist F... fend		every function of each name
 *
 * Any other word names none, whatever it reads as: the task of "filter
 * comm exit" is no keyword. The words are the module lexer's (cfgword.h),
 * a string filter's text in quotes one word.
 */
#ifndef KFT_CFGNAMES_H
#define KFT_CFGNAMES_H

/* What a word names. */
enum cfgname {
	CFGNAME_NONE,	/* no function: a keyword, a number, a task's name */
	CFGNAME_ONE,	/* one function, of a statement that takes one */
	CFGNAME_ALL,	/* every function of that name (a funclist's) */
};

/* Where the reader is in a configuration; zeroed, at its start. */
struct cfgnames {
	int state;
};

/*
 * The configuration's next word @w: what it names (with CFGNAME_ONE,
 * @what says which statement takes one function: "a trigger", "a root",
 * "filter arg"); the reader moves past it.
 */
enum cfgname cfgnames_word(struct cfgnames *c, const char *w, const char **what);

#endif
