/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The modes: trace (kft_mode_trace.c), count (kft_mode_count.c), stacks
 * and profile (kft_mode_stacks.c), histogram (kft_mode_histogram.c), each
 * behind one interface, struct
 * kft_mode: what a run of that mode allocates, attaches, empties at prime,
 * drops when a module goes, and shows in /proc/kft and /proc/kft_data.
 *
 * The run (kft_run.c) and the /proc files (kft_main.c, kft_data.c) call a
 * mode only through run->mode, set once when the run is created, in
 * process context under kft_mutex (the data_build() and data_show() of a
 * reader without it). None of these is on the traced path: each mode's
 * hooks reach their run by container_of() from what they were attached
 * with, and call nothing indirectly.
 *
 * Adding a mode: its keyword and its rule in the language (kft_config.c),
 * its part of struct kft_run (kft_run.h), a file with its struct kft_mode,
 * and its line in kft_run.c's kft_modes[].
 */
#ifndef KFT_MODE_H
#define KFT_MODE_H

#include "kft_count_table.h"
#include "kft_log.h"
#include "kft_run.h"
#include "kft_snoop.h"
#include "kft_stack.h"

struct module;
struct seq_file;

/*
 * One reader of /proc/kft_data: a snapshot taken when it opens the file:
 * the header's times and counters, and the mode's rows (kft_data.c).
 */
struct kft_reader {
	struct kft_run *run;
	struct kft_run_times times;
	struct kft_counters counters;
	union {
		struct kft_log_view log;	/* trace */
		struct kft_count_view counts;	/* count, histogram */
		struct {			/* stacks, profile */
			struct kft_stack_view stacks;
			struct kft_snoop_view snoop;	/* with snoop: consumed */
		};
	};
	unsigned long stored;		/* trace: records complete at open */
	unsigned long region_gen;	/* trace: the kft region's ring taken */
	unsigned long overwritten;	/* trace: a ring's calls overwritten at open */
	u64 *stream_lost;		/* trace: a stream's losses per CPU at open */
	bool show_addrs;
};

struct kft_mode {
	const char *name;
	/* What a failed alloc() says: no memory for the mode's data. */
	enum kft_parse_err no_memory;
	/* The run's data (log, table): at create, at release. */
	int (*alloc)(struct kft_run *run);
	/*
	 * Optional: at create, once nothing can fail it, take what alloc()
	 * only reserved (what a failed write must leave as it was).
	 */
	void (*commit)(struct kft_run *run);
	void (*free)(struct kft_run *run);
	/* Emptied at prime, while nothing records (not primed nor running). */
	int (*reset)(struct kft_run *run);
	/* What collects: hooks or timers. */
	int (*attach)(struct kft_run *run, struct kft_parse_error *err);
	void (*detach)(struct kft_run *run);
	/* Optional: stop the hooks at once, before the triggers are detached. */
	void (*quiesce)(struct kft_run *run);
	/* Stop hooking these functions of a going module: how many were hooked. */
	unsigned int (*drop_module)(struct kft_run *run, struct module *mod,
				    const unsigned long *addrs, unsigned int nr);
	/* /proc/kft after the configuration: counters, memory, hooks, mode. */
	void (*status)(struct seq_file *m, struct kft_run *run,
		       const struct kft_counters *c);
	/* /proc/kft_data: under kft_mutex, a hold on what the rows are of ... */
	void (*data_take)(struct kft_reader *r);
	/* ... outside it, the rows (may sleep, sort, allocate) ... */
	int (*data_build)(struct kft_reader *r);
	/* ... how many follow the header, row @i (0: the header) ... */
	unsigned long (*data_rows)(const struct kft_reader *r);
	void (*data_show)(struct seq_file *m, struct kft_reader *r, unsigned long i);
	/* ... and at close (also after a failed build). */
	void (*data_free)(struct kft_reader *r);
};

extern const struct kft_mode kft_mode_trace;
extern const struct kft_mode kft_mode_count;
extern const struct kft_mode kft_mode_stacks;
extern const struct kft_mode kft_mode_profile;
extern const struct kft_mode kft_mode_histogram;

/*
 * Trace mode's hooks (kft_mode_trace.c), which histogram mode attaches too:
 * the funclist's exit hooks, and the calls they missed.
 */
int kft_trace_attach(struct kft_run *run, struct kft_parse_error *err);
void kft_trace_detach(struct kft_run *run);
void kft_trace_quiesce(struct kft_run *run);
unsigned int kft_trace_drop_module(struct kft_run *run, struct module *mod,
				   const unsigned long *addrs, unsigned int nr);
unsigned long kft_trace_missed(struct kft_run *run);
void kft_trace_print_last(struct kft_run *run, unsigned int calls, unsigned long max_rows,
			  struct seq_file *m);
void kft_trace_show_columns(struct seq_file *m);
void kft_trace_show_row(struct seq_file *m, const struct kft_run_times *times,
			const struct kft_comms *comms, const struct kft_record *rec,
			bool show_addrs);
/* /proc/kft's "hooks:" line of a run with trace mode's hooks. */
void kft_output_trace_hooks(struct seq_file *m, const struct kft_run *run);
void kft_output_sched_status(struct seq_file *m, const struct kft_run *run,
			     const struct kft_counters *c);

/*
 * Count mode's table (kft_mode_count.c), which histogram mode keeps too:
 * freed, emptied, and read by /proc/kft_data.
 */
void kft_count_free(struct kft_run *run);
int kft_count_reset(struct kft_run *run);
void kft_count_data_take(struct kft_reader *r);
int kft_count_data_build(struct kft_reader *r);
unsigned long kft_count_data_rows(const struct kft_reader *r);
void kft_count_data_free(struct kft_reader *r);
/* A function's row: count, address, symbol (histogram mode's first line too). */
void kft_output_count_row(struct seq_file *m, const struct kft_count_entry *e,
			  bool show_addrs);
/* The same per-arg, with the value: " argN=V". */
void kft_output_count_value_row(struct seq_file *m, const struct kft_count_entry *e,
				unsigned int arg, bool show_addrs);

/* At module exit, after the last run: what profile mode keeps between runs. */
void kft_mode_stacks_cleanup(void);

#endif
