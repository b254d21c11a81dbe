// SPDX-License-Identifier: GPL-2.0
/*
 * The static run: kft built into the kernel traces the boot with a
 * configuration compiled in (CONFIG_KFT_STATIC_RUN, CONFIG_KFT_STATIC_CONFIG:
 * kft_confgen checked it and made it kft_static_conf.h at build time).
 *
 * kft_init() is an early initcall when built in (kft_static.h) and calls
 * kft_static_start() last: the run is created, primed and, when it has no
 * start trigger, started at once (reason "boot"). Earlier code is not
 * traced: start_kernel() and the early initcalls linked before kft. A start
 * trigger on a function that runs later still works.
 *
 * The kernel command line changes the run without a rebuild
 * (Documentation/boot.rst, in kernel-parameters.txt style):
 *   kft.static_run=0          no static run
 *   kft.static_funcs=F1,F2    trace only these functions (replaces a funclist)
 *   kft.static_mintime=US     the mintime filter, in microseconds
 *   kft.static_log=WORD       how its log fills: linear, ring, stream, persistent
 * A bad value is reported like a configuration error (the message and the
 * offending word), and the boot goes on without the run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kft_arch.h"
#include "kft_compat.h"
#include "kft_current.h"
#include "kft_run.h"
#include "kft_static.h"
#include "kft_static_conf.h"

static bool static_run = true;
module_param(static_run, bool, 0444);
MODULE_PARM_DESC(static_run, "trace the boot with the compiled-in configuration (default: yes)");

/* Comma-separated: the command line splits words at spaces. */
static char *static_funcs;
module_param(static_funcs, charp, 0444);
MODULE_PARM_DESC(static_funcs, "the static run traces only these functions: F1,F2,...");

static char *static_mintime;
module_param(static_mintime, charp, 0444);
MODULE_PARM_DESC(static_mintime, "the static run's mintime filter, in microseconds");

static char *static_log;
module_param(static_log, charp, 0444);
MODULE_PARM_DESC(static_log, "how the static run's log fills: linear, ring, stream or persistent");

static const char kft_static_conf[] __initconst = KFT_STATIC_CONF;

/* Parsed configurations: the compiled-in one and the command line's. */
struct kft_static_parse {
	struct kft_config cfg;
	struct kft_func_ref *funcs;
};

static int __init kft_static_parse(char *text, size_t len, struct kft_static_parse *p,
				   struct kft_parse_error *err)
{
	unsigned int max = kft_config_max_funcs(len);
	enum kft_command cmd;

	p->funcs = kvcalloc(max, sizeof(*p->funcs), GFP_KERNEL);
	if (!p->funcs)
		return -ENOMEM;
	if (kft_config_parse(text, len, &cmd, &p->cfg, p->funcs, max, err))
		return -EINVAL;
	return cmd == KFT_CMD_CONFIG ? 0 : -EINVAL;
}

/* The parameter on line @line of the command line's block (kft_static_override_text()). */
static const char *__init kft_static_param_at(unsigned int line)
{
	unsigned int at = 2;

	if (static_funcs && line == at++)
		return "kft.static_funcs";
	if (static_mintime && line == at)
		return "kft.static_mintime";
	return "kft.static_log";
}

/* @where: the file's name, or NULL for the command line's block. */
static void __init kft_static_report(const struct kft_parse_error *err, const char *where)
{
	const char *tok_open = err->token[0] ? " '" : "", *tok_close = err->token[0] ? "'" : "";

	if (where)
		pr_err("static run not started: %s: line %u, column %u: %s%s%s%s\n", where,
		       err->pos.line, err->pos.col, kft_parse_strerror(err->code),
		       tok_open, err->token, tok_close);
	else
		pr_err("static run not started: %s: %s%s%s%s\n", kft_static_param_at(err->pos.line),
		       kft_parse_strerror(err->code), tok_open, err->token, tok_close);
}

