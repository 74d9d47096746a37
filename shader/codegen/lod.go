package codegen

import (
	"math"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/isa/rv32"
)

// The level of detail of a fragment-stage texture() or textureGrad() as
// machine code, bit for bit the Go wrapper's (gfx/shaderdev tex.go,
// fsTexState.lod), the gradients the quad's differences or textureGrad's
// operands:
//
//	a, b = dFdx(u)·w, dFdx(v)·h; c, d = dFdy(u)·w, dFdy(v)·h   (float32)
//	rho  = max(sqrt(a²+b²), sqrt(c²+d²))                        (float64)
//	lf   = clamp(log2(rho), 0, levels−1), NaN → 0
//	lod  = floor(lf·2^8) for MIP_LINEAR, floor(lf + 0.5) for the nearest
//	       level, 0 without mips
//
// RV32F has no float64 and no log2, so the quantised result is computed
// exactly from a threshold table instead: lf·2^8 ≥ j (and lf + 0.5 ≥ k, which
// is j = 256k − 128) holds exactly when the float64 sum s = fl64(a²+b²) (the
// larger of the two vectors') is at least S_j, the least float64 whose
// log2(sqrt(S_j)) ≥ j/256 — found once by bisection on the Go wrapper's own
// float64 expression (lodTable; log2 of the root is monotone). The machine
// code then:
//
//   - forms each vector's key, fl64(big² + small²) as float64 bits, exactly in
//     integers: the squares of the 24-bit significands (mul/mulhu), the
//     smaller aligned to the larger with a sticky bit, summed in 64 bits and
//     rounded to nearest even at 53 bits (lodKey); a vector whose larger
//     component is below 0.5 has key 0 (s < 1 < S_1) and one at or above 2^16
//     (s ≥ 2^32 > S_3840), Inf and NaN included, the key 0x7ff0_0000_0000_0000;
//   - counts the thresholds at or below the larger key with a branch-free
//     bisection of the 4096-entry table placed after the code (la, lw);
//   - clamps: min(count, 256·(levels−1)) for MIP_LINEAR, min((count+128)>>8,
//     levels−1) for another mip mode, 0 for none; and 0 when a component is
//     NaN and neither vector has an Inf without a NaN (Go's math.Max: +Inf
//     wins over NaN, NaN over numbers).
//
// The stage's {w, h, levels, mip} come from descriptor set 0 (FS arg slot
// abi.ArgFSDesc, word 2: the table of texDescBytes-byte records the Go wrapper
// reads). levels is at most 16 (a TEX dimension has 15 bits), which the table
// covers. A bias (texture(s, p, bias)) is not added: the draw routes a biased
// sample of a mipmapped texture to the Go wrapper (gfx/shaderdev isafs.go).
// spec: vortex-hardware-facts.md §4 (software LOD, the lod operand's 8
// fraction bits with MIP_LINEAR); vortexpipe-driver.md §2.2 (emit_vx_tex: the
// level from the quad's UV derivatives); docs/ABI.md row 44.

// lodSteps is the largest lod operand: 15 levels of 2^8 steps.
const lodSteps = 15 << abi.TexLodFracBits

// lodTableLen is the threshold table's entries (a power of two for the
// bisection; the ones past lodSteps are never reached).
const lodTableLen = 4096

// texDescBytes is one record of the FS descriptor set 0: {w, h, levels, mip}
// (gfx/shaderdev drawupload.go).
const texDescBytes = 16

// LodLog2 is the Go wrapper's level of detail before clamping as a function
// of the squared gradient length s (log2 of its float64 root).
func LodLog2(s float64) float64 { return math.Log2(math.Sqrt(s)) }

// lodTable returns S_1..S_3840 as float64 bits (see above), then all-ones.
var lodTable = sync.OnceValue(func() *[lodTableLen]uint64 {
	var t [lodTableLen]uint64
	lo := math.Float64bits(1) // LodLog2(1) = 0 < 1/256
	for j := 1; j <= lodSteps; j++ {
		want := float64(j) / (1 << abi.TexLodFracBits)
		hi := math.Float64bits(1 << 32) // LodLog2 = 16
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if LodLog2(math.Float64frombits(mid)) >= want {
				hi = mid
			} else {
				lo = mid
			}
		}
		t[j-1] = hi
		lo = hi - 1
	}
	for j := lodSteps; j < lodTableLen; j++ {
		t[j] = math.MaxUint64
	}
	return &t
})

