/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KFT_ADDR2SYM_H
#define KFT_ADDR2SYM_H

#include <stddef.h>
#include <stdio.h>

struct addr2sym_params {
	const char *map;
	const char *file;	/* NULL: standard input */
	int any_text;		/* -a: not only kft logs */
	int help;
	int version;	/* --version */
};

int addr2sym__parse_args(int argc, char **argv, struct addr2sym_params *p,
			 char *err, size_t errlen);
void addr2sym__usage(FILE *out);

#endif
