/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kft record's file: a first line that says what its rows are, then the
 * header of a stream run's log, as /proc/kft_data writes it, up to and
 * including its "--------" line and counting the rows (after blank lines:
 * the room kft record left it, read as one), then the rows as
 * /proc/kft_stream gave them (struct kft_stream_row, each followed by the
 * extensions its flags name, in the writer's byte order).
 * Documentation/kft.rst, "Streaming". kft report and kd turn it into the
 * log's text, a row as /proc/kft_data writes one.
 *
 * Version 1 files have rows without extensions (kft record before offcpu
 * and args streamed), version 2's rows no string; version 3 is written
 * now, and all three are read.
 */
#ifndef KFT_KFTREC_H
#define KFT_KFTREC_H

#include <stdint.h>
#include <stdio.h>

#include "kft_stream_row.h"

/* One call of a record file: its row and the extensions its flags name. */
struct kftrec_call {
	struct kft_stream_row row;
	struct kft_stream_sched sched;	/* with KFT_STREAM_ROW_SCHED */
	struct kft_stream_args args;	/* with KFT_STREAM_ROW_ARGS */
	struct kft_stream_str str;	/* with KFT_STREAM_ROW_STR */
};

/*
 * The first byte of a record file: no log, folded stack or console starts
 * with it.
 */
#define KFTREC_FIRST_BYTE	0x7f
/* The version kftrec_write_first_line() writes, whose rows kft record checks. */
#define KFTREC_VERSION		3
/* The largest header a record file may have, as a stream read's. */
#define KFTREC_HEADER_MAX	(1 << 20)

/* The first line, for rows of this machine: 0, or -1 (out's error). */
int kftrec_write_first_line(FILE *out);

/*
 * A record file's text (the log's) on out: 0, or -1 after saying why on
 * warn, naming name (its rows up to the error are written). A file whose
 * rows end inside one is warned of, and its whole rows kept.
 */
int kftrec__to_text(FILE *in, FILE *out, const char *name, FILE *warn);

/*
 * in as text: itself if it is no record file (nothing read from it), else
 * a stream of its text, converted as it is read (the caller closes both;
 * a damaged row, or one that cannot be read, ends it with a read error
 * after saying why: errno EBADMSG, which its reader need not say again;
 * only this stream's, not @in's own errors when it is returned).
 * NULL after saying why (a header kft does not write). A file that ends
 * inside a row is warned of, and *cut_said (NULL: none) set to 1, so that
 * a reader that checks the rows against the header's count need not say
 * it again (kftcon__read()).
 */
FILE *kftrec__text_of(FILE *in, const char *name, FILE *warn, int *cut_said);

/* The bytes of the extensions that follow a row with these flags. */
size_t kftrec_extras_size(uint16_t flags);

/*
 * The call that starts len bytes of rows as /proc/kft_stream gives them
 * (a row, then the extensions its flags name) into *call: its size in
 * bytes, or 0 when the bytes end before the call does. Flags kft does not
 * know are not sized: kftrec_call_invalid() names them.
 */
size_t kftrec_call_from(const void *bytes, size_t len, struct kftrec_call *call);

/*
 * Why a call read from a file of this version is none kft writes (flags
 * it does not know, times, a pid or arguments out of their bounds, a
 * return value against its flags), or NULL: it is.
 */
const char *kftrec_call_invalid(const struct kftrec_call *call, unsigned int version);

/*
 * A call's text line, as /proc/kft_data writes it, into buf (at least
 * KFTREC_TEXT_MAX bytes: a longer line is cut).
 */
#define KFTREC_TEXT_MAX	1024
int kftrec_call_text(const struct kftrec_call *call, unsigned int unit,
		     unsigned int addr_digits, char *buf, size_t size);

#endif
