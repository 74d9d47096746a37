#include "textflag.h"

DATA rgba8Consts<>+0(SB)/8, $0.0
DATA rgba8Consts<>+8(SB)/8, $0.0
DATA rgba8Consts<>+16(SB)/8, $1.0
DATA rgba8Consts<>+24(SB)/8, $1.0
DATA rgba8Consts<>+32(SB)/8, $255.0
DATA rgba8Consts<>+40(SB)/8, $255.0
DATA rgba8Consts<>+48(SB)/8, $0.5
DATA rgba8Consts<>+56(SB)/8, $0.5
GLOBL rgba8Consts<>(SB), RODATA|NOPTR, $64

// CHAN converts the four float32 words at off(src) to four int32 UNorm8
// values in dst, using X4 and X5 as scratch: float64 of each, MAXPD with 0
// (a NaN gives the second operand, 0), MINPD with 1, *255, +0.5, truncated.
#define CHAN(src, off, dst) \
	MOVUPS off(src), X4; \
	CVTPS2PD X4, dst; \
	MOVHLPS X4, X4; \
	CVTPS2PD X4, X5; \
	MAXPD X8, dst; \
	MAXPD X8, X5; \
	MINPD X9, dst; \
	MINPD X9, X5; \
	MULPD X10, dst; \
	MULPD X10, X5; \
	ADDPD X11, dst; \
	ADDPD X11, X5; \
	CVTTPD2PL dst, dst; \
	CVTTPD2PL X5, X5; \
	PUNPCKLQDQ X5, dst

// func packRGBA8(dst, c0, c1, c2, c3 *uint32, n int)
//
// fragmentsPackedQZ's colour store in SSE2, four lanes per iteration (n a
// multiple of 4): dst[j] = UNorm8(c0[j]) | UNorm8(c1[j])<<8 |
// UNorm8(c2[j])<<16 | UNorm8(c3[j])<<24, the words read as float32 and
// gl/format.UNorm8's floor(clamp(v, 0, 1)*255 + 0.5) (NaN as 0) computed in
// float64 as it computes it: for 0 < v < 1 the same multiply and add, and the
// clamps give 0 and 255 exactly where its two tests do
// (TestPackRGBA8Exhaustive).
TEXT ·packRGBA8(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ c0+8(FP), R8
	MOVQ c1+16(FP), R9
	MOVQ c2+24(FP), R10
	MOVQ c3+32(FP), R11
	MOVQ n+40(FP), CX
	MOVUPD rgba8Consts<>+0(SB), X8
	MOVUPD rgba8Consts<>+16(SB), X9
	MOVUPD rgba8Consts<>+32(SB), X10
	MOVUPD rgba8Consts<>+48(SB), X11
	XORQ AX, AX
loop:
	CMPQ AX, CX
	JGE done
	CHAN(R8, 0, X0)
	CHAN(R9, 0, X1)
	CHAN(R10, 0, X2)
	CHAN(R11, 0, X3)
	PSLLL $8, X1
	PSLLL $16, X2
	PSLLL $24, X3
	POR X1, X0
	POR X3, X2
	POR X2, X0
	MOVUPS X0, 0(DI)
	ADDQ $16, DI
	ADDQ $16, R8
	ADDQ $16, R9
	ADDQ $16, R10
	ADDQ $16, R11
	ADDQ $4, AX
	JMP loop
done:
	RET
