// SPDX-License-Identifier: GPL-2.0
/*
 * Which words of a kft configuration name functions: see cfgnames.h. A
 * state a word: the statement's words that may follow, as the module's
 * parser (module/kft_config.c) takes them. A configuration the module
 * would refuse is read as far as it goes; "end" closes any statement.
 */
#include <ctype.h>
#include <string.h>

#include "cfgnames.h"

enum cfgnames_state {
	CFG_STATEMENT,		/* a statement's first word, or new, begin, end */
	CFG_TRIGGER,		/* after trigger: start or stop */
	CFG_TRIGGER_WHEN,	/* after start or stop: entry, exit, error or time */
	CFG_TRIGGER_FUNCTION,	/* the function of entry, exit or error */
	CFG_FILTER,		/* after filter: which one */
	CFG_FUNCLIST,		/* funclist's names, up to fend */
	CFG_ROOTS,		/* roots' names, up to fend */
	CFG_ARG_FUNCTION,	/* filter arg's function, or its N when a number */
	CFG_ARG_N,		/* filter arg's N after its function */
	CFG_ARG_TYPE_OR_OP,	/* after N: a type, or the operator */
	CFG_ARG_OP,		/* the operator after a type */
	CFG_SKIP,		/* one word of no name: a number, comm's task */
};

static int cfgnames_is(const char *w, const char *const *words)
{
	for (; *words; words++)
		if (!strcmp(w, *words))
			return 1;
	return 0;
}

/* After "filter": the state its kind of filter leads to. */
static enum cfgnames_state cfgnames_filter(const char *w)
{
	static const char *const one_word[] = {
		"comm", "pid", "tid", "cpu", "mintime", "maxtime", NULL,
	};

	if (!strcmp(w, "funclist"))
		return CFG_FUNCLIST;
	if (!strcmp(w, "roots"))
		return CFG_ROOTS;
	if (!strcmp(w, "arg"))
		return CFG_ARG_FUNCTION;
	return cfgnames_is(w, one_word) ? CFG_SKIP : CFG_STATEMENT;
}

/* The state after the word @w in state @st. */
static enum cfgnames_state cfgnames_next(enum cfgnames_state st, const char *w)
{
	static const char *const when[] = { "entry", "exit", "error", NULL };
	static const char *const types[] = {
		"long", "ulong", "int", "uint", "string", "ustring", NULL,
	};

	if (!strcmp(w, "end"))
		return CFG_STATEMENT;
	switch (st) {
	case CFG_STATEMENT:
		return !strcmp(w, "trigger") ? CFG_TRIGGER :
		       !strcmp(w, "filter") ? CFG_FILTER : CFG_STATEMENT;
	case CFG_TRIGGER:
		return CFG_TRIGGER_WHEN;
	case CFG_TRIGGER_WHEN:
		return cfgnames_is(w, when) ? CFG_TRIGGER_FUNCTION :
		       !strcmp(w, "time") ? CFG_SKIP : CFG_STATEMENT;
	case CFG_FILTER:
		return cfgnames_filter(w);
	case CFG_FUNCLIST:
	case CFG_ROOTS:
		return !strcmp(w, "fend") ? CFG_STATEMENT : st;
	case CFG_ARG_FUNCTION:
		return isdigit((unsigned char)*w) ? CFG_ARG_TYPE_OR_OP : CFG_ARG_N;
	case CFG_ARG_N:
		return CFG_ARG_TYPE_OR_OP;
	case CFG_ARG_TYPE_OR_OP:
		/* A type, then the operator; or the operator, then the value. */
		return cfgnames_is(w, types) ? CFG_ARG_OP : CFG_SKIP;
	case CFG_ARG_OP:
		return CFG_SKIP;
	default:
		return CFG_STATEMENT;
	}
}

/* What @w names in state @st (before the state moves past it). */
static enum cfgname cfgnames_kind(enum cfgnames_state st, const char *w, const char **what)
{
	if (!strcmp(w, "end") || !strcmp(w, "fend"))
		return CFGNAME_NONE;
	switch (st) {
	case CFG_FUNCLIST:
		return CFGNAME_ALL;
	case CFG_TRIGGER_FUNCTION:
		*what = "a trigger";
		return CFGNAME_ONE;
	case CFG_ROOTS:
		*what = "a root";
		return CFGNAME_ONE;
	case CFG_ARG_FUNCTION:
		if (isdigit((unsigned char)*w))
			return CFGNAME_NONE;
		*what = "filter arg";
		return CFGNAME_ONE;
	default:
		return CFGNAME_NONE;
	}
}

enum cfgname cfgnames_word(struct cfgnames *c, const char *w, const char **what)
{
	enum cfgname kind = cfgnames_kind(c->state, w, what);

	c->state = cfgnames_next(c->state, w);
	return kind;
}
