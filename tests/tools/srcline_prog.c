// SPDX-License-Identifier: GPL-2.0
/*
 * kd --srcline's test program (tests/tools/srcline): a few calls, two of
 * them made from a function inlined into its caller, compiled -g -O2.
 * noipa keeps leaf and middle out of line and unchanged (no clone).
 */
#include <stdio.h>

__attribute__((noipa)) int leaf(int x)
{
	return x * 3 + 1;
}

static inline int helper(int x)
{
	int y = leaf(x);

	return y + leaf(y + 1);
}

__attribute__((noipa)) int middle(int x)
{
	return helper(x) + 2;
}

int main(int argc, char **argv)
{
	(void)argv;
	printf("%d\n", middle(argc));
	return leaf(argc) == 0;
}
