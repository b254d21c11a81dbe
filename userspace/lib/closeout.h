/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KFT_CLOSEOUT_H
#define KFT_CLOSEOUT_H

#include <stdio.h>

/*
 * Flushes standard output and says whether everything written to it got
 * out: a full disk (kd ... >/dev/full) or an output error must make a tool
 * fail, not exit 0 with half a file. On failure prints "PROG: write error:
 * REASON" and returns -1; for a pipe whose reader went away (EPIPE, where
 * SIGPIPE did not end the program) says nothing, and returns -1.
 */
int close_stdout(const char *prog);
/* The same for a file of one's own, closed: "PROG: NAME: write error: REASON". */
int close_file(FILE *f, const char *prog, const char *name);

#endif
