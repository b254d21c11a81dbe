// SPDX-License-Identifier: GPL-2.0
/*
 * What the modes' texts share (kft_output.h): the header of
 * /proc/kft_data down to the filter counts, in the original KFT's format
 * (Documentation/kft.rst), times since boot, functions by their start,
 * task names that cannot forge a line. Formatting happens when read,
 * never on the traced path.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/utsname.h>

#include "kft_arch.h"
#include "kft_output.h"
#include "kft_run.h"
#include "kft_symbol.h"

static void kft_output_reason(struct seq_file *m, const struct kft_run *run,
			      const struct kft_run_times *times, bool start)
{
	const struct kft_trigger *t = start ? &run->cfg.start : &run->cfg.stop;
	int why = start ? times->start_reason : times->stop_reason;

	switch (why) {
	case KFT_REASON_USER:
		seq_puts(m, "user action");
		break;
	case KFT_REASON_TIME:
		seq_printf(m, "time at %llu usec from %s", t->time_us,
			   start ? "boot" : "start trigger");
		break;
	case KFT_REASON_ENTRY:
		seq_printf(m, "entry to function %s", t->func.text);
		break;
	case KFT_REASON_EXIT:
		seq_printf(m, "%s from function %s", t->on_error ? "error return" : "exit",
			   t->func.text);
		break;
	case KFT_REASON_LOG_FULL:
		seq_puts(m, "log full");
		break;
	case KFT_REASON_BOOT:
		seq_puts(m, "boot (static run)");
		break;
	case KFT_REASON_OOPS:
		seq_puts(m, "oops");
		break;
	case KFT_REASON_PANIC:
		seq_puts(m, "panic");
		break;
	case KFT_REASON_WARN:
		seq_puts(m, "warning");
		break;
	}
}

/*
 * /proc/kft's counters, in a run with a string filter arg: how many
 * strings were read to be compared, for the calls that a string's first
 * word did not reject (kft_argf.c); a string that could not be read is
 * not counted.
 */
void kft_output_argf_reads(struct seq_file *m, const struct kft_run *run,
			   const struct kft_counters *c)
{
	if (kft_argf_reads_strings(&run->argf))
		seq_printf(m, "  argument strings read %lu\n", c->argf_reads);
}

/* A kft_now() time as CLOCK_MONOTONIC microseconds, like the triggers. */
u64 kft_output_since_boot_us(const struct kft_run_times *times, u64 t)
{
	s64 mono = (s64)t + times->mono_offset_ns;

	return mono > 0 ? div_u64(mono, NSEC_PER_USEC) : 0;
}

/* The header lines every mode shows, down to the filter counts. */
void kft_output_header_common(struct seq_file *m, const struct kft_run *run,
				     const struct kft_run_times *times,
				     const struct kft_counters *c)
{
	const struct kft_config *cfg = &run->cfg;

	seq_printf(m, "\nKernel Instrumentation Run ID %u\n", run->id);
	/* kft's addition: whose addresses these are (the tools check their map). */
	seq_printf(m, "Kernel: %s\n\n", init_utsname()->release);
	if (times->start_reason) {
		seq_printf(m, "Logging started at %llu usec by ",
			   kft_output_since_boot_us(times, times->start_ns));
		kft_output_reason(m, run, times, true);
		seq_putc(m, '\n');
	} else {
		seq_puts(m, "Logging not started\n");
	}
	if (times->stop_reason && !times->running) {
		seq_printf(m, "Logging stopped at %llu usec by ",
			   kft_output_since_boot_us(times, times->stop_ns));
		kft_output_reason(m, run, times, false);
		seq_putc(m, '\n');
	} else {
		seq_puts(m, "Logging not stopped\n");
	}

	seq_puts(m, "\nFilter Counters:\n\n");
	if (cfg->mintime_us || cfg->maxtime_us)
		seq_printf(m, "Execution time filter count = %lu\n", c->filtered_time);
	if (cfg->noints)
		seq_printf(m, "No Interrupt functions filter count = %lu\n", c->filtered_ints);
	if (cfg->onlyints)
		seq_printf(m, "Only Interrupt functions filter count = %lu\n", c->filtered_ints);
	/* kft's addition, only with filter errors. */
	if (cfg->errors)
		seq_printf(m, "Return value filter count = %lu\n", c->filtered_retval);
	if (cfg->nr_argf)
		seq_printf(m, "Argument filter count = %lu\n", c->filtered_args);
	seq_printf(m, "Total entries filtered = %lu\n",
		   c->filtered_time + c->filtered_ints + c->filtered_retval + c->filtered_args);
}

