// SPDX-License-Identifier: GPL-2.0
/* kd on a log given as text, and its parameters: see kdrun.h. */
#include <stdlib.h>
#include <string.h>

#include "kdrun.h"

char *kd_run(const char *text, const struct kd_params *p, const char *map_text)
{
	struct ksyms *ks = map_text ? ksyms__parse(map_text, strlen(map_text)) : NULL;
	struct kftlog *log = kftlog__parse(text, strlen(text), "test", NULL);
	struct kd_tree tree;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (log && kd_tree_build(&tree, log, ks) == 0) {
		kd_output(f, &tree, p);
		kd_tree_free(&tree);
	}
	fclose(f);
	kftlog__free(log);
	ksyms__free(ks);
	return out;
}

struct kd_params kd_params_of(enum kd_mode mode)
{
	struct kd_params p = { .mode = mode, .max_depth = 20, .name_width = 40,
			       .max_rows = KFTLOG_MAX_ROWS };

	return p;
}
