/* RV32A: lr/sc (through compare-and-swap) and every AMO, checked by their return
   values and the final memory. */
#include "common.h"

static volatile uint32_t cell[8] __attribute__((aligned(8)));

#define AMO(insn, p, v) ({ uint32_t __r; __asm__ volatile(insn " %0, %2, (%1)" : "=r"(__r) : "r"(p), "r"(v) : "memory"); __r; })

int main(void) {
	hash_t h;
	hinit(&h);
	lcg_state = 4242;
	for (int i = 0; i < 8; i++) cell[i] = rnd();
	for (int k = 0; k < 3000; k++) {
		volatile uint32_t *p = &cell[rnd() & 7];
		uint32_t v = rnd();
		uint32_t r = 0;
		switch (k % 12) {
		case 0: r = AMO("amoswap.w", p, v); break;
		case 1: r = AMO("amoadd.w", p, v); break;
		case 2: r = AMO("amoxor.w", p, v); break;
		case 3: r = AMO("amoand.w.aq", p, v | 0x0f0f0f0f); break;
		case 4: r = AMO("amoor.w.rl", p, v & 0xf0f0f0f0); break;
		case 5: r = AMO("amomin.w", p, v); break;
		case 6: r = AMO("amomax.w.aqrl", p, v); break;
		case 7: r = AMO("amominu.w", p, v); break;
		case 8: r = AMO("amomaxu.w", p, v); break;
		case 9: {
			uint32_t expect = *p;
			r = __atomic_compare_exchange_n(p, &expect, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
			r ^= expect;
		} break;
		case 10: {
			uint32_t expect = v; /* almost surely wrong: the sc path is skipped or fails */
			r = __atomic_compare_exchange_n(p, &expect, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
			r ^= expect;
		} break;
		default: {
			/* An sc without a matching reservation must fail. */
			uint32_t t, fail;
			__asm__ volatile("lr.w %0, (%2)\n\tsc.w %1, %3, (%2)\n\tsc.w %1, %3, (%2)" : "=&r"(t), "=&r"(fail) : "r"(p), "r"(v) : "memory");
			r = t ^ (fail << 31);
		} break;
		}
		hadd(&h, r);
	}
	for (int i = 0; i < 8; i++) hadd(&h, cell[i]);
	printf("atomics  %08lx\n", (unsigned long)h.h);
	return 5;
}
