// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/kft_stream (0400): a log stream's calls for a program that drains
 * them while the run goes on (kft record). Each read takes whole calls out
 * of the per-CPU buffers, as a read of /proc/kft_data does, but as fixed
 * binary rows (struct kft_stream_row) instead of text, and unsorted: each
 * CPU's calls in order, CPU after CPU. Formatting and sorting a call as
 * text costs thousands of instructions; copying its row, a few dozen. The
 * header's figures (calls lost) stay /proc/kft's and /proc/kft_data's.
 *
 * A run with offcpu, args or args string gives each row its times, its
 * arguments or its string right after it (kft_stream_row.h), so every row
 * of a run has the same
 * size: the run's rows are calls only (the language keeps filter roots'
 * trees and stack watches' snapshots out of streams).
 *
 * It opens on the run installed at the open, when that is a stream run,
 * and holds that run's buffer: a run primed again meanwhile writes into
 * another one, which this reader no longer sees.
 */
#include <linux/hash.h>
#include <linux/proc_fs.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "kft_argstr.h"
#include "kft_current.h"
#include "kft_data.h"
#include "kft_log_ring.h"
#include "kft_output.h"
#include "kft_run.h"
#include "kft_stream.h"
#include "kft_stream_row.h"

static_assert(sizeof(struct kft_stream_row) == 64);
static_assert(sizeof(struct kft_stream_sched) == 24);
static_assert(sizeof(struct kft_stream_args) == 72);
static_assert(sizeof(struct kft_stream_str) == 72);
static_assert(sizeof_field(struct kft_rec_str, s) + 1 == KFT_STREAM_STR_LEN);
static_assert(KFT_STREAM_COMM_LEN == KFT_COMM_LEN);
static_assert(KFT_ARGS_MAX <= KFT_STREAM_ARGS_MAX);

/* Rows copied out at once; the function starts remembered. */
#define KFT_STREAM_CHUNK	256
#define KFT_STREAM_START_BITS	8
/* The largest row: the call, its times, its arguments and its string. */
#define KFT_STREAM_ROW_MAX	(sizeof(struct kft_stream_row) +	\
				 sizeof(struct kft_stream_sched) +	\
				 sizeof(struct kft_stream_args) +	\
				 sizeof(struct kft_stream_str))

struct kft_stream_reader {
	struct kft_run *run;
	struct kft_log_view view;	/* holds the run's buffer of the open */
	struct kft_log_buf *buf;	/* view.buf */
	bool show_addrs;
	u16 extras;			/* KFT_STREAM_ROW_SCHED, _ARGS, _STR: the run's */
	size_t row_size;		/* the row and its extensions */
	/*
	 * Where each recent hooked address's function starts: a kallsyms
	 * lookup per row would cost more than all the rest of it.
	 */
	unsigned long start_ip[1 << KFT_STREAM_START_BITS];
	unsigned long start[1 << KFT_STREAM_START_BITS];
	struct kft_comm_memo comm;	/* the last task named */
	/* The rows and their extensions, each a multiple of 8 bytes. */
	u64 rows[KFT_STREAM_CHUNK * KFT_STREAM_ROW_MAX / sizeof(u64)];
};

static unsigned long kft_stream_func_start(struct kft_stream_reader *r, unsigned long ip)
{
	u32 h = hash_long(ip, KFT_STREAM_START_BITS);

	if (r->start_ip[h] != ip) {
		r->start[h] = kft_output_func_start(ip);
		r->start_ip[h] = ip;
	}
	return r->start[h];
}

/*
 * A value of unknown type as /proc/kft_data shows it to this reader
 * (kft_output_value()): an error sign-extended, with @bit set in @error;
 * a value the reader may not see 0, with @bit set in @hidden.
 */
static void kft_stream_value(bool shown, u64 v, u64 *out, u8 bit, u8 *error, u8 *hidden)
{
	long err = kft_retval_error(v);

	if (err) {
		*out = (u64)(s64)err;
		*error |= bit;
	} else if (!shown && v) {
		*out = 0;
		*hidden |= bit;
	} else {
		*out = v;
	}
}