/*
 * The command line's values as a block of the language, so they are checked
 * as a configuration is ("begin filter funclist F1 F2 fend filter mintime N
 * end"); written at @buf, of @size bytes. Return: its length.
 */
static size_t __init kft_static_override_text(char *buf, size_t size)
{
	size_t n = scnprintf(buf, size, "begin\n");
	char *c;

	if (static_funcs) {
		n += scnprintf(buf + n, size - n, "filter funclist %s fend\n", static_funcs);
		for (c = buf; *c; c++)
			if (*c == ',')
				*c = ' ';
	}
	if (static_mintime)
		n += scnprintf(buf + n, size - n, "filter mintime %s\n", static_mintime);
	if (static_log)
		n += scnprintf(buf + n, size - n, "log %s\n", static_log);
	return n + scnprintf(buf + n, size - n, "end\n");
}

/*
 * A parameter given (@value) sets @stmt in the compiled-in configuration
 * @cfg (already merged): what the language would refuse in one text is
 * refused here too, with the parse's words. Return: 0, or -EINVAL (said).
 */
static int __init kft_static_override_fits(const struct kft_config *cfg, const char *value,
					   enum kft_stmt stmt, const char *param)
{
	const char *token;
	enum kft_parse_err code;

	if (!value)
		return 0;
	code = kft_config_override_error(cfg, stmt, &token);
	if (code == KFT_ERR_NONE)
		return 0;
	pr_err("static run not started: %s: %s%s%s%s\n", param, kft_parse_strerror(code),
	       token[0] ? " '" : "", token, token[0] ? "'" : "");
	return -EINVAL;
}

/*
 * The command line's funclist in place of the compiled-in one. The parser
 * keeps a configuration's roots at the end of its funclist's array: they
 * come along into a new array with the new funclist (the old one is freed
 * after, its roots kept nowhere else). Return: 0 or -ENOMEM.
 */
static int __init kft_static_override_funcs(struct kft_static_parse *run,
					    const struct kft_static_parse *over)
{
	unsigned int nr_funcs = over->cfg.nr_funcs, nr_roots = run->cfg.nr_roots;
	struct kft_func_ref *funcs = kvcalloc(nr_funcs + nr_roots, sizeof(*funcs), GFP_KERNEL);

	if (!funcs)
		return -ENOMEM;
	memcpy(funcs, over->funcs, nr_funcs * sizeof(*funcs));
	memcpy(funcs + nr_funcs, run->cfg.roots, nr_roots * sizeof(*funcs));
	kvfree(run->funcs);
	run->funcs = funcs;
	run->cfg.funcs = funcs;
	run->cfg.nr_funcs = nr_funcs;
	run->cfg.roots = nr_roots ? funcs + nr_funcs : NULL;
	run->cfg.has_funclist = true;
	return 0;
}

/* The command line's statements replace the compiled-in ones. */
static int __init kft_static_apply_override(struct kft_static_parse *run,
					    struct kft_static_parse *over)
{
	if (static_funcs && kft_static_override_funcs(run, over))
		return -ENOMEM;
	if (static_mintime)
		run->cfg.mintime_us = over->cfg.mintime_us;
	if (static_log) {
		run->cfg.log = over->cfg.log;
		run->cfg.persistent = over->cfg.persistent;
		run->cfg.log_pos = (struct kft_pos){ 1, 1 };
	}
	if (run->cfg.maxtime_us && run->cfg.mintime_us > run->cfg.maxtime_us) {
		pr_err("static run not started: kft.static_mintime: %s\n",
		       kft_parse_strerror(KFT_ERR_MIN_OVER_MAX));
		return -EINVAL;
	}
	/* As the language refuses it: filter oncpu with no time to judge. */
	if (run->cfg.filter_oncpu && !run->cfg.mintime_us && !run->cfg.maxtime_us) {
		pr_err("static run not started: kft.static_mintime: %s\n",
		       kft_parse_strerror(KFT_ERR_ONCPU_NEEDS_TIME));
		return -EINVAL;
	}
	if (kft_static_override_fits(&run->cfg, static_funcs, KFT_STMT_FUNCLIST,
				     "kft.static_funcs") ||
	    kft_static_override_fits(&run->cfg, static_mintime, KFT_STMT_MINTIME,
				     "kft.static_mintime") ||
	    kft_static_override_fits(&run->cfg, static_log, KFT_STMT_LOG, "kft.static_log"))
		return -EINVAL;
	return 0;
}

