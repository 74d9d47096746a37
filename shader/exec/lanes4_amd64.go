package exec

// addFTZ4 and mulFTZ4 compute d[l] = ftz(a[l] op b[l]) for the n lanes from
// each pointer (n a multiple of 4), four lanes per SSE2 instruction (see
// lanes4_amd64.s): the words addLanes or mulLanes and ftz give, the NaN of
// two NaN operands being a's as there (TestNaNOperandOrder,
// TestFloatLanesFTZ). d may be a or b; it does not otherwise overlap them.
//
//go:noescape
func addFTZ4(d, a, b *uint32, n int)

//go:noescape
func mulFTZ4(d, a, b *uint32, n int)

// invSqrtFTZ4 computes d[l] = ftz(float32(1 / sqrt(float64(a[l])))) for n
// lanes (a multiple of 4), two lanes per SSE2 instruction: the words of the
// scalar loop (TestInvSqrtFTZ4). d may be a.
//
//go:noescape
func invSqrtFTZ4(d, a *uint32, n int)

// splat4 writes v to the n words from d (a multiple of 4), four words per
// SSE2 store.
//
//go:noescape
func splat4(d *uint32, v uint32, n int)
