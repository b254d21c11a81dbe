// SPDX-License-Identifier: GPL-2.0
/*
 * args string: the copy of a call's string argument, taken at its entry
 * on the traced path, and its text in /proc/kft_data's rows.
 *
 * The copy reads through the kernel's nofault accessors, as kprobe
 * events' ":string" and ":ustring" fetches do: a NULL or bad pointer, or
 * a user page that is not present, costs a fault fixup and is kept as a
 * fault, never an oops or a sleep. The kernel's string accessors
 * (strncpy_from_kernel_nofault()) are not exported to modules; its
 * copies of bytes are. A copy of fixed size could fault past the end of a
 * string that ends before an unmapped page, so the copy stops at the page
 * boundary and goes on into the next page only when no NUL came before
 * it: it reads no page the string does not reach. The copy takes one
 * byte more than a record keeps, which tells a string of KFT_STR_LEN
 * bytes from a longer one.
 *
 * args struct reads a fixed number of bytes in one copy: the caller says
 * the struct is that long, so a copy that faults is the pointer's fault.
 */
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kft_argstr.h"
#include "kft_config.h"
#include "kft_own.h"
#include "kft_str_text.h"

/* args struct copies into the room a string has: at most as many bytes. */
static_assert(sizeof_field(struct kft_rec_str, s) == KFT_STRUCT_LEN_MAX);

/*
 * kft_str_read()'s string that crosses a page: its first page's bytes,
 * then the next page's only when no NUL came before.
 */
notrace noinline long kft_str_read_pages(char *dst, unsigned long addr, size_t want, bool user)
{
	size_t first = PAGE_SIZE - offset_in_page(addr);

	if (kft_str_copy(dst, addr, first, user) ||
	    (!memchr(dst, '\0', first) &&
	     kft_str_copy(dst + first, addr + first, want - first, user)))
		return -EFAULT;
	return 0;
}
NOKPROBE_SYMBOL(kft_str_read_pages);

/* kft_str_take()'s copy, its guard taken. */
static __always_inline void kft_str_take_read(struct kft_rec_str *out, unsigned long addr,
					      bool user, unsigned int mem_len)
{
	size_t want = sizeof(out->s);

	if (mem_len) {
		out->state = kft_str_copy(out->s, addr, mem_len, false) ? KFT_STR_FAULT :
									 KFT_STR_MEM;
		return;
	}
	if (kft_str_read(out->s, addr, want, user)) {
		out->s[0] = '\0';
		out->state = KFT_STR_FAULT;
		return;
	}
	/* No NUL in KFT_STR_LEN + 1 bytes: a longer string, cut. */
	out->state = memchr(out->s, '\0', want) ? KFT_STR_WHOLE : KFT_STR_CUT;
	out->s[KFT_STR_LEN] = '\0';
}

/**
 * kft_str_take() - copy the string a call's argument points to
 * @out:	the record's copy
 * @addr:	the argument's register
 * @user:	a user space string (args ustring), else a kernel one
 * @mem_len:	args struct: the bytes of kernel memory to copy; 0: a string
 *
 * From any context: it does not fault, sleep or take a lock. A string
 * whose bytes run into a page that cannot be read is a fault, as the
 * kernel's own string fetches say. The copy calls functions a run may
 * trace: a call it makes, whose exit would copy again (a run that makes
 * its records at the exit), gets no copy instead (KFT_STR_NONE). An
 * exit may be preemptible: the guard is taken with preemption off.
 */
notrace noinline void kft_str_take(struct kft_rec_str *out, unsigned long addr, bool user,
				   unsigned int mem_len)
{
	u8 *reading;

	preempt_disable_notrace();
	reading = kft_own_take();
	if (reading) {
		kft_str_take_read(out, addr, user, mem_len);
		kft_own_drop(reading);
	} else {
		out->s[0] = '\0';
		out->state = KFT_STR_NONE;
	}
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_str_take);

/**
 * kft_str_show() - a record's string as a word of its row
 * @m:		the seq_file
 * @str:	the copy
 * @arg:	the argument it was read from, 1 on
 * @mem_len:	args struct: the bytes copied; 0: a string
 * @show_addrs:	whether the reader may see kernel addresses
 *
 * " strN=" and the string in double quotes, escaped so that the word has
 * no blank and no byte outside printable ASCII (kft_str_text.h); "..."
 * after the closing quote when the string was cut; "(fault)" instead of it when the pointer
 * could not be read. args struct's bytes are " memN=" and two hex digits
 * a byte, in memory's order. A slot without a copy shows nothing. To a
 * reader who sees no addresses, as its pointer is, the string or the
 * bytes are "hidden": they are kernel memory, which may be another
 * task's (a path it opened) or anything a pointer of leftovers pointed
 * to.
 */
void kft_str_show(struct seq_file *m, const struct kft_rec_str *str, unsigned int arg,
		  unsigned int mem_len, bool show_addrs)
{
	/* The word's text, written at once: a row's calls are few (a run may trace them). */
	char text[KFT_STR_LEN * KFT_STR_TEXT_CHAR_MAX + 8];
	unsigned int i, n = 0;

	if (str->state == KFT_STR_NONE)
		return;
	seq_printf(m, " %s%u=", mem_len ? "mem" : "str", arg);
	if (str->state == KFT_STR_FAULT) {
		seq_puts(m, "(fault)");
		return;
	}
	if (!show_addrs) {
		seq_puts(m, "hidden");
		return;
	}
	if (mem_len) {
		for (i = 0; i < mem_len && i < sizeof(str->s); i++, n += 2)
			kft_str_hex(text + n, str->s[i]);
	} else {
		text[n++] = '"';
		for (i = 0; i < KFT_STR_LEN && str->s[i]; i++)
			n += kft_str_text_char(text + n, str->s[i]);
		text[n++] = '"';
		if (str->state == KFT_STR_CUT) {
			memcpy(text + n, "...", 3);
			n += 3;
		}
	}
	seq_write(m, text, n);
}
