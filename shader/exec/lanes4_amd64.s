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
