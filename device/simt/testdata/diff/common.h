/* Shared helpers of the differential test programs: an LCG for inputs and an FNV-1a
   hash for results, so each program prints a few lines that pin every result. */
#include <stdint.h>
#include <stdio.h>

static uint32_t lcg_state = 12345u;
static uint32_t rnd(void) {
	lcg_state = lcg_state * 1664525u + 1013904223u;
	return lcg_state ^ (lcg_state >> 15);
}

typedef struct { uint32_t h; } hash_t;
static void hinit(hash_t *h) { h->h = 2166136261u; }
static void hadd(hash_t *h, uint32_t v) {
	for (int i = 0; i < 4; i++) {
		h->h ^= (v >> (8 * i)) & 0xff;
		h->h *= 16777619u;
	}
}
