// SPDX-License-Identifier: GPL-2.0
/*
 * kft errtrace: where the errors that functions return come from. A trace
 * run of every function that keeps only the calls returning an error
 * (filter errors, times in ns); its log read every half second, and for
 * each call of a FUNCTION that returned an error (-e: that one), once, the
 * chain of calls beneath it that returned the same error (errchain.c),
 * innermost first: the origin. A full log is shown, then the run primed
 * and started again (what failed in between is not seen: said). With -a
 * the run keeps each call's arguments, and a chain's calls are printed
 * with them, as kft trace -a -T prints a call (typedcalls.c; -T: typed).
 * With --srcline each call's line ends with its function's source line
 * and its caller's, as kd -c ends a call's (typedcalls.c too).
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

/* How often the log is read. */
#define KFT_ET_POLL_S	0.5
/* A call with its arguments (-a) is cut at this length. */
#define KFT_ET_CALL_MAX	4096

struct kft_et {
	const struct kft_params *p;
	struct kft_session s;
	struct ksyms *ks;
	struct typedlog *types;		/* -T: the arguments' types; NULL: as logged */
	struct srcline *sl;		/* --srcline: the calls' source lines; NULL: none */
	struct kft_errseen seen;	/* this run's calls shown */
	unsigned long long shown;
	int ending;			/* the last look, after the stop: no restart */
	int hidden;			/* the log's addresses are hidden from us: said */
};

/* Whether a function (its symbol) is one of the FUNCTIONs (names or globs). */
static int kft_et_wanted(const struct kft_params *p, const struct ksym *sym)
{
	char full[KSYMS_LINE_MAX];
	int i;

	if (!sym)
		return 0;
	snprintf(full, sizeof(full), "%s:%s", sym->module ? sym->module : "", sym->name);
	for (i = 0; i < p->nr_patterns; i++)
		if (!fnmatch(p->patterns[i], sym->name, 0) ||
		    (sym->module && !fnmatch(p->patterns[i], full, 0)))
			return 1;
	return 0;
}

/* The log's rows that returned an error, as calls (in the log's order: by entry). */
static struct kft_errcall *kft_et_calls(const struct kftlog *log, size_t *n)
{
	struct kft_errcall *calls = malloc((log->nr ? log->nr : 1) * sizeof(*calls));
	const struct kftlog_row *r;
	size_t i;

	*n = 0;
	if (!calls)
		return NULL;
	for (i = 0; i < log->nr; i++) {
		r = &log->rows[i];
		if (r->ret != KFTLOG_RET_ERROR || r->delta < 0)
			continue;
		calls[*n] = (struct kft_errcall){
			.entry = r->entry, .delta = r->delta, .pid = r->pid, .cpu = r->cpu,
			.func = strtoull(r->func, NULL, 16), .caller = strtoull(r->caller, NULL, 16),
			.err = r->ret_error, .comm = r->comm, .row = r,
		};
		(*n)++;
	}
	return calls;
}

/* A function's name, or the caller's name+0xoff. */
static const char *kft_et_name(const struct ksyms *ks, uint64_t addr, char *buf, size_t size)
{
	const struct ksym *sym = ksyms__map_addr(ks, addr);

	if (!sym) {
		snprintf(buf, size, "0x%llx", (unsigned long long)addr);
		return buf;
	}
	return ksyms__format(sym, addr, buf, size);
}

/*
 * A call of a chain as its line begins: its function's name, or with -a
 * the call with its arguments, as kft trace -T prints one (-T: typed).
 */
static const char *kft_et_call(const struct kft_et *et, const struct kft_errcall *c,
			       char *buf, size_t size)
{
	char fn[KSYMS_FORMAT_MAX];

	if (!et->p->args)
		return kft_et_name(et->ks, c->func, buf, size);
	kft_call_text(et->types, kft_et_name(et->ks, c->func, fn, sizeof(fn)), c->row, buf, size);
	return buf;
}

/*
 * One chain: the error, its calls innermost first, the task and the time.
 * 0, or -1 without memory (for the index of a --srcline file's symbols).
 */
