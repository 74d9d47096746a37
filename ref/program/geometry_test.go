package program

import (
	"context"
	"testing"

	"vortexgfx/gl/format"
	"vortexgfx/ref"
	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
)

// compileStages compiles a VS, an optional GS and an FS (GLSL 1.50 core).
func compileStages(t *testing.T, vs, gs, fs string) *Program {
	t.Helper()
	srcs := []shader.Source{{Name: "vs", Stage: glsl.Vertex, Text: vs}, {Name: "fs", Stage: glsl.Fragment, Text: fs}}
	if gs != "" {
		srcs = append(srcs, shader.Source{Name: "gs", Stage: glsl.Geometry, Text: gs})
	}
	cp, err := shader.Compile(srcs...)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(cp, Config{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// drawStages draws count vertices of topo with p's stages (its geometry
// stage when it has one) into a 16×16 target.
func drawStages(t *testing.T, p *Program, in ref.VertexInput, topo ref.Topology, count int) *ref.Target {
	t.Helper()
	const n = 16
	tg, err := ref.NewTarget(n, n, []format.Format{format.RGBA8}, format.Invalid)
	if err != nil {
		t.Fatal(err)
	}
	st := ref.DefaultState(n, n)
	ctx := context.Background()
	vs, err := p.NewVertexShader(ctx, VertexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := p.NewFragmentShader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st.Vertex, st.Fragment, st.Interp = vs, fs, p.Interp(false)
	if p.IR.GS != nil {
		gs, err := p.NewGeometryShader(ctx, VertexOptions{})
		if err != nil {
			t.Fatal(err)
		}
		st.Geometry = gs
	}
	if err := ref.Draw(ctx, tg, &st, in, ref.DrawParams{Topology: topo, Count: count}); err != nil {
		t.Fatal(err)
	}
	return tg
}

const geomVS = `#version 150
in vec4 pos; in vec4 col;
out vec4 vcol; flat out int vid;
void main() { gl_Position = pos; vcol = col; vid = gl_VertexID; }`

// TestGeometryProgram draws through compiled geometry shaders: a
// pass-through one gives the image of no geometry stage (smooth and flat
// varyings, a block in between); one emitting a second, shifted copy of each
// triangle doubles the covered area; gl_PrimitiveIDIn reaches the fragment
// shader through gl_PrimitiveID.
func TestGeometryProgram(t *testing.T) {
	const fs = `#version 150
in vec4 vcol; flat in int vid; out vec4 o;
void main() { o = vcol + vec4(0.0, 0.0, float(vid) / 8.0, 0.0); }`
	const gsPass = `#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 vcol[]; flat in int vid[];
out vec4 gcol; flat out int gid;
void main() {
	for (int i = 0; i < 3; i++) {
		gl_Position = gl_in[i].gl_Position; gcol = vcol[i]; gid = vid[i];
		EmitVertex();
	}
}`
	const fsG = `#version 150
in vec4 gcol; flat in int gid; out vec4 o;
void main() { o = gcol + vec4(0.0, 0.0, float(gid) / 8.0, 0.0); }`
	plain := compileStages(t, geomVS, "", fs)
	pass := compileStages(t, geomVS, gsPass, fsG)
	pos := [][4]float32{{-1, -1, 0, 1}, {0.5, -1, 0, 1}, {-1, 0.5, 0, 1}, {0.5, 0.5, 0, 1}}
	col := [][4]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 0, 1}}
	in := vertexData(t, plain, map[string][][4]float32{"pos": pos, "col": col}, 4)
	inG := vertexData(t, pass, map[string][][4]float32{"pos": pos, "col": col}, 4)
	want := drawStages(t, plain, in, ref.TriangleStrip, 4)
	got := drawStages(t, pass, inG, ref.TriangleStrip, 4)
	covered := 0
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			if pixel(want, x, y) != pixel(got, x, y) {
				t.Fatalf("pixel %d,%d: %v with the pass-through geometry shader, %v without", x, y, pixel(got, x, y), pixel(want, x, y))
			}
			if pixel(want, x, y)[3] != 0 {
				covered++
			}
		}
	}
	if covered == 0 {
		t.Fatal("nothing drawn")
	}

	// Two triangles per input, the second moved right by half the target;
	// gl_PrimitiveID = gl_PrimitiveIDIn picks the colour.
	const gsTwo = `#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
out vec4 gcol;
void main() {
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < 3; i++) {
			gl_Position = gl_in[i].gl_Position + vec4(float(k) * gl_in[i].gl_Position.w, 0.0, 0.0, 0.0);
			gcol = vec4(1.0);
			gl_PrimitiveID = gl_PrimitiveIDIn;
			EmitVertex();
		}
		EndPrimitive();
	}
}`
	const fsTwo = `#version 150
out vec4 o;
void main() { o = vec4(1.0, float(gl_PrimitiveID), 0.0, 1.0); }`
	two := compileStages(t, geomVS, gsTwo, fsTwo)
	tri := [][4]float32{{-1, -1, 0, 1}, {0, -1, 0, 1}, {-1, 0, 0, 1}, {-1, 0, 0, 1}, {0, -1, 0, 1}, {0, 0, 0, 1}}
	tg := drawStages(t, two, vertexData(t, two, map[string][][4]float32{"pos": tri, "col": tri}, 6), ref.Triangles, 6)
	// The left half of the lower half is covered by the inputs, the right
	// half by the copies; primitive 0 is red, primitive 1 yellow.
	for _, c := range []struct {
		x, y int
		want [4]byte
	}{{1, 1, [4]byte{255, 0, 0, 255}}, {9, 1, [4]byte{255, 0, 0, 255}}, {6, 6, [4]byte{255, 255, 0, 255}}, {14, 6, [4]byte{255, 255, 0, 255}}, {4, 12, [4]byte{}}} {
		if got := pixel(tg, c.x, c.y); got != c.want {
			t.Errorf("pixel %d,%d: %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// TestBlockMatchedByName: an unnamed vertex output block feeds a named
// fragment input instance of the same block (blocks match by block name,
// GLSL 1.50 §4.3.7), and per-member interpolation qualifiers hold.
func TestBlockMatchedByName(t *testing.T) {
	const vs = `#version 150
in vec4 pos; in vec4 col;
out B { vec4 c; flat int k; };
void main() { gl_Position = pos; c = col; k = 3; }`
	const fs = `#version 150
in B { vec4 c; flat int k; } inst;
out vec4 o;
void main() { o = inst.c * float(inst.k) / 3.0; }`
	const fsPlain = `#version 150
in vec4 vcol; out vec4 o;
void main() { o = vcol; }`
	p := compileStages(t, vs, "", fs)
	plain := compileStages(t, geomVS, "", fsPlain)
	pos := [][4]float32{{-1, -1, 0, 1}, {1, -1, 0, 1}, {-1, 1, 0, 1}, {1, 1, 0, 1}}
	col := [][4]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 0, 1}}
	got := drawStages(t, p, vertexData(t, p, map[string][][4]float32{"pos": pos, "col": col}, 4), ref.TriangleStrip, 4)
	want := drawStages(t, plain, vertexData(t, plain, map[string][][4]float32{"pos": pos, "col": col}, 4), ref.TriangleStrip, 4)
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			if pixel(got, x, y) != pixel(want, x, y) {
				t.Fatalf("pixel %d,%d: %v through the block, %v through a plain varying", x, y, pixel(got, x, y), pixel(want, x, y))
			}
		}
	}
}

