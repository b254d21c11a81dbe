// SPDX-License-Identifier: GPL-2.0
/*
 * kft record's file (kftrec.h): its first line, and its text. The rows'
 * text is /proc/kft_data's (module/kft_mode_trace.c, kft_output_log_row()),
 * to the byte: kd, addr2sym and scripts read the one as the other.
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kftlog.h"
#include "kftrec.h"
#include "linereader.h"

static_assert(sizeof(struct kft_stream_row) == 64, "a stream row is 64 bytes");

#define KFTREC_VERSION	1
#define KFTREC_LINE_MAX	256

static const char *kftrec_byte_order(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one ? "little-endian" : "big-endian";
}

int kftrec_write_first_line(FILE *out)
{
	return fprintf(out, "%cKFT record %d: %zu-byte rows, %zu-byte addresses, %s\n",
		       KFTREC_FIRST_BYTE, KFTREC_VERSION, sizeof(struct kft_stream_row),
		       sizeof(long), kftrec_byte_order()) < 0 ? -1 : 0;
}

/* A task's name as one word, as the module's kft_output_name() writes it. */
static size_t kftrec_name(const char *name, size_t len, char *buf)
{
	size_t i, n = 0;

	if (!len || !name[0]) {
		memcpy(buf, "\\000", 4);
		return 4;
	}
	for (i = 0; i < len && name[i]; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c <= ' ' || c >= 0x7f || c == '\\')
			n += (size_t)sprintf(buf + n, "\\%03o", c);
		else
			buf[n++] = (char)c;
	}
	return n;
}

int kftrec_row_text(const struct kft_stream_row *row, unsigned int unit,
		    unsigned int addr_digits, char *buf, size_t size)
{
	int open = row->flags & KFT_STREAM_ROW_OPEN;
	char pid[32], comm[KFT_STREAM_COMM_LEN * 4 + 8] = " -", ret[32] = " -";
	long long delta = open ? KFTLOG_DELTA_OPEN : (long long)(row->dur_ns / unit);

	snprintf(pid, sizeof(pid), "%d.%u", row->pid, row->cpu);
	if (row->pid >= 0)
		comm[kftrec_name(row->comm, sizeof(row->comm), comm + 1) + 1] = '\0';
	if (open)
		;
	else if (row->flags & KFT_STREAM_ROW_ERROR)
		snprintf(ret, sizeof(ret), " %lld", (long long)row->retval);
	else if (row->flags & KFT_STREAM_ROW_HIDDEN)
		snprintf(ret, sizeof(ret), " hidden");
	else
		snprintf(ret, sizeof(ret), " 0x%llx", (unsigned long long)row->retval);
	return snprintf(buf, size, "%8llu %8lld %8s  0x%0*llx               0x%0*llx%s%s\n",
			(unsigned long long)(row->entry_ns / unit), delta, pid, (int)addr_digits,
			(unsigned long long)row->func, (int)addr_digits,
			(unsigned long long)row->caller, comm, ret);
}

/*
 * The first line: rows this reader reads (its version, their size, this
 * machine's byte order), and the writer's address size in *addr_bytes.
 * 0, or -1 after saying why.
 */
static int kftrec_read_first_line(FILE *in, const char *name, FILE *warn,
				  unsigned int *addr_bytes)
{
	char line[KFTREC_LINE_MAX], order[32];
	unsigned int version, row_bytes;
	size_t len;
	enum line_status st = line_read(in, line, sizeof(line), &len);

	if (st == LINE_ERROR) {
		fprintf(warn, "%s: %s\n", name, strerror(errno));
		return -1;
	}
	if (st != LINE_WHOLE || len < 2 || (unsigned char)line[0] != KFTREC_FIRST_BYTE ||
	    sscanf(line + 1, "KFT record %u: %u-byte rows, %u-byte addresses, %31s",
		   &version, &row_bytes, addr_bytes, order) != 4) {
		fprintf(warn, "%s: not a kft record file (its first line is no 'KFT record' "
			"line)\n", name);
		return -1;
	}
	if (version != KFTREC_VERSION || row_bytes != sizeof(struct kft_stream_row) ||
	    (*addr_bytes != 4 && *addr_bytes != 8)) {
		fprintf(warn, "%s: a kft record file of another kind (version %u, %u-byte "
			"rows, %u-byte addresses): this kft reads version %d, %zu-byte rows\n",
			name, version, row_bytes, *addr_bytes, KFTREC_VERSION,
			sizeof(struct kft_stream_row));
		return -1;
	}
	if (strcmp(order, kftrec_byte_order())) {
		fprintf(warn, "%s: written on a %s machine, read on a %s one: read it there "
			"(kft report)\n", name, order, kftrec_byte_order());
		return -1;
	}
	return 0;
}

