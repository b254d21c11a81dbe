/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KFT_VERSION_H
#define KFT_VERSION_H

/*
 * KFT_VERSION is the VERSION file at the top of the sources, the one
 * version of the module and the tools: the Makefile passes it
 * (-DKFT_VERSION='"X.Y.Z"'), as module/Kbuild does for the module.
 */
#ifndef KFT_VERSION
#error "KFT_VERSION undefined: build through the top-level Makefile"
#endif

/*
 * --version: "PROG VERSION" on standard output, then close_stdout().
 * Returns the exit status: 0, or 1 when the line could not be written.
 */
int print_version(const char *prog);

#endif
