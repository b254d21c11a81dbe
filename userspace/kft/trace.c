// SPDX-License-Identifier: GPL-2.0
/*
 * kft trace: a configuration written (its funclist's globs named one by
 * one where the module refuses them: expand.c), its run primed (or
 * started), waited for until complete or Ctrl-C, and its log saved,
 * symbolized, to standard output or -o FILE; with -T its calls listed
 * instead, typed (typedcalls.c), with --srcline their source lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "closeout.h"
#include "kft.h"
#include "ksyms.h"
#include "symbolize.h"

/* How often the run's state is read while waiting for its end. */
#define KFT_TRACE_POLL_S	0.1

/* CONFIG's name in messages. */
static const char *kft_trace_name(const char *path)
{
	return strcmp(path, "-") ? path : "(stdin)";
}

/* The configuration text (at most what the module takes), or NULL after saying why. */
static char *kft_trace_config(const char *path)
{
	FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	const char *name = kft_trace_name(path);
	char *text = malloc(KFT_CONFIG_MAX + 2);
	size_t n = 0;

	if (!in || !text) {
		fprintf(stderr, "kft: %s: %s\n", name, strerror(errno));
		goto fail;
	}
	n = fread(text, 1, KFT_CONFIG_MAX + 1, in);
	if (ferror(in)) {
		fprintf(stderr, "kft: %s: %s\n", name, strerror(errno));
		goto fail;
	}
	if (n > KFT_CONFIG_MAX) {
		fprintf(stderr, "kft: %s: larger than kft takes (%d bytes)\n", name, KFT_CONFIG_MAX);
		goto fail;
	}
	if (memchr(text, '\0', n)) {
		fprintf(stderr, "kft: %s: a NUL byte: no configuration\n", name);
		goto fail;
	}
	/* The module waits for more after a last word without a newline. */
	if (!n || text[n - 1] != '\n')
		text[n++] = '\n';
	if (n > KFT_CONFIG_MAX) {
		fprintf(stderr, "kft: %s: larger than kft takes (%d bytes, with the newline "
			"that ends its last line)\n", name, KFT_CONFIG_MAX);
		goto fail;
	}
	text[n] = '\0';
	if (in != stdin)
		fclose(in);
	return text;
fail:
	if (in && in != stdin)
		fclose(in);
	free(text);
	return NULL;
}

/*
 * Waits until run @id is complete, or Ctrl-C stopped it. 0, or -1 (the run
 * gone or replaced by another writer of /proc/kft: not ours to stop; or the
 * status unreadable: stopped anyway).
 */
static int kft_trace_wait(const struct kft_paths *paths, unsigned int id, const sigset_t *orig)
{
	struct kft_status st;

	while (!kft_wait_until(kft_now() + KFT_TRACE_POLL_S, orig)) {
		/* Unreadable, the run may be ours still: not left running. */
		if (kft_status_read(paths, &st)) {
			kft_ctl_stop_anyway(paths);
			return -1;
		}
		if (!st.registered || st.id != id) {
			fprintf(stderr, "kft: %s: %s\n", paths->ctl, st.registered ?
				"another run replaced ours" : "the run is gone (kft clear?)");
			return -1;
		}
		if (st.complete)
			return 0;
	}
	return kft_ctl_write(paths, "stop\n", 1);
}

/*
 * -o FILE is opened before anything else, so that a path kft cannot write
 * fails at once, but emptied only when the log is there to be written:
 * a command that fails before (a run active, no module, the lock held, a
 * configuration refused, the run gone) keeps the log already in FILE, and
 * removes the empty FILE it created. The log holds kernel addresses: a
 * FILE kft creates is its owner's alone (KFT_LOG_FILE_MODE), and an
 * existing one must be a regular file, not a symbolic link that someone
 * could have put where FILE was to be, nor a device or a FIFO.
 */
struct kft_trace_out {
	FILE *f;		/* stdout without -o */
	const char *path;	/* NULL: stdout */
	int created;		/* FILE did not exist */
	int begun;		/* emptied for the log */
};

/*
 * FILE that exists, opened for writing: a descriptor, or -1 after saying
 * why. Anything but a regular file is refused before it is opened (a
 * device may act on an open); O_NOFOLLOW, O_NONBLOCK (a FIFO without a
 * reader fails instead of waiting) and fstat() refuse what may have
 * taken its place since.
 */
