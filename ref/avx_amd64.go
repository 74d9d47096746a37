package ref

// useAVX selects the 256-bit forms of baryQuad and smoothQuad: the CPU has
// AVX and the OS saves its registers. Both forms give the same bits; the
// tests run each (TestBaryQuadMatchesGo, TestSmoothQuadMatchesGo).
var useAVX = hasAVX()

// hasAVX reports CPUID's AVX and OSXSAVE bits and XCR0's XMM and YMM state
// (avx_amd64.s).
func hasAVX() bool
