/* Divergent control flow from a stock compiler (no split/join): per-thread loops,
   branches, a switch, recursion and indirect calls whose paths depend on the thread
   id. Built with -DSIMT it runs NT threads of one warp at once (vx_tmc, the
   THREAD_ID CSR, a stack per thread) and joins back to thread 0; without it the
   same work runs serially, which is what QEMU executes. Both print the same. */
#include "common.h"

#define NT 8
static volatile uint32_t results[NT];

static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static uint32_t f0(uint32_t v) { return v * 3 + 1; }
static uint32_t f1(uint32_t v) { return v ^ 0x5a5a; }
static uint32_t f2(uint32_t v) { return v >> 1; }
static uint32_t (*const table[3])(uint32_t) = {f0, f1, f2};

__attribute__((noinline)) static uint32_t compute(uint32_t tid) {
	hash_t h;
	hinit(&h);
	uint32_t v = tid * 2654435761u;
	for (uint32_t i = 0; i < 10 + tid * 7; i++) { /* trip count differs per thread */
		if ((v ^ i) & 1)
			v = v * 5 + i;
		else if (i % 3 == 0)
			v ^= v >> 3;
		else
			continue;
		hadd(&h, v);
	}
	switch (tid & 3) {
	case 0: hadd(&h, fib(tid + 3)); break;
	case 1: hadd(&h, fib(tid + 6) * 2); break;
	case 2: for (int k = 0; k < 5; k++) hadd(&h, table[(tid + k) % 3](v + k)); break;
	default: break;
	}
	volatile float x = (float)tid;
	float y = 1.0f;
	while (y < x * 10.0f) y = y * 1.5f + 0.25f; /* float-controlled trip count */
	hadd(&h, (uint32_t)(y * 1000.0f));
	return h.h;
}

#ifdef SIMT
/* Runs on every lane, each on its own stack (4 KiB apart). */
__attribute__((noinline, used)) void simt_work(void) {
	uint32_t tid;
	__asm__ volatile("csrr %0, 0xcc0" : "=r"(tid));
	results[tid] = compute(tid);
}
#endif

int main(void) {
#ifdef SIMT
	__asm__ volatile(
		"li t0, %0\n\t"
		".insn r 0x0b, 0, 0, x0, t0, x0\n\t" /* vx_tmc(all) */
		/* Lanes other than 0 start with zero registers: broadcast lane 0's sp, gp
		   and tp with vx_shfl_idx (b = 0, c = NT-1, mask = 0: every lane reads lane 0). */
		"li t2, %1\n\t"
		".insn r 0x0b, 7, 1, sp, sp, t2\n\t"
		".insn r 0x0b, 7, 1, gp, gp, t2\n\t"
		".insn r 0x0b, 7, 1, tp, tp, t2\n\t"
		"csrr t1, 0xcc0\n\t"
		"slli t1, t1, 12\n\t"
		"mv s1, sp\n\t"
		"sub sp, sp, t1\n\t"
		"call simt_work\n\t"
		"mv sp, s1\n\t"
		"li t0, 1\n\t"
		".insn r 0x0b, 0, 0, x0, t0, x0\n\t" /* vx_tmc(1) */
		:: "i"((1 << NT) - 1), "i"((NT - 1) << 6)
		: "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
		  "ra", "s1", "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fa0", "fa1", "fa2",
		  "fa3", "fa4", "fa5", "fa6", "fa7", "ft8", "ft9", "ft10", "ft11", "memory");
#else
	for (uint32_t t = 0; t < NT; t++) results[t] = compute(t);
#endif
	hash_t h;
	hinit(&h);
	for (int t = 0; t < NT; t++) {
		printf("thread %d %08lx\n", t, (unsigned long)results[t]);
		hadd(&h, results[t]);
	}
	printf("all %08lx\n", (unsigned long)h.h);
	return 0;
}
