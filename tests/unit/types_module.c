// SPDX-License-Identifier: GPL-2.0
/*
 * A "module" of types_sample.c: pahole -J --btf_base makes its BTF split
 * BTF over the sample's, as a kernel module's is over vmlinux's (its
 * struct is the sample's type). test_types.c reads it back.
 */
struct kft_sample_file {
	int fd;
};

int kft_module_fn(struct kft_sample_file *f, unsigned short port)
{
	return f->fd + port;
}
