/* SPDX-License-Identifier: GPL-2.0 */
/* kd on a log given as text, for the unit tests of its views. */
#ifndef KFT_KDRUN_H
#define KFT_KDRUN_H

#include "kd.h"

/*
 * The output of p's mode on the log text, its warnings not shown, raw
 * addresses named by the map map_text (NULL: none). The caller frees it.
 */
char *kd_run(const char *text, const struct kd_params *p, const char *map_text);
/* The parameters of mode, the others kd's defaults (kd_parse_args() without options). */
struct kd_params kd_params_of(enum kd_mode mode);

#endif