// lodKeyOf is lodKey's result for the bits of a and b (the Go model).
func lodKeyOf(a, b float32) uint64 {
	big := max(math.Abs(float64(a)), math.Abs(float64(b)))
	ua, ub := math.Float32bits(a)&0x7fffffff, math.Float32bits(b)&0x7fffffff
	switch {
	case ua >= 0x47800000 || ub >= 0x47800000: // ≥ 2^16, Inf, NaN
		return 0x7ff0 << 48
	case big < 0.5:
		return 0
	}
	return math.Float64bits(float64(a)*float64(a) + float64(b)*float64(b))
}

// TexLod is the machine code's lod operand (the Go model of the sequence
// above) for the descriptor record {w, h, levels, mip} and a lane's quad
// gradients: it equals gfx/shaderdev's Go wrapper for every input with
// levels ≤ 16 (TestTexLodMatchesWrapper there).
func TexLod(desc [4]uint32, dux, dvx, duy, dvy float32) uint32 {
	mip := desc[3] & 0xff
	if mip == 0 {
		return 0
	}
	w, h := float32(desc[0]), float32(desc[1])
	g := [4]float32{dux * w, dvx * h, duy * w, dvy * h}
	var nan, inf [2]bool
	for i, v := range g {
		u := math.Float32bits(v) & 0x7fffffff
		nan[i/2] = nan[i/2] || u > 0x7f800000
		inf[i/2] = inf[i/2] || u == 0x7f800000
	}
	i1, i2 := inf[0] && !nan[0], inf[1] && !nan[1]
	if (nan[0] || nan[1]) && !i1 && !i2 {
		return 0
	}
	key := max(lodKeyOf(g[0], g[1]), lodKeyOf(g[2], g[3]))
	t := lodTable()
	n := uint32(0)
	for step := uint32(lodTableLen / 2); step > 0; step >>= 1 {
		if t[n+step-1] <= key {
			n += step
		}
	}
	top := max(desc[2], 1) - 1
	if mip == uint32(2) {
		return min(n, top<<abi.TexLodFracBits)
	}
	return min((n+1<<(abi.TexLodFracBits-1))>>abi.TexLodFracBits, top)
}