static int kft_et_print(const struct kft_et *et, const struct kft_errcall *calls,
			const size_t *chain, size_t len, uint64_t start_us)
{
	const struct kft_errcall *root = &calls[chain[len - 1]];
	const char *name = errname(root->err);
	char fn[KFT_ET_CALL_MAX], caller[KSYMS_FORMAT_MAX];
	uint64_t t_us;
	size_t i;

	printf("\n%lld %s\n", root->err, name ? name : "");
	for (i = 0; i < len; i++) {
		const struct kft_errcall *c = &calls[chain[i]];

		printf("    %-36s %10lld.%03lld us  from %s",
		       kft_et_call(et, c, fn, sizeof(fn)), c->delta / 1000, c->delta % 1000,
		       kft_et_name(et->ks, c->caller, caller, sizeof(caller)));
		if (et->sl && kft_call_srcline(stdout, et->sl, et->ks, c->row, true))
			return -1;
		putchar('\n');
	}
	/*
	 * Unsigned: the header's start is any number the file says, and a
	 * signed sum past LLONG_MAX would be undefined (an entry is >= 0).
	 */
	t_us = start_us + (uint64_t)root->entry / 1000;
	if (root->pid < 0)
		printf("    in an interrupt on CPU %d, at %" PRIu64 ".%06" PRIu64 " s\n",
		       root->cpu, t_us / 1000000, t_us % 1000000);
	else
		printf("    %s, pid %d, CPU %d, at %" PRIu64 ".%06" PRIu64 " s\n", root->comm,
		       root->pid, root->cpu, t_us / 1000000, t_us % 1000000);
	return 0;
}

/*
 * The chains of the calls (each call's next one down in next) not shown
 * yet. 0, or -1 (no memory).
 */
static int kft_et_show_chains(struct kft_et *et, const struct kft_errcall *calls,
			      const size_t *next, size_t n, uint64_t start_us)
{
	size_t i, len, chain[KFT_ERRCHAIN_MAX];
	int added;

	for (i = 0; i < n; i++) {
		if ((et->p->errnum && calls[i].err != et->p->errnum) ||
		    !kft_et_wanted(et->p, ksyms__map_addr(et->ks, calls[i].func)))
			continue;
		added = kft_errseen_add(&et->seen, &calls[i]);
		if (added < 0)
			return -1;
		if (!added)
			continue;
		len = kft_errchain(next, n, i, chain, KFT_ERRCHAIN_MAX);
		if (kft_et_print(et, calls, chain, len, start_us))
			return -1;
		et->shown++;
	}
	return 0;
}

/* The chains of the log's calls not shown yet. 0, or -1 (no memory, hidden addresses: said). */
static int kft_et_show(struct kft_et *et, const struct kftlog *log, uint64_t start_us)
{
	size_t n, *next = NULL;
	struct kft_errcall *calls = kft_et_calls(log, &n);
	int ret = -1;

	/* No function lives at address 0: the log's addresses are all hidden. */
	if (calls && n && !calls[0].func) {
		kft_say_hidden("errtrace", et->s.paths->data);
		et->hidden = 1;
		free(calls);
		return -1;
	}
	if (calls)
		next = malloc((n ? n : 1) * sizeof(*next));
	if (next && !kft_errchain_links(calls, n, next))
		ret = kft_et_show_chains(et, calls, next, n, start_us);
	if (ret)
		fprintf(stderr, "kft: errtrace: out of memory\n");
	free(next);
	free(calls);
	fflush(stdout);
	return ret;
}

/* A full log shown: the run primed and started again, with a new log. */
static int kft_et_restart(struct kft_et *et)
{
	fprintf(stderr, "kft: errtrace: the log of %ld calls is full: started again (the "
		"errors until then are shown, those while it restarts are not; -n: a "
		"larger log)\n", et->p->entries);
	kft_errseen_free(&et->seen);
	kft_session_primed(&et->s);
	if (kft_ctl_write(et->s.paths, "prime\n", 0) || kft_ctl_write(et->s.paths, "start\n", 0))
		return -1;
	return 0;
}

/* One look at the log. 0, 1 when the run was stopped by someone else, -1 on error. */
static int kft_et_poll(void *ctx)
{
	struct kft_et *et = ctx;
	struct kft_head head;
	struct kftlog *log;
	int ret = -1;

	if (!kft_session_log(&et->s, et->p->entries, &head, &log) &&
	    !kft_et_show(et, log, head.start_us)) {
		ret = head.stopped;
		if (head.full && !et->ending)
			ret = kft_et_restart(et);
	}
	kftlog__free(log);
	return ret;
}

