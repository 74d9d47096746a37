#include "textflag.h"

// func smoothQuadSSE2(dst **uint32, j0 int, terms *float64, nw int, bary *[4][3]float64, iw *[4]float64)
//
// packQuad's smooth words in SSE2, two lanes per instruction: for word i,
// lane l, the float32 of ((b1*a1 + b0*a0) + b2*a2) / iw[l] with (a0, a1, a2) =
// terms[3i:3i+3] and (b0, b1, b2) = bary[l], into (*dst[i])[j0+l]. The
// operations and their operand order are those the Go expression compiles to
// (MULSD with the barycentric first, each ADDSD with the later term first),
// so the words, NaN payloads included, are the same.
TEXT ·smoothQuadSSE2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ j0+8(FP), R8
	SHLQ $2, R8
	MOVQ terms+16(FP), SI
	MOVQ nw+24(FP), CX
	MOVQ bary+32(FP), AX
	MOVQ iw+40(FP), DX
	// X8..X13: barycentric k of lanes 0,1 and 2,3 (bary[l][k] at 8*(3l+k)).
	MOVSD 0(AX), X8
	MOVHPD 24(AX), X8
	MOVSD 48(AX), X9
	MOVHPD 72(AX), X9
	MOVSD 8(AX), X10
	MOVHPD 32(AX), X10
	MOVSD 56(AX), X11
	MOVHPD 80(AX), X11
	MOVSD 16(AX), X12
	MOVHPD 40(AX), X12
	MOVSD 64(AX), X13
	MOVHPD 88(AX), X13
	MOVUPD 0(DX), X14
	MOVUPD 16(DX), X15
	TESTQ CX, CX
	JE done

loop:
	MOVSD 0(SI), X0
	UNPCKLPD X0, X0
	MOVSD 8(SI), X1
	UNPCKLPD X1, X1
	MOVSD 16(SI), X2
	UNPCKLPD X2, X2

	MOVAPD X8, X3
	MULPD X0, X3
	MOVAPD X10, X4
	MULPD X1, X4
	ADDPD X3, X4
	MOVAPD X12, X5
	MULPD X2, X5
	ADDPD X4, X5
	DIVPD X14, X5
	CVTPD2PS X5, X5

	MOVAPD X9, X3
	MULPD X0, X3
	MOVAPD X11, X4
	MULPD X1, X4
	ADDPD X3, X4
	MOVAPD X13, X6
	MULPD X2, X6
	ADDPD X4, X6
	DIVPD X15, X6
	CVTPD2PS X6, X6

	MOVLHPS X6, X5
	MOVQ 0(DI), BX
	MOVUPS X5, (BX)(R8*1)
	ADDQ $24, SI
	ADDQ $8, DI
	DECQ CX
	JNZ loop

done:
	RET
