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
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char usage[] =
	"usage: kftio [-u UID] [-d] read FILE\n"
	"       kftio [-u UID] [-d] [-c N] write FILE TEXT|@PATH\n"
	"  -u UID  switch to this uid and gid before opening\n"
	"  -d      drop CAP_SYS_ADMIN (stay root otherwise)\n"
	"  -c N    write in chunks of N bytes, through the one open file\n"
	"  @PATH   write the contents of PATH\n"
	"Prints 'ok' (after the file's content, for read) or 'STEP: ERRNO'.\n"
	"Exit status: 0 ok, 1 the operation failed, 2 usage or setup error.\n";

static int report(const char *step)
{
	printf("%s: %s\n", step, strerrorname_np(errno));
	return 1;
}

static int drop_sys_admin(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	int i;

	if (prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0))
		return -1;
	if (syscall(SYS_capget, &hdr, data))
		return -1;
	for (i = 0; i < 2; i++) {
		data[i].effective &= ~(i == 0 ? CAP_TO_MASK(CAP_SYS_ADMIN) : 0);
		data[i].permitted &= ~(i == 0 ? CAP_TO_MASK(CAP_SYS_ADMIN) : 0);
		data[i].inheritable &= ~(i == 0 ? CAP_TO_MASK(CAP_SYS_ADMIN) : 0);
	}
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

static int do_read(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return report("open");
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

static int do_write(const char *path, const char *arg, size_t chunk)
{
	size_t len, off, n;
	char *text = load_text(arg, &len);
	int fd;

	if (!text) {
		perror("kftio: text");
		return 2;
	}
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return report("open");
	for (off = 0; off < len || len == 0; off += n) {
		n = chunk && len - off > chunk ? chunk : len - off;
		if (write(fd, text + off, n) < 0)
			return report("write");
		if (len == 0)
			break;
	}
	if (close(fd))
		return report("close");
	puts("ok");
	return 0;
}

int main(int argc, char **argv)
{
	long uid = 0, chunk = 0;
	int drop = 0, opt;
	char *end;

	while ((opt = getopt(argc, argv, "u:dc:")) != -1) {
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
		case 'c':
			errno = 0;
			chunk = strtol(optarg, &end, 10);
			if (errno || *end || chunk <= 0) {
				fprintf(stderr, "kftio: bad chunk size '%s'\n", optarg);
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
	if ((drop && drop_sys_admin()) || switch_user(uid)) {
		perror("kftio: setup");
		return 2;
	}
	if (argc == 2 && !strcmp(argv[0], "read"))
		return do_read(argv[1]);
	if (argc == 3 && !strcmp(argv[0], "write"))
		return do_write(argv[1], argv[2], chunk);
	fputs(usage, stderr);
	return 2;
}
