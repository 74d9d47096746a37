/* RV32F: every operation under every static rounding mode and under dyn with frm
   set through fesetround, over special values (zeros, subnormals, infinities, quiet
   and signalling NaNs, integer-conversion edges), random values and constructed
   fused-multiply-add cases whose exact result sits a hair off a float32 midpoint
   (where float64 arithmetic would round twice). Each line hashes results and the
   fflags each operation raised. */
#include <fenv.h>
#include "common.h"

static const uint32_t special[] = {
	0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
	0x80800000, 0x00800001, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
	0xffc00000, 0x7fa00000, 0xff800001, 0x3f800000, 0xbf800000, 0x3f000000, 0x3fc00000,
	0x40200000, 0xbfc00000, 0xc0200000, 0x4b000000, 0x4b000001, 0x4effffff, 0x4f000000,
	0xcf000000, 0xcf000001, 0x4f800000, 0x4f7fffff, 0xbf7fffff, 0x33800000, 0x34000000,
	0x3f800001, 0x3fffffff, 0x00400000, 0x0c000000, 0x7e800000, 0x3eaaaaab, 0x40490fdb,
};
#define NS (sizeof special / sizeof special[0])
#define NV 64
static uint32_t V[NV];

static void fill(void) {
	lcg_state = 2024;
	for (int i = 0; i < NV; i++) {
		if (i < (int)NS) {
			V[i] = special[i];
			continue;
		}
		uint32_t r = rnd();
		switch (i % 3) {
		case 0: V[i] = r; break;                                      /* anything */
		case 1: V[i] = (r & 0x807fffff) | ((120 + (rnd() & 15)) << 23); break; /* near 1 */
		default: V[i] = (r & 0x80ffffff); break;                      /* tiny and subnormal */
		}
	}
}

#define ASM2(op, rm, a, b, fl) ({ uint32_t __r, __f; __asm__ volatile( \
	"fmv.w.x ft0, %2\n\tfmv.w.x ft1, %3\n\tfsflags zero\n\t" op " ft2, ft0, ft1" rm "\n\t" \
	"fmv.x.w %0, ft2\n\tfrflags %1" : "=r"(__r), "=r"(__f) : "r"(a), "r"(b) : "ft0", "ft1", "ft2"); *(fl) = __f; __r; })
#define ASM2X(op, a, b, fl) ({ uint32_t __r, __f; __asm__ volatile( \
	"fmv.w.x ft0, %2\n\tfmv.w.x ft1, %3\n\tfsflags zero\n\t" op " %0, ft0, ft1\n\t" \
	"frflags %1" : "=r"(__r), "=r"(__f) : "r"(a), "r"(b) : "ft0", "ft1"); *(fl) = __f; __r; })
#define ASM1(op, rm, a, fl) ({ uint32_t __r, __f; __asm__ volatile( \
	"fmv.w.x ft0, %2\n\tfsflags zero\n\t" op " ft2, ft0" rm "\n\t" \
	"fmv.x.w %0, ft2\n\tfrflags %1" : "=r"(__r), "=r"(__f) : "r"(a) : "ft0", "ft2"); *(fl) = __f; __r; })
#define ASMFX(op, rm, a, fl) ({ uint32_t __r, __f; __asm__ volatile( \
	"fmv.w.x ft0, %2\n\tfsflags zero\n\t" op " %0, ft0" rm "\n\t" \
	"frflags %1" : "=r"(__r), "=r"(__f) : "r"(a) : "ft0"); *(fl) = __f; __r; })
#define ASMXF(op, rm, a, fl) ({ uint32_t __r, __f; __asm__ volatile( \
	"fsflags zero\n\t" op " ft2, %2" rm "\n\t" \
	"fmv.x.w %0, ft2\n\tfrflags %1" : "=r"(__r), "=r"(__f) : "r"(a) : "ft2"); *(fl) = __f; __r; })
#define ASM3(op, rm, a, b, c, fl) ({ uint32_t __r, __f; __asm__ volatile( \
	"fmv.w.x ft0, %2\n\tfmv.w.x ft1, %3\n\tfmv.w.x ft3, %4\n\tfsflags zero\n\t" \
	op " ft2, ft0, ft1, ft3" rm "\n\tfmv.x.w %0, ft2\n\tfrflags %1" \
	: "=r"(__r), "=r"(__f) : "r"(a), "r"(b), "r"(c) : "ft0", "ft1", "ft2", "ft3"); *(fl) = __f; __r; })

static void report(const char *name, const char *rm, hash_t *h) {
	printf("%-10s %-4s %08lx\n", name, rm, (unsigned long)h->h);
}

#define PAIRS(name, rmname, expr) do { hash_t h; hinit(&h); \
	for (int i = 0; i < NV; i++) for (int j = 0; j < NV; j++) { \
		uint32_t a = V[i], b = V[j], fl; uint32_t r = expr; hadd(&h, r); hadd(&h, fl); } \
	report(name, rmname, &h); } while (0)
