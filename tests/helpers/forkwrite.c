// SPDX-License-Identifier: GPL-2.0
/*
 * forkwrite N FILE TEXT: N child processes, one after the other, each
 * writes TEXT to FILE (opened once, before the forks) and exits. Each
 * write comes from a process of its own: a stacks run keyed by process
 * sees N distinct keys (the stack table's capacity test).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int forkwrite_one(int fd, const char *text)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : 1);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	long n, i;
	int fd;

	if (argc != 4 || (n = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: forkwrite N FILE TEXT\n");
		return 2;
	}
	fd = open(argv[2], O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "forkwrite: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (forkwrite_one(fd, argv[3])) {
			fprintf(stderr, "forkwrite: child %ld failed\n", i);
			return 1;
		}
	}
	return close(fd) ? 1 : 0;
}
