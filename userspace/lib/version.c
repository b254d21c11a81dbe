// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "closeout.h"
#include "version.h"

int print_version(const char *prog)
{
	printf("%s %s\n", prog, KFT_VERSION);
	return close_stdout(prog) ? 1 : 0;
}
