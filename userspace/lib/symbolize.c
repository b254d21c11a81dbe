// SPDX-License-Identifier: GPL-2.0
/* Addresses in text to symbols: see symbolize.h. */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "symbolize.h"

static int is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/*
 * The length of the address at s (a word start), or 0: "0x" + 1..16 hex
 * digits, or exactly 8 or 16 hex digits.
 */
static size_t address_length(const char *s, uint64_t *addr)
{
	size_t pre = 0, n = 0;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		pre = 2;
	while (isxdigit((unsigned char)s[pre + n])) {
		int c = tolower((unsigned char)s[pre + n]);

		v = v << 4 | (uint64_t)(isdigit(c) ? c - '0' : c - 'a' + 10);
		n++;
	}
	if (is_word_char(s[pre + n]) || n == 0 || n > 16)
		return 0;
	if (!pre && n != 8 && n != 16)
		return 0;
	*addr = v;
	return pre + n;
}

const char *symbolize_word(const struct ksyms *ks, const char *word, char *buf, size_t size)
{
	const struct ksym *sym;
	uint64_t addr;

	if (address_length(word, &addr) != strlen(word))
		return NULL;
	sym = ksyms__map_addr(ks, addr);
	return sym ? ksyms__format(sym, addr, buf, size) : NULL;
}

int symbolize_line(const struct ksyms *ks, const char *line, char *out, size_t size)
{
	size_t o = 0, len, w;
	const struct ksym *sym;
	int replaced = 0;
	char name[512];
	uint64_t addr;

	if (!size)
		return 0;
	while (*line && o + 1 < size) {
		len = 0;
		if (!(o && is_word_char(out[o - 1])))
			len = address_length(line, &addr);
		sym = len ? ksyms__map_addr(ks, addr) : NULL;
		if (!sym) {
			out[o++] = *line++;
			continue;
		}
		ksyms__format(sym, addr, name, sizeof(name));
		for (w = 0; name[w] && o + 1 < size; w++)
			out[o++] = name[w];
		/* Keep the columns: pad to the width of the address. */
		for (; w < len && o + 1 < size; w++)
			out[o++] = ' ';
		line += len;
		replaced++;
	}
	out[o] = '\0';
	return replaced;
}
