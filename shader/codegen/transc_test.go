package codegen

import (
	"encoding/binary"
	"math"
	"math/rand"
	"testing"

	"vortexgfx/abi"
)

// ulpDist is the distance of two finite floats in units in the last place
// (adjacent floats are 1 apart, +0 and -0 are 0 apart).
func ulpDist(x, y uint32) uint64 {
	ord := func(w uint32) int64 {
		if w&0x80000000 != 0 {
			return -int64(w & 0x7fffffff)
		}
		return int64(w)
	}
	d := ord(x) - ord(y)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

// TestTranscendentalBounds: each transcendental's machine code against the
// executor (float64, rounded once) over specials and random inputs of its
// domain, within the bound transc.go states: ulps, or an absolute error, or a
// relative one. NaN must meet NaN and infinities must be exact.
func TestTranscendentalBounds(t *testing.T) {
	r := rand.New(rand.NewSource(17))
	uniform := func(lo, hi float64) func() float32 {
		return func() float32 { return float32(lo + r.Float64()*(hi-lo)) }
	}
	logUniform := func(lo, hi float64) func() float32 {
		return func() float32 { return float32(math.Exp(math.Log(lo) + r.Float64()*(math.Log(hi)-math.Log(lo)))) }
	}
	anyWord := func() float32 { return math.Float32frombits(r.Uint32()) }
	type bound struct {
		ulps     uint64
		abs, rel float64
	}
	for _, c := range []struct {
		name, expr string
		x, y       []func() float32 // input generators; y only for two-argument functions
		b          bound
	}{
		{"add", "x + y", []func() float32{anyWord}, []func() float32{anyWord}, bound{}},
		{"inversesqrt", "inversesqrt(x)", []func() float32{logUniform(1e-38, 1e38), anyWord}, nil, bound{ulps: 1}},
		{"exp2", "exp2(x)", []func() float32{uniform(-160, 140), uniform(-2, 2), anyWord}, nil, bound{ulps: 2}},
		{"exp", "exp(x)", []func() float32{uniform(-110, 95), uniform(-1, 1), anyWord}, nil, bound{ulps: 2}},
		{"log2", "log2(x)", []func() float32{logUniform(1e-45, 3e38), uniform(0.5, 2), anyWord}, nil, bound{ulps: 2, abs: 0x1p-22}},
		{"log", "log(x)", []func() float32{logUniform(1e-45, 3e38), uniform(0.5, 2), anyWord}, nil, bound{ulps: 2, abs: 0x1p-22}},
		{"pow", "pow(x, y)", []func() float32{logUniform(1e-6, 1e6), uniform(0, 4)}, []func() float32{uniform(-6, 6), uniform(-20, 20)}, bound{rel: 2e-5}},
		{"sin", "sin(x)", []func() float32{uniform(-8192, 8192), uniform(-4, 4)}, nil, bound{abs: 0x1p-23}},
		{"cos", "cos(x)", []func() float32{uniform(-8192, 8192), uniform(-4, 4)}, nil, bound{abs: 0x1p-23}},
		{"tan", "tan(x)", []func() float32{uniform(-1.5, 1.5), uniform(-100, 100)}, nil, bound{ulps: 4, abs: 0x1p-22}},
		{"atan", "atan(x)", []func() float32{uniform(-10, 10), logUniform(1e-6, 1e30), anyWord}, nil, bound{ulps: 2, abs: 0x1p-22}},
		{"atan2", "atan(x, y)", []func() float32{uniform(-10, 10), uniform(-1, 1)}, []func() float32{uniform(-10, 10), logUniform(1e-3, 1e3)}, bound{ulps: 2, abs: 0x1p-22}},
		{"asin", "asin(x)", []func() float32{uniform(-1, 1), uniform(-0.01, 0.01)}, nil, bound{ulps: 2, abs: 0x1p-22}},
		{"acos", "acos(x)", []func() float32{uniform(-1, 1), uniform(0.99, 1)}, nil, bound{ulps: 2, abs: 0x1p-22}},
		{"sinh", "sinh(x)", []func() float32{uniform(-88, 88), uniform(-2, 2)}, nil, bound{ulps: 3, abs: 0x1p-22}},
		{"cosh", "cosh(x)", []func() float32{uniform(-88, 88), uniform(-2, 2)}, nil, bound{ulps: 3}},
		{"tanh", "tanh(x)", []func() float32{uniform(-20, 20), uniform(-1, 1), anyWord}, nil, bound{ulps: 2, abs: 0x1p-22}},
		{"asinh", "asinh(x)", []func() float32{uniform(-1e4, 1e4), uniform(-3, 3), anyWord}, nil, bound{ulps: 2, abs: 0x1p-22}},
		{"acosh", "acosh(x)", []func() float32{uniform(1, 10), logUniform(1, 3e38)}, nil, bound{ulps: 2, abs: 0x1p-22}},
		{"atanh", "atanh(x)", []func() float32{uniform(-1, 1), uniform(-0.1, 0.1)}, nil, bound{ulps: 2, abs: 0x1p-22}},
	} {
		src := hdr + "layout(std430, binding = 2) buffer Y { uint b[]; };\nlayout(local_size_x = 64) in;\nvoid main() {\n" +
			"uint i = gl_GlobalInvocationID.x;\nfloat x = uintBitsToFloat(a[i]);\nfloat y = uintBitsToFloat(b[i]);\n" +
			"o[i] = floatBitsToUint(" + c.expr + ");\n}"
		p := compileCS(t, c.name, src)
		k, err := Compile(p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		const groups = 64
		n := 64 * groups
		xs, ys := make([]uint32, n), make([]uint32, n)
		for i := range xs {
			if i < len(specials) {
				xs[i], ys[i] = specials[i], specials[(i*5)%len(specials)]
				if c.name == "pow" {
					ys[i] = math.Float32bits(float32(i%7) - 3)
				}
				continue
			}
			xs[i] = math.Float32bits(c.x[i%len(c.x)]())
			ys[i] = math.Float32bits(1)
			if c.y != nil {
				ys[i] = math.Float32bits(c.y[i%len(c.y)]())
			}
		}
		bufs := map[Binding][]byte{{Kind: abi.DescStorageBuffer, Slot: 0}: wordsBytes(xs),
			{Kind: abi.DescStorageBuffer, Slot: 1}: make([]byte, 4*n), {Kind: abi.DescStorageBuffer, Slot: 2}: wordsBytes(ys)}
		ref := &Launch{Groups: [3]uint32{groups, 1, 1}, Threads: 16, Buffers: cloneBufs(bufs)}
		got := &Launch{Groups: ref.Groups, Threads: 16, Buffers: cloneBufs(bufs)}
		if err := runIR(p, ref); err != nil {
			t.Fatalf("%s: executor: %v", c.name, err)
		}
		if _, err := Run(k, got); err != nil {
			t.Fatalf("%s: machine code: %v", c.name, err)
		}
		out := Binding{Kind: abi.DescStorageBuffer, Slot: 1}
		var worstU uint64
		var worstA, worstR float64
		bad := 0
		for i := range n {
			w := binary.LittleEndian.Uint32(ref.Buffers[out][4*i:])
			m := binary.LittleEndian.Uint32(got.Buffers[out][4*i:])
			if w == m || (isNaN(w) && isNaN(m)) {
				continue
			}
			if c.name == "pow" && math.Float32frombits(xs[i]) < 0 {
				continue // GLSL: undefined; the executor's math.Pow has a value for integral y
			}
			if fx, fy := math.Float32frombits(xs[i]), math.Float32frombits(ys[i]); c.name == "atan2" &&
				((fx == 0 && fy == 0) || (math.IsInf(float64(fx), 0) && math.IsInf(float64(fy), 0))) {
				continue // atan(0, 0) and atan(±inf, ±inf): GLSL leaves them undefined (NaN here)
			}
			if (c.name == "sin" || c.name == "cos" || c.name == "tan") && math.Abs(float64(math.Float32frombits(xs[i]))) > 8192 {
				continue // outside the reduction's stated domain (transc.go)
			}
			fw, fm := float64(math.Float32frombits(w)), float64(math.Float32frombits(m))
			u := ulpDist(w, m)
			ab := math.Abs(fw - fm)
			rel := ab / math.Abs(fw)
			worstU, worstA, worstR = max(worstU, u), max(worstA, ab), max(worstR, rel)
			ok := !isNaN(w) && !isNaN(m) && !math.IsInf(fw, 0) && !math.IsInf(fm, 0) &&
				(u <= c.b.ulps || ab <= c.b.abs || rel <= c.b.rel)
			if !ok {
				if bad < 6 {
					t.Errorf("%s(%g, %g) [%08x]: executor %g (%08x), machine code %g (%08x): %d ulp, abs %g, rel %g",
						c.name, math.Float32frombits(xs[i]), math.Float32frombits(ys[i]), xs[i], fw, w, fm, m, u, ab, rel)
				}
				bad++
			}
		}
		t.Logf("%s: %d instructions; worst %d ulp, abs %g, rel %g; %d out of bound", c.name, len(k.Code), worstU, worstA, worstR, bad)
	}
}
