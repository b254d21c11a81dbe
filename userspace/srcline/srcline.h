/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Source lines of kernel addresses, from the DWARF of a vmlinux or of a
 * module's .ko built with debug information (the --srcline of kd and of
 * the kft commands that print calls), read through elfutils' libdwfl and
 * libdw. A log's address is the running kernel's:
 * under KASLR the image is moved, and a module lies wherever it was
 * loaded. An address is brought back to the file's own by its symbol in
 * the map (System.map or /proc/kallsyms): the image by the distance
 * between the map's _text and the file's, a module (or an image without
 * _text) by the symbol's name and the offset into it. A word that names
 * its symbol already ("name+0x10", "module:name+0x10") is found by name.
 *
 * A build without libdw has this interface too (nolibdw.c): it says it is
 * unavailable, and every file added is refused. The option (files.c) and
 * the text of a word's lines (text.c) are the same in both builds.
 */
#ifndef KFT_SRCLINE_H
#define KFT_SRCLINE_H

#include <stddef.h>

#include "ksyms.h"

/* The files one set may hold: a vmlinux and the modules of a trace. */
#define SRCLINE_MAX_FILES	64
/* Inlined frames kept of one address, the outermost function's included. */
#define SRCLINE_MAX_FRAMES	16
/* The text of one word's lines (srcline__text()); a longer one is cut. */
#define SRCLINE_TEXT_MAX	1024

/*
 * One frame of an address's source: the function (an inlined one, or the
 * function it was inlined into) and the line in it, innermost first. The
 * strings are the DWARF's, valid as long as the set; a file is relative
 * to the directory it was compiled in when it lies below it.
 */
struct srcline_frame {
	const char *function;	/* NULL: not named */
	const char *file;	/* NULL: no line known */
	int line;
};

struct srcline;

/* Whether this build reads DWARF at all (it was linked with libdw). */
int srcline__available(void);
/* An empty set of files; NULL without memory. */
struct srcline *srcline__new(void);
/*
 * Adds the DWARF of path: an executable (a vmlinux: the kernel image) or
 * a relocatable object (a module's .ko, named by its file name as the
 * kernel names it: "kft-test.ko" is kft_test). 0, or -1 with why in err
 * (not an ELF file, no DWARF in it, a second image, too many files).
 */
int srcline__add(struct srcline *sl, const char *path, char *err, size_t errlen);
/*
 * The source of a log's word (an address, "name", "name+0x10",
 * "module:name+0x10") into frames, innermost first: how many (at most
 * max), 0 when no file of the set has a line for it, -1 without memory
 * (for the index of a file's symbols). ks, when not NULL,
 * maps raw addresses (see the top); without it an address is the
 * image's own (a kernel booted without KASLR, a program). A return
 * address (is_return) is looked up one byte back, in the call
 * instruction: the line of the call, not of what follows it.
 */
int srcline__lookup(struct srcline *sl, const struct ksyms *ks, const char *word,
		    int is_return, struct srcline_frame *frames, int max);
void srcline__free(struct srcline *sl);

/* What a word's address is, which says which of its lines are shown. */
enum srcline_at {
	SRCLINE_ENTRY,		/* a function's entry */
	SRCLINE_RETURN,		/* a return address */
	SRCLINE_PC,		/* an instruction that was running (a sample) */
};

/*
 * The text of @word's lines into buf[0..size), as every command that
 * prints calls shows them: a function's entry the line of its entry, in
 * the function itself ("fs/open.c:1380"); a return address every frame
 * of its call, named, innermost first ("build_open_how fs/open.c:1391 <-
 * do_sys_open fs/open.c:1420"); a running instruction every frame of
 * its own line, as a call's; "??" for what no file of @sl has. 0, or -1
 * without memory.
 */
int srcline__text(struct srcline *sl, const struct ksyms *ks, const char *word,
		  enum srcline_at at, char *buf, size_t size);

/* The files --srcline names, in order; filled by srcline_files__add, nothing read. */
struct srcline_files {
	const char *paths[SRCLINE_MAX_FILES];
	int nr;
};

/* The long option, in the getopt table of each command that takes it. */
#define SRCLINE_OPT		'X'
#define SRCLINE_LONG_OPTION	{ "srcline", required_argument, NULL, SRCLINE_OPT }

/*
 * One more --srcline @path, of the options of the program @tool ("kd",
 * "kft"): 0, or -1 with why in @err (this build reads no DWARF, too many
 * files). Nothing is read yet.
 */
int srcline_files__add(struct srcline_files *f, const char *tool, const char *path,
		       char *err, size_t errlen);
/*
 * The DWARF of every file @f names, read into a new set: the set, or NULL
 * with why in @err ("--srcline FILE: no DWARF in it ...", out of memory).
 */
struct srcline *srcline_files__open(const struct srcline_files *f, char *err, size_t errlen);

#endif
