/* SPDX-License-Identifier: GPL-2.0 */
/*
 * getopt_long's errors as messages that name the option in question, the
 * same in every tool: the one of several short options written together,
 * a long one by its full name, the candidates of an ambiguous
 * abbreviation. The tools' option strings start with "+:" (no
 * permutation; ':' for a missing argument), and each reads its options
 * with opterr_next(), which notes the argument getopt_long reads.
 *
 *	while ((opt = opterr_next(argc, argv, "+:ab:", longs, &at)) != -1) {
 *		if (opt == '?' || opt == ':')
 *			return opterr_message("cmd", longs, opt, argv[at], err, errlen);
 *		...
 *	}
 *	if (opterr_operands("cmd", argc, argv, "FILE", err, errlen))
 *		return -1;
 */
#ifndef KFT_OPTERR_H
#define KFT_OPTERR_H

#include <getopt.h>
#include <stddef.h>

/*
 * getopt_long with glibc's own messages off, first storing in @at the
 * index of the argument it reads: after an error optind may have moved
 * past it, or still point at it (options written together).
 */
int opterr_next(int argc, char **argv, const char *shorts, const struct option *longs,
		int *at);

/*
 * getopt_long's '?' (an unknown option) or ':' (one without its argument)
 * as a message in @err, after "@cmd: " unless @cmd is NULL; @arg is the
 * argument that opterr_next() noted. Returns -1.
 */
int opterr_message(const char *cmd, const struct option *longs, int opt, const char *arg,
		   char *err, size_t errlen);

/*
 * The operands, argv[optind] on: an option after the first (getopt_long
 * stops at the first operand, so it was taken as one) is refused with
 * "OPTION: options go before @what". 0, or -1 with the message.
 */
int opterr_operands(const char *cmd, int argc, char **argv, const char *what, char *err,
		    size_t errlen);

#endif
