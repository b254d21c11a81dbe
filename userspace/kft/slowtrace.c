// SPDX-License-Identifier: GPL-2.0
/*
 * kft slowtrace: the calls of ROOT functions that were slow (-L) or failed
 * (-e), each with every call it made. A trace run of every function with
 * filter roots (Documentation/kft.rst): the module holds a task's calls
 * inside a root call and logs the tree only when the root call is kept.
 * With offcpu and wakers, each call's time is split into on the CPU,
 * runnable and blocked, and each sleep of the task says who woke it. The
 * log is read every half second and each tree not shown yet is printed
 * (slowtree.c); a full log is shown, then the run primed and started
 * again, as errtrace does. With -a each call keeps its argument registers,
 * and its line shows them as errtrace -a does (typedcalls.c); with -T typed,
 * its return value as its type says. With --srcline each call's line ends
 * with its function's source line, in kd -c's form; not its caller's,
 * whose call is the line above it. Each frame of a waker ends with the
 * line of its call.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "errname.h"
#include "kft.h"
#include "kftlog.h"
#include "ksyms.h"
#include "typedlog.h"

/* How often the log is read. */
#define KFT_ST_POLL_S	0.5
/* A call with its arguments (-a) is cut at this length. */
#define KFT_ST_CALL_MAX	4096

struct kft_st {
	const struct kft_params *p;
	struct kft_session s;
	struct ksyms *ks;
	struct typedlog *types;		/* -T: the arguments' types; NULL: as logged */
	struct srcline *sl;		/* --srcline: the calls' source lines; NULL: none */
	struct kft_errseen seen;	/* this run's root calls shown */
	unsigned long long shown;
	uint64_t start_us;		/* the log's start, for the times shown */
	int ending;			/* the last look, after the stop: no restart */
	int hidden;			/* the log's addresses are hidden from us: said */
};

/* A function's name (module:name), or its address. */
static const char *kft_st_name(const struct ksyms *ks, uint64_t addr, char *buf, size_t size)
{
	const struct ksym *sym = ksyms__map_addr(ks, addr);

	if (!sym) {
		snprintf(buf, size, "0x%llx", (unsigned long long)addr);
		return buf;
	}
	return ksyms__format(sym, addr, buf, size);
}

/* A duration in ns, as function_graph and errtrace show them: us, 3 decimals. */
static void kft_st_us(long long ns)
{
	printf(" %10lld.%03lld", ns / 1000, ns % 1000);
}

/*
 * A call's line: its duration, the parts of it on the CPU, runnable and
 * blocked (offcpu; blank in a log without them), then its name indented
 * by its depth (-a: with its arguments, as the log has them; -T: typed),
 * its error (-T: its return value as its type says, errors included), and
 * --srcline's source line. 0, or -1 without memory.
 */
static int kft_st_call(const struct kft_st *st, const struct kft_slowcall *c)
{
	const struct kftlog_row *r = c->row;
	char fn[KSYMS_FORMAT_MAX], call[KFT_ST_CALL_MAX];
	const char *name;

	/* A call with no exit in the log, or a stack watch's row: no duration. */
	if (r->delta == KFTLOG_DELTA_OPEN)
		printf(" %14s", "(open)");
	else if (r->delta < 0)
		printf(" %14s", "(stack)");
	else
		kft_st_us(r->delta);
	if (r->has_sched) {
		kft_st_us(r->oncpu);
		kft_st_us(r->runnable);
		kft_st_us(r->blocked);
	} else {
		printf("%45s", "");
	}
	name = kft_st_name(st->ks, strtoull(c->row->func, NULL, 16), fn, sizeof(fn));
	if (st->p->args) {
		kft_call_text(st->types, name, r, call, sizeof(call));
		name = call;
	}
	printf("  %*s%s", 2 * (int)c->depth, "", name);
	if (!st->types && c->row->ret == KFTLOG_RET_ERROR) {
		name = errname(c->row->ret_error);
		printf(" = %lld%s%s", c->row->ret_error, name ? " " : "", name ? name : "");
	}
	if (st->sl && kft_call_srcline(stdout, st->sl, st->ks, r, false))
		return -1;
	putchar('\n');
	return 0;
}

