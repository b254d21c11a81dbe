// SPDX-License-Identifier: GPL-2.0
/* The tools' keyed hash: SipHash-2-4 as its authors define it. */
#include <stdint.h>
#include "unit.h"
#include "hash.h"

/*
 * The reference implementation's vectors: key 00 01 .. 0f, message 00 01
 * .. (len - 1), for the empty message, one word, and a word and 7 bytes.
 */
static void test_siphash_vectors(void)
{
	static const struct { size_t len; uint64_t h; } v[] = {
		{ 0, 0x726fdb47dd0e0e31ull },
		{ 8, 0x93f5f5799a932462ull },
		{ 15, 0xa129ca6149be45e5ull },
	};
	const uint64_t key[2] = { 0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull };
	unsigned char msg[16];
	size_t i;

	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (unsigned char)i;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint64_t h = hash_keyed_bytes(key, msg, v[i].len);

		CHECK(h == v[i].h, "%zu bytes: %016llx, expected %016llx", v[i].len,
		      (unsigned long long)h, (unsigned long long)v[i].h);
	}
}

/* The process's key is one key: equal input, equal hash; a number is its 8 bytes. */
static void test_process_key(void)
{
	const unsigned char le[8] = { 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11 };

	CHECK(hash_bytes("vfs_read", 8) == hash_bytes("vfs_read", 8), "two hashes of one name");
	CHECK(hash_bytes("vfs_read", 8) != hash_bytes("vfs_reae", 8), "one byte apart, one hash");
	CHECK(hash_u64(0x1122334455667788ull) == hash_bytes(le, sizeof(le)),
	      "a number's hash is not its bytes'");
}

UNIT_MAIN(test_siphash_vectors, test_process_key)
