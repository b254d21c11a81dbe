// SPDX-License-Identifier: GPL-2.0
/*
 * The installed run: at most one, replaced by the next configuration,
 * destroyed by `clear` and at module exit; its id counter; and the last
 * error, which /proc/kft shows (kft_current.h). All under kft_mutex.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/printk.h>

#include "kft_current.h"
#include "kft_run.h"

struct kft_run *kft_current;
static unsigned int kft_next_id = 1;
struct kft_parse_error kft_last_error;

/* An error of a write or of the boot's run: in the kernel log and /proc/kft. */
void kft_report(const struct kft_parse_error *err)
{
	lockdep_assert_held(&kft_mutex);
	kft_last_error = *err;
	pr_err("line %u, column %u: %s%s%s%s\n", err->pos.line, err->pos.col,
	       kft_parse_strerror(err->code), err->token[0] ? " '" : "",
	       err->token, err->token[0] ? "'" : "");
}

/**
 * kft_install_run() - a configured run becomes the current one
 * @text:	the configuration text; the run owns it and @cfg->funcs from
 *		now on, also on failure
 * @cfg:	the parsed configuration
 *
 * The run it replaces is destroyed. An error is reported (kft_report()).
 *
 * Return: the run, or an ERR_PTR.
 */
struct kft_run *kft_install_run(char *text, const struct kft_config *cfg)
{
	struct kft_parse_error err;
	struct kft_run *run;

	lockdep_assert_held(&kft_mutex);
	run = kft_run_create(kft_current, text, cfg, kft_next_id, &err);
	if (IS_ERR(run)) {
		kft_report(&err);
		return run;
	}
	kft_next_id++;
	kft_clear_run();
	kft_current = run;
	return run;
}

/* No run installed any more (`clear`, module exit). */
void kft_clear_run(void)
{
	lockdep_assert_held(&kft_mutex);
	if (kft_current)
		kft_run_destroy(kft_current);
	kft_current = NULL;
}
