#include "textflag.h"

// func baryQuadSSE2(out *[4][3]float64, e *[12]int64, fa float64)
//
// rasterTri's barycentrics of a quad in SSE2, two per DIVPD: out[l][k] =
// float64(e[3l+k]) / fa. CVTSQ2SD is the conversion Go compiles
// float64(int64) to, and DIVPD the IEEE division of DIVSD lane by lane
// (both rounded to nearest under Go's MXCSR), so the values are those of
// the Go expression bit for bit (TestBaryQuadMatchesGo).
TEXT ·baryQuadSSE2(SB), NOSPLIT, $0-24
	MOVQ out+0(FP), DI
	MOVQ e+8(FP), SI
	MOVSD fa+16(FP), X7
	UNPCKLPD X7, X7
	CVTSQ2SD 0(SI), X0
	CVTSQ2SD 8(SI), X1
	UNPCKLPD X1, X0
	DIVPD X7, X0
	MOVUPD X0, 0(DI)
	CVTSQ2SD 16(SI), X2
	CVTSQ2SD 24(SI), X3
	UNPCKLPD X3, X2
	DIVPD X7, X2
	MOVUPD X2, 16(DI)
	CVTSQ2SD 32(SI), X4
	CVTSQ2SD 40(SI), X5
	UNPCKLPD X5, X4
	DIVPD X7, X4
	MOVUPD X4, 32(DI)
	CVTSQ2SD 48(SI), X0
	CVTSQ2SD 56(SI), X1
	UNPCKLPD X1, X0
	DIVPD X7, X0
	MOVUPD X0, 48(DI)
	CVTSQ2SD 64(SI), X2
	CVTSQ2SD 72(SI), X3
	UNPCKLPD X3, X2
	DIVPD X7, X2
	MOVUPD X2, 64(DI)
	CVTSQ2SD 80(SI), X4
	CVTSQ2SD 88(SI), X5
	UNPCKLPD X5, X4
	DIVPD X7, X4
	MOVUPD X4, 80(DI)
	RET
