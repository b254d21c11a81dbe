// SPDX-License-Identifier: GPL-2.0
/*
 * Functions whose types test_types.c reads back, from this file's object
 * (gcc -g -O0 -c) twice: its DWARF through libdw, and the BTF pahole -J
 * made of that DWARF through libbpf. Each signature is one kind of
 * parameter or return value kft prints. Never called.
 */
#include <stdbool.h>
#include <stddef.h>

typedef unsigned long kft_sample_size_t;
typedef int kft_sample_fd_t;

enum kft_sample_color { KFT_SAMPLE_RED, KFT_SAMPLE_GREEN = 5, KFT_SAMPLE_BLUE = -3 };
enum kft_sample_wide { KFT_SAMPLE_WIDE = 0x100000000ULL };

struct kft_sample_file {
	int fd;
};

int kft_sample_ints(int a, unsigned int b, long c, unsigned long d, short e, unsigned char f)
{
	return a + b + c + d + e + f;
}

void kft_sample_void(const char *name, struct kft_sample_file *file, enum kft_sample_color color,
		     bool ok)
{
	(void)name, (void)file, (void)color, (void)ok;
}

kft_sample_size_t kft_sample_typedef(kft_sample_size_t n, char *buf, const volatile kft_sample_fd_t fd)
{
	return n + (size_t)buf + fd;
}

long kft_sample_long(void)
{
	return -2;
}

struct kft_sample_file *kft_sample_ptr(void *p, int **pp, enum kft_sample_wide w)
{
	(void)pp, (void)w;
	return p;
}

int kft_sample_variadic(const char *fmt, ...)
{
	return fmt != NULL;
}

enum kft_sample_color kft_sample_enum_ret(bool b)
{
	return b ? KFT_SAMPLE_BLUE : KFT_SAMPLE_RED;
}

/*
 * A struct a pointer points to, whose members test_types.c prints from
 * bytes it lays out by hand (x86-64's offsets): each kind of member, a
 * bit-field pair, an array, a nested struct and an anonymous union.
 */
struct kft_sample_how {
	unsigned long long flags;
	unsigned short mode;
	unsigned int small : 3, big : 5;
	enum kft_sample_color color;
	bool ok;
	const char *name;
	int words[2];
	struct kft_sample_file inner;
	union {
		int u_int;
		short u_short;
	};
	long tail;
};

int kft_sample_struct(const struct kft_sample_how *how, long n)
{
	return how != NULL && n;
}