/* offcpu: @rec's times, on the CPU as the rest of its duration. */
static void kft_stream_fill_sched(const struct kft_rec_sched *sched, u64 dur, bool open,
				  struct kft_stream_sched *out)
{
	u64 off = sched->runnable_ns + sched->blocked_ns;

	if (open) {
		memset(out, 0, sizeof(*out));
		return;
	}
	out->oncpu_ns = dur > off ? dur - off : 0;
	out->runnable_ns = sched->runnable_ns;
	out->blocked_ns = sched->blocked_ns;
}

/* args: @rec's registers, as the text row shows them to this reader. */
static void kft_stream_fill_args(const struct kft_rec_args *args, bool shown,
				 struct kft_stream_args *out)
{
	unsigned int i;

	memset(out, 0, sizeof(*out));
	out->nr = KFT_ARGS_MAX;
	for (i = 0; i < KFT_ARGS_MAX; i++)
		kft_stream_value(shown, args->a[i], &out->a[i], 1 << i, &out->error,
				 &out->hidden);
}

/* args string or struct: @str, as kft_str_show() shows it to this reader. */
static void kft_stream_fill_str(const struct kft_rec_str *str, const struct kft_config *cfg,
				bool shown, struct kft_stream_str *out)
{
	memset(out, 0, sizeof(*out));
	out->arg = cfg->str_arg;
	out->len = cfg->mem_len;
	switch (str->state) {
	case KFT_STR_WHOLE:
	case KFT_STR_CUT:
	case KFT_STR_MEM:
		if (!shown) {
			out->state = KFT_STREAM_STR_HIDDEN;
			break;
		}
		out->state = str->state == KFT_STR_WHOLE ? KFT_STREAM_STR_WHOLE :
			     str->state == KFT_STR_CUT ? KFT_STREAM_STR_CUT : KFT_STREAM_STR_MEM;
		if (cfg->mem_len)
			memcpy(out->s, str->s, min_t(size_t, cfg->mem_len, sizeof(str->s)));
		else
			memcpy(out->s, str->s, strnlen(str->s, KFT_STR_LEN));
		break;
	case KFT_STR_FAULT:
		out->state = KFT_STREAM_STR_FAULT;
		break;
	default:
		out->state = KFT_STREAM_STR_NONE;
	}
}

/*
 * @rec's row, as /proc/kft_data's text row shows it to this reader. Each
 * field is written once (no memset, no second copy of the name): this
 * runs for every call a stream takes.
 */
static void kft_stream_fill(struct kft_stream_reader *r, const struct kft_record *rec,
			    u64 first_start_ns, struct kft_stream_row *row)
{
	u64 dur = kft_rec_dur(rec);
	bool open = dur == KFT_REC_DUR_OPEN;
	long err = open ? 0 : kft_retval_error(rec->retval);
	bool shown = r->show_addrs;

	row->entry_ns = rec->entry_ns > first_start_ns ? rec->entry_ns - first_start_ns : 0;
	row->dur_ns = open ? 0 : dur;
	row->func = shown ? kft_stream_func_start(r, rec->func) : 0;
	row->caller = shown && rec->caller_off != KFT_REC_CALLER_UNKNOWN ?
		      rec->func + rec->caller_off : 0;
	row->pid = rec->pid;
	row->cpu = kft_rec_cpu(rec);
	if (open) {
		row->flags = KFT_STREAM_ROW_OPEN;
		row->retval = 0;
	} else if (err) {
		row->flags = KFT_STREAM_ROW_ERROR;
		row->retval = (u64)(s64)err;
	} else if (!shown && rec->retval) {
		row->flags = KFT_STREAM_ROW_HIDDEN;
		row->retval = 0;
	} else {
		row->flags = 0;
		row->retval = rec->retval;
	}
	row->flags |= r->extras;
	if (rec->pid < 0)
		memset(row->comm, 0, sizeof(row->comm));
	else if (kft_comms_find_memo(&r->buf->comms, &r->comm, rec->pid, rec->entry_ns,
				     row->comm) != row->comm)
		strscpy_pad(row->comm, "?", sizeof(row->comm));
}

