// SPDX-License-Identifier: GPL-2.0
/*
 * An address's frames, as eu-addr2line -i finds them: the line table
 * gives the innermost line (dwfl_module_getsrc); the scopes around the
 * address give the functions. dwarf_getscopes finds the innermost, but
 * past an inlined call it goes on with the scopes of the inlined
 * function's abstract definition; the DIEs that contain that innermost
 * one (dwarf_getscopes_die, innermost first) are the code's own. Each
 * DW_TAG_inlined_subroutine among them is an inlined call: the frame
 * inside it is named after it, and the next frame out is the function it
 * was inlined into, at the call's own line (DW_AT_call_file and
 * DW_AT_call_line). The DW_TAG_subprogram around them all is the
 * outermost frame.
 */
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "frames.h"

/* A DIE's name, its own or its abstract origin's (an inlined function's). */
static const char *frames_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
}

/*
 * file below the unit's compilation directory is shown relative to it
 * ("fs/open.c", as the kernel's sources name their files); any other
 * file as it is.
 */
static const char *frames_relative(Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute attr;
	const char *dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	size_t len = dir ? strlen(dir) : 0;

	if (!file || !len || strncmp(file, dir, len))
		return file;
	if (file[len] == '/')
		return file + len + 1;
	return dir[len - 1] == '/' ? file + len : file;
}

/* The line an inlined call was made at, into f; 0 if the DWARF lacks it. */
static int frames_call_site(Dwarf_Die *cu, Dwarf_Die *inlined, struct srcline_frame *f)
{
	Dwarf_Attribute attr;
	Dwarf_Word file = 0, line = 0;
	Dwarf_Files *files;
	size_t nfiles;

	if (dwarf_formudata(dwarf_attr(inlined, DW_AT_call_file, &attr), &file) ||
	    dwarf_formudata(dwarf_attr(inlined, DW_AT_call_line, &attr), &line) ||
	    dwarf_getsrcfiles(cu, &files, &nfiles) || file >= nfiles)
		return 0;
	f->file = frames_relative(cu, dwarf_filesrc(files, file, NULL, NULL));
	f->line = line > 0x7fffffff ? 0 : (int)line;
	f->function = NULL;
	return f->file != NULL;
}

/*
 * The functions of frames[0..) from the scopes: each inlined call names
 * its frame and adds the next, at its call site; the subprogram names
 * the last. How many frames there are then.
 */
static int frames_scopes(Dwarf_Die *cu, Dwarf_Die *scopes, int nscopes,
			 struct srcline_frame *frames, int max)
{
	int i, n = 1;

	for (i = 0; i < nscopes; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			continue;
		frames[n - 1].function = frames_name(&scopes[i]);
		if (tag == DW_TAG_subprogram || n == max)
			break;
		if (frames_call_site(cu, &scopes[i], &frames[n]))
			n++;
		else
			break;
	}
	return n;
}

int srcline_frames(Dwfl_Module *mod, Dwarf_Addr addr, struct srcline_frame *frames, int max)
{
	Dwfl_Line *line;
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Addr bias = 0;
	int lineno = 0, nscopes, n;
	const char *file;

	if (max < 1)
		return 0;
	cu = dwfl_module_addrdie(mod, addr, &bias);
	line = dwfl_module_getsrc(mod, addr);
	file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
	if (!cu || !file)
		return 0;
	frames[0] = (struct srcline_frame){ .file = frames_relative(cu, file), .line = lineno };
	nscopes = dwarf_getscopes(cu, addr - bias, &scopes);
	if (nscopes > 0) {
		Dwarf_Die innermost = scopes[0];

		free(scopes);
		scopes = NULL;
		nscopes = dwarf_getscopes_die(&innermost, &scopes);
	}
	n = nscopes > 0 ? frames_scopes(cu, scopes, nscopes, frames, max) : 1;
	free(scopes);
	return n;
}
