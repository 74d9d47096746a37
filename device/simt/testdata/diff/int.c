/* RV32IM: every ALU, shift, compare, multiply and divide op over edge and random
   operands (division by zero and INT_MIN / -1 included), loads and stores of every
   width and signedness, and branches. */
#include "common.h"

static const uint32_t edge[] = {0, 1, 2, 3, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff,
	0xfffffffe, 0x1f, 0x20, 0x21, 0x12345678, 0x87654321, 0xffff, 0x10000, 0x8000, 0x7fff};
#define NE (sizeof edge / sizeof edge[0])

static uint32_t val(int i) { return i < (int)NE ? edge[i] : rnd(); }

#define BIN(name, expr) do { hash_t h; hinit(&h); lcg_state = 7; \
	for (int i = 0; i < 60; i++) for (int j = 0; j < 60; j++) { \
		volatile uint32_t va = val(i), vb = val(j); uint32_t a = va, b = vb; \
		int32_t sa = (int32_t)a, sb = (int32_t)b; (void)sa; (void)sb; \
		hadd(&h, (uint32_t)(expr)); } \
	printf("%-8s %08lx\n", name, (unsigned long)h.h); } while (0)

static uint32_t mulh(int32_t a, int32_t b) { return (uint32_t)(((int64_t)a * (int64_t)b) >> 32); }
static uint32_t mulhu(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * (uint64_t)b) >> 32); }
static uint32_t mulhsu(int32_t a, uint32_t b) {
	uint32_t r;
	__asm__ volatile("mulhsu %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
	return r;
}
static uint32_t divs(int32_t a, int32_t b) { uint32_t r; __asm__ volatile("div %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static uint32_t divu(uint32_t a, uint32_t b) { uint32_t r; __asm__ volatile("divu %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static uint32_t rems(int32_t a, int32_t b) { uint32_t r; __asm__ volatile("rem %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static uint32_t remu(uint32_t a, uint32_t b) { uint32_t r; __asm__ volatile("remu %0, %1, %2" : "=r"(r) : "r"(a), "r"(b)); return r; }

static uint8_t buf[64] __attribute__((aligned(8)));

int main(void) {
	BIN("add", a + b);
	BIN("sub", a - b);
	BIN("and", a & b);
	BIN("or", a | b);
	BIN("xor", a ^ b);
	BIN("sll", a << (b & 31));
	BIN("srl", a >> (b & 31));
	BIN("sra", (uint32_t)(sa >> (b & 31)));
	BIN("slt", sa < sb);
	BIN("sltu", a < b);
	BIN("mul", a * b);
	BIN("mulh", mulh(sa, sb));
	BIN("mulhu", mulhu(a, b));
	BIN("mulhsu", mulhsu(sa, b));
	BIN("div", divs(sa, sb));
	BIN("divu", divu(a, b));
	BIN("rem", rems(sa, sb));
	BIN("remu", remu(a, b));
	BIN("beq", a == b ? 3 : 5);
	BIN("blt", sa < sb ? a : b);
	BIN("bgeu", a >= b ? a : ~b);
	BIN("imm", (a + 2047) ^ (a & -2048) ^ (a | 0x7ff) ^ (sa < -1) ^ (a < 5u) ^ (a >> 7) ^ (sa >> 13) ^ (a << 3));

	/* Loads and stores of every width. */
	hash_t h;
	hinit(&h);
	lcg_state = 99;
	for (int k = 0; k < 2000; k++) {
		uint32_t v = rnd(), off = rnd() & 63;
		switch (k % 3) {
		case 0: *(volatile uint8_t *)&buf[off] = v; break;
		case 1: *(volatile uint16_t *)&buf[off & ~1u] = v; break;
		default: *(volatile uint32_t *)&buf[off & ~3u] = v; break;
		}
		uint32_t o = rnd() & 63;
		hadd(&h, *(volatile int8_t *)&buf[o]);
		hadd(&h, *(volatile uint8_t *)&buf[o]);
		hadd(&h, *(volatile int16_t *)&buf[o & ~1u]);
		hadd(&h, *(volatile uint16_t *)&buf[o & ~1u]);
		hadd(&h, *(volatile uint32_t *)&buf[o & ~3u]);
	}
	printf("mem      %08lx\n", (unsigned long)h.h);

	/* lui/auipc and a function pointer call (jalr). */
	volatile uint32_t big = 0xdeadb000u;
	uint32_t (*volatile fp)(uint32_t, uint32_t) = divu;
	printf("misc     %08lx %08lx\n", (unsigned long)big, (unsigned long)fp(1000, 7));
	return 0;
}
