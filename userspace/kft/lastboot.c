// SPDX-License-Identifier: GPL-2.0
/*
 * kft last-boot: /proc/kft_last_boot, symbolized: what the kft region held
 * when the module loaded (the calls a log persistent run kept before the
 * previous boot ended), checked by the module; or, with --forget, that
 * copy dropped and the region emptied.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "closeout.h"
#include "kft.h"
#include "ksyms.h"
#include "symbolize.h"

#define KFT_LAST_BOOT_CALLS	"Last boot: run "

/* Whether the file's lines say the last boot left calls: 1, 0, or -1. */
static int kft_last_boot_has_calls(FILE *in)
{
	char line[512];

	while (fgets(line, sizeof(line), in))
		if (!strncmp(line, "Last boot: ", strlen("Last boot: ")))
			return !strncmp(line, KFT_LAST_BOOT_CALLS, strlen(KFT_LAST_BOOT_CALLS));
	return ferror(in) ? -1 : 0;
}

static int kft_last_boot_forget(const struct kft_paths *paths)
{
	FILE *f = fopen(paths->last_boot, "w");

	if (!f || fputs("forget\n", f) == EOF || fclose(f)) {
		fprintf(stderr, "kft: %s: %s\n", paths->last_boot, strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * 0 when the last boot's calls were shown, 1 when it left none (the
 * file's lines say why) or on an error (said).
 */
int kft_last_boot(const struct kft_params *p, const struct kft_paths *paths)
{
	struct ksyms *ks = NULL;
	FILE *in;
	int calls, ret = 1;

	if (p->forget)
		return kft_last_boot_forget(paths);
	in = fopen(paths->last_boot, "r");
	if (!in) {
		fprintf(stderr, "kft: %s: %s%s\n", paths->last_boot, strerror(errno),
			errno == ENOENT ? " (is the kft module loaded?)" : "");
		return 1;
	}
	calls = kft_last_boot_has_calls(in);
	if (calls >= 0 && fseek(in, 0, SEEK_SET))
		calls = -1;
	if (calls >= 0)
		ks = kft_ksyms_load(paths->kallsyms);
	if (ks)
		kft_say_unsymbolized(ks, paths->kallsyms);
	if (calls < 0 || !ks)
		fprintf(stderr, "kft: %s: %s\n", calls < 0 ? paths->last_boot : paths->kallsyms,
			calls < 0 ? strerror(errno) : ksyms__strerror(errno));
	else if (symbolize_stream(ks, in, stdout, NULL) && !ferror(stdout))
		fprintf(stderr, "kft: %s: %s\n", paths->last_boot, strerror(errno));
	else
		ret = !calls;
	ksyms__free(ks);
	fclose(in);
	return close_stdout("kft") ? 1 : ret;
}