#define SINGLE(name, rmname, expr) do { hash_t h; hinit(&h); \
	for (int i = 0; i < NV; i++) for (int k = 0; k < 8; k++) { \
		uint32_t a = k == 0 ? V[i] : (k < 4 ? (V[i] & 0x807fffff) | ((126 + k * 10) << 23) : V[i] ^ rnd()), fl; \
		uint32_t r = expr; hadd(&h, r); hadd(&h, fl); } \
	report(name, rmname, &h); } while (0)
#define INTS(name, rmname, expr) do { hash_t h; hinit(&h); lcg_state = 77; \
	for (int i = 0; i < 600; i++) { \
		uint32_t a = i < 16 ? (uint32_t[]){0, 1, 2, 3, 0x7fffffff, 0x80000000, 0xffffffff, 0x80000001, \
			0x00ffffff, 0x01000001, 0x01000003, 0xfeffffff, 0x7fffff80, 0x7fffffc0, 0xffffff7f, 0x1000000}[i] : rnd() >> (rnd() & 31), fl; \
		uint32_t r = expr; hadd(&h, r); hadd(&h, fl); } \
	report(name, rmname, &h); } while (0)

/* Triples: random picks from V, then the constructed midpoint cases. */
#define TRIPLES(name, rmname, expr) do { hash_t h; hinit(&h); lcg_state = 31337; \
	for (int t = 0; t < 3000; t++) { \
		uint32_t a, b, c, fl; \
		if (t < 2400) { a = V[rnd() % NV]; b = V[rnd() % NV]; c = V[rnd() % NV]; } \
		else { /* (1+2^-12·m)^2 has its float32 half-ulp bit set: add ±tiny */ \
			uint32_t m = 1 + (rnd() & 7); a = 0x3f800000 | (m << 11); b = a ^ (rnd() & 0x80000000); \
			uint32_t e = 40 + (rnd() & 63); c = (e << 23) | (rnd() & 0x7fffff) | (rnd() & 0x80000000); \
			if (t & 1) { a = (a & 0x807fffff) | ((100 + (rnd() & 63)) << 23); c = (c & 0x807fffff) | (((a >> 23 & 0xff) * 2 - 127 - 40) << 23); } } \
		uint32_t r = expr; hadd(&h, r); hadd(&h, fl); } \
	report(name, rmname, &h); } while (0)

#define ALLRM(M, name, op) \
	M(name, "rne", op(", rne")); M(name, "rtz", op(", rtz")); M(name, "rdn", op(", rdn")); \
	M(name, "rup", op(", rup")); M(name, "rmm", op(", rmm")); \
	fesetround(FE_TONEAREST); M(name, "dnr", op("")); fesetround(FE_TOWARDZERO); M(name, "dtz", op("")); \
	fesetround(FE_DOWNWARD); M(name, "ddn", op("")); fesetround(FE_UPWARD); M(name, "dup", op("")); \
	fesetround(FE_TONEAREST)

#define OPADD(rm) ASM2("fadd.s", rm, a, b, &fl)
#define OPSUB(rm) ASM2("fsub.s", rm, a, b, &fl)
#define OPMUL(rm) ASM2("fmul.s", rm, a, b, &fl)
#define OPDIV(rm) ASM2("fdiv.s", rm, a, b, &fl)
#define OPSQRT(rm) ASM1("fsqrt.s", rm, a, &fl)
#define OPCVTWS(rm) ASMFX("fcvt.w.s", rm, a, &fl)
#define OPCVTWUS(rm) ASMFX("fcvt.wu.s", rm, a, &fl)
#define OPCVTSW(rm) ASMXF("fcvt.s.w", rm, a, &fl)
#define OPCVTSWU(rm) ASMXF("fcvt.s.wu", rm, a, &fl)
#define OPMADD(rm) ASM3("fmadd.s", rm, a, b, c, &fl)
#define OPMSUB(rm) ASM3("fmsub.s", rm, a, b, c, &fl)
#define OPNMSUB(rm) ASM3("fnmsub.s", rm, a, b, c, &fl)
#define OPNMADD(rm) ASM3("fnmadd.s", rm, a, b, c, &fl)

static volatile float sink[4];

