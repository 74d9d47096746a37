package exec

import (
	"slices"
	"testing"
)

// TestComputeImplicitSizes runs length() of implicitly sized arrays (a local
// and a buffer block member before the runtime-sized last one, each sized by
// its largest constant index), the runtime-sized member laid out after the
// sized one, and its length from the bound buffer. spec: GLSL 4.30 §4.1.9.
func TestComputeImplicitSizes(t *testing.T) {
	src := `#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float s[]; float r[]; } b;
layout(std430, binding = 1) buffer O { int o[]; };
void main() {
	float a[];
	o[0] = a.length();
	a[4] = 1.0;
	b.s[2] = 5.0;
	b.r[0] = 7.0;
	o[1] = b.s.length();
	o[2] = b.r.length();
	o[3] = int(a[4] + b.s[2]);
}
`
	mem := newSliceMemory()
	mem.buf[0], mem.buf[1] = make([]uint32, 5), make([]uint32, 4)
	runGrid(t, compile(t, src, 1), [3]uint32{1, 1, 1}, mem)
	// s takes 3 words (s[2] is its largest index), r starts at word 3 and the
	// 5-word buffer leaves it 2 elements.
	if got, want := mem.buf[1], []uint32{5, 3, 2, 6}; !slices.Equal(got, want) {
		t.Errorf("lengths = %v, want %v", got, want)
	}
	if got, want := mem.buf[0], []uint32{0, 0, 0x40a00000, 0x40e00000, 0}; !slices.Equal(got, want) {
		t.Errorf("block = %#x, want %#x", got, want)
	}
}
