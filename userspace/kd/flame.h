/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flame graph's frames: folded stacks ("a;b;c N", root first) merged
 * into a tree under one root, "all". A frame is one name at one place in
 * the tree; its samples are those of the stacks that pass through it.
 * Bounded: at most FLAME_MAX_DEPTH frames in a stack, FLAME_MAX_FRAMES
 * frames and FLAME_MAX_NAME_BYTES of distinct names in all. kd folds its
 * own stacks (kd --folded's too) to FLAME_MAX_DEPTH frames (folds.c), so
 * that they always make a flame graph.
 */
#ifndef KFT_FLAME_H
#define KFT_FLAME_H

#include <stddef.h>
#include <stdio.h>

#include "strtab.h"

#define FLAME_MAX_DEPTH		1024
#define FLAME_MAX_FRAMES	1000000
#define FLAME_MAX_NAME_BYTES	(64u << 20)
/* A longer line of folded stacks is skipped, with a warning. */
#define FLAME_LINE_MAX		(64 * 1024)

struct flame_frame {
	const char *name;
	long long samples;	/* saturated at LLONG_MAX */
	long long self;		/* of the stacks that end here, saturated; -1: none ends here */
	unsigned int parent;	/* the root is its own parent */
	unsigned int child;	/* the first child; 0: none (the root is no child) */
	unsigned int sibling;	/* the next child of the parent; 0: none */
	unsigned int depth;	/* the root's is 0 */
};

struct flame {
	struct flame_frame *frames;	/* frames[0] is the root, "all" */
	size_t nr, cap;
	unsigned int *slots;	/* (parent, name) -> frame index + 1, open addressing */
	size_t cap_slots;
	struct strtab names;
	unsigned int depth;	/* the deepest frame's */
	const char *unit;	/* of samples: "samples", "us", "snapshots" */
	/* Lines of folded stacks read (flame__add_line): kept, malformed. */
	size_t lines, malformed;
	size_t max_frames;	/* FLAME_MAX_FRAMES (tests lower it) */
};

/* An empty flame graph (the root only); -1 without memory. */
int flame__init(struct flame *f, const char *unit);
/*
 * Adds the stack of len bytes ("a;b;c", root first; empty frames are
 * skipped) with its weight. -1 with errno: E2BIG for a stack deeper than
 * FLAME_MAX_DEPTH, EOVERFLOW past FLAME_MAX_FRAMES or the names' limit,
 * ENOMEM.
 */
int flame__add(struct flame *f, const char *stack, size_t len, long long weight);

/*
 * The child of frame parent named s (len bytes, taken as it is: an empty
 * name too), made if new; its index, or -1 with errno as flame__add().
 * kd --folded builds its tree of stacks with it (folds.c).
 */
long flame__child(struct flame *f, unsigned int parent, const char *s, size_t len);
/* A stack that ends at frame i weighs weight (>= 0) more: its self, not its samples. */
void flame__end(struct flame *f, unsigned int i, long long weight);

enum flame_line {
	FLAME_BLANK,
	FLAME_STACK,		/* added */
	FLAME_MALFORMED,	/* no "STACK COUNT" line: skipped */
};

/*
 * One line of folded stacks: "STACK COUNT", COUNT a whole number >= 0
 * after the last blank (frames may hold blanks). An enum flame_line, or
 * -1 as flame__add().
 */
int flame__add_line(struct flame *f, const char *line, size_t len);
/* What an errno of flame__add() means here. */
const char *flame__strerror(int err);
void flame__free(struct flame *f);

/*
 * The flame graph as a self-contained SVG with its own script (zoom,
 * search): see flamegraph.c. title NULL: "Flame Graph".
 */
int flame__svg(FILE *out, const struct flame *f, const char *title);
/* The script in it, a line a string, NULL-terminated (flamegraph_js.c). */
extern const char *const flame_script[];

#endif