// lodKey emits the key of one gradient vector (see above): on entry r[0] and
// r[1] hold the bits of its two components, on exit r[0]:r[1] the key's high
// and low words; r[2..7] and float register fs are clobbered.
func lodKey(a *asm, r [8]uint8, fs uint8) {
	A, B, T, U, V, W, X, Y := r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
	a.li(T, 0x7fffffff)
	a.r(rv32.AND, A, A, T)
	a.r(rv32.AND, B, B, T)
	// A = the larger magnitude, B = the smaller (unsigned order of the bits).
	a.r(rv32.SLTU, U, A, B)
	a.r(rv32.SUB, U, rZero, U)
	a.r(rv32.XOR, V, A, B)
	a.r(rv32.AND, V, V, U)
	a.r(rv32.XOR, A, A, V)
	a.r(rv32.XOR, B, B, V)
	// EA, and A = MA (a normal: the key is masked otherwise).
	a.i(rv32.SRLI, U, A, 23)
	a.r(rv32.FMVWX, fs, U, 0) // EA, until the exponent
	a.li(T, 0x7fffff)
	a.r(rv32.AND, A, A, T)
	a.li(V, 0x800000)
	a.r(rv32.OR, A, A, V)
	// B = MB, W = B's effective exponent (1 for a subnormal or zero).
	a.i(rv32.SRLI, W, B, 23)
	a.r(rv32.AND, B, B, T)
	a.r(rv32.SLTU, X, rZero, W)
	a.i(rv32.SLLI, Y, X, 23)
	a.r(rv32.OR, B, B, Y)
	a.i(rv32.XORI, X, X, 1)
	a.r(rv32.ADD, W, W, X)
	a.r(rv32.SUB, U, U, W)
	a.r(rv32.ADD, U, U, U) // d = 2·(EA − EB): the squares' exponent gap
	// The squares: T:V = MA², W:X = MB² (48 bits each), then << 15.
	a.r(rv32.MULHU, T, A, A)
	a.r(rv32.MUL, V, A, A)
	a.r(rv32.MULHU, W, B, B)
	a.r(rv32.MUL, X, B, B)
	for _, p := range [2][2]uint8{{T, V}, {W, X}} {
		a.i(rv32.SLLI, p[0], p[0], 15)
		a.i(rv32.SRLI, Y, p[1], 17)
		a.r(rv32.OR, p[0], p[0], Y)
		a.i(rv32.SLLI, p[1], p[1], 15)
	}
	// W:X >>= d with the lost bits ORed into A: d ≥ 64 loses all, then a
	// 32-bit step, then d mod 32 (the (hi << 1) << (31 − s) form never
	// shifts by 32).
	a.i(rv32.SLTIU, Y, U, 64)
	a.i(rv32.ADDI, Y, Y, -1) // −1 when d ≥ 64
	a.r(rv32.OR, A, W, X)
	a.r(rv32.AND, A, A, Y)
	a.i(rv32.XORI, Y, Y, -1)
	a.r(rv32.AND, W, W, Y)
	a.r(rv32.AND, X, X, Y)
	a.i(rv32.SRLI, Y, U, 5)
	a.i(rv32.ANDI, Y, Y, 1)
	a.r(rv32.SUB, Y, rZero, Y) // −1 when d mod 64 ≥ 32
	a.r(rv32.AND, B, X, Y)
	a.r(rv32.OR, A, A, B)
	a.r(rv32.XOR, B, X, W)
	a.r(rv32.AND, B, B, Y)
	a.r(rv32.XOR, X, X, B)
	a.i(rv32.XORI, Y, Y, -1)
	a.r(rv32.AND, W, W, Y)
	a.i(rv32.ANDI, U, U, 31)
	a.i(rv32.ADDI, Y, rZero, 1)
	a.r(rv32.SLL, Y, Y, U)
	a.i(rv32.ADDI, Y, Y, -1)
	a.r(rv32.AND, Y, X, Y)
	a.r(rv32.OR, A, A, Y)
	a.r(rv32.SRL, X, X, U)
	a.i(rv32.SLLI, Y, W, 1)
	a.i(rv32.XORI, B, U, 31)
	a.r(rv32.SLL, Y, Y, B)
	a.r(rv32.OR, X, X, Y)
	a.r(rv32.SRL, W, W, U)
	// W:X = T:V + W:X (< 2^64: the smaller term is at most the larger).
	a.r(rv32.ADD, X, V, X)
	a.r(rv32.SLTU, Y, X, V)
	a.r(rv32.ADD, W, T, W)
	a.r(rv32.ADD, W, W, Y)
	// The sum's top bit is 61, 62 or 63: keep 53 bits, sh = 9, 10 or 11.
	a.i(rv32.SRLI, T, W, 31)
	a.i(rv32.SRLI, U, W, 30)
	a.r(rv32.SLTU, U, rZero, U)
	a.r(rv32.ADD, U, U, T)
	a.i(rv32.ADDI, U, U, 9)
	a.i(rv32.ADDI, T, U, -1)
	a.r(rv32.SRL, B, X, T)
	a.i(rv32.ANDI, B, B, 1) // the round bit
	a.i(rv32.ADDI, V, rZero, 1)
	a.r(rv32.SLL, V, V, T)
	a.i(rv32.ADDI, V, V, -1)
	a.r(rv32.AND, V, X, V)
	a.r(rv32.OR, A, A, V) // the bits below it, and the lost ones
	a.r(rv32.SRL, X, X, U)
	a.i(rv32.SLLI, V, W, 1)
	a.i(rv32.XORI, T, U, 31)
	a.r(rv32.SLL, V, V, T)
	a.r(rv32.OR, X, X, V)
	a.r(rv32.SRL, W, W, U) // W:X = the 53-bit significand
	a.r(rv32.SLTU, A, rZero, A)
	a.i(rv32.ANDI, V, X, 1)
	a.r(rv32.OR, A, A, V)
	a.r(rv32.AND, A, A, B) // round up: to nearest, ties to even
	a.r(rv32.ADD, X, X, A)
	a.r(rv32.SLTU, V, X, A)
	a.r(rv32.ADD, W, W, V)
	// The exponent field: bits = (E + 1022) << 52 + significand, E + 1022 =
	// sh + 2·EA + 759 (the value is significand · 2^(sh + 2(EA−150) − 15)).
	a.r(rv32.FMVXW, T, fs, 0)
	a.r(rv32.ADD, V, T, T)
	a.r(rv32.ADD, V, V, U)
	a.i(rv32.ADDI, V, V, 759)
	a.i(rv32.SLLI, V, V, 20)
	a.r(rv32.ADD, W, W, V)
	// EA < 126 (below 0.5): 0; EA ≥ 143 (2^16 and up, Inf, NaN): 0x7ff00000:0.
	a.i(rv32.SLTIU, B, T, 126)
	a.i(rv32.ADDI, B, B, -1)
	a.r(rv32.AND, W, W, B)
	a.r(rv32.AND, X, X, B)
	a.i(rv32.SLTIU, B, T, 143)
	a.i(rv32.ADDI, B, B, -1)
	a.li(V, 0x7ff00000)
	a.r(rv32.XOR, V, V, W)
	a.r(rv32.AND, V, V, B)
	a.r(rv32.XOR, A, W, V)
	a.i(rv32.XORI, B, B, -1)
	a.r(rv32.AND, B, X, B)
}