/*
 * The run's text: the compiled-in configuration, then the command line's
 * block (the run owns one text, which both configurations point into).
 */
static char *__init kft_static_text(size_t *conf_len, size_t *over_len)
{
	size_t over_max = 64 + (static_funcs ? strlen(static_funcs) : 0) +
			  (static_mintime ? strlen(static_mintime) : 0) +
			  (static_log ? strlen(static_log) : 0);
	char *text;

	*conf_len = sizeof(kft_static_conf) - 1;
	text = kvmalloc(*conf_len + 1 + over_max, GFP_KERNEL);
	if (!text)
		return NULL;
	memcpy(text, kft_static_conf, *conf_len + 1);
	*over_len = 0;
	if (static_funcs || static_mintime || static_log)
		*over_len = kft_static_override_text(text + *conf_len + 1, over_max);
	return text;
}

/*
 * The boot's run gets fast exit hooks where its configuration names none
 * and the kernel's safe ones cannot serve, and says so:
 * - without fprobe, kretprobes cannot hook every function (a run that
 *   asks is refused, KFT_ERR_NEEDS_FPROBE), and at boot nobody reads that
 *   error and tries again;
 * - where kprobes come after the early initcalls (arm64 6.10 on:
 *   KFT_KPROBES_AFTER_EARLY_INITCALLS), kretprobes cannot be had at all
 *   when kft's early initcall starts the run. There fast hooks also make
 *   its entry triggers ftrace_ops (kft_trigger.c), and its exit triggers
 *   fast hooks, in every mode.
 */
static void __init kft_static_choose_hooks(struct kft_config *cfg)
{
	bool every_function = !cfg->has_funclist && kft_mode_takes(cfg->mode, KFT_STMT_HOOKS);

	if (KFT_HAVE_FPROBE || !KFT_HAVE_FAST_HOOKS || cfg->hooks != KFT_HOOKS_DEFAULT ||
	    cfg->watch != KFT_WATCH_NONE)
		return;
	if (!every_function && !KFT_KPROBES_AFTER_EARLY_INITCALLS)
		return;
	cfg->hooks = KFT_HOOKS_FAST;
	pr_info("static run: hooks fast (%s)\n", every_function ?
		"every function's exit, and this kernel has no fprobe" :
		"this kernel has no kprobes before its core initcalls");
}

/*
 * Where kprobes come after the early initcalls, registering one would oops
 * (KFT_KPROBES_AFTER_EARLY_INITCALLS): a run that would register any is
 * refused, the one check for all of them (kft_config_needs_kprobes(): the
 * exit hooks, exit triggers and stack watch of safe hooks without fprobe,
 * which are kretprobes, and entry triggers as kprobes beside them). Names
 * take none: built in, kft_lookup_symbol() asks kallsyms. The error is at
 * the statement that asked for safe hooks, or at the run's start where it
 * got them by default (a kernel without fprobe and without fast hooks).
 */
static int __init kft_static_check_kprobes(const struct kft_config *cfg,
					   struct kft_parse_error *err)
{
	bool written = cfg->hooks == KFT_HOOKS_SAFE;

	if (!KFT_KPROBES_AFTER_EARLY_INITCALLS ||
	    !kft_config_needs_kprobes(cfg, kft_run_hooks_of(cfg), KFT_HAVE_FPROBE,
				      KFT_ENTRY_TRIGGER_KPROBE))
		return 0;
	err->code = KFT_ERR_BOOT_NO_KPROBES;
	if (written || cfg->watch != KFT_WATCH_NONE) {
		err->pos = written ? cfg->hooks_pos : cfg->watch_pos;
		strscpy(err->token, written ? "hooks" : "watch", sizeof(err->token));
	} else {
		err->pos = (struct kft_pos){ 1, 1 };
		err->token[0] = '\0';
	}
	return -EINVAL;
}

