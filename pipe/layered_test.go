package pipe

import (
	"testing"

	"vortexgfx/gl/format"
)

// gsLayers sends each triangle to layers 0, 1 and 2 with a colour per layer
// (layer 2's gl_Layer is out of range for a 2-layer target: layer 0).
const gsLayers = `#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 9) out;
out vec4 g_col;
void main() {
	for (int layer = 0; layer < 3; layer++) {
		for (int i = 0; i < 3; i++) {
			gl_Position = gl_in[i].gl_Position;
			g_col = vec4(layer == 1 ? 1.0 : 0.0, 0.0, layer == 2 ? 1.0 : 0.0, 1.0);
			gl_Layer = layer;
			EmitVertex();
		}
		EndPrimitive();
	}
}
`

// TestLayeredFramebuffer: a layered attachment (Surface.Layered) of a 2D
// array texture takes each primitive into the layer its gl_Layer selects
// (out of range: layer 0, drawn after layer 0's own primitive), a clear
// fills every layer, and without a geometry stage everything lands in layer
// 0. spec: GL 4.6 §9.8, §11.3.4.6
func TestLayeredFramebuffer(t *testing.T) {
	for _, gs := range []bool{true, false} {
		e := newDrawEnv(t, Options{}, false)
		arr, err := e.s.CreateTexture(TextureDesc{Target: Target2DArray, Format: format.RGBA8, Width: e.w, Height: e.h, Depth: 1, ArraySize: 2, Levels: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.c.SetFramebufferState(Framebuffer{Width: e.w, Height: e.h, Cbufs: []*Surface{{Resource: arr, Layered: true}}}); err != nil {
			t.Fatal(err)
		}
		if gs {
			e.program(t, testVS, gsPassFS)
			e.bindGS(t, gsLayers)
		} else {
			e.program(t, testVS, testFS)
		}
		e.posCol(t, quadVerts(0, [4]float32{0, 1, 0, 1}, -1, -1, 1, 1)...)
		if err := e.c.Clear(ClearColor, [4]float32{0.5, 0.5, 0.5, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
		if err := e.c.Finish(); err != nil {
			t.Fatal(err)
		}
		px := make([]byte, arr.Size())
		if err := arr.Read(0, px); err != nil {
			t.Fatal(err)
		}
		layer := func(k int) []byte { return px[k*4*e.w*e.h : k*4*e.w*e.h+4] }
		want0, want1 := []byte{0, 0, 255, 255}, []byte{255, 0, 0, 255} // layer 2's blue lands on layer 0 last
		if !gs {
			want0, want1 = []byte{0, 255, 0, 255}, []byte{128, 128, 128, 255}
		}
		if got := layer(0); string(got) != string(want0) {
			t.Errorf("gs %v: layer 0 pixel %v, want %v", gs, got, want0)
		}
		if got := layer(1); string(got) != string(want1) {
			t.Errorf("gs %v: layer 1 pixel %v, want %v", gs, got, want1)
		}
	}
}
