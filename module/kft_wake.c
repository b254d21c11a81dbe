// SPDX-License-Identifier: GPL-2.0
/*
 * wakers' table, its sched_waking probe and the rows a wakeup becomes in a
 * held tree (kft_wake.h). The table (one entry a slot of offcpu's) is
 * taken with offcpu's; the probe is registered while the run's hooks are
 * attached, only by a run with wakers.
 */
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#include "kft_clock.h"
#include "kft_ftrace.h"
#include "kft_hold.h"
#include "kft_mem.h"
#include "kft_own.h"
#include "kft_sched.h"
#include "kft_symbol.h"
#include "kft_wake.h"

/*
 * Frames unwound at a wakeup: the probe's own, the tracepoint's and
 * try_to_wake_up()'s (three on x86-64, arm64, armhf and riscv64), one to
 * spare, then the waker's. The unwinder stops when it has them: each frame
 * more is one more step of it at every wakeup of a followed task, most of
 * what wakers costs a context switch (Documentation/performance.md).
 */
#define KFT_WAKE_UNWIND	(4 + KFT_WAKE_FRAMES)

static struct tracepoint *kft_sched_waking_tp;

/* The frames above try_to_wake_up() in @raw (all of them if it is not there). */
static notrace unsigned int kft_wake_first_frame(const struct kft_sched *sc,
						 const unsigned long *raw, unsigned int n)
{
	unsigned int i = n;

	while (i--) {
		if (raw[i] >= sc->ttwu_start && raw[i] < sc->ttwu_end)
			return i + 1;
	}
	return 0;
}
NOKPROBE_SYMBOL(kft_wake_first_frame);

/*
 * How long @s's task has slept, at its wakeup: 0 when it is not seen
 * asleep yet (woken while still being switched out, on another CPU).
 */
static __always_inline u64 kft_wake_asleep(const struct kft_sched_slot *s)
{
	u64 out = atomic64_read(&s->out_ns), now;

	if (!out)
		return 0;
	now = kft_now();
	return now > out ? now - out : 0;
}

/*
 * @p is being woken, by current (or an interrupt), with @p's pi_lock held:
 * if @p is followed, who woke it goes into its w[cur] (kft_wake.h), unless
 * the sleep this ends cannot be the one kept.
 */
static notrace void kft_wake_waking(void *data, struct task_struct *p)
{
	struct kft_sched *sc = data;
	unsigned long raw[KFT_WAKE_UNWIND];
	struct kft_sched_slot *s;
	struct kft_sched_wake *wk;
	struct kft_waker *w;
	unsigned int n, i;
	u8 *working;
	u64 asleep;

	if (!atomic_read(&sc->owned))
		return;
	s = kft_sched_find(sc, p);
	if (!s)
		return;
	wk = kft_sched_wake_of(sc, s);
	w = &wk->w[READ_ONCE(wk->cur)];
	asleep = kft_wake_asleep(s);
	if (kft_wake_outlasted(wk, asleep)) {
		WRITE_ONCE(w->valid, false);
		return;
	}
	w->asleep_ns = asleep;
	if (in_task()) {
		w->pid = current->pid;
		memcpy(w->comm, current->comm, sizeof(w->comm));
	} else {
		w->pid = -1;
		memset(w->comm, 0, sizeof(w->comm));
	}
	w->cpu = raw_smp_processor_id();
	/*
	 * The unwinder's calls are kft's own (kft_own.h): no run holds them in
	 * the waker's tree, nor takes their exits (a fast frame would end
	 * the walk). The flag is this context level's: interrupts are off,
	 * or preemption where a task wakes itself.
	 */
	working = kft_own_take();
	n = working ? stack_trace_save(raw, ARRAY_SIZE(raw), 0) : 0;
	if (working)
		kft_own_drop(working);
	i = kft_wake_first_frame(sc, raw, n);
	w->nr = min_t(unsigned int, n - i, KFT_WAKE_FRAMES);
	memcpy(w->frames, raw + i, w->nr * sizeof(*raw));
	/*
	 * @p, running until it sleeps, may have left its last timed call
	 * during the unwind, and another task taken the slot: this waker is
	 * not that task's.
	 */
	WRITE_ONCE(w->valid, READ_ONCE(s->owner) == p);
}
NOKPROBE_SYMBOL(kft_wake_waking);

