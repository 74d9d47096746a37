package program

import (
	"testing"

	"vortexgfx/ref"
)

// TestGeometryWideOutput: a geometry shader may output
// gl_MaxGeometryOutputComponents (128) user components besides
// gl_Position, a vertex layout wider than the vertex stage's 64; the
// last of them reaches the fragment shader. spec: GLSL 1.50 §7.4.
func TestGeometryWideOutput(t *testing.T) {
	const vs = `#version 150
in vec4 pos;
void main() { gl_Position = pos; }`
	const gs = `#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
out vec4 m[32];
void main() {
	for (int p = 0; p < 3; p++) {
		for (int i = 0; i < 32; i++) m[i] = vec4(float(i) / 64.0);
		m[31] = vec4(0.25, 0.5, 0.75, 1.0);
		gl_Position = gl_in[p].gl_Position;
		EmitVertex();
	}
}`
	const fs = `#version 150
in vec4 m[32];
out vec4 o;
void main() { o = m[31] + vec4(m[30].x - 30.0 / 64.0); }`
	p := compileStages(t, vs, gs, fs)
	if p.IR.GS.OutputWords != 4+128 {
		t.Fatalf("geometry output record of %d words, want 132", p.IR.GS.OutputWords)
	}
	pos := [][4]float32{{-1, -1, 0, 1}, {1, -1, 0, 1}, {-1, 1, 0, 1}, {1, 1, 0, 1}}
	tg := drawStages(t, p, vertexData(t, p, map[string][][4]float32{"pos": pos}, 4), ref.TriangleStrip, 4)
	for _, xy := range [][2]int{{0, 0}, {8, 8}, {15, 15}} {
		if got, want := pixel(tg, xy[0], xy[1]), [4]byte{64, 128, 191, 255}; got != want {
			t.Errorf("pixel %v = %v, want %v", xy, got, want)
		}
	}
}
