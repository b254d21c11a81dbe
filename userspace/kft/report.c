// SPDX-License-Identifier: GPL-2.0
/*
 * kft report FILE: kft record's file (kftrec.h) as the log's text, on
 * standard output.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "closeout.h"
#include "kft.h"
#include "kftrec.h"

int kft_report(const struct kft_params *p)
{
	int std = !strcmp(p->config, "-");
	const char *name = std ? "(stdin)" : p->config;
	FILE *in = std ? stdin : fopen(p->config, "r");
	char label[4096];
	int ret;

	if (!in) {
		fprintf(stderr, "kft: report: %s: %s\n", name, strerror(errno));
		return 1;
	}
	snprintf(label, sizeof(label), "kft: report: %s", name);
	ret = kftrec__to_text(in, stdout, label, stderr);
	if (!std)
		fclose(in);
	if (close_stdout("kft"))
		ret = -1;
	return ret ? 1 : 0;
}