/*
 * A waker's frame, named, and with --srcline its source lines. Each is a
 * return address, the line of its call, but for the one frame of a
 * waker the module could not unwind: try_to_wake_up() itself, at its
 * entry. 0, or -1 without memory.
 */
static int kft_st_waker_frame(const struct kft_st *st, const char *func, bool first)
{
	uint64_t addr = strtoull(func, NULL, 16);
	const struct ksym *sym = ksyms__map_addr(st->ks, addr);
	char fn[KSYMS_FORMAT_MAX];
	enum srcline_at at;

	printf("%s%s", first ? " " : " <- ", kft_st_name(st->ks, addr, fn, sizeof(fn)));
	if (!st->sl)
		return 0;
	at = !sym || sym->addr != addr || strcmp(sym->name, "try_to_wake_up") ?
	     SRCLINE_RETURN : SRCLINE_ENTRY;
	return kft_word_srcline(stdout, st->sl, st->ks, func, at, " [", "]");
}

/*
 * A wake set's line: the time its task slept, in the blocked column, then
 * at the set's depth (beneath the call that slept) who woke it and the
 * waker's frames, innermost first. set[0] is the set's first row, the
 * rows that continue it follow (of n left in the tree). How many it took,
 * or 0 without memory.
 */
static size_t kft_st_wake(const struct kft_st *st, const struct kft_slowcall *set, size_t n)
{
	const struct kftlog_row *r = set->row;
	size_t k;

	printf("%45s", "");
	kft_st_us(r->slept);
	printf("  %*s", 2 * (int)set->depth, "");
	if (r->waker_pid < 0)
		printf("woken by an interrupt:");
	else
		printf("woken by %s (pid %d):", r->waker_comm, r->waker_pid);
	for (k = 0; k < n && (!k || kftlog_row_continues(r, set[k].row)); k++)
		if (kft_st_waker_frame(st, set[k].row->func, !k))
			return 0;
	putchar('\n');
	return k;
}

/*
 * One tree: the root's task and time, then its calls and wake sets. 0,
 * or -1 without memory.
 */
static int kft_st_print(const struct kft_st *st, const struct kft_slowcall *calls, size_t n)
{
	const struct kftlog_row *root = calls[0].row;
	/* Unsigned: the header's start is as the file says it (errtrace's kft_et_print()). */
	uint64_t t_us = st->start_us + (uint64_t)root->entry / 1000;
	size_t i, k;

	printf("\n%s, pid %d, CPU %d, at %" PRIu64 ".%06" PRIu64 " s%s\n", root->comm, root->pid,
	       root->cpu, t_us / 1000000, t_us % 1000000,
	       root->cut ? " (cut: not every call fit; -H holds more)" : "");
	printf("%15s%15s%15s%15s  %s\n", "us: wall", "on-CPU", "runnable", "blocked", "call");
	for (i = 0; i < n; i++) {
		if (kftlog_row_starts_wake(calls[i].row)) {
			k = kft_st_wake(st, &calls[i], n - i);
			if (!k)
				return -1;
			i += k - 1;
		} else if (kft_st_call(st, &calls[i])) {
			return -1;
		}
	}
	return 0;
}

/* A tree of the log: printed unless it was already. 0, 1 (-n reached), or -1. */
static int kft_st_tree(void *ctx, const struct kft_slowcall *calls, size_t n)
{
	struct kft_st *st = ctx;
	const struct kftlog_row *root = calls[0].row;
	struct kft_errcall key = {
		.entry = root->entry, .delta = root->delta, .pid = root->pid, .cpu = root->cpu,
		.func = strtoull(root->func, NULL, 16), .caller = strtoull(root->caller, NULL, 16),
	};
	int added;

	/* No function lives at address 0: the log's addresses are all hidden. */
	if (!key.func) {
		kft_say_hidden("slowtrace", st->s.paths->data);
		st->hidden = 1;
		return -1;
	}
	added = kft_errseen_add(&st->seen, &key);
	if (added <= 0)
		return added;
	if (kft_st_print(st, calls, n))
		return -1;
	st->shown++;
	return st->p->max_shown && st->shown >= (unsigned long long)st->p->max_shown;
}