/*
 * The hooks see the ftrace location, which with IBT is 4 bytes into the
 * function (and further on arm64 and 32-bit ARM: KFT_FTRACE_SITE_MAX_OFFSET):
 * the log shows the function's own address, as the original did.
 */
unsigned long kft_output_func_start(unsigned long ip)
{
	unsigned long off;

	if (kft_symbol_offset(ip, &off) || off > KFT_FTRACE_SITE_MAX_OFFSET)
		return ip;
	return ip - off;
}

/*
 * A task's name (at most @len bytes) as one word: a byte that would split
 * or hide it (white space, a control byte, a backslash) as \ooo, as
 * /proc/PID/mountinfo does. Any user names its tasks: raw, a name could
 * forge lines of root's log ("x\nstack 999999 ") or write terminal escapes.
 * An empty name (prctl(PR_SET_NAME, "") makes one) is its NUL, \000: the
 * columns after it stay in place.
 */
void kft_output_name(struct seq_file *m, const char *name, size_t len)
{
	size_t i;

	if (!len || !name[0]) {
		seq_puts(m, "\\000");
		return;
	}
	for (i = 0; i < len && name[i]; i++) {
		if (name[i] <= ' ' || name[i] >= 0x7f || name[i] == '\\')
			seq_printf(m, "\\%03o", (unsigned char)name[i]);
		else
			seq_putc(m, name[i]);
	}
}

/*
 * Raw addresses for an opener who could read them in /proc/kallsyms: one
 * with CAP_SYSLOG, while kptr_restrict does not hide them from everyone
 * (kallsyms_show_value() is not exported: "%pK", formatted in the opener's
 * context, applies the same sysctl).
 */
bool kft_output_may_show_addrs(const struct file *file)
{
	char probe[32];

	if (!file_ns_capable(file, &init_user_ns, CAP_SYSLOG))
		return false;
	snprintf(probe, sizeof(probe), "%pK", kft_output_may_show_addrs);
	return strspn(probe, "0") != strlen(probe);
}

/*
 * An address as /proc/kallsyms writes it: 16 hex digits on 64-bit, 8 on
 * 32-bit (a text match of the one against the other works on either);
 * zeros where the reader may not see addresses.
 */
void kft_output_addr(struct seq_file *m, unsigned long addr, bool show_addrs)
{
	seq_printf(m, "0x%0*lx", (int)(2 * sizeof(long)), show_addrs ? addr : 0);
}

/*
 * @ip as %pS prints it (%ps without @offset), but for an address in no
 * symbol (code of a module unloaded since, a module's init code freed,
 * BPF code not in kallsyms): %pS prints that one raw, which a reader
 * without CAP_SYSLOG may not see (the address column prints zeros for
 * them). "[unknown]" then, as perf says.
 */
void kft_output_symbol(struct seq_file *m, unsigned long ip, bool offset, bool show_addrs)
{
	char sym[KSYM_SYMBOL_LEN];

	if (offset)
		sprint_symbol(sym, ip);
	else
		sprint_symbol_no_offset(sym, ip);
	/* Both print a bare "0x..." only for an address in no symbol. */
	if (!show_addrs && !strncmp(sym, "0x", 2))
		seq_puts(m, "[unknown]");
	else
		seq_puts(m, sym);
}

/*
 * A register's value of unknown type, a return value or an argument: an
 * error in decimal, anything else in hex, as function_graph's
 * funcgraph-retval shows them (kft_retval_error()). A reader who could not
 * see /proc/kallsyms' addresses sees errors and zero only, and "hidden"
 * for any other value: kft does not know a value's type, and one that
 * fits in 32 bits may still be another process's heap address or a random
 * number the kernel made.
 */
void kft_output_value(struct seq_file *m, u64 v, bool show_addrs)
{
	long err = kft_retval_error(v);

	if (err)
		seq_printf(m, "%ld", err);
	else if (!show_addrs && v)
		seq_puts(m, "hidden");
	else
		seq_printf(m, "0x%llx", v);
}

/*
 * args: a call's argument registers, as a word of its own after the
 * return value (and offcpu's) in a trace's row, after the comm in a snoop
 * event's line: "args=" and each value as a return value is shown,
 * separated by commas.
 */
void kft_output_args(struct seq_file *m, const struct kft_rec_args *args, bool show_addrs)
{
	unsigned int i;

	seq_puts(m, " args=");
	for (i = 0; i < KFT_ARGS_MAX; i++) {
		if (i)
			seq_putc(m, ',');
		kft_output_value(m, args->a[i], show_addrs);
	}
}