/*
 * A pending wakeup (@wk, of @sc's table), claimed by current, as rows of a
 * held tree (@hs's, current's, in @h): one a frame, at least one, at the
 * sleep's start; the first with the sleep's length, the waker's pid (in
 * the return value) and name (beside it, in offcpu's times).
 */
notrace void kft_wake_hold(const struct kft_sched *sc, struct kft_hold *h,
			   struct kft_hold_slot *hs, struct kft_sched_wake *wk)
{
	const struct kft_waker *w = &wk->w[wk->pending_idx];
	unsigned int i, n = max_t(unsigned int, w->nr, 1);
	struct kft_record *rec;
	u64 info;

	for (i = 0; i < n; i++) {
		rec = kft_hold_room(h, hs);
		info = i ? kft_rec_info(i, w->cpu) :
		       kft_rec_info(wk->slept_ns, w->cpu) | KFT_REC_FIRST;
		rec->entry_ns = wk->slept_at;
		rec->caller_off = KFT_REC_CALLER_UNKNOWN;
		rec->info = info | KFT_REC_WAKE;
		rec->retval = i ? 0 : (u64)(s64)w->pid;
		if (hs->sched) {
			hs->sched[rec - hs->recs].waker_comm[0] = i ? 0 : w->comm[0];
			hs->sched[rec - hs->recs].waker_comm[1] = i ? 0 : w->comm[1];
		}
		/* No frame: try_to_wake_up() itself (a row's function is never 0). */
		rec->func = w->nr ? w->frames[i] : sc->ttwu_start;
	}
}
NOKPROBE_SYMBOL(kft_wake_hold);

/* wakers' table, one entry a slot of offcpu's: 0, or -ENOMEM. */
int kft_wake_alloc(struct kft_sched *sc)
{
	size_t bytes = array_size(sc->tasks, sizeof(*sc->wakes));

	if (!kft_mem_fits(bytes))
		return -ENOMEM;
	sc->wakes = __vmalloc(bytes, KFT_BIG_GFP | __GFP_ZERO);
	return sc->wakes ? 0 : -ENOMEM;
}

void kft_wake_free(struct kft_sched *sc)
{
	vfree(sc->wakes);
	sc->wakes = NULL;
}

/* Where try_to_wake_up() lies: [0, 0) when the kernel will not say. */
static void kft_wake_find_ttwu(struct kft_sched *sc)
{
	unsigned long addr = kft_lookup_symbol("try_to_wake_up"), off, size;

	if (!addr || kft_symbol_bounds(addr, &off, &size))
		return;
	sc->ttwu_start = addr - off;
	sc->ttwu_end = sc->ttwu_start + size;
}

/* The waking probe, for a run with wakers: 0, or the tracepoint's error. */
int kft_wake_attach(struct kft_sched *sc)
{
	int ret;

	if (!sc->ttwu_start)
		kft_wake_find_ttwu(sc);
	if (!kft_sched_waking_tp)
		kft_sched_waking_tp = kft_tracepoint("sched_waking");
	if (!kft_sched_waking_tp)
		return -ENOENT;
	ret = tracepoint_probe_register(kft_sched_waking_tp, kft_wake_waking, sc);
	sc->waking_attached = !ret;
	return ret;
}

/* The probe off (kft_sched_detach() waits for the probes to be done). */
void kft_wake_detach(struct kft_sched *sc)
{
	if (!sc->waking_attached)
		return;
	tracepoint_probe_unregister(kft_sched_waking_tp, kft_wake_waking, sc);
	sc->waking_attached = false;
}
