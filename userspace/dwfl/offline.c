// SPDX-License-Identifier: GPL-2.0
/* An ELF file as libdwfl's offline module (offline.h). */
#include "offline.h"

/*
 * The file's own debug sections only: a file named is the one read, or
 * the caller says why it has no DWARF.
 */
static int dwfl_offline_no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
				     Dwarf_Addr base, const char *file, const char *debuglink,
				     GElf_Word crc, char **debuginfo_file)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file, (void)debuglink;
	(void)crc, (void)debuginfo_file;
	return -1;
}

static const Dwfl_Callbacks dwfl_offline_callbacks = {
	.find_debuginfo = dwfl_offline_no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

Dwfl_Module *dwfl_offline__open(const char *name, const char *path, Dwfl **dwfl)
{
	Dwfl_Module *mod;

	*dwfl = dwfl_begin(&dwfl_offline_callbacks);
	if (!*dwfl)
		return NULL;
	mod = dwfl_report_offline(*dwfl, name, path, -1);
	if (!mod || dwfl_report_end(*dwfl, NULL, NULL)) {
		dwfl_end(*dwfl);
		*dwfl = NULL;
		return NULL;
	}
	return mod;
}
