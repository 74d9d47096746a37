package lower

import (
	"context"
	"errors"
	"math/bits"
	"strings"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// fixedMemory backs every binding of every space with 64 words and every image
// with a 4×4×2 extent (64 words hold a 4×4×2 rgba16f or r32 image; larger texels
// fall partly out of bounds, which the executor handles).
type fixedMemory struct{ words map[[2]uint32][]uint32 }

func (m *fixedMemory) w(s ir.Space, b uint32) []uint32 {
	k := [2]uint32{uint32(s), b}
	if m.words[k] == nil {
		m.words[k] = make([]uint32, 64)
	}
	return m.words[k]
}

func (m *fixedMemory) Load(s ir.Space, b uint32, addr []uint32, mask uint64, out []uint32) error {
	w := m.w(s, b)
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		out[l] = w[addr[l]/4]
	}
	return nil
}

func (m *fixedMemory) Store(s ir.Space, b uint32, addr []uint32, mask uint64, val []uint32) error {
	w := m.w(s, b)
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		w[addr[l]/4] = val[l]
	}
	return nil
}

func (m *fixedMemory) Atomic(op ir.AtomicOp, s ir.Space, b uint32, addr, val, cmp []uint32, mask uint64, out []uint32) error {
	w := m.w(s, b)
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		old := w[addr[l]/4]
		w[addr[l]/4] = ir.AtomicResult(op, old, val[l], cmp[l])
		out[l] = old
	}
	return nil
}

func (m *fixedMemory) Size(ir.Space, uint32) uint32 { return 256 }
func (m *fixedMemory) ImageExtent(uint32) [3]uint32 { return [3]uint32{4, 4, 2} }
func newFixedMemory() *fixedMemory                  { return &fixedMemory{words: map[[2]uint32][]uint32{}} }

// FuzzCompute compiles arbitrary compute shaders; whatever the front end accepts
// must lower into IR that verifies and runs one bounded workgroup (buffers,
// shared memory, images, counters and barriers included) without panicking or
// hanging. spec: CONVENTIONS (bad input never panics or hangs).
func FuzzCompute(f *testing.F) {
	f.Add("#version 430\nlayout(local_size_x = 4) in;\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { v[gl_LocalInvocationIndex] = gl_GlobalInvocationID.x; }\n")
	f.Add("#version 430\nlayout(local_size_x = 8) in;\nshared float s[8];\nlayout(std430, binding = 1) buffer O { float r; };\nvoid main() { s[gl_LocalInvocationIndex] = 1.0; barrier(); if (gl_LocalInvocationIndex == 0u) { for (int i = 1; i < 8; i++) s[0] += s[i]; r = s[0]; } }\n")
	f.Add("#version 310 es\nlayout(local_size_x = 2, local_size_y = 2) in;\nlayout(r32ui, binding = 0) uniform highp uimage2D img;\nvoid main() { imageAtomicAdd(img, ivec2(gl_LocalInvocationID.xy), 1u); }\n")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := compileCompute("fuzz.comp", src, glsl.Options{})
		if err != nil {
			// Diagnostics are fine; a program the front end accepts but the
			// lowering cannot verify, or a recovered panic, is a compiler bug.
			if strings.Contains(err.Error(), "internal") {
				t.Fatal(err)
			}
			return
		}
		if err := ir.Verify(p); err != nil {
			t.Fatalf("lowered program does not verify: %v", err)
		}
		if p.Invocations() > 64 {
			return // keep runs short
		}
		wg, err := exec.NewWorkgroup(p, exec.Config{Width: 4, MaxSteps: 20000})
		if err != nil {
			t.Fatal(err)
		}
		wg.SetSampler(zeroSampler{})
		if err := wg.SetUniforms(make([]uint32, p.UniformWords)); err != nil {
			t.Fatal(err)
		}
		err = wg.Run(context.Background(), exec.WorkgroupIDs{Num: [3]uint32{1, 1, 1}}, newFixedMemory())
		if err != nil && !errors.Is(err, exec.ErrBudget) {
			t.Fatal(err)
		}
	})
}
