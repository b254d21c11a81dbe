/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kft log's row as a call to print typed: its args word's values
 * ("args=0xffff888003e1c000,-22,hidden,0x0", Documentation/kft.rst) and
 * its return value, each as kft's log writes one: an error in decimal,
 * any other value in hex, "hidden" where the reader may not see it.
 */
#ifndef KFT_KFTROW_H
#define KFT_KFTROW_H

#include "kftlog.h"
#include "kfttypes.h"

/*
 * @r's values into @call, its registers in @regs (KFTTYPES_MAX_ARGS of
 * them): the arguments up to the first value that is none of the three
 * forms (the ones after it print as "?"), the return value when the row
 * has one.
 */
void kftrow__call(const struct kftlog_row *r, unsigned long long *regs,
		  struct kfttypes_call *call);

/*
 * A row's args word untyped, as the log has its values, as a call's
 * argument list: "(0x1, -22, hidden)" into buf[0..len) (NUL-terminated
 * when len > 0). The length of the whole text, as snprintf.
 */
size_t kftrow__args_text(const char *args, char *buf, size_t len);

#endif
