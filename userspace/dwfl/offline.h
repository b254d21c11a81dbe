/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One ELF file opened as libdwfl's offline module, as kd --srcline
 * (userspace/srcline) and the types from DWARF (userspace/types) both
 * read theirs: libdwfl lays out a relocatable file's sections and
 * relocates its debug sections, as eu-addr2line has them, and only the
 * file's own debug sections are read (no separate debug file is looked
 * for, nor fetched from a debuginfod server). Linked with libdw, so not
 * in userspace/lib, which the static tools link without it.
 */
#ifndef KFT_DWFL_OFFLINE_H
#define KFT_DWFL_OFFLINE_H

#include <elfutils/libdwfl.h>

/*
 * A session with @path reported as the offline module @name: the module,
 * and the session in *dwfl (for dwfl_end), or NULL, *dwfl NULL too, with
 * dwfl_errmsg(-1) saying why.
 */
Dwfl_Module *dwfl_offline__open(const char *name, const char *path, Dwfl **dwfl);

#endif
