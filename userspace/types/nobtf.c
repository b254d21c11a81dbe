// SPDX-License-Identifier: GPL-2.0
/*
 * The BTF source in a build without libbpf (cross builds, the guests'
 * static tools where no static libbpf is at hand): every BTF file is
 * refused with the reason; DWARF and written prototypes still work.
 */
#include <errno.h>
#include <stdio.h>

#include "kftsource.h"

bool kftbtf__read_from(const struct kftsource *src, const char *path)
{
	(void)src;
	(void)path;
	return false;
}

struct kftsource *kftbtf__open(const char *path, struct kftsource *base, const char *base_path,
			       struct kfttypes_error *err)
{
	(void)base;
	(void)base_path;
	err->column = 0;
	snprintf(err->msg, sizeof(err->msg), "%s: this program was built without libbpf, "
		 "which reads BTF: build it where libbpf-dev is installed", path);
	errno = ENOTSUP;
	return NULL;
}
