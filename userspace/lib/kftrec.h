/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kft record's file: a first line that says what its rows are, then the
 * header of a stream run's log, as /proc/kft_data writes it, up to and
 * including its "--------" line and counting the rows (after blank lines:
 * the room kft record left it, read as one), then the rows as
 * /proc/kft_stream gave them (struct kft_stream_row, in the writer's byte
 * order). Documentation/kft.rst, "Streaming". kft report and kd turn it
 * into the log's text, a row as /proc/kft_data writes one.
 */
#ifndef KFT_KFTREC_H
#define KFT_KFTREC_H

#include <stdio.h>

#include "kft_stream_row.h"

/*
 * The first byte of a record file: no log, folded stack or console starts
 * with it.
 */
#define KFTREC_FIRST_BYTE	0x7f
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
 * a temporary file with its text (the caller closes both), in at its end.
 * NULL after saying why.
 */
FILE *kftrec__text_of(FILE *in, const char *name, FILE *warn);

/* A row's text line, as /proc/kft_data writes it, into buf (at least 256 bytes). */
int kftrec_row_text(const struct kft_stream_row *row, unsigned int unit,
		    unsigned int addr_digits, char *buf, size_t size);

#endif
