// SPDX-License-Identifier: GPL-2.0
/*
 * threxec PROGRAM [ARG...]: a second thread of this process execs PROGRAM
 * while the first waits for it. The kernel's de_thread() then gives the
 * exec'ing thread the leader's pid, inside the exec: the tests of filter
 * roots and offcpu need a task whose pid changes inside a call.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *threxec_run(void *argv)
{
	char **args = argv;

	execv(args[0], args);
	perror("threxec: execv");
	_exit(127);
}

int main(int argc, char **argv)
{
	pthread_t thread;

	if (argc < 2) {
		fprintf(stderr, "usage: threxec PROGRAM [ARG...]\n");
		return 2;
	}
	if (pthread_create(&thread, NULL, threxec_run, argv + 1)) {
		fprintf(stderr, "threxec: pthread_create failed\n");
		return 2;
	}
	/* The exec ends this thread: the join never returns. */
	pthread_join(thread, NULL);
	return 1;
}