static int kft_trace_out_reopen(const char *path)
{
	struct stat st;
	int fd = -1;

	if (lstat(path, &st) || (S_ISREG(st.st_mode) &&
	    (fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)) {
		fprintf(stderr, "kft: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    !fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		return fd;
	fprintf(stderr, "kft: %s: not a regular file (-o writes the log into a regular file "
		"only)\n", path);
	if (fd >= 0)
		close(fd);
	return -1;
}

static int kft_trace_out_open(struct kft_trace_out *o, const char *path)
{
	int fd;

	*o = (struct kft_trace_out){ .f = stdout, .path = path };
	if (!path)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, KFT_LOG_FILE_MODE);
	o->created = fd >= 0;
	if (fd < 0 && errno != EEXIST) {
		fprintf(stderr, "kft: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fd < 0)
		fd = kft_trace_out_reopen(path);
	if (fd >= 0 && !(o->f = fdopen(fd, "w"))) {
		fprintf(stderr, "kft: %s: %s\n", path, strerror(errno));
		close(fd);
	}
	if (fd >= 0 && o->f)
		return 0;
	if (o->created)
		unlink(path);
	return -1;
}

/* The file emptied for the log. 0, or -1. */
static int kft_trace_out_begin(struct kft_trace_out *o, const char *data)
{
	o->begun = 1;
	if (!o->path || !ftruncate(fileno(o->f), 0))
		return 0;
	fprintf(stderr, "kft: %s: %s (the log stays in %s)\n", o->path, strerror(errno), data);
	return -1;
}

/* Closed, its write errors said; removed if created for nothing. 0, or -1. */
static int kft_trace_out_close(struct kft_trace_out *o)
{
	if (!o->path) {
		int ret;

		kft_pipe_closed_exit();
		ret = close_stdout("kft");
		kft_pipe_closed_exit();
		return ret;
	}
	if (close_file(o->f, "kft", o->path))
		return -1;
	if (o->created && !o->begun)
		unlink(o->path);
	return 0;
}

/* What trace prints calls with: -T's types, --srcline's files; NULL when not asked. */
struct kft_trace_sources {
	struct typedlog *types;
	struct srcline *sl;
};

/*
 * /proc/kft_data to out, symbolized with kallsyms, or (-T) its calls
 * listed typed, with --srcline their source lines. 0, or -1 after saying
 * why.
 */
static int kft_trace_save(const struct kft_paths *paths, struct kft_trace_out *out,
			  const struct kft_trace_sources *src)
{
	struct ksyms *ks = kft_ksyms_load(paths->kallsyms);
	FILE *in;
	int ret = -1;

	if (!ks) {
		fprintf(stderr, "kft: %s: %s (the log stays in %s)\n", paths->kallsyms,
			ksyms__strerror(errno), paths->data);
		return -1;
	}
	kft_say_unsymbolized(ks, paths->kallsyms);
	in = fopen(paths->data, "r");
	if (!in) {
		fprintf(stderr, "kft: %s: %s\n", paths->data, strerror(errno));
	} else {
		if (kft_trace_out_begin(out, paths->data))
			;	/* said */
		else if (src->types)
			ret = kft_typed_calls(in, paths->data, out->f, ks, src->types, src->sl);
		else if (symbolize_stream(ks, in, out->f, NULL) && !ferror(out->f))
			fprintf(stderr, "kft: %s: %s\n", paths->data, strerror(errno));
		else
			ret = 0;	/* a write error: the output's close says it */
		fclose(in);
	}
	ksyms__free(ks);
	return ret;
}

/* Configured, primed or started, waited for, saved: 0, or -1. */
static int kft_trace_run(const struct kft_paths *paths, const struct kft_params *p,
			 const char *config, struct kft_trace_out *out, const sigset_t *orig,
			 const struct kft_trace_sources *src)
{
	struct kft_status st;

	if (kft_configure(paths, kft_trace_name(p->config), config) ||
	    kft_status_read(paths, &st))
		return -1;
	/* Without a start trigger, a primed run would wait for ever. */
	if (kft_ctl_begin(paths, st.start_trigger ? "prime\n" : "start\n"))
		return -1;
	fprintf(stderr, "kft: run %u %s... Ctrl-C to end.\n", st.id,
		st.start_trigger ? "primed, waiting for its start trigger" : "started");
	if (kft_trace_wait(paths, st.id, orig))
		return -1;
	return kft_trace_save(paths, out, src);
}

/*
 * -a: the configuration with args; -T, --srcline: the sources of the
 * calls listed. 0, or -1 after saying why.
 */
static int kft_trace_prepare(const struct kft_params *p, char **config,
			     struct kft_trace_sources *src)
{
	char err[PATH_MAX + 256], *with_args;

	if (p->args) {
		with_args = kft_config_with_args(*config, err, sizeof(err));
		if (!with_args) {
			fprintf(stderr, "kft: %s: %s\n", kft_trace_name(p->config), err);
			return -1;
		}
		free(*config);
		*config = with_args;
	}
	return kft_call_sources_open(p, "trace", &src->types, &src->sl);
}

int kft_trace(const struct kft_params *p, const struct kft_paths *paths)
{
	char *config = kft_trace_config(p->config);
	struct kft_trace_sources src = { 0 };
	struct kft_trace_out out;
	struct kft_status st;
	int lock, ret = 1;
	sigset_t orig;

	if (!config || kft_trace_prepare(p, &config, &src) ||
	    kft_trace_out_open(&out, p->output))
		goto free_sources;
	kft_signals_catch(&orig);
	lock = kft_claim(paths, &st);
	if (lock >= 0) {
		ret = kft_trace_run(paths, p, config, &out, &orig, &src) ? 1 : 0;
		close(lock);
	}
	if (kft_trace_out_close(&out))
		ret = 1;
free_sources:
	srcline__free(src.sl);
	typedlog__free(src.types);
	free(config);
	return ret;
}
