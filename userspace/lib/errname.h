/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's error numbers by name (errname.c). */
#ifndef KFT_ERRNAME_H
#define KFT_ERRNAME_H

/* The name of error @err, a negative number (-22: "EINVAL"); NULL: none. */
const char *errname(long long err);

#endif
