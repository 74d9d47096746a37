package om

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/gl/compare"
)

// TestDepthColorMatchesGeneral: for every state the depthColor path takes
// (each depth compare, depth writes on and off, stencil ops that the
// disabled stencil never applies, stored stencil bits) and the states next
// to it that it must not take (stencil on, blending, a partial colour mask,
// no depth test), a unit on the specialised path and one forced onto the
// general path write the same bytes, report the same traffic and the same
// pass for the same random fragments, out-of-framebuffer ones included.
// spec: vortex-hardware-facts §5
func TestDepthColorMatchesGeneral(t *testing.T) {
	type state map[abi.DCR]uint32
	var states []state
	for _, fn := range []abi.CompareFunc{abi.CmpAlways, abi.CmpNever, abi.CmpLess, abi.CmpLEqual, abi.CmpEqual, abi.CmpGEqual, abi.CmpGreater, abi.CmpNotEqual} {
		for _, zw := range []uint32{0, 1} {
			states = append(states, state{abi.DCROMDepthFunc: uint32(fn), abi.DCROMDepthWriteMask: zw,
				abi.DCROMStencilFail: uint32(abi.StencilIncr) | uint32(abi.StencilZero)<<16, abi.DCROMStencilRef: 0x33})
		}
	}
	less := uint32(abi.CmpLess)
	states = append(states,
		state{abi.DCROMDepthFunc: less, abi.DCROMDepthWriteMask: 1, abi.DCROMStencilFunc: uint32(abi.CmpAlways),
			abi.DCROMStencilZPass: uint32(abi.StencilReplace), abi.DCROMStencilRef: 0x42, abi.DCROMStencilMask: 0xFF, abi.DCROMStencilWriteMask: 0xFF},
		state{abi.DCROMDepthFunc: less, abi.DCROMDepthWriteMask: 1, abi.DCROMStencilFunc: uint32(abi.CmpEqual) << 16,
			abi.DCROMStencilMask: 0xFF << 16, abi.DCROMStencilWriteMask: 0xFF << 16},
		state{abi.DCROMDepthFunc: less, abi.DCROMDepthWriteMask: 1, abi.DCROMBlendFunc: abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendOne, abi.BlendOne)},
		state{abi.DCROMDepthFunc: less, abi.DCROMDepthWriteMask: 1, abi.DCROMCBufWriteMask: 0x7},
		state{abi.DCROMDepthFunc: less, abi.DCROMDepthWriteMask: 1, abi.DCROMCBufWriteMask: 0},
		state{},
	)
	r := rand.New(rand.NewPCG(3, 5))
	taken := 0
	for si, w := range states {
		init := make(mem, 4096)
		for i := range init {
			init[i] = byte(r.Uint32())
		}
		ma, mb, mc := append(mem(nil), init...), append(mem(nil), init...), append(mem(nil), init...)
		fast, gen, direct := bind(t, ma, w), bind(t, mb, w), bind(t, mc, w)
		if fast.depthColor {
			taken++
		}
		gen.depthColor = false
		for i := 0; i < 400; i++ {
			x, y := r.IntN(6)-1, r.IntN(6)-1
			face, color, depth := r.Uint32()&1, r.Uint32(), r.Uint32()
			if i%3 == 0 { // near the stored depth, so both outcomes of every compare occur
				depth = binary.LittleEndian.Uint32(ma[zAt+16*max(y, 0)+4*max(x, 0):]) + uint32(r.IntN(3)) - 1
			}
			var aa, ab Access
			pa := fast.ExportAccess(x, y, face, color, depth, &aa)
			pb := gen.ExportAccess(x, y, face, color, depth, &ab)
			if pa != pb || aa != ab {
				t.Fatalf("state %d fragment %d (%d,%d): pass %v %+v, general path %v %+v", si, i, x, y, pa, aa, pb, ab)
			}
			if !direct.DepthColor() {
				continue
			}
			// ExportDepthColor: the general path's traffic as bits, its
			// addresses (zero for a dropped fragment) and its pass.
			f, za, ca := direct.ExportDepthColor(x, y, color, depth)
			want := uint32(b2i(ab.ZRead) | b2i(ab.CRead)<<1 | b2i(ab.ZWrite)<<2 | b2i(ab.CWrite)<<3)
			if f != want || (f != 0 && (za != ab.ZAddr || ca != ab.CAddr)) || (f == 0 && (za != 0 || ca != 0)) || (f&TrafficCWrite != 0) != pb {
				t.Fatalf("state %d fragment %d (%d,%d): ExportDepthColor %04b 0x%x 0x%x, general path pass %v %+v", si, i, x, y, f, za, ca, pb, ab)
			}
		}
		if !bytes.Equal(ma, mb) {
			t.Fatalf("state %d: the depthColor path wrote other bytes than the general path", si)
		}
		if direct.DepthColor() && !bytes.Equal(mc, mb) {
			t.Fatalf("state %d: ExportDepthColor wrote other bytes than the general path", si)
		}
	}
	if taken != 15 { // 8 compares × depth writes on/off, less ALWAYS without writes (no depth test)
		t.Errorf("%d states took the depthColor path, want the 15 depth-tested ones", taken)
	}
}

// b2i is 1 for true.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestPassTable: the depth compare as a table on order's three outcomes
// answers as the compare function itself, for every function on the
// boundary values of the 24-bit depth and random pairs.
func TestPassTable(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 1))
	vals := []uint32{0, 1, 2, abi.DepthMask - 1, abi.DepthMask, 0x800000}
	for range 200 {
		vals = append(vals, r.Uint32()&abi.DepthMask)
	}
	for fn := compare.Func(0); fn < compare.NumFuncs; fn++ {
		tab := passTable(fn)
		for _, a := range vals {
			for _, b := range vals {
				if got, want := tab>>order(a, b)&1 != 0, fn.TestUint(a, b); got != want {
					t.Fatalf("%v(0x%x, 0x%x): table %v, compare %v", fn, a, b, got, want)
				}
			}
		}
	}
}
