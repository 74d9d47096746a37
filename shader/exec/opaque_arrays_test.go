package exec

import (
	"slices"
	"testing"

	"vortexgfx/shader/ir"
)

// TestComputeOpaqueArrays runs arrays (of arrays) of images, one binding per
// element in row-major order, indexed by constants and at run time (each
// index clamped to its dimension), and an array of arrays of atomic counters
// (consecutive words).
func TestComputeOpaqueArrays(t *testing.T) {
	src := `#version 430
layout(local_size_x = 4) in;
layout(r32ui, binding = 2) uniform uimage2D img[2][2];
layout(binding = 0) uniform atomic_uint c[2][3];
void main() {
	int i = int(gl_LocalInvocationIndex);
	imageStore(img[i / 2][i % 2], ivec2(0, 0), uvec4(10u + uint(i)));
	imageStore(img[1][0], ivec2(1, 0), uvec4(imageSize(img[i][0]).x));
	imageAtomicAdd(img[0][i], ivec2(1, 0), 1u);
	atomicCounterIncrement(c[i / 3][i]);
	atomicCounterIncrement(c[1][2]);
}
`
	wg := compile(t, src, 4)
	p := wg.Program()
	var names []string
	var binds []uint32
	for _, b := range p.Images {
		names, binds = append(names, b.Name), append(binds, b.Binding)
	}
	if want := []string{"img[0][0]", "img[0][1]", "img[1][0]", "img[1][1]"}; !slices.Equal(names, want) || !slices.Equal(binds, []uint32{2, 3, 4, 5}) {
		t.Errorf("images %v at %v, want %v at 2..5", names, binds, want)
	}
	if len(p.Counters) != 1 || p.Counters[0].Count != 6 {
		t.Errorf("counters %+v, want one binding of 6", p.Counters)
	}
	mem := newSliceMemory()
	for b := uint32(2); b < 6; b++ {
		mem.image[b], mem.extent[b], mem.format[b] = make([]uint32, 2*int(b)), [3]uint32{b, 2, 1}, ir.FormatR32UI
	}
	mem.counter[0] = make([]uint32, 6)
	runGrid(t, wg, [3]uint32{1, 1, 1}, mem)
	// img[i][0] for i = 2, 3 clamps to img[1][0] (width 4); lanes 0, 1 read
	// img[0][0], img[1][0]: widths 2 and 4, the last store (lane 3) wins.
	// imageAtomicAdd: img[0][min(i, 1)] at (1, 0): 1 and 3 adds.
	want := map[uint32][]uint32{
		2: {10, 1, 0, 0},
		3: {11, 3, 0, 0, 0, 0},
		4: {12, 4, 0, 0, 0, 0, 0, 0},
		5: {13, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	}
	for b, w := range want {
		if !slices.Equal(mem.image[b], w) {
			t.Errorf("img binding %d = %v, want %v", b, mem.image[b], w)
		}
	}
	// c[i/3][i] clamps i to 2: lanes 0, 1, 2 → c[0][0..2], lane 3 → c[1][2];
	// plus c[1][2] four times.
	if got, want := mem.counter[0], []uint32{1, 1, 1, 0, 0, 5}; !slices.Equal(got, want) {
		t.Errorf("counters = %v, want %v", got, want)
	}
}