// TestBlockMembersFromInstance: the members of an unnamed fragment input
// block read their parts of a named vertex output instance of the block.
func TestBlockMembersFromInstance(t *testing.T) {
	const vs = `#version 150
in vec4 pos; in vec4 col;
out B { float pad; vec4 c; } inst;
void main() { gl_Position = pos; inst.pad = 5.0; inst.c = col; }`
	const fs = `#version 150
in B { float pad; vec4 c; };
out vec4 o;
void main() { o = c * (pad / 5.0); }`
	const fsPlain = `#version 150
in vec4 vcol; out vec4 o;
void main() { o = vcol; }`
	p := compileStages(t, vs, "", fs)
	plain := compileStages(t, geomVS, "", fsPlain)
	pos := [][4]float32{{-1, -1, 0, 1}, {1, -1, 0, 1}, {-1, 1, 0, 1}, {1, 1, 0, 1}}
	col := [][4]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 0, 1}}
	got := drawStages(t, p, vertexData(t, p, map[string][][4]float32{"pos": pos, "col": col}, 4), ref.TriangleStrip, 4)
	want := drawStages(t, plain, vertexData(t, plain, map[string][][4]float32{"pos": pos, "col": col}, 4), ref.TriangleStrip, 4)
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			if pixel(got, x, y) != pixel(want, x, y) {
				t.Fatalf("pixel %d,%d: %v through the block, %v through a plain varying", x, y, pixel(got, x, y), pixel(want, x, y))
			}
		}
	}
}
