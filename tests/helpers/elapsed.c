// SPDX-License-Identifier: GPL-2.0
/*
 * elapsed: run a command and print how long it took, in CLOCK_MONOTONIC
 * nanoseconds, as "elapsed_ns N" on standard error. The benchmark uses it in
 * the guest (busybox has no nanosecond clock): under QEMU's -icount, guest
 * nanoseconds are executed instructions.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0;
	int status;
	pid_t pid;

	if (argc < 2) {
		fputs("usage: elapsed COMMAND [ARG...]\n"
		      "Runs COMMAND, then prints 'elapsed_ns N' on standard error.\n"
		      "Exit status: COMMAND's, or 127 if it could not run.\n", stderr);
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("elapsed: fork");
		return 127;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "elapsed: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("elapsed: waitpid");
		return 127;
	}
	fprintf(stderr, "elapsed_ns %lld\n", now_ns() - t0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
