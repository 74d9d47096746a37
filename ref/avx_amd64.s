#include "textflag.h"

// func hasAVX() bool
//
// CPUID leaf 1 reports AVX (ECX bit 28) and OSXSAVE (bit 27), and XCR0 has
// the XMM and YMM state enabled (bits 1 and 2): the 256-bit instructions of
// baryQuadAVX and smoothQuadAVX may run.
TEXT ·hasAVX(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	ANDL $0x18000000, CX
	CMPL CX, $0x18000000
	JNE no
	XORL CX, CX
	XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE no
	MOVB $1, ret+0(FP)
	RET
no:
	MOVB $0, ret+0(FP)
	RET

// func baryQuadAVX(out *[4][3]float64, e *[12]int64, fa float64)
//
// baryQuad with four divisions per VDIVPD: out is 12 consecutive float64s,
// out[i] = float64(e[i]) / fa. VCVTSI2SDQ is CVTSQ2SD's VEX form and VDIVPD
// the IEEE division lane by lane under the same MXCSR, so the values are
// baryQuadSSE2's bit for bit (TestBaryQuadMatchesGo).
TEXT ·baryQuadAVX(SB), NOSPLIT, $0-24
	MOVQ out+0(FP), DI
	MOVQ e+8(FP), SI
	VBROADCASTSD fa+16(FP), Y7
	// X6 = 0: the upper half of each conversion, no dependency on a
	// register's old value.
	VXORPD X6, X6, X6
	VCVTSI2SDQ 0(SI), X6, X0
	VCVTSI2SDQ 8(SI), X6, X1
	VCVTSI2SDQ 16(SI), X6, X2
	VCVTSI2SDQ 24(SI), X6, X3
	VUNPCKLPD X1, X0, X0
	VUNPCKLPD X3, X2, X2
	VINSERTF128 $1, X2, Y0, Y0
	VDIVPD Y7, Y0, Y0
	VMOVUPD Y0, 0(DI)
	VCVTSI2SDQ 32(SI), X6, X1
	VCVTSI2SDQ 40(SI), X6, X2
	VCVTSI2SDQ 48(SI), X6, X3
	VCVTSI2SDQ 56(SI), X6, X4
	VUNPCKLPD X2, X1, X1
	VUNPCKLPD X4, X3, X3
	VINSERTF128 $1, X3, Y1, Y1
	VDIVPD Y7, Y1, Y1
	VMOVUPD Y1, 32(DI)
	VCVTSI2SDQ 64(SI), X6, X2
	VCVTSI2SDQ 72(SI), X6, X3
	VCVTSI2SDQ 80(SI), X6, X4
	VCVTSI2SDQ 88(SI), X6, X5
	VUNPCKLPD X3, X2, X2
	VUNPCKLPD X5, X4, X4
	VINSERTF128 $1, X4, Y2, Y2
	VDIVPD Y7, Y2, Y2
	VMOVUPD Y2, 64(DI)
	VZEROUPPER
	RET

// func smoothQuadAVX(dst **uint32, j0 int, terms *float64, nw int, bary *[4][3]float64, iw *[4]float64)
//
// smoothQuad with the four lanes of a word in one ymm register: the same
// operations with the same first operands as smoothQuadSSE2 (VMULPD with the
// barycentric first, each VADDPD with the later term first, VDIVPD by iw,
// VCVTPD2PS), so the words, NaN payloads included, are the same
// (TestSmoothQuadMatchesGo).
TEXT ·smoothQuadAVX(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ j0+8(FP), R8
	SHLQ $2, R8
	MOVQ terms+16(FP), SI
	MOVQ nw+24(FP), CX
	MOVQ bary+32(FP), AX
	MOVQ iw+40(FP), DX
	// Y8, Y9, Y10: barycentric k = 0, 1, 2 of lanes 0..3 (bary[l][k] at
	// 8*(3l+k)).
	VMOVSD 0(AX), X8
	VMOVHPD 24(AX), X8, X8
	VMOVSD 48(AX), X11
	VMOVHPD 72(AX), X11, X11
	VINSERTF128 $1, X11, Y8, Y8
	VMOVSD 8(AX), X9
	VMOVHPD 32(AX), X9, X9
	VMOVSD 56(AX), X11
	VMOVHPD 80(AX), X11, X11
	VINSERTF128 $1, X11, Y9, Y9
	VMOVSD 16(AX), X10
	VMOVHPD 40(AX), X10, X10
	VMOVSD 64(AX), X11
	VMOVHPD 88(AX), X11, X11
	VINSERTF128 $1, X11, Y10, Y10
	VMOVUPD 0(DX), Y14
	TESTQ CX, CX
	JE done

loop:
	VBROADCASTSD 0(SI), Y0
	VBROADCASTSD 8(SI), Y1
	VBROADCASTSD 16(SI), Y2
	VMULPD Y0, Y8, Y3
	VMULPD Y1, Y9, Y4
	VADDPD Y3, Y4, Y4
	VMULPD Y2, Y10, Y5
	VADDPD Y4, Y5, Y5
	VDIVPD Y14, Y5, Y5
	VCVTPD2PSY Y5, X5
	MOVQ 0(DI), BX
	VMOVUPS X5, (BX)(R8*1)
	ADDQ $24, SI
	ADDQ $8, DI
	DECQ CX
	JNZ loop

done:
	VZEROUPPER
	RET