/*
 * @cpu's calls from its tail on, up to the first still being written and
 * at most @max, into the rows. Return: how many.
 */
static unsigned int kft_stream_take_cpu(struct kft_stream_reader *r, unsigned int cpu,
					unsigned int max)
{
	struct kft_log_buf *buf = r->buf;
	struct kft_rec_sched sched;
	struct kft_rec_args args;
	struct kft_rec_str str;
	struct kft_record rec;
	unsigned long n = READ_ONCE(buf->ring.cpus[cpu].tail);
	unsigned long head = kft_ring_head(&buf->ring, cpu);
	unsigned int nr = 0;
	u8 *at = (u8 *)r->rows;

	for (; n != head && nr < max; n++, nr++) {
		if (!kft_ring_copy(buf, cpu, n, &rec, &sched, &args, &str))
			break;
		/*
		 * Read after the call (its tag's acquire): the run's first start
		 * wrote it before the move to RUNNING that let the call in. The
		 * buffer's, not the run's: a prime may have given the run another.
		 */
		kft_stream_fill(r, &rec, READ_ONCE(buf->first_start_ns),
				(struct kft_stream_row *)at);
		at += sizeof(struct kft_stream_row);
		if (r->extras & KFT_STREAM_ROW_SCHED) {
			kft_stream_fill_sched(&sched, kft_rec_dur(&rec),
					      kft_rec_dur(&rec) == KFT_REC_DUR_OPEN,
					      (struct kft_stream_sched *)at);
			at += sizeof(struct kft_stream_sched);
		}
		if (r->extras & KFT_STREAM_ROW_ARGS) {
			kft_stream_fill_args(&args, r->show_addrs, (struct kft_stream_args *)at);
			at += sizeof(struct kft_stream_args);
		}
		if (r->extras & KFT_STREAM_ROW_STR) {
			kft_stream_fill_str(&str, &r->run->cfg, r->show_addrs,
					    (struct kft_stream_str *)at);
			at += sizeof(struct kft_stream_str);
		}
	}
	return nr;
}

/*
 * @cpu's calls, copied to @ubuf (room for @max rows, @done of them used)
 * and only then taken out (the tail moved past them): a copy that faults
 * loses nothing. Yields the CPU between chunks, and ends early for a fatal
 * signal. Return: the rows copied, or -EFAULT before any.
 */
static ssize_t kft_stream_take_cpu_all(struct kft_stream_reader *r, unsigned int cpu,
				       char __user *ubuf, size_t done, size_t max)
{
	struct kft_log_buf *buf = r->buf;
	size_t before = done;
	unsigned int nr;

	do {
		nr = kft_stream_take_cpu(r, cpu, min_t(size_t, max - done, KFT_STREAM_CHUNK));
		if (copy_to_user(ubuf + done * r->row_size, r->rows, nr * r->row_size))
			return done > before ? done - before : -EFAULT;
		/* Pairs with the acquire in kft_stream_reserve(): the copies are done. */
		smp_store_release(&buf->ring.cpus[cpu].tail, buf->ring.cpus[cpu].tail + nr);
		buf->stream_read += nr;
		done += nr;
		if (nr == KFT_STREAM_CHUNK) {
			cond_resched();
			if (fatal_signal_pending(current))
				break;
		}
	} while (nr == KFT_STREAM_CHUNK && done < max);
	return done - before;
}

/*
 * Each CPU's calls into @ubuf (room for @max rows), CPU after CPU from the
 * one after where the last full read stopped: a CPU that always has more
 * than a read holds does not keep the others from being read (and losing
 * calls while they wait). Under the stream's lock. Return: the rows
 * copied, or -EFAULT before any.
 */
static ssize_t kft_stream_take(struct kft_stream_reader *r, char __user *ubuf, size_t max)
{
	struct kft_log_buf *buf = r->buf;
	unsigned int i, cpu = buf->stream_next_cpu;
	size_t done = 0;
	ssize_t nr;

	for (i = 0; i < nr_cpu_ids && done < max; i++, cpu = (cpu + 1) % nr_cpu_ids) {
		if (!cpu_possible(cpu))
			continue;
		nr = kft_stream_take_cpu_all(r, cpu, ubuf, done, max);
		if (nr < 0)
			return done ? done : nr;
		done += nr;
		if (fatal_signal_pending(current))
			break;
	}
	if (done == max)
		buf->stream_next_cpu = cpu;
	return done;
}

