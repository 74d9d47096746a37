package exec

import (
	"math"
	"slices"
	"testing"
)

// TestComputeRowMajorBlocks stores and loads row_major matrices of storage
// blocks at the offsets OpenGL 4.5 §7.6.2.2 rule 7 gives (Rows row vectors of
// Cols components), under std430 and std140, through whole matrices,
// constant and dynamic columns, components and swizzles, and a struct member
// that inherits row_major; a column_major member beside them stays by columns.
func TestComputeRowMajorBlocks(t *testing.T) {
	src := `#version 430
layout(local_size_x = 1) in;
struct S { mat2x3 a; float f; };
layout(std430, binding = 0) buffer B {
	layout(row_major) mat3x2 m;
	float after;
	layout(row_major) S s;
	mat2 cm;
} b;
layout(std140, row_major, binding = 1) buffer B140 { mat2x3 n; float g; };
layout(std430, binding = 2) buffer O { float o[]; };
void main() {
	b.m = mat3x2(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
	b.after = 7.0;
	b.s.a = mat2x3(11.0, 12.0, 13.0, 14.0, 15.0, 16.0);
	b.s.f = 17.0;
	int i = int(b.after) - 6;
	o[0] = b.m[i][1];
	o[1] = b.m[2].x;
	vec2 c = b.m[i];
	o[2] = c.x;
	o[3] = c.y;
	b.m[0][i] = 9.0;
	o[4] = b.s.a[1][2];
	b.cm = mat2(21.0, 22.0, 23.0, 24.0);
	o[5] = b.m[0].y;
	b.m[i].yx = vec2(31.0, 32.0);
	n = mat2x3(41.0, 42.0, 43.0, 44.0, 45.0, 46.0);
	g = 47.0;
	o[6] = n[1][i];
	o[7] = (b.m * vec3(1.0, 0.0, 0.0)).y;
}
`
	mem := newSliceMemory()
	mem.buf[0], mem.buf[1], mem.buf[2] = make([]uint32, 20), make([]uint32, 12), make([]uint32, 8)
	runGrid(t, compile(t, src, 1), [3]uint32{1, 1, 1}, mem)
	f := func(w []uint32) []float32 {
		out := make([]float32, len(w))
		for i, x := range w {
			out[i] = math.Float32frombits(x)
		}
		return out
	}
	// std430: m's rows (vec3, stride 16) at 0 and 16, after at 32, s (align 8)
	// at 40: a's rows (vec2, stride 8) at 40, 48, 56, f at 64; cm at 72.
	want0 := []float32{1, 32, 5, 0, 9, 31, 6, 0, 7, 0, 11, 14, 12, 15, 13, 16, 17, 0, 21, 22}
	if got := f(mem.buf[0]); !slices.Equal(got, want0) {
		t.Errorf("std430 block = %v, want %v", got, want0)
	}
	// std140: n's rows (vec2, stride 16) at 0, 16, 32; g at 48 would be past
	// the 12 words bound: the store is dropped (robust access).
	want1 := []float32{41, 44, 0, 0, 42, 45, 0, 0, 43, 46, 0, 0}
	if got := f(mem.buf[1]); !slices.Equal(got, want1) {
		t.Errorf("std140 block = %v, want %v", got, want1)
	}
	want2 := []float32{4, 5, 3, 4, 16, 9, 45, 9}
	if got := f(mem.buf[2]); !slices.Equal(got, want2) {
		t.Errorf("results = %v, want %v", got, want2)
	}
}
