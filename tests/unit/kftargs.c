// SPDX-License-Identifier: GPL-2.0
/*
 * kft_parse_args() on a command line written as one string, split at
 * blanks (no quoting: the tests' lines need none). The words live in a
 * static buffer until the next call, as getopt's results point into them.
 */
#include <stdio.h>
#include <string.h>

#include "kftargs.h"

int kft_parse_line(const char *line, struct kft_params *p, char *err, size_t errlen)
{
	static char buf[512];
	static char *argv[32];
	int argc = 0;
	char *w;

	snprintf(buf, sizeof(buf), "%s", line);
	for (w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	return kft_parse_args(argc, argv, p, err, errlen);
}
