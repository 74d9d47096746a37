package program

import (
	"errors"
	"testing"

	"vortexgfx/ref"
	"vortexgfx/shader/ir"
)

// TestGeometryInvocations draws through an instanced geometry shader
// (ARB_gpu_shader5's layout(invocations = N) and gl_InvocationID): each of
// four invocations of one point fills its own quadrant, and the emitted
// primitives reach the rasterizer primitive by primitive, each primitive's
// invocations in order (GL 4.6 §11.3.4.2), so the later of two overlapping
// quads wins by that order.
func TestGeometryInvocations(t *testing.T) {
	const vs = "#version 150\nin vec4 pos; void main() { gl_Position = pos; }"
	const fs = "#version 150\nin vec4 gcol; out vec4 o; void main() { o = gcol; }"
	const quadrants = `#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points, invocations = 4) in;
layout(triangle_strip, max_vertices = 4) out;
out vec4 gcol;
void main() {
	vec2 o = vec2(float(gl_InvocationID & 1), float(gl_InvocationID / 2)) - 1.0;
	for (int k = 0; k < 4; k++) {
		gl_Position = vec4(o + vec2(float(k & 1), float(k / 2)), 0.0, 1.0);
		gcol = vec4(float(gl_InvocationID) / 4.0, 1.0, 0.0, 1.0);
		EmitVertex();
	}
}`
	p := compileStages(t, vs, quadrants, fs)
	if got := p.IR.GS.Geometry.NumInvocations(); got != 4 {
		t.Fatalf("%d invocations, want 4", got)
	}
	tg := drawStages(t, p, vertexData(t, p, map[string][][4]float32{"pos": {{0, 0, 0, 1}}}, 1), ref.Points, 1)
	for _, c := range []struct {
		x, y int
		red  byte
	}{{2, 2, 0}, {12, 2, 64}, {2, 12, 128}, {12, 12, 191}} {
		if got := pixel(tg, c.x, c.y); got != [4]byte{c.red, 255, 0, 255} {
			t.Errorf("pixel %d,%d: %v, want [%d 255 0 255] (invocation %d)", c.x, c.y, got, c.red, int(c.red)/64)
		}
	}
	// Two points, two invocations each; only (primitive 0, invocation 1)
	// and (primitive 1, invocation 0) draw, full-window quads coloured
	// (primitive, invocation): primitive-major order draws (1, 0) last.
	const order = `#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points, invocations = 2) in;
layout(triangle_strip, max_vertices = 4) out;
out vec4 gcol;
void main() {
	if (gl_PrimitiveIDIn + gl_InvocationID != 1)
		return;
	for (int k = 0; k < 4; k++) {
		gl_Position = vec4(float(k & 1) * 2.0 - 1.0, float(k / 2) * 2.0 - 1.0, 0.0, 1.0);
		gcol = vec4(float(gl_PrimitiveIDIn), float(gl_InvocationID), 0.0, 1.0);
		EmitVertex();
	}
}`
	q := compileStages(t, vs, order, fs)
	tg = drawStages(t, q, vertexData(t, q, map[string][][4]float32{"pos": {{0, 0, 0, 1}, {0, 0, 0, 1}}}, 2), ref.Points, 2)
	if got := pixel(tg, 8, 8); got != [4]byte{255, 0, 0, 255} {
		t.Errorf("pixel 8,8: %v, want [255 0 0 255] (primitive 1's invocation 0 drawn last)", got)
	}
}

// TestSetBlockUniform sets members of the elements of a uniform block array
// by the GL name "Block.member" and a block index (piglit's "ubo array
// index"), and refuses an index past the array.
func TestSetBlockUniform(t *testing.T) {
	vs := "#version 150\nin vec4 pos;\nvoid main() { gl_Position = pos; }\n"
	fs := `#version 150
uniform B { vec4 c; } arr[3];
out vec4 o;
void main() { o = arr[0].c * 0.25 + arr[2].c; }
`
	p := link(t, vs, fs)
	set := func(block int, v [4]float32) error {
		w := make([]uint32, 4)
		for i := range v {
			w[i] = fbits(v[i])
		}
		return p.SetBlockUniform("B.c", block, ir.F32, w)
	}
	if err := set(0, [4]float32{1, 0, 0, 1}); err != nil {
		t.Fatal(err)
	}
	if err := set(2, [4]float32{0, 0.5, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if err := set(3, [4]float32{}); !errors.Is(err, ErrNoUniform) {
		t.Errorf("block index 3 of 3: %v, want ErrNoUniform", err)
	}
	tg := draw(t, p, vertexData(t, p, map[string][][4]float32{"pos": fullRect}, 4), ref.TriangleStrip, 4, nil)
	if got, want := pixel(tg, 2, 2), [4]byte{64, 128, 0, 64}; got != want {
		t.Errorf("pixel = %v, want %v", got, want)
	}
	// An array of arrays of blocks numbers them row-major: block 5 of
	// [3][2] is arr2[2][1].
	fs2 := `#version 150
#extension GL_ARB_arrays_of_arrays : require
uniform B { vec4 c; } arr2[3][2];
out vec4 o;
void main() { o = arr2[2][1].c + arr2[0][1].c * 0.5; }
`
	p2 := link(t, vs, fs2)
	for _, s := range []struct {
		block int
		v     float32
	}{{5, 0.5}, {1, 1}} {
		if err := p2.SetBlockUniform("B.c", s.block, ir.F32, []uint32{fbits(s.v), 0, 0, fbits(s.v)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := p2.SetBlockUniform("B.c", 6, ir.F32, []uint32{0}); !errors.Is(err, ErrNoUniform) {
		t.Errorf("block index 6 of 3x2: %v, want ErrNoUniform", err)
	}
	tg = draw(t, p2, vertexData(t, p2, map[string][][4]float32{"pos": fullRect}, 4), ref.TriangleStrip, 4, nil)
	if got, want := pixel(tg, 2, 2), [4]byte{255, 0, 0, 255}; got != want {
		t.Errorf("arrays of arrays: pixel = %v, want %v", got, want)
	}
}
