package om

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"vortexgfx/abi"
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
		ma, mb := append(mem(nil), init...), append(mem(nil), init...)
		fast, gen := bind(t, ma, w), bind(t, mb, w)
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
		}
		if !bytes.Equal(ma, mb) {
			t.Fatalf("state %d: the depthColor path wrote other bytes than the general path", si)
		}
	}
	if taken != 15 { // 8 compares × depth writes on/off, less ALWAYS without writes (no depth test)
		t.Errorf("%d states took the depthColor path, want the 15 depth-tested ones", taken)
	}
}