/* Every FUNCTION names some symbol: 0, or -1 after saying which does not. */
static int kft_et_check_patterns(const struct kft_params *p, const struct ksyms *ks)
{
	struct kft_params one = *p;
	size_t i;
	int k;

	for (k = 0; k < p->nr_patterns; k++) {
		one.patterns = p->patterns + k;
		one.nr_patterns = 1;
		for (i = 0; i < ks->nr && !kft_et_wanted(&one, &ks->syms[i]); i++)
			;
		if (i == ks->nr) {
			fprintf(stderr, "kft: errtrace: '%s': no kernel function of that name "
				"(in /proc/kallsyms)\n", p->patterns[k]);
			return -1;
		}
	}
	return 0;
}

static void kft_et_banner(const struct kft_params *p)
{
	printf("Tracing the errors of ");
	kft_print_patterns(p, true);
	if (p->errnum)
		printf(" (%lld %s only)", p->errnum, errname(p->errnum) ? errname(p->errnum) : "");
	if (p->duration_arg)
		printf(" for %s seconds", p->duration_arg);
	printf(p->duration_arg ? "...\n" : "... Ctrl-C to end.\n");
	fflush(stdout);
}


/*
 * The run stopped, the errors that came before the stop shown, and their
 * count: ret, or -1. A log of hidden addresses ends it as an error, with
 * no count (a "0 errors shown" would say that nothing failed), but the
 * run is still ours to stop.
 */
static int kft_et_finish(struct kft_et *et, int ret)
{
	if (et->hidden) {
		kft_session_stop(&et->s, 0);
		return -1;
	}
	ret = kft_session_stop(&et->s, ret);
	/* Stopped by us: what failed between the last look and the stop. */
	et->ending = 1;
	if (!ret && kft_et_poll(et) < 0)
		ret = -1;
	/* (Hidden addresses found in that last look failed it: no count.) */
	if (!et->hidden)
		printf("\n%llu error%s shown.\n", et->shown, et->shown == 1 ? "" : "s");
	return ret;
}

/*
 * What the run needs before it starts: the symbols, each FUNCTION found
 * among them, with -T the types and with --srcline the files' DWARF, so
 * that a file that is missing is said before every function is attached.
 * 0, or -1 after saying why.
 */
static int kft_et_prepare(struct kft_et *et, const struct kft_paths *paths)
{
	et->ks = kft_ksyms_load(paths->kallsyms);
	if (!et->ks) {
		fprintf(stderr, "kft: %s: %s\n", paths->kallsyms, ksyms__strerror(errno));
		return -1;
	}
	if (kft_ksyms_hidden(et->ks, "errtrace", paths->kallsyms) ||
	    kft_et_check_patterns(et->p, et->ks))
		return -1;
	return kft_call_sources_open(et->p, "errtrace", &et->types, &et->sl);
}

static void kft_et_free(struct kft_et *et)
{
	kft_errseen_free(&et->seen);
	srcline__free(et->sl);
	typedlog__free(et->types);
	ksyms__free(et->ks);
}

int kft_errtrace(const struct kft_params *p, const struct kft_paths *paths)
{
	struct kft_et et = { .p = p };
	char err[256] = "";
	int ret;

	if (kft_et_prepare(&et, paths)) {
		kft_et_free(&et);
		return 1;
	}
	if (kft_session_start(&et.s, paths, p,
			      kft_errtrace_config(p, err, sizeof(err)), err)) {
		kft_explain_every_function(paths, "errtrace", "'kft trace' with a funclist and "
					   "'filter errors' logs the errors of the functions it names");
		kft_et_free(&et);
		return 1;
	}
	kft_et_banner(p);
	et.s.look_after_stop = 1;
	ret = kft_session_loop(&et.s, KFT_ET_POLL_S, p->duration, kft_et_poll, &et);
	ret = kft_et_finish(&et, ret);
	kft_et_free(&et);
	return kft_session_end(&et.s, ret);
}
