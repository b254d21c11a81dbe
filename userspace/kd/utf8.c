// SPDX-License-Identifier: GPL-2.0
/* UTF-8 in kd's text outputs: see kd.h. */
#include "kd.h"

static int kd_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t kd_utf8_char(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		return kd_cont(s[1]) ? 2 : 0;
	if (s[0] >= 0xe0 && s[0] <= 0xef) {
		if (!kd_cont(s[1]) || !kd_cont(s[2]) || (s[0] == 0xe0 && s[1] < 0xa0) ||
		    (s[0] == 0xed && s[1] >= 0xa0))
			return 0;
		return 3;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		if (!kd_cont(s[1]) || !kd_cont(s[2]) || !kd_cont(s[3]) ||
		    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
			return 0;
		return 4;
	}
	return 0;
}
