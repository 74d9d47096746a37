package ref

// packRGBA8 stores the RGBA8 words of n lanes (n a multiple of 4):
// dst[j] = UNorm8(c0[j]) | UNorm8(c1[j])<<8 | UNorm8(c2[j])<<16 |
// UNorm8(c3[j])<<24 with the words read as float32, exactly as
// packRGBA8Go (SSE2, four lanes per iteration: rgba8_amd64.s;
// TestPackRGBA8Exhaustive).
//
//go:noescape
func packRGBA8(dst, c0, c1, c2, c3 *uint32, n int)
