package pipe

import (
	"errors"
	"testing"
)

// TestCullDistance draws two triangles whose gl_CullDistance[0] is negative at
// every vertex of the left one: the reference renderer discards it before
// clipping and draws the right one; the device's setup has no cull test, so
// the draw is a counted GateDeviceBackend fallback and a STRICT error.
// spec: ARB_cull_distance
func TestCullDistance(t *testing.T) {
	const vs = `#version 130
#extension GL_ARB_cull_distance : enable
in vec4 pos;
out float gl_CullDistance[1];
void main() { gl_Position = pos; gl_CullDistance[0] = pos.x < 0.0 ? -1.0 : 0.5; }
`
	const fs = `#version 130
out vec4 o;
void main() { o = vec4(1.0); }
`
	for _, strict := range []bool{true, false} {
		e := newDrawEnv(t, Options{Strict: strict}, false)
		e.program(t, vs, fs)
		vb := e.floats(t,
			-0.9, -0.9, 0, 1, -0.1, -0.9, 0, 1, -0.5, 0.9, 0, 1, // left: culled
			0.1, -0.9, 0, 1, 0.9, -0.9, 0, 1, 0.5, 0.9, 0, 1) // right: drawn
		ve, err := e.c.CreateVertexElementsState([]VertexElement{{Format: VertexFloat32x4}})
		if err != nil {
			t.Fatal(err)
		}
		e.c.BindVertexElementsState(ve)
		e.c.SetVertexBuffers([]VertexBuffer{{Buffer: vb, Stride: 16}})
		err = e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 6}}})
		var se *StrictError
		if strict {
			if !errors.As(err, &se) || se.Reasons[0].Code != GateDeviceBackend {
				t.Errorf("STRICT: %v", err)
			}
			continue
		}
		if err != nil || e.c.Stats().Fallbacks[GateDeviceBackend] != 1 {
			t.Fatalf("fallback: %v %+v", err, e.c.Stats())
		}
		img := e.image(t)
		at := func(x, y int) byte { return img.Pix[img.PixOffset(x, y)] }
		if l, r := at(e.w/4, e.h/2), at(3*e.w/4, e.h/2); l != 0 || r != 255 {
			t.Errorf("left triangle %d (want culled, 0), right %d (want 255)", l, r)
		}
	}
}
