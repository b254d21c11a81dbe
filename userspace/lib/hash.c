// SPDX-License-Identifier: GPL-2.0
/*
 * Keyed hashing: see hash.h. SipHash-2-4 (Aumasson and Bernstein, 2012):
 * two compression rounds a word, four to finish, a 128-bit key.
 */
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "hash.h"

static uint64_t hash_key[2];
static int hash_keyed;

static uint64_t rotl(uint64_t x, unsigned int b)
{
	return (x << b) | (x >> (64 - b));
}

/*
 * The key, drawn on the first use. A kernel without getrandom() (before
 * 3.17) or with its pool not ready still gets a key no input file knows:
 * the clock and the pid.
 */
static void hash_make_key(void)
{
	struct timespec ts;

	if (getrandom(hash_key, sizeof(hash_key), GRND_NONBLOCK) != sizeof(hash_key)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		hash_key[0] = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)ts.tv_sec;
		hash_key[1] = (uint64_t)getpid() * 0xc2b2ae3d27d4eb4full ^ (uintptr_t)&ts;
	}
	hash_keyed = 1;
}

struct sip {
	uint64_t v0, v1, v2, v3;
};

static void sip_rounds(struct sip *s, int n)
{
	while (n--) {
		s->v0 += s->v1;
		s->v1 = rotl(s->v1, 13) ^ s->v0;
		s->v0 = rotl(s->v0, 32);
		s->v2 += s->v3;
		s->v3 = rotl(s->v3, 16) ^ s->v2;
		s->v0 += s->v3;
		s->v3 = rotl(s->v3, 21) ^ s->v0;
		s->v2 += s->v1;
		s->v1 = rotl(s->v1, 17) ^ s->v2;
		s->v2 = rotl(s->v2, 32);
	}
}

static void sip_word(struct sip *s, uint64_t m)
{
	s->v3 ^= m;
	sip_rounds(s, 2);
	s->v0 ^= m;
}

/* Little-endian load of n (up to 8) bytes. */
static uint64_t load_le(const unsigned char *p, size_t n)
{
	uint64_t m = 0;

	while (n--)
		m |= (uint64_t)p[n] << (8 * n);
	return m;
}

uint64_t hash_keyed_bytes(const uint64_t key[2], const void *p, size_t len)
{
	const unsigned char *b = p;
	struct sip s;
	size_t i;

	s.v0 = key[0] ^ 0x736f6d6570736575ull;
	s.v1 = key[1] ^ 0x646f72616e646f6dull;
	s.v2 = key[0] ^ 0x6c7967656e657261ull;
	s.v3 = key[1] ^ 0x7465646279746573ull;
	for (i = 0; i + 8 <= len; i += 8)
		sip_word(&s, load_le(b + i, 8));
	sip_word(&s, load_le(b + i, len - i) | (uint64_t)len << 56);
	s.v2 ^= 0xff;
	sip_rounds(&s, 4);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

uint64_t hash_bytes(const void *p, size_t len)
{
	if (!hash_keyed)
		hash_make_key();
	return hash_keyed_bytes(hash_key, p, len);
}

uint64_t hash_u64(uint64_t x)
{
	unsigned char b[8];
	size_t i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(x >> (8 * i));
	return hash_bytes(b, sizeof(b));
}