static ssize_t kft_stream_read(struct file *file, char __user *ubuf, size_t count,
			       loff_t *ppos)
{
	struct kft_stream_reader *r = file->private_data;
	size_t max = count / r->row_size;
	bool ended;
	ssize_t n;

	if (!max)
		return -EINVAL;
	if (mutex_lock_killable(&r->buf->stream_lock))
		return -EINTR;
	/*
	 * No call comes to this log again: a prime emptied it into a new one
	 * while this file held the old (after a grace period, whose barriers
	 * pair with the acquire: no hook writes the old one), or a clear or a
	 * new configuration took the run away (which this file keeps alive)
	 * and its hooks are quiet. Looked at before the take, so that the
	 * take gets every call published before that; a dead run whose hooks
	 * may still be finishing a call reads as empty until they are quiet.
	 */
	ended = smp_load_acquire(&r->run->log.buf) != r->buf ||
		/* Pairs with the release in kft_run_destroy(). */
		smp_load_acquire(&r->run->quiet);
	n = kft_stream_take(r, ubuf, max);
	mutex_unlock(&r->buf->stream_lock);
	/*
	 * All that the log held is read, and no call comes: said, not an end
	 * of calls that never comes (a reader opens the file again for the
	 * new log or run).
	 */
	if (!n && ended)
		return -ESTALE;
	if (n < 0)
		return n;
	return n * r->row_size;
}

/* The run has a stream: -ENODATA without a run, -EINVAL for one that is no stream. */
static int kft_stream_usable(const struct kft_run *run)
{
	if (!run)
		return -ENODATA;
	if (!run->log.ring.stream)
		return -EINVAL;
	return 0;
}

/* The extensions each row of @buf's calls carries, and the rows' size. */
static void kft_stream_set_extras(struct kft_stream_reader *r, const struct kft_log_buf *buf)
{
	r->extras = 0;
	r->row_size = sizeof(struct kft_stream_row);
	if (buf->sched) {
		r->extras |= KFT_STREAM_ROW_SCHED;
		r->row_size += sizeof(struct kft_stream_sched);
	}
	if (buf->args) {
		r->extras |= KFT_STREAM_ROW_ARGS;
		r->row_size += sizeof(struct kft_stream_args);
	}
	if (buf->strs) {
		r->extras |= KFT_STREAM_ROW_STR;
		r->row_size += sizeof(struct kft_stream_str);
	}
}

static int kft_stream_release(struct inode *inode, struct file *file)
{
	struct kft_stream_reader *r = file->private_data;

	kft_log_view_free(&r->view);
	kft_run_put(r->run);
	kvfree(r);
	return 0;
}

static int kft_stream_open(struct inode *inode, struct file *file)
{
	struct kft_stream_reader *r;
	int ret;

	if (security_locked_down(LOCKDOWN_TRACEFS))
		return -EPERM;
	r = kvzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;
	r->show_addrs = kft_output_may_show_addrs(file);
	r->comm.changes = -1;
	if (mutex_lock_killable(&kft_mutex)) {
		kvfree(r);
		return -EINTR;
	}
	ret = kft_stream_usable(kft_current);
	if (!ret) {
		r->run = kft_current;
		kref_get(&r->run->ref);
		kft_log_view_init(&r->view, &r->run->log);
		r->buf = r->view.buf;
		kft_stream_set_extras(r, r->buf);
	}
	mutex_unlock(&kft_mutex);
	if (ret) {
		kvfree(r);
		return ret;
	}
	file->private_data = r;
	return nonseekable_open(inode, file);
}

const struct proc_ops kft_stream_ops = {
	.proc_open	= kft_stream_open,
	.proc_read	= kft_stream_read,
	.proc_release	= kft_stream_release,
};
