// SPDX-License-Identifier: GPL-2.0
/*
 * kftio: one open+read or open+write, as a chosen user, printing "ok" or the
 * failing step with its errno name ("open: EACCES"). The in-guest tests use
 * it to check permissions and the exact error of a rejected write, which
 * busybox's shell redirections do not report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char usage[] =
	"usage: kftio [-u UID] [-d] [-S] [-m MARKS] [-T] read FILE\n"
	"       kftio [-u UID] [-d] [-D|-R] [-c N] [-t N] [-p K] [-s] write FILE TEXT|@PATH\n"
	"  -u UID  switch to this uid and gid before opening\n"
	"  -d      drop CAP_SYS_ADMIN (stay root otherwise)\n"
	"  -S      drop CAP_SYSLOG\n"
	"  -T      read: open with O_TMPFILE (and O_RDONLY), which open() refuses\n"
	"          with EINVAL: a real error for the return-value tests\n"
	"  -m MARKS  append \"opening\" to the file MARKS before open(), \"opened\"\n"
	"          once it returned\n"
	"  -D      open with CAP_SYS_ADMIN effective, write without it\n"
	"  -R      open without CAP_SYS_ADMIN effective, write with it\n"
	"  -c N    write in chunks of N bytes, through the one open file\n"
	"  -t N    N threads write the whole text at once, each with pwrite()\n"
	"          in its chunks, through the one open file\n"
	"  -p K    write from memory where the text's last K bytes are on a second\n"
	"          page; K = 0: the text ends a page, and the next cannot be read\n"
	"  -s      write: ask the open file's offset first (lseek(SEEK_CUR)), as\n"
	"          Python's open() does; a refusal is printed as 'lseek: ERRNO'\n"
	"          and the write goes on\n"
	"  @PATH   write the contents of PATH\n"
	"Prints 'ok' (after the file's content, for read) or 'STEP: ERRNO'.\n"
	"Exit status: 0 ok, 1 the operation failed, 2 usage or setup error.\n";

static int report(const char *step)
{
	printf("%s: %s\n", step, strerrorname_np(errno));
	return 1;
}

/* Drops a capability from every set, for good. */
static int drop_cap(int cap)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0))
		return -1;
	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
	data[CAP_TO_INDEX(cap)].permitted &= ~CAP_TO_MASK(cap);
	data[CAP_TO_INDEX(cap)].inheritable &= ~CAP_TO_MASK(cap);
	return syscall(SYS_capset, &hdr, data);
}

/* CAP_SYS_ADMIN in or out of the effective set (it stays permitted). */
static int effective_sys_admin(int on)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	if (on)
		data[0].effective |= CAP_TO_MASK(CAP_SYS_ADMIN);
	else
		data[0].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	return syscall(SYS_capset, &hdr, data);
}

static int switch_user(long uid)
{
	if (uid == 0)
		return 0;
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
		return -1;
	return 0;
}

/* Appends a line to FILE (if any): an event other processes can order by. */
static void mark(const char *file, const char *what)
{
	int fd;

	if (!file)
		return;
	fd = open(file, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0 || write(fd, what, strlen(what)) < 0)
		perror("kftio: mark");
	if (fd >= 0)
		close(fd);
}

static int do_read(const char *path, const char *marks, int flags)
{
	char buf[4096];
	ssize_t n;
	int fd;

	mark(marks, "opening\n");
	fd = open(path, O_RDONLY | flags);
	if (fd < 0)
		return report("open");
	mark(marks, "opened\n");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	if (n < 0)
		return report("read");
	close(fd);
	puts("ok");
	return 0;
}

/* TEXT, or the contents of the file named after '@'. */
static char *load_text(const char *arg, size_t *len)
{
	static char buf[1 << 20];
	ssize_t n;
	int fd;

	if (arg[0] != '@') {
		*len = strlen(arg);
		return (char *)arg;
	}
	fd = open(arg + 1, O_RDONLY);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return NULL;
	*len = n;
	return buf;
}

/*
 * @text moved to a page's end, its last @k bytes on the next page, which
 * cannot be read when @k is 0: a user string whose reads cross a page.
 */
static char *place_at_page_end(const char *text, size_t len, size_t k)
{
	size_t page = sysconf(_SC_PAGESIZE);
	char *area, *s;

	if (k > len || len - k > page || k > page) {
		errno = EINVAL;
		return NULL;
	}
	area = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return NULL;
	if (!k && mprotect(area + page, page, PROT_NONE))
		return NULL;
	s = area + page + k - len;
	memcpy(s, text, len);
	return s;
}

/* How write() is done: chunks, threads, and the capability around open. */
struct write_opts {
	size_t chunk;		/* 0: all at once */
	int threads;		/* 0: plain write() from this thread */
	int cap_switch;		/* 'D', 'R' or 0 */
	long page_end;		/* -p K, or -1 */
	int seek_first;		/* -s */
};

