// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's symbols as every kft command reads them: /proc/kallsyms
 * (KFT_PROC's kallsyms), its lines that are no symbol said as addr2sym and
 * kd say a map's. Below the commands and the session (expand.c, which
 * session.c needs, reads them too).
 */
#include <stdbool.h>
#include <stdio.h>

#include "kft.h"
#include "ksyms.h"

struct ksyms *kft_ksyms_load(const char *path)
{
	/* kft trace may read kallsyms twice (its globs, then its log): one warning. */
	static bool said;
	struct ksyms *ks = ksyms__load(path);

	if (ks && !said) {
		ksyms__say_skipped(ks, "kft", path, stderr);
		said = ks->skipped > 0;
	}
	return ks;
}
