#include "textflag.h"

// The four-lane flushing float add and multiply of lanes4_amd64.go, in SSE2
// (the amd64 baseline). ADDPS/MULPS X1, X0 compute X0 op X1 with a in X0, the
// first source operand, whose NaN x86 returns when both are NaN, as the scalar
// loops do; the flush clears every lane whose exponent is zero to its sign.

DATA lanes4exp<>+0(SB)/8, $0x7f8000007f800000
DATA lanes4exp<>+8(SB)/8, $0x7f8000007f800000
GLOBL lanes4exp<>(SB), RODATA|NOPTR, $16

DATA lanes4sign<>+0(SB)/8, $0x8000000080000000
DATA lanes4sign<>+8(SB)/8, $0x8000000080000000
GLOBL lanes4sign<>(SB), RODATA|NOPTR, $16

// func addFTZ4(d, a, b *uint32, n int)
TEXT ·addFTZ4(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $2, CX
	MOVUPS lanes4exp<>(SB), X4
	MOVUPS lanes4sign<>(SB), X5
	PXOR X6, X6
	XORQ BX, BX
	CMPQ BX, CX
	JAE addDone

addLoop:
	MOVUPS (SI)(BX*1), X0
	MOVUPS (DX)(BX*1), X1
	ADDPS X1, X0
	MOVAPS X0, X2
	PAND X4, X2
	PCMPEQL X6, X2
	MOVAPS X0, X3
	PAND X5, X3
	PAND X2, X3
	PANDN X0, X2
	POR X3, X2
	MOVUPS X2, (DI)(BX*1)
	ADDQ $16, BX
	CMPQ BX, CX
	JB addLoop

addDone:
	RET

// func mulFTZ4(d, a, b *uint32, n int)
TEXT ·mulFTZ4(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHLQ $2, CX
	MOVUPS lanes4exp<>(SB), X4
	MOVUPS lanes4sign<>(SB), X5
	PXOR X6, X6
	XORQ BX, BX
	CMPQ BX, CX
	JAE mulDone

mulLoop:
	MOVUPS (SI)(BX*1), X0
	MOVUPS (DX)(BX*1), X1
	MULPS X1, X0
	MOVAPS X0, X2
	PAND X4, X2
	PCMPEQL X6, X2
	MOVAPS X0, X3
	PAND X5, X3
	PAND X2, X3
	PANDN X0, X2
	POR X3, X2
	MOVUPS X2, (DI)(BX*1)
	ADDQ $16, BX
	CMPQ BX, CX
	JB mulLoop

mulDone:
	RET

DATA lanes4one<>+0(SB)/8, $0x3ff0000000000000
DATA lanes4one<>+8(SB)/8, $0x3ff0000000000000
GLOBL lanes4one<>(SB), RODATA|NOPTR, $16

// func invSqrtFTZ4(d, a *uint32, n int)
//
// float32(1 / sqrt(float64(a))) per lane as the scalar loop computes it, two
// lanes per instruction: CVTPS2PD, SQRTPD, DIVPD (1.0 by the root, the root's
// NaN returned as DIVSD returns it) and CVTPD2PS are the scalar conversions and
// IEEE operations lane by lane; then the flush.
TEXT ·invSqrtFTZ4(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $2, CX
	MOVUPS lanes4exp<>(SB), X4
	MOVUPS lanes4sign<>(SB), X5
	MOVUPS lanes4one<>(SB), X7
	PXOR X6, X6
	XORQ BX, BX
	CMPQ BX, CX
	JAE rsqDone

rsqLoop:
	MOVUPS (SI)(BX*1), X0
	CVTPS2PD X0, X1
	MOVHLPS X0, X0
	CVTPS2PD X0, X2
	SQRTPD X1, X1
	SQRTPD X2, X2
	MOVAPS X7, X3
	DIVPD X1, X3
	MOVAPS X7, X0
	DIVPD X2, X0
	CVTPD2PS X3, X3
	CVTPD2PS X0, X0
	MOVLHPS X0, X3
	MOVAPS X3, X2
	PAND X4, X2
	PCMPEQL X6, X2
	MOVAPS X3, X1
	PAND X5, X1
	PAND X2, X1
	PANDN X3, X2
	POR X1, X2
	MOVUPS X2, (DI)(BX*1)
	ADDQ $16, BX
	CMPQ BX, CX
	JB rsqLoop

rsqDone:
	RET

// func splat4(d *uint32, v uint32, n int)
//
// v into the n words from d (a multiple of 4), four words per store.
TEXT ·splat4(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVL v+8(FP), AX
	MOVQ n+16(FP), CX
	SHLQ $2, CX
	MOVQ AX, X0
	PSHUFD $0, X0, X0
	XORQ BX, BX
	CMPQ BX, CX
	JAE splatDone

splatLoop:
	MOVUPS X0, (DI)(BX*1)
	ADDQ $16, BX
	CMPQ BX, CX
	JB splatLoop

splatDone:
	RET
