// SPDX-License-Identifier: GPL-2.0
/* Text in kd's SVG outputs: see kd.h. */
#include <string.h>

#include "kd.h"

/*
 * The length of the UTF-8 character at s that XML allows, or 0: no
 * control characters (tab aside), and none of what kd_utf8_char()
 * refuses, nor U+FFFE or U+FFFF.
 */
static size_t kd_xml_char(const unsigned char *s)
{
	if (s[0] < 0x80)
		return s[0] >= 0x20 || s[0] == '\t';
	if (s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		return 0;
	return kd_utf8_char(s);
}

static void kd_xml_put(FILE *out, const unsigned char *s, size_t n)
{
	switch (s[0]) {
	case '&': fputs("&amp;", out); break;
	case '<': fputs("&lt;", out); break;
	case '>': fputs("&gt;", out); break;
	case '"': fputs("&quot;", out); break;
	case '\'': fputs("&apos;", out); break;
	default:
		if (n)
			fwrite(s, 1, n, out);
		else
			fputc('?', out);
	}
}

/* Writes up to max characters of s; returns where it stopped. */
static const char *kd_xml_n(FILE *out, const char *s, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n;

	for (; *u && max; max--) {
		n = kd_xml_char(u);
		kd_xml_put(out, u, n);
		u += n ? n : 1;
	}
	return (const char *)u;
}

void kd_xml_text(FILE *out, const char *s)
{
	kd_xml_n(out, s, (size_t)-1);
}

/* The characters of s: as kd_xml_n() counts them. */
static size_t kd_xml_chars(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t chars = 0, n;

	for (; *u; chars++) {
		n = kd_xml_char(u);
		u += n ? n : 1;
	}
	return chars;
}

void kd_xml_label(FILE *out, const char *s, size_t chars)
{
	if (chars < 3)
		return;
	if (kd_xml_chars(s) <= chars) {
		kd_xml_text(out, s);
		return;
	}
	kd_xml_n(out, s, chars - 2);
	fputs("..", out);
}