/* A full log shown: the run primed and started again, with a new log. */
static int kft_st_restart(struct kft_st *st)
{
	fprintf(stderr, "kft: slowtrace: the log of %d calls is full: started again (the "
		"calls until then are shown, those while it restarts are not)\n",
		KFT_SLOWTRACE_ENTRIES);
	kft_errseen_free(&st->seen);
	kft_session_primed(&st->s);
	if (kft_ctl_write(st->s.paths, "prime\n", 0) || kft_ctl_write(st->s.paths, "start\n", 0))
		return -1;
	return 0;
}

/*
 * One look at the log. 0; 1 when the run was stopped by someone else; 2
 * when -n trees are shown; -1 on error (said).
 */
static int kft_st_poll(void *ctx)
{
	struct kft_st *st = ctx;
	struct kft_head head;
	struct kftlog *log;
	int ret = -1;

	if (!kft_session_log(&st->s, KFT_SLOWTRACE_ENTRIES, &head, &log)) {
		st->start_us = head.start_us;
		ret = kft_slowtrees(log, kft_st_tree, st);
		if (ret < 0 && !st->hidden)
			fprintf(stderr, "kft: slowtrace: out of memory\n");
		else if (ret > 0)
			ret = 2;
		else if (head.full && !st->ending)
			ret = kft_st_restart(st);
		else
			ret = head.stopped;
	}
	kftlog__free(log);
	fflush(stdout);
	return ret;
}

/* Whether pattern names the traceable function name ("name" or "module:name"). */
static int kft_st_matches(const char *pattern, const char *name)
{
	const char *colon = strchr(name, ':');

	if (!fnmatch(pattern, colon ? colon + 1 : name, 0))
		return 1;
	return colon && strchr(pattern, ':') && !fnmatch(pattern, name, 0);
}

/*
 * The roots: each ROOT's traceable functions, each once, into roots (room
 * for KFT_SLOWTRACE_ROOTS_MAX). Their number, or -1 after saying why.
 */
static long kft_st_roots(const struct kft_params *p, const struct kft_funcs *f,
			 const char **roots)
{
	char *taken = calloc(f->nr + 1, 1);
	size_t i, nr = 0, matched;
	int k;

	if (!taken) {
		fprintf(stderr, "kft: slowtrace: out of memory\n");
		return -1;
	}
	for (k = 0; k < p->nr_patterns; k++) {
		for (i = 0, matched = 0; i < f->nr; i++) {
			if (!kft_st_matches(p->patterns[k], f->names[i]))
				continue;
			matched++;
			if (taken[i])
				continue;
			taken[i] = 1;
			if (nr == KFT_SLOWTRACE_ROOTS_MAX) {
				fprintf(stderr, "kft: slowtrace: more than %d root functions: "
					"narrow the ROOTs\n", KFT_SLOWTRACE_ROOTS_MAX);
				free(taken);
				return -1;
			}
			roots[nr++] = f->names[i];
		}
		if (!matched) {
			fprintf(stderr, "kft: slowtrace: '%s': no traceable function of that "
				"name\n", p->patterns[k]);
			free(taken);
			return -1;
		}
	}
	free(taken);
	return (long)nr;
}

