// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF source in a build without libdw (cross builds, the guests'
 * static tools where no static libdw is at hand): every file is refused
 * with the reason; BTF and written prototypes still work.
 */
#include <errno.h>
#include <stdio.h>

#include "kftsource.h"

struct kftsource *kftdwarf__open(const char *path, struct kfttypes_error *err)
{
	err->column = 0;
	snprintf(err->msg, sizeof(err->msg), "%s: this program was built without libdw "
		 "(elfutils), which reads DWARF: build it where libdw-dev is installed", path);
	errno = ENOTSUP;
	return NULL;
}