// lodCount emits the count of thresholds at or below the key hi:lo into
// r[0] (branch-free bisection of the table at label tab); r[1..5] are
// clobbered, hi and lo are kept.
func lodCount(a *asm, hi, lo uint8, r [6]uint8, tab int) {
	N, base, P, S, E, C := r[0], r[1], r[2], r[3], r[4], r[5]
	a.mv(N, rZero)
	a.la(base, tab)
	for k := 11; k >= 0; k-- {
		a.i(rv32.ADDI, P, N, int32(1<<k-1))
		a.i(rv32.SLLI, P, P, 3)
		a.r(rv32.ADD, P, P, base)
		a.lw(S, P, 0) // the entry's low word (little-endian)
		a.lw(P, P, 4) // its high word
		a.r(rv32.SLTU, C, P, hi)
		a.r(rv32.XOR, E, P, hi)
		a.i(rv32.SLTIU, E, E, 1)
		a.r(rv32.SLTU, S, lo, S)
		a.i(rv32.XORI, S, S, 1)
		a.r(rv32.AND, E, E, S)
		a.r(rv32.OR, C, C, E) // entry ≤ key
		a.i(rv32.SLLI, C, C, int32(k))
		a.r(rv32.ADD, N, N, C)
	}
}

// lodTableWords places the threshold table (low word, then high word, per
// entry) at label tab.
func lodTableWords(a *asm, tab int) {
	a.place(tab)
	for _, v := range lodTable() {
		a.word(uint32(v))
		a.word(uint32(v >> 32))
	}
}

// TexExplicitLod is the machine code's lod operand for textureLod (the Go
// model of texExplicitLod: tex.go) for the descriptor record {w, h, levels,
// mip} and a lane's lod: it equals gfx/shaderdev's Go wrapper for every
// float32 lod with levels ≤ 16 (TestTexExplicitLodMatchesWrapper there).
func TexExplicitLod(desc [4]uint32, lod float32) uint32 {
	mip := desc[3] & 0xff
	if mip == 0 {
		return 0
	}
	// fcvt.wu.s rtz of the exact product: a negative (and −0) to 0, +Inf,
	// ≥ 2^32 and NaN to all-ones; NaN then masked to 0.
	var n uint32
	switch p := float64(lod) * (1 << abi.TexLodFracBits); {
	case lod != lod:
		n = math.MaxUint32 // fcvt.wu.s of NaN, masked below
	case p <= 0:
	case p >= 1<<32:
		n = math.MaxUint32
	default:
		n = uint32(p)
	}
	tie := uint32(0) // lod·2^8 is an integer: fcvt.s.wu of n equals the product
	if float32(n) == lod*(1<<abi.TexLodFracBits) {
		tie = 1
	}
	if lod != lod {
		n = 0
	}
	n = min(n, lodSteps)
	top := max(desc[2], 1) - 1
	if mip == uint32(2) {
		return min(n, top<<abi.TexLodFracBits)
	}
	return min((n+1<<(abi.TexLodFracBits-1)-tie)>>abi.TexLodFracBits, top)
}