/* The configuration, its roots named from the traceable functions; NULL after saying why. */
static char *kft_st_config(const struct kft_params *p, const struct kft_paths *paths,
			   const struct ksyms *ks)
{
	const char **roots = calloc(KFT_SLOWTRACE_ROOTS_MAX, sizeof(*roots));
	struct kft_funcs f = { 0 };
	char err[256], *config = NULL;
	FILE *in = NULL;
	long nr = -1;

	if (!roots)
		fprintf(stderr, "kft: slowtrace: out of memory\n");
	else if (!(in = fopen(paths->traceable, "r")))
		fprintf(stderr, "kft: slowtrace: %s: %s (the traceable functions: mount "
			"tracefs)\n", paths->traceable, strerror(errno));
	else if (kft_funcs_read(&f, ks, in))
		fprintf(stderr, "kft: slowtrace: %s: %s\n", paths->traceable,
			kft_funcs_strerror(errno));
	else
		nr = kft_st_roots(p, &f, roots);
	if (nr >= 0) {
		config = kft_slowtrace_config(p, roots, (size_t)nr, err, sizeof(err));
		if (!config)
			fprintf(stderr, "kft: slowtrace: %s\n", err);
	}
	if (in)
		fclose(in);
	kft_funcs_free(&f);
	free(roots);
	return config;
}

static void kft_st_banner(const struct kft_params *p)
{
	printf("Tracing the calls of ");
	kft_print_patterns(p, true);
	if (p->min_us)
		printf(" that take %s or more", p->min_arg);
	if (p->errors)
		printf("%s fail", p->min_us ? " and" : " that");
	if (p->duration_arg)
		printf(" for %s seconds", p->duration_arg);
	printf(p->duration_arg ? "...\n" : "... Ctrl-C to end.\n");
	fflush(stdout);
}

/*
 * The run stopped, the trees that came before the stop shown, and their
 * count: ret, or -1. A log of hidden addresses ends it as an error.
 */
static int kft_st_finish(struct kft_st *st, int ret)
{
	/* -n reached: an end, not an error. */
	if (ret == 2)
		ret = 0;
	if (st->hidden) {
		kft_session_stop(&st->s, 0);
		return -1;
	}
	ret = kft_session_stop(&st->s, ret);
	st->ending = 1;
	if (!ret && !(st->p->max_shown && st->shown >= (unsigned long long)st->p->max_shown) &&
	    kft_st_poll(st) < 0)
		ret = -1;
	if (!st->hidden)
		printf("\n%llu call%s shown.\n", st->shown, st->shown == 1 ? "" : "s");
	return ret;
}

/*
 * What the run needs before it starts: the symbols, the configuration with
 * its roots, with -T the types and with --srcline the files' DWARF, so
 * that a file that is missing is said before every function is attached.
 * The configuration, or NULL after saying why.
 */
static char *kft_st_prepare(struct kft_st *st, const struct kft_paths *paths)
{
	char *config;

	st->ks = kft_ksyms_load(paths->kallsyms);
	if (!st->ks) {
		fprintf(stderr, "kft: %s: %s\n", paths->kallsyms, ksyms__strerror(errno));
		return NULL;
	}
	if (kft_ksyms_hidden(st->ks, "slowtrace", paths->kallsyms) ||
	    !(config = kft_st_config(st->p, paths, st->ks)))
		return NULL;
	if (kft_call_sources_open(st->p, "slowtrace", &st->types, &st->sl)) {
		free(config);
		return NULL;
	}
	return config;
}

static void kft_st_free(struct kft_st *st)
{
	kft_errseen_free(&st->seen);
	srcline__free(st->sl);
	typedlog__free(st->types);
	ksyms__free(st->ks);
}

int kft_slowtrace(const struct kft_params *p, const struct kft_paths *paths)
{
	struct kft_st st = { .p = p };
	char *config = kft_st_prepare(&st, paths);
	int ret;

	if (!config) {
		kft_st_free(&st);
		return 1;
	}
	if (kft_session_start(&st.s, paths, p, config, "")) {
		kft_explain_every_function(paths, "slowtrace", "'kft trace' with a funclist, "
					   "filter roots and mintime keeps the trees of the "
					   "functions it names");
		kft_st_free(&st);
		return 1;
	}
	kft_st_banner(p);
	st.s.look_after_stop = 1;
	ret = kft_session_loop(&st.s, KFT_ST_POLL_S, p->duration, kft_st_poll, &st);
	ret = kft_st_finish(&st, ret);
	kft_st_free(&st);
	return kft_session_end(&st.s, ret);
}
