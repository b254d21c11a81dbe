// SPDX-License-Identifier: GPL-2.0
/*
 * A stacks- or profile-mode log folded (Documentation/stacks.rst,
 * section 3), as bcc's stackcount -f and profile -f print theirs:
 *	comm;outer;...;inner COUNT
 * root first, the process's comm first when the block has one (not "-"),
 * each frame its function's name only ("vfs_write+0xcb/0x3c0 [mod]" ->
 * "vfs_write"; a raw address through -m's map, else as it is). A block
 * without frames (a sample taken in user space) is "comm;[user]". Stacks
 * that fold the same (other addresses, same functions) are summed. The
 * snoop's "event" blocks are not folded: every event is counted in its
 * stack's block already.
 */
#include <stdlib.h>
#include <string.h>

#include "kd.h"
#include "symbolize.h"

/* A frame's function (symbolized through ks if it is a raw address), under parent. */
static long kd_fold_frame(struct kd_folds *f, long parent, const struct kftstacks_frame *fr,
			  const struct ksyms *ks)
{
	char buf[KSYMS_FORMAT_MAX];
	const char *sym = ks ? symbolize_word(ks, fr->sym, buf, sizeof(buf)) : NULL;
	const char *s = sym ? sym : fr->sym;

	return parent < 0 ? -1 : kd_folds_frame(f, (unsigned int)parent, s, kd_function_len(s));
}

static int kd_fold_block(struct kd_folds *f, const struct kftstacks *st,
			 const struct kftstacks_block *blk, const struct ksyms *ks)
{
	long fr = 0;
	size_t k;

	if (strcmp(blk->comm, "-"))
		fr = kd_folds_frame(f, 0, blk->comm, strlen(blk->comm));
	for (k = blk->nr; k > 0; k--)
		fr = kd_fold_frame(f, fr, &st->frames[blk->first + k - 1], ks);
	if (!blk->nr && fr >= 0)
		fr = kd_folds_frame(f, (unsigned int)fr, "[user]", 6);
	if (fr < 0)
		return -1;
	kd_folds_add(f, (unsigned int)fr, blk->count);
	return 0;
}

int kd_fold_stacks(struct kd_folds *f, const struct kftstacks *st, const struct ksyms *ks)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < st->nr && !ret; i++)
		if (!st->blocks[i].event)
			ret = kd_fold_block(f, st, &st->blocks[i], ks);
	return ret;
}

int kd_stacks_output(FILE *out, const struct kftlog *log, const struct ksyms *ks,
		     const struct kd_params *p)
{
	struct kd_folds f;
	int ret = kd_folds_init(&f) ? -1 : kd_fold_stacks(&f, &log->stacks, ks);

	if (!ret && p->mode == KD_FLAMEGRAPH)
		ret = kd_folds_draw(out, &f, "samples", p);
	else if (!ret)
		ret = kd_folds_print(out, &f);
	kd_folds_free(&f);
	return ret;
}
