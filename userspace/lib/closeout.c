// SPDX-License-Identifier: GPL-2.0
/* Checking standard output at exit: see closeout.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "closeout.h"

int close_stdout(const char *prog)
{
	int failed;

	errno = 0;
	/* ferror: an earlier write failed, and later ones may have succeeded. */
	failed = ferror(stdout);
	failed |= fflush(stdout) != 0;
	if (!failed)
		return 0;
	/* A reader that closed the pipe (| head) chose to: nothing to say. */
	if (errno == EPIPE)
		return -1;
	if (errno)
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
	else
		fprintf(stderr, "%s: write error\n", prog);
	return -1;
}

int close_file(FILE *f, const char *prog, const char *name)
{
	int failed;

	errno = 0;
	failed = ferror(f);
	failed |= fclose(f) != 0;
	if (!failed)
		return 0;
	if (errno)
		fprintf(stderr, "%s: %s: write error: %s\n", prog, name, strerror(errno));
	else
		fprintf(stderr, "%s: %s: write error\n", prog, name);
	return -1;
}