/*
 * The header's lines to out, up to and including the "--------" one; *unit
 * the rows' (1: "Units: ns", else 1000). 0, or -1 after saying why.
 */
static int kftrec_copy_header(FILE *in, FILE *out, const char *name, FILE *warn,
			      unsigned int *unit)
{
	char line[KFTLOG_LINE_MAX];
	size_t len, total = 0;
	enum line_status st;
	int in_part = 0;	/* the line read goes on a longer one */
	int blanks = 0, begun = 0;

	*unit = 1000;
	for (;;) {
		st = line_read(in, line, sizeof(line), &len);
		if (st == LINE_ERROR) {
			fprintf(warn, "%s: %s\n", name, strerror(errno));
			return -1;
		}
		if (st == LINE_EOF || (st == LINE_WHOLE && line[len - 1] != '\n')) {
			fprintf(warn, "%s: the header ends before its '--------' line\n", name);
			return -1;
		}
		total += len;
		if (total > KFTREC_HEADER_MAX) {
			fprintf(warn, "%s: a header larger than kft reads (1 MiB)\n", name);
			return -1;
		}
		/* The header's room, blank lines before it: one, as the log has. */
		if (!begun && st == LINE_WHOLE && !strcmp(line, "\n")) {
			blanks = 1;
			continue;
		}
		if (!begun && blanks && fputc('\n', out) == EOF)
			return -1;
		begun = 1;
		if (fwrite(line, 1, len, out) != len)
			return -1;
		if (st == LINE_PART || in_part) {
			in_part = st == LINE_PART;
			continue;
		}
		if (!strcmp(line, KFTLOG_UNITS_NS_LINE "\n"))
			*unit = 1;
		if (!strncmp(line, "--------", 8))
			return 0;
	}
}

int kftrec__to_text(FILE *in, FILE *out, const char *name, FILE *warn)
{
	struct kft_stream_row row;
	unsigned int addr_bytes, unit;
	char text[512];
	size_t n;
	int len;

	if (kftrec_read_first_line(in, name, warn, &addr_bytes) ||
	    kftrec_copy_header(in, out, name, warn, &unit))
		return -1;
	while ((n = fread(&row, 1, sizeof(row), in)) == sizeof(row)) {
		len = kftrec_row_text(&row, unit, addr_bytes * 2, text, sizeof(text));
		if (fwrite(text, 1, (size_t)len, out) != (size_t)len)
			return -1;
	}
	if (ferror(in)) {
		fprintf(warn, "%s: %s\n", name, strerror(errno));
		return -1;
	}
	if (n)
		fprintf(warn, "%s: warning: the file ends inside a row (%zu of its %zu bytes): "
			"cut short\n", name, n, sizeof(row));
	return 0;
}

FILE *kftrec__text_of(FILE *in, const char *name, FILE *warn)
{
	int c = getc(in);
	FILE *text;

	if (c == EOF && ferror(in)) {
		fprintf(warn, "%s: %s\n", name, strerror(errno));
		return NULL;
	}
	if (c != KFTREC_FIRST_BYTE)
		return c == EOF || ungetc(c, in) != EOF ? in : NULL;
	ungetc(c, in);
	text = tmpfile();
	if (!text) {
		fprintf(warn, "%s: a temporary file for its text: %s\n", name, strerror(errno));
		return NULL;
	}
	if (kftrec__to_text(in, text, name, warn) || fflush(text) || fseek(text, 0, SEEK_SET)) {
		if (ferror(text))
			fprintf(warn, "%s: its text: %s\n", name, strerror(errno));
		fclose(text);
		return NULL;
	}
	return text;
}
