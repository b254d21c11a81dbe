// SPDX-License-Identifier: GPL-2.0
/*
 * The architecture layer's stacks (kft_arch.h), the same on x86-64, arm64,
 * 32-bit ARM and riscv64: all run hard and soft interrupts on a per-CPU
 * IRQ stack, but 32-bit ARM before 5.18 (Debian 11's 5.10), whose
 * interrupts run on the task's stack and count as the task's.
 *
 * The task's stack is [task_stack_page(current), + THREAD_SIZE). x86_64,
 * arm64 and riscv64 run hard and soft interrupts on a per-CPU IRQ stack of
 * IRQ_STACK_SIZE bytes whose address no module can read (x86's
 * hardirq_stack_ptr on 6.1, arm64's and riscv64's irq_stack_ptr: not
 * exported): kft finds it once per CPU, at load for the CPUs online then
 * and as each other comes online (built in, kft loads before the boot
 * CPU has brought the others up), from an irq_work, which runs on that
 * stack near its top (arm64 and riscv64 raise it with an IPI to the CPU
 * itself). The IRQ stack's
 * top is page aligned (a vmap area, THREAD_ALIGN on arm64, or a
 * page-aligned per-CPU array), so the top is the stack pointer rounded up
 * to a page.
 *
 * The irq_work is a hard one: PREEMPT_RT runs the others in a per-CPU
 * thread, on that thread's own stack.
 *
 * The irq_work is raised from the CPU's hotplug thread (at load before
 * the CPUs' hotplug threads exist: from the loading task), so that the
 * interrupt comes in on a task's vmalloc'd stack: 32-bit ARM (6.1, with
 * VMAP_STACK) switches to its IRQ stack only from such a stack, and an
 * interrupt of CPU 0's idle task, whose stack is static, stays on it (an
 * IPI sent to an idle CPU 0 left its IRQ stack unknown, and every watch
 * in its interrupts skipped).
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched/task_stack.h>
#include <linux/smp.h>

#include "kft_arch.h"

static DEFINE_PER_CPU(unsigned long, kft_irq_stack_low);
static DEFINE_PER_CPU(struct irq_work, kft_irq_stack_work);
static int kft_irq_stack_state = -1;

static void kft_irq_stack_note(struct irq_work *work)
{
	unsigned long sp = current_stack_pointer;
	unsigned long task = (unsigned long)task_stack_page(current);

	if (sp - task < THREAD_SIZE)
		return;		/* not on a separate IRQ stack */
	this_cpu_write(kft_irq_stack_low, round_up(sp, PAGE_SIZE) - IRQ_STACK_SIZE);
}

/* On @cpu, in its hotplug thread: the interrupt comes in on the thread's stack. */
static int kft_irq_stack_online(unsigned int cpu)
{
	struct irq_work *work = per_cpu_ptr(&kft_irq_stack_work, cpu);

	irq_work_queue(work);
	irq_work_sync(work);
	return 0;
}

/* Each online CPU's IRQ stack now, and each other's as it comes online. */
int kft_irq_stacks_find(void)
{
	int cpu, ret;

	for_each_possible_cpu(cpu)
		*per_cpu_ptr(&kft_irq_stack_work, cpu) = IRQ_WORK_INIT_HARD(kft_irq_stack_note);
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "kft/irq_stack:online",
				kft_irq_stack_online, NULL);
	if (ret < 0)
		return ret;
	kft_irq_stack_state = ret;
	return 0;
}

void kft_irq_stacks_exit(void)
{
	if (kft_irq_stack_state >= 0)
		cpuhp_remove_state_nocalls(kft_irq_stack_state);
	kft_irq_stack_state = -1;
}

/**
 * kft_stack_left() - the bytes of stack below the stack pointer
 * @left:	set for a task or IRQ stack
 *
 * Return: which stack the stack pointer is on.
 */
notrace enum kft_stack_kind kft_stack_left(unsigned long *left)
{
	unsigned long sp = current_stack_pointer;
	unsigned long low = (unsigned long)task_stack_page(current);

	if (sp - low < THREAD_SIZE) {
		*left = sp - low;
		return KFT_STACK_TASK;
	}
	low = this_cpu_read(kft_irq_stack_low);
	if (low && sp - low < IRQ_STACK_SIZE) {
		*left = sp - low;
		return KFT_STACK_IRQ;
	}
	return KFT_STACK_OTHER;
}
NOKPROBE_SYMBOL(kft_stack_left);