struct writer_arg {
	int fd;
	const char *text;
	size_t len, chunk;
	int err;		/* errno of the first failure */
};

/* One thread: the whole text, chunk by chunk, with pwrite (no f_pos lock). */
static void *pwrite_all(void *p)
{
	struct writer_arg *a = p;
	size_t off, n;

	for (off = 0; off < a->len; off += n) {
		n = a->chunk && a->len - off > a->chunk ? a->chunk : a->len - off;
		if (pwrite(a->fd, a->text + off, n, 0) < 0 && !a->err)
			a->err = errno;
	}
	return NULL;
}

/* Threads racing on one file; failures of single writes are expected. */
static int write_threads(int fd, const char *text, size_t len,
			 const struct write_opts *o)
{
	struct writer_arg args[16];
	pthread_t tids[16];
	int i, n = o->threads > 16 ? 16 : o->threads;

	for (i = 0; i < n; i++) {
		args[i] = (struct writer_arg){ fd, text, len, o->chunk, 0 };
		if (pthread_create(&tids[i], NULL, pwrite_all, &args[i]))
			return report("pthread_create");
	}
	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	return 0;
}

static int write_serial(int fd, const char *text, size_t len, size_t chunk)
{
	size_t off, n;

	for (off = 0; off < len || len == 0; off += n) {
		n = chunk && len - off > chunk ? chunk : len - off;
		if (write(fd, text + off, n) < 0)
			return report("write");
		if (len == 0)
			break;
	}
	return 0;
}

static int do_write(const char *path, const char *arg, const struct write_opts *o)
{
	size_t len;
	char *text = load_text(arg, &len);
	int fd, ret;

	if (text && o->page_end >= 0)
		text = place_at_page_end(text, len, o->page_end);
	if (!text) {
		perror("kftio: text");
		return 2;
	}
	if (o->cap_switch == 'R' && effective_sys_admin(0))
		return report("capset");
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return report("open");
	if (o->seek_first && lseek(fd, 0, SEEK_CUR) < 0)
		report("lseek");
	if (o->cap_switch && effective_sys_admin(o->cap_switch == 'R'))
		return report("capset");
	if (o->threads)
		ret = write_threads(fd, text, len, o);
	else
		ret = write_serial(fd, text, len, o->chunk);
	if (ret)
		return ret;
	if (close(fd))
		return report("close");
	puts("ok");
	return 0;
}

int main(int argc, char **argv)
{
	struct write_opts wo = { .page_end = -1 };
	long uid = 0, chunk = 0;
	int drop = 0, drop_syslog = 0, read_flags = 0, opt;
	const char *marks = NULL;
	char *end;

	while ((opt = getopt(argc, argv, "u:dSDRc:t:m:Tp:s")) != -1) {
		switch (opt) {
		case 'u':
			errno = 0;
			uid = strtol(optarg, &end, 10);
			if (errno || *end || uid < 0) {
				fprintf(stderr, "kftio: bad uid '%s'\n", optarg);
				return 2;
			}
			break;
		case 'd':
			drop = 1;
			break;
		case 'S':
			drop_syslog = 1;
			break;
		case 'm':
			marks = optarg;
			break;
		case 'T':
			read_flags = O_TMPFILE;
			break;
		case 'D':
		case 'R':
			wo.cap_switch = opt;
			break;
		case 's':
			wo.seek_first = 1;
			break;
		case 't':
			wo.threads = atoi(optarg);
			if (wo.threads <= 0) {
				fprintf(stderr, "kftio: bad thread count '%s'\n", optarg);
				return 2;
			}
			break;
		case 'c':
			errno = 0;
			chunk = strtol(optarg, &end, 10);
			if (errno || *end || chunk <= 0) {
				fprintf(stderr, "kftio: bad chunk size '%s'\n", optarg);
				return 2;
			}
			break;
		case 'p':
			errno = 0;
			wo.page_end = strtol(optarg, &end, 10);
			if (errno || *end || wo.page_end < 0) {
				fprintf(stderr, "kftio: bad byte count '%s'\n", optarg);
				return 2;
			}
			break;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	wo.chunk = chunk;
	if ((drop && drop_cap(CAP_SYS_ADMIN)) || (drop_syslog && drop_cap(CAP_SYSLOG)) ||
	    switch_user(uid)) {
		perror("kftio: setup");
		return 2;
	}
	if (argc == 2 && !strcmp(argv[0], "read"))
		return do_read(argv[1], marks, read_flags);
	if (argc == 3 && !strcmp(argv[0], "write"))
		return do_write(argv[1], argv[2], &wo);
	fputs(usage, stderr);
	return 2;
}
