package program

import (
	"context"
	"testing"

	"vortexgfx/gl/format"
	"vortexgfx/ref"
)

// drawClipped draws a triangle strip with p's stages under the legacy clip
// planes of clip, enabling the planes among the clip distances the stage
// that feeds the rasterizer outputs, as pipe does.
func drawClipped(t *testing.T, p *Program, in ref.VertexInput, count int, clip ClipState) *ref.Target {
	t.Helper()
	const n = 16
	tg, err := ref.NewTarget(n, n, []format.Format{format.RGBA8}, format.Invalid)
	if err != nil {
		t.Fatal(err)
	}
	st := ref.DefaultState(n, n)
	ctx := context.Background()
	opt := VertexOptions{Clip: clip}
	vs, err := p.NewVertexShader(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := p.NewFragmentShader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st.Vertex, st.Fragment, st.Interp = vs, fs, p.Interp(false)
	nclip := vs.ClipDistances()
	if p.IR.GS != nil {
		gs, err := p.NewGeometryShader(ctx, opt)
		if err != nil {
			t.Fatal(err)
		}
		st.Geometry = gs
		nclip = gs.Layout().ClipDistances
	}
	if nclip > 0 {
		st.ClipDistances = clip.Enabled & uint8(1<<nclip-1)
	}
	if err := ref.Draw(ctx, tg, &st, in, ref.DrawParams{Topology: ref.TriangleStrip, Count: count}); err != nil {
		t.Fatal(err)
	}
	return tg
}

// TestGeometryClipVertex: the legacy clip planes clip what a geometry shader
// emits, dotted with the gl_ClipVertex it writes (compatibility profile), so
// a geometry stage passing the vertex shader's gl_ClipVertex through (in
// gl_PerVertex, the VS redeclaring it) clips exactly as the vertex shader
// alone does; one that writes no gl_ClipVertex clips on gl_Position; and
// without enabled planes nothing is clipped.
// spec: GL 3.2 compatibility §2.12.3, GL 4.6 compatibility §13.7.
func TestGeometryClipVertex(t *testing.T) {
	const vs = `#version 150 compatibility
in vec4 pos;
out gl_PerVertex { vec4 gl_Position; vec4 gl_ClipVertex; };
void main() { gl_Position = pos; gl_ClipVertex = vec4(pos.x, -pos.y, 0.0, 1.0); }`
	const vsPos = `#version 150 compatibility
in vec4 pos;
void main() { gl_Position = pos; }`
	const gsPass = `#version 150 compatibility
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in gl_PerVertex { vec4 gl_Position; vec4 gl_ClipVertex; } gl_in[];
void main() {
	for (int i = 0; i < 3; i++) {
		gl_Position = gl_in[i].gl_Position; gl_ClipVertex = gl_in[i].gl_ClipVertex;
		EmitVertex();
	}
}`
	const gsNoClipVertex = `#version 150 compatibility
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {
	for (int i = 0; i < 3; i++) {
		gl_Position = gl_in[i].gl_Position;
		EmitVertex();
	}
}`
	const fs = `#version 150
out vec4 o;
void main() { o = vec4(1.0); }`
	pos := [][4]float32{{-1, -1, 0, 1}, {1, -1, 0, 1}, {-1, 1, 0, 1}, {1, 1, 0, 1}}
	// Keep x + y >= 0.25 of the clip vertex: a diagonal cut.
	clip := ClipState{Enabled: 1 << 2}
	clip.Planes[2] = [4]float32{1, 1, 0, -0.25}
	draw := func(p *Program, c ClipState) *ref.Target {
		return drawClipped(t, p, vertexData(t, p, map[string][][4]float32{"pos": pos}, 4), 4, c)
	}
	noGS := compileStages(t, vs, "", fs)
	want := draw(noGS, clip)
	full := draw(noGS, ClipState{})
	covered, clipped := 0, 0
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			if pixel(want, x, y)[3] != 0 {
				covered++
			}
			if pixel(full, x, y) != pixel(want, x, y) {
				clipped++
			}
		}
	}
	if covered == 0 || clipped == 0 {
		t.Fatalf("the vertex stage's clip: %d pixels covered, %d clipped; want some of each", covered, clipped)
	}
	// Without gl_ClipVertex the planes cut gl_Position: the mirror image.
	wantPos := draw(compileStages(t, vsPos, "", fs), clip)
	if pixel(wantPos, 15, 15) == pixel(want, 15, 15) && pixel(wantPos, 15, 0) == pixel(want, 15, 0) {
		t.Fatal("clipping on gl_Position and on gl_ClipVertex gave the same corners")
	}
	for _, tc := range []struct {
		name   string
		vs, gs string
		clip   ClipState
		want   *ref.Target
	}{
		{"gl_ClipVertex through gl_PerVertex", vs, gsPass, clip, want},
		{"gl_Position without gl_ClipVertex", vsPos, gsNoClipVertex, clip, wantPos},
		{"no plane enabled", vs, gsPass, ClipState{Planes: clip.Planes}, full},
	} {
		got := draw(compileStages(t, tc.vs, tc.gs, fs), tc.clip)
		for y := 0; y < 16; y++ {
			for x := 0; x < 16; x++ {
				if pixel(got, x, y) != pixel(tc.want, x, y) {
					t.Fatalf("%s: pixel %d,%d is %v, want %v", tc.name, x, y, pixel(got, x, y), pixel(tc.want, x, y))
				}
			}
		}
	}
}
