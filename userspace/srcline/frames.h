/* SPDX-License-Identifier: GPL-2.0 */
/* An address's line and the inlined calls around it, from a module's DWARF. */
#ifndef KFT_SRCLINE_FRAMES_H
#define KFT_SRCLINE_FRAMES_H

#include <elfutils/libdwfl.h>

#include "srcline.h"

/*
 * The frames of addr (the module's own address) in mod, innermost first:
 * how many, at most max; 0 when no unit of its DWARF covers addr.
 */
int srcline_frames(Dwfl_Module *mod, Dwarf_Addr addr, struct srcline_frame *frames, int max);

#endif