/* Under kft_mutex: the run, configured and primed; started without a start trigger. */
static int __init kft_static_install(char *text, struct kft_config *cfg)
{
	struct kft_parse_error err = { .code = KFT_ERR_NONE };
	struct kft_run *run;
	int ret;

	lockdep_assert_held(&kft_mutex);
	run = kft_install_run(text, cfg);
	if (IS_ERR(run)) {
		pr_err("static run not started: %s%s: see the error above\n", KFT_STATIC_CONF_FILE,
		       static_funcs ? " with kft.static_funcs (line 2 of its block)" : "");
		return PTR_ERR(run);
	}
	ret = kft_run_prime(run, &err);
	if (ret) {
		/* Also on /proc/kft's error line, as a prime written there would be. */
		if (err.code == KFT_ERR_NONE) {
			err.code = KFT_ERR_ATTACH_FAILED;
			err.pos = (struct kft_pos){ 1, 1 };
		}
		kft_report(&err);
		pr_err("static run not started: prime: %s\n", kft_parse_strerror(err.code));
		return ret;
	}
	if (cfg->start.kind == KFT_TRIGGER_NONE)
		kft_run_start(run, KFT_REASON_BOOT);
	return 0;
}

/**
 * kft_static_start() - configure, prime and start the boot's run
 *
 * Called at the end of kft_init() when built in with CONFIG_KFT_STATIC_RUN.
 * Errors are reported in the kernel log; kft stays loaded without a run.
 */
void __init kft_static_start(void)
{
	struct kft_parse_error err = { .code = KFT_ERR_EXPECTED_BEGIN, .pos = { 1, 1 } };
	struct kft_static_parse *run, *over;
	size_t conf_len, over_len;
	char *text;
	int ret;

	if (!static_run) {
		pr_info("static run disabled (kft.static_run=0)\n");
		return;
	}
	/* The two parsed configurations: too large for an initcall's stack. */
	run = kcalloc(2, sizeof(*run), GFP_KERNEL);
	text = kft_static_text(&conf_len, &over_len);
	if (!run || !text) {
		kfree(run);
		kvfree(text);
		pr_err("static run not started: out of memory\n");
		return;
	}
	over = run + 1;
	ret = kft_static_parse(text, conf_len, run, &err);
	if (ret == -EINVAL)
		kft_static_report(&err, KFT_STATIC_CONF_FILE);
	if (!ret && over_len) {
		ret = kft_static_parse(text + conf_len + 1, over_len, over, &err);
		if (ret == -EINVAL)
			kft_static_report(&err, NULL);
		if (!ret)
			ret = kft_static_apply_override(run, over);
	}
	kvfree(over->funcs);
	if (ret == -ENOMEM)
		pr_err("static run not started: out of memory\n");
	if (ret)
		goto err_free;
	kft_static_choose_hooks(&run->cfg);
	ret = kft_static_check_kprobes(&run->cfg, &err);
	if (ret) {
		kft_static_report(&err, KFT_STATIC_CONF_FILE);
		goto err_free;
	}
	mutex_lock(&kft_mutex);
	/* The run owns text and funcs from here, whatever happens. */
	ret = kft_static_install(text, &run->cfg);
	mutex_unlock(&kft_mutex);
	if (!ret)
		pr_info("static run started (%s%s%s%s)\n", KFT_STATIC_CONF_FILE,
			static_funcs ? ", kft.static_funcs" : "",
			static_mintime ? ", kft.static_mintime" : "",
			static_log ? ", kft.static_log" : "");
	kfree(run);
	return;

err_free:
	kvfree(run->funcs);
	kvfree(text);
	kfree(run);
}