int main(void) {
	fill();
	ALLRM(PAIRS, "fadd", OPADD);
	ALLRM(PAIRS, "fsub", OPSUB);
	ALLRM(PAIRS, "fmul", OPMUL);
	ALLRM(PAIRS, "fdiv", OPDIV);
	ALLRM(SINGLE, "fsqrt", OPSQRT);
	ALLRM(SINGLE, "fcvt.w.s", OPCVTWS);
	ALLRM(SINGLE, "fcvt.wu.s", OPCVTWUS);
	ALLRM(INTS, "fcvt.s.w", OPCVTSW);
	ALLRM(INTS, "fcvt.s.wu", OPCVTSWU);
	ALLRM(TRIPLES, "fmadd", OPMADD);
	ALLRM(TRIPLES, "fmsub", OPMSUB);
	ALLRM(TRIPLES, "fnmsub", OPNMSUB);
	ALLRM(TRIPLES, "fnmadd", OPNMADD);
	PAIRS("fmin", "-", ASM2("fmin.s", "", a, b, &fl));
	PAIRS("fmax", "-", ASM2("fmax.s", "", a, b, &fl));
	PAIRS("fsgnj", "-", ASM2("fsgnj.s", "", a, b, &fl));
	PAIRS("fsgnjn", "-", ASM2("fsgnjn.s", "", a, b, &fl));
	PAIRS("fsgnjx", "-", ASM2("fsgnjx.s", "", a, b, &fl));
	PAIRS("feq", "-", ASM2X("feq.s", a, b, &fl));
	PAIRS("flt", "-", ASM2X("flt.s", a, b, &fl));
	PAIRS("fle", "-", ASM2X("fle.s", a, b, &fl));
	SINGLE("fclass", "-", ASMFX("fclass.s", "", a, &fl));
	SINGLE("fmv.x.w", "-", ASMFX("fmv.x.w", "", a, &fl));
	INTS("fmv.w.x", "-", ASMXF("fmv.w.x", "", a, &fl));

	/* Accrued flags through fcsr, frm through fegetround, flw/fsw, and C float
	   arithmetic (dyn rounding) printed through picolibc's printf. */
	uint32_t fl;
	__asm__ volatile("fsflags zero");
	volatile float x = 1.0f, y = 3.0f, z = 0.0f;
	sink[0] = x / y;
	sink[1] = x / z;
	sink[2] = z / z;
	sink[3] = 1e30f * 1e30f;
	__asm__ volatile("frcsr %0" : "=r"(fl));
	fesetround(FE_UPWARD);
	printf("fcsr %08lx round %d\n", (unsigned long)fl, fegetround() == FE_UPWARD);
	fesetround(FE_TONEAREST);
	float acc = 0.0f;
	for (int i = 1; i <= 100; i++) acc += 1.0f / (float)i;
	printf("harmonic %.9g sink %g %g %g %g\n", (double)acc, (double)sink[0], (double)sink[1], (double)sink[2], (double)sink[3]);

	/* The final register dump: every float register and every integer register
	   as the program leaves them (what the last operations left behind). */
	static uint32_t regs[64];
	__asm__ volatile(
		"fsw f0, 0(%0)\n\tfsw f1, 4(%0)\n\tfsw f2, 8(%0)\n\tfsw f3, 12(%0)\n\t"
		"fsw f4, 16(%0)\n\tfsw f5, 20(%0)\n\tfsw f6, 24(%0)\n\tfsw f7, 28(%0)\n\t"
		"fsw f8, 32(%0)\n\tfsw f9, 36(%0)\n\tfsw f10, 40(%0)\n\tfsw f11, 44(%0)\n\t"
		"fsw f12, 48(%0)\n\tfsw f13, 52(%0)\n\tfsw f14, 56(%0)\n\tfsw f15, 60(%0)\n\t"
		"fsw f16, 64(%0)\n\tfsw f17, 68(%0)\n\tfsw f18, 72(%0)\n\tfsw f19, 76(%0)\n\t"
		"fsw f20, 80(%0)\n\tfsw f21, 84(%0)\n\tfsw f22, 88(%0)\n\tfsw f23, 92(%0)\n\t"
		"fsw f24, 96(%0)\n\tfsw f25, 100(%0)\n\tfsw f26, 104(%0)\n\tfsw f27, 108(%0)\n\t"
		"fsw f28, 112(%0)\n\tfsw f29, 116(%0)\n\tfsw f30, 120(%0)\n\tfsw f31, 124(%0)\n\t"
		"sw x1, 132(%0)\n\tsw x2, 136(%0)\n\tsw x3, 140(%0)\n\tsw x4, 144(%0)\n\t"
		"sw x5, 148(%0)\n\tsw x6, 152(%0)\n\tsw x7, 156(%0)\n\tsw x8, 160(%0)\n\t"
		"sw x9, 164(%0)\n\tsw x10, 168(%0)\n\tsw x11, 172(%0)\n\tsw x12, 176(%0)\n\t"
		"sw x13, 180(%0)\n\tsw x14, 184(%0)\n\tsw x15, 188(%0)\n\tsw x16, 192(%0)\n\t"
		"sw x17, 196(%0)\n\tsw x18, 200(%0)\n\tsw x19, 204(%0)\n\tsw x20, 208(%0)\n\t"
		"sw x21, 212(%0)\n\tsw x22, 216(%0)\n\tsw x23, 220(%0)\n\tsw x24, 224(%0)\n\t"
		"sw x25, 228(%0)\n\tsw x26, 232(%0)\n\tsw x27, 236(%0)\n\tsw x28, 240(%0)\n\t"
		"sw x29, 244(%0)\n\tsw x30, 248(%0)\n\tsw x31, 252(%0)"
		:: "r"(regs) : "memory");
	for (int i = 0; i < 64; i += 8)
		printf("regs %08lx %08lx %08lx %08lx %08lx %08lx %08lx %08lx\n", (unsigned long)regs[i], (unsigned long)regs[i + 1],
		       (unsigned long)regs[i + 2], (unsigned long)regs[i + 3], (unsigned long)regs[i + 4], (unsigned long)regs[i + 5],
		       (unsigned long)regs[i + 6], (unsigned long)regs[i + 7]);
	return 0;
}
