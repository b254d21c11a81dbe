/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a string that args string copied is written in a row of text: by
 * the module in /proc/kft_data, and by kft report from a stream's rows,
 * which must write the same bytes. Shared with the userspace tools, so
 * it uses no header.
 */
#ifndef KFT_STR_TEXT_H
#define KFT_STR_TEXT_H

/* The most bytes kft_str_text_char() writes. */
#define KFT_STR_TEXT_CHAR_MAX	4

/* @c as two lowercase hex digits, at @out. */
static inline void kft_str_hex(char *out, unsigned char c)
{
	static const char digits[] = "0123456789abcdef";

	out[0] = digits[c >> 4];
	out[1] = digits[c & 0xf];
}

/*
 * One byte of a string, as C writes it inside double quotes; a blank as
 * "\x20" too, so that a row's words stay split at blanks. Into @out (room
 * for KFT_STR_TEXT_CHAR_MAX bytes): how many.
 */
static inline unsigned int kft_str_text_char(char *out, unsigned char c)
{
	out[0] = '\\';
	switch (c) {
	case '"':
	case '\\':
		out[1] = (char)c;
		return 2;
	case '\n':
		out[1] = 'n';
		return 2;
	case '\t':
		out[1] = 't';
		return 2;
	}
	if (c > ' ' && c < 0x7f) {
		out[0] = (char)c;
		return 1;
	}
	out[1] = 'x';
	kft_str_hex(out + 2, c);
	return 4;
}

#endif
