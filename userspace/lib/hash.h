/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hash the tools' tables file keys by: SipHash-2-4 under a key drawn
 * at random once per process. A log, a record file or a symbol map may
 * come from anyone: with a hash everyone can compute (FNV, djb2, a
 * multiplication), names or pids chosen to share a slot's bits make every
 * lookup of an open-addressing table walk one long run of slots, and a
 * few megabytes take hours to read. With a secret key, which keys share
 * a slot cannot be known in advance. Nothing the tools print depends on
 * where a key lands in a table.
 */
#ifndef KFT_HASH_H
#define KFT_HASH_H

#include <stddef.h>
#include <stdint.h>

/* SipHash-2-4 of p[0..len) under key (its two words, little-endian halves). */
uint64_t hash_keyed_bytes(const uint64_t key[2], const void *p, size_t len);
/* The hash of p[0..len), under the process's key. */
uint64_t hash_bytes(const void *p, size_t len);
/* The hash of a number (the same as of its 8 bytes). */
uint64_t hash_u64(uint64_t x);

#endif
