package lower

import (
	"context"
	"math"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// lowerGeom compiles and lowers a VS+GS+FS program.
func lowerGeom(t *testing.T, vs, gs, fs string) *Program {
	t.Helper()
	var units []*glsl.Shader
	for i, src := range []string{vs, gs, fs} {
		st := []glsl.Stage{glsl.Vertex, glsl.Geometry, glsl.Fragment}[i]
		sh, err := glsl.Compile("u", src, st, glsl.Options{})
		if err != nil {
			t.Fatalf("stage %d: %v", i, err)
		}
		units = append(units, sh)
	}
	lp, err := glsl.LinkShaders(units...)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Lower(lp)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLowerGeometry runs a lowered geometry program on hand-made vertex
// records: gl_in[], a user per-vertex array read with a dynamic index, an
// input block array, gl_PrimitiveIDIn, and two triangles emitted per input
// with an EndPrimitive between them; the fragment stage's inputs land on
// the geometry outputs' words.
func TestLowerGeometry(t *testing.T) {
	const vs = `#version 150
in vec4 p; out float c; out B { vec2 tc; } b;
void main() { gl_Position = p; c = p.x; b.tc = p.zw; }`
	const gs = `#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
in float c[]; in B { vec2 tc; } b[];
out vec4 col; flat out int prim;
void main() {
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < gl_in.length(); i++) {
			gl_Position = gl_in[i].gl_Position + vec4(float(k), 0.0, 0.0, 0.0);
			col = vec4(c[i], b[i].tc, float(k));
			prim = gl_PrimitiveIDIn;
			EmitVertex();
		}
		EndPrimitive();
	}
}`
	const fs = `#version 150
in vec4 col; flat in int prim; out vec4 o;
void main() { o = col + vec4(float(prim)); }`
	p := lowerGeom(t, vs, gs, fs)
	g := p.GS
	if g == nil || g.Stage != ir.Geometry {
		t.Fatal("no geometry program")
	}
	if g.Geometry.In != ir.PrimTriangles || g.Geometry.Out != ir.PrimTriangleStrip || g.Geometry.MaxVertices != 6 ||
		int(g.Geometry.VertexWords) != p.VS.OutputWords {
		t.Fatalf("layout %+v (VS output words %d)", g.Geometry, p.VS.OutputWords)
	}
	if len(p.Varyings) != len(g.Outputs) {
		t.Fatalf("Varyings are not the geometry outputs")
	}
	word := func(slots []ir.Slot, name string) int {
		for _, s := range slots {
			if s.Name == name {
				return s.Word
			}
		}
		t.Fatalf("no slot %q in %+v", name, slots)
		return -1
	}
	for _, in := range p.FS.Inputs {
		if in.Name == "col" && in.Word != word(g.Outputs, "col") || in.Name == "prim" && in.Word != word(g.Outputs, "prim") {
			t.Errorf("fragment input %s at word %d does not match the geometry output", in.Name, in.Word)
		}
	}
	m, err := exec.New(g, exec.Config{Width: 4})
	if err != nil {
		t.Fatal(err)
	}
	// Run the vertex program on 3 vertices, then hand its records to the GS
	// in lane 1 with gl_PrimitiveIDIn 7.
	vm, err := exec.New(p.VS, exec.Config{Width: 4})
	if err != nil {
		t.Fatal(err)
	}
	pos := [3][4]float32{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}
	for v := 0; v < 3; v++ {
		for k := 0; k < 4; k++ {
			vm.Input(k)[v] = math.Float32bits(pos[v][k])
		}
	}
	if _, err := vm.Run(context.Background(), 7, 7); err != nil {
		t.Fatal(err)
	}
	stride := p.VS.OutputWords
	for v := 0; v < 3; v++ {
		for w := 0; w < stride; w++ {
			m.Input(v*stride + w)[1] = vm.Output(w)[v]
		}
	}
	m.Input(g.Geometry.PrimitiveIDWord())[1] = 7
	if _, err := m.Run(context.Background(), 2, 2); err != nil {
		t.Fatal(err)
	}
	n, words, restart := m.Emitted(1)
	if n != 6 {
		t.Fatalf("%d vertices, want 6", n)
	}
	ow := g.OutputWords
	cw, pw := word(g.Outputs, "col"), word(g.Outputs, "prim")
	for i := 0; i < n; i++ {
		k, v := i/3, i%3
		rec := words[i*ow : (i+1)*ow]
		if got := math.Float32frombits(rec[0]); got != pos[v][0]+float32(k) {
			t.Errorf("vertex %d: gl_Position.x %v, want %v", i, got, pos[v][0]+float32(k))
		}
		wantCol := [4]float32{pos[v][0], pos[v][2], pos[v][3], float32(k)}
		for j := 0; j < 4; j++ {
			if got := math.Float32frombits(rec[cw+j]); got != wantCol[j] {
				t.Errorf("vertex %d: col[%d] %v, want %v", i, j, got, wantCol[j])
			}
		}
		if rec[pw] != 7 {
			t.Errorf("vertex %d: prim %d, want 7", i, rec[pw])
		}
		if restart[i] != (v == 0) {
			t.Errorf("vertex %d: restart %v", i, restart[i])
		}
	}
	if n, _, _ := m.Emitted(0); n != 0 {
		t.Errorf("absent lane emitted %d", n)
	}
}
