/* SPDX-License-Identifier: GPL-2.0 */
/* The kft command's arguments from one line, for its unit tests (kftargs.c). */
#ifndef KFT_UNIT_KFTARGS_H
#define KFT_UNIT_KFTARGS_H

#include <stddef.h>

#include "kft.h"

int kft_parse_line(const char *line, struct kft_params *p, char *err, size_t errlen);

#endif
