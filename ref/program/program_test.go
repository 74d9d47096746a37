package program

import (
	"context"
	"math"
	"testing"

	"vortexgfx/gl/blend"
	"vortexgfx/gl/format"
	"vortexgfx/ref"
	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

const size = 8

func link(t *testing.T, vs, fs string) *Program {
	t.Helper()
	p, err := compile(vs, fs)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// compile compiles, links and lowers a compatibility-profile program.
func compile(vs, fs string) (*Program, error) {
	opts := glsl.Options{Compatibility: true}
	var srcs []shader.Source
	for _, s := range []struct {
		src   string
		stage glsl.Stage
	}{{vs, glsl.Vertex}, {fs, glsl.Fragment}} {
		if s.src == "" {
			continue
		}
		srcs = append(srcs, shader.Source{Name: "t", Stage: s.stage, Text: s.src, Options: opts})
	}
	cp, err := shader.Compile(srcs...)
	if err != nil {
		return nil, err
	}
	return New(cp, Config{})
}

func fbits(f float32) uint32 { return math.Float32bits(f) }

// vertexRecord packs vec4 attributes in the program's input layout.
func vertexData(t *testing.T, p *Program, attrs map[string][][4]float32, n int) ref.VertexInput {
	t.Helper()
	w := p.AttribWords()
	data := make([]uint32, n*w)
	for name, vals := range attrs {
		s, ok := p.Attribute(name)
		if !ok {
			t.Fatalf("no attribute %s", name)
		}
		for v := 0; v < n; v++ {
			for k := 0; k < s.Words && k < 4; k++ {
				data[v*w+s.Word+k] = fbits(vals[v][k])
			}
		}
	}
	return ref.VertexInput{Words: w, Data: data}
}

// draw renders with the program into a size×size RGBA8 target cleared to zero.
func draw(t *testing.T, p *Program, in ref.VertexInput, topo ref.Topology, count int, mod func(*ref.State)) *ref.Target {
	t.Helper()
	tg, err := ref.NewTarget(size, size, []format.Format{format.RGBA8}, format.Invalid)
	if err != nil {
		t.Fatal(err)
	}
	st := ref.DefaultState(size, size)
	vs, err := p.NewVertexShader(context.Background(), VertexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := p.NewFragmentShader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st.Vertex, st.Fragment = vs, fs
	st.Interp = p.Interp(false)
	if mod != nil {
		mod(&st)
	}
	if err := ref.Draw(context.Background(), tg, &st, in, ref.DrawParams{Topology: topo, Count: count}); err != nil {
		t.Fatal(err)
	}
	return tg
}

var fullRect = [][4]float32{{-1, -1, 0, 1}, {1, -1, 0, 1}, {-1, 1, 0, 1}, {1, 1, 0, 1}}

func pixel(tg *ref.Target, x, y int) [4]byte {
	s := tg.Color[0]
	o := (y*s.W + x) * 4
	return [4]byte{s.Data[o], s.Data[o+1], s.Data[o+2], s.Data[o+3]}
}

const passVS = "#version 120\nattribute vec4 pos;\nvoid main() { gl_Position = pos; }\n"

// TestUniformLayout sets uniforms of every shape by their GL names and reads
// them back through a shader.
func TestUniformLayout(t *testing.T) {
	fs := `#version 120
struct S { float x; vec3 v; };
uniform float f;
uniform vec2 a[3];
uniform S s[2];
uniform mat3x2 m;
uniform bool b;
uniform int i;
uniform vec4 init = vec4(0.0, 0.0, 0.75, 0.0);
void main() {
	gl_FragColor = vec4(f, a[2].y, s[1].v.z, m[2][1]);
	if (!b || i != -3) gl_FragColor = vec4(1.0);
	gl_FragColor.a = init.z;
}
`
	p := link(t, passVS, fs)
	set := []struct {
		name string
		typ  ir.Type
		vals []uint32
	}{
		{"f", ir.F32, []uint32{fbits(0.25)}},
		{"a[2]", ir.F32, []uint32{fbits(9), fbits(0.5)}},
		{"s[1].v", ir.F32, []uint32{fbits(9), fbits(9), fbits(1)}},
		{"m", ir.F32, []uint32{fbits(9), fbits(9), fbits(9), fbits(9), fbits(9), fbits(0.125)}},
		{"b", ir.I32, []uint32{7}},
		{"i", ir.I32, []uint32{uint32(0xFFFFFFFD)}},
	}
	for _, s := range set {
		if err := p.SetUniform(s.name, s.typ, s.vals); err != nil {
			t.Fatalf("SetUniform(%s): %v", s.name, err)
		}
	}
	for _, bad := range []string{"nope", "a[3]", "s[0].w", "f.x", "a[x]"} {
		if err := p.SetUniform(bad, ir.F32, []uint32{0}); err == nil {
			t.Errorf("SetUniform(%q) succeeded", bad)
		}
	}
	tg := draw(t, p, vertexData(t, p, map[string][][4]float32{"pos": fullRect}, 4), ref.TriangleStrip, 4, nil)
	want := [4]byte{64, 128, 255, 191}
	if got := pixel(tg, 3, 3); got != want {
		t.Errorf("pixel = %v, want %v", got, want)
	}
	// The bool was stored normalised to 1.
	r, err := p.resolve("b", 0)
	if err != nil || p.Uniforms[r.word] != 1 {
		t.Errorf("bool uniform word = %d (%v), want 1", p.Uniforms[r.word], err)
	}
}

// TestInterpolation checks the qualifier of every varying word and the
// images flat, smooth and noperspective varyings give.
func TestInterpolation(t *testing.T) {
	vs := `#version 130
in vec4 pos;
in vec4 val;
flat out float vf;
smooth out float vs;
noperspective out float vn;
out vec4 c;
void main() { gl_Position = pos; vf = val.x; vs = val.x; vn = val.x; gl_FrontColor = val; }
`
	fs := `#version 130
flat in float vf;
smooth in float vs;
noperspective in float vn;
void main() { gl_FragColor = vec4(vf, vs, vn, gl_Color.a); }
`
	p := link(t, vs, fs)
	want := map[string]ref.Interp{"vf": ref.Flat, "vs": ref.Smooth, "vn": ref.NoPerspective}
	it := p.Interp(false)
	for _, s := range p.IR.VS.Outputs {
		if w, ok := want[s.Name]; ok && it[s.Word] != w {
			t.Errorf("%s interpolation = %v, want %v", s.Name, it[s.Word], w)
		}
	}
	fc, _ := slotNamed(p.IR.VS.Outputs, "gl_FrontColor")
	if it[fc.Word] != ref.Smooth || p.Interp(true)[fc.Word] != ref.Flat {
		t.Errorf("gl_FrontColor: smooth %v, flat shade model %v", it[fc.Word], p.Interp(true)[fc.Word])
	}
	// A triangle with w = 1, 1, 4 at the top: perspective and linear
	// interpolation differ, flat takes the last (provoking) vertex.
	pos := [][4]float32{{-1, -1, 0, 1}, {1, -1, 0, 1}, {0, 4, 0, 4}}
	val := [][4]float32{{0, 0, 0, 1}, {0, 0, 0, 1}, {1, 1, 1, 1}}
	tg := draw(t, p, vertexData(t, p, map[string][][4]float32{"pos": pos, "val": val}, 3), ref.Triangles, 3, nil)
	got := pixel(tg, 4, 4) // window (4.5, 4.5): NDC y = 0.125, linear weight of the top 0.5625
	if got[0] != 255 {
		t.Errorf("flat = %d, want 255", got[0])
	}
	// Linear: 0.5625 -> 143; perspective: (0.5625/4)/((0.4375)+(0.5625/4)) -> 0.2432 -> 62.
	if got[2] < 141 || got[2] > 145 {
		t.Errorf("noperspective = %d, want about 143", got[2])
	}
	if got[1] < 60 || got[1] > 64 {
		t.Errorf("smooth = %d, want about 62", got[1])
	}
}

// TestTwoSidedColour draws a back-facing triangle: with two-sided colour the
// fragment's gl_Color is gl_BackColor, otherwise gl_FrontColor.
func TestTwoSidedColour(t *testing.T) {
	vs := `#version 110
attribute vec4 pos;
void main() { gl_Position = pos; gl_FrontColor = vec4(1.0, 0.0, 0.0, 1.0); gl_BackColor = vec4(0.0, 1.0, 0.0, 1.0); }
`
	fs := "#version 110\nvoid main() { gl_FragColor = gl_Color; }\n"
	p := link(t, vs, fs)
	if len(p.TwoSide()) != 1 {
		t.Fatalf("TwoSide = %v, want one pair", p.TwoSide())
	}
	cw := [][4]float32{{-1, -1, 0, 1}, {-1, 1, 0, 1}, {1, -1, 0, 1}}
	in := vertexData(t, p, map[string][][4]float32{"pos": cw}, 3)
	for _, tc := range []struct {
		two  bool
		want [4]byte
	}{{false, [4]byte{255, 0, 0, 255}}, {true, [4]byte{0, 255, 0, 255}}} {
		tg := draw(t, p, in, ref.Triangles, 3, func(s *ref.State) {
			s.TwoSided, s.TwoSide = tc.two, p.TwoSide()
		})
		if got := pixel(tg, 1, 1); got != tc.want {
			t.Errorf("two-sided %v: pixel = %v, want %v", tc.two, got, tc.want)
		}
	}
}

// TestDerivativesWithHelpers takes derivatives along a triangle's diagonal
// edge, where quads are partly covered: the helper lanes must run.
func TestDerivativesWithHelpers(t *testing.T) {
	fs := `#version 110
void main() {
	float v = 0.25 * gl_FragCoord.x + 0.5 * gl_FragCoord.y;
	gl_FragColor = vec4(dFdx(v), dFdy(v), 0.0, 1.0);
}
`
	p := link(t, passVS, fs)
	tri := [][4]float32{{-1, -1, 0, 1}, {1, -1, 0, 1}, {-1, 1, 0, 1}}
	tg := draw(t, p, vertexData(t, p, map[string][][4]float32{"pos": tri}, 3), ref.Triangles, 3, nil)
	covered := 0
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			got := pixel(tg, x, y)
			if got[3] == 0 {
				continue
			}
			covered++
			if got[0] != 64 || got[1] != 128 {
				t.Errorf("(%d,%d): derivatives %d %d, want 64 128", x, y, got[0], got[1])
			}
		}
	}
	if covered == 0 || covered == size*size {
		t.Fatalf("covered %d pixels", covered)
	}
}

// TestDiscard discards the left half of the window.
func TestDiscard(t *testing.T) {
	fs := "#version 110\nvoid main() { if (gl_FragCoord.x < 4.0) discard; gl_FragColor = vec4(1.0); }\n"
	p := link(t, passVS, fs)
	tg := draw(t, p, vertexData(t, p, map[string][][4]float32{"pos": fullRect}, 4), ref.TriangleStrip, 4, nil)
	for x := 0; x < size; x++ {
		want := byte(0)
		if x >= 4 {
			want = 255
		}
		if got := pixel(tg, x, 2); got[0] != want {
			t.Errorf("x=%d: %d, want %d", x, got[0], want)
		}
	}
}

func TestConfig(t *testing.T) {
	for _, c := range []Config{{VertexWidth: 65}, {FragmentWidth: 6}, {FragmentWidth: 68}, {VertexWidth: -1}} {
		if _, _, err := c.widths(); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	if v, f, err := (Config{}).widths(); err != nil || v != 16 || f != 16 {
		t.Errorf("default widths %d %d %v", v, f, err)
	}
}

// TestUserClipping clips with gl_ClipVertex against an enabled plane and with
// gl_ClipDistance: the half of the window with negative distances stays clear.
func TestUserClipping(t *testing.T) {
	fs := "#version 130\nvoid main() { gl_FragColor = vec4(1.0); }\n"
	for _, tc := range []struct {
		name string
		vs   string
	}{
		{"gl_ClipVertex", "#version 120\nattribute vec4 pos;\nvoid main() { gl_Position = pos; gl_ClipVertex = pos; }\n"},
		{"gl_ClipDistance", "#version 130\nin vec4 pos;\nout float gl_ClipDistance[1];\nvoid main() { gl_Position = pos; gl_ClipDistance[0] = pos.x; }\n"},
		{"gl_Position", "#version 120\nattribute vec4 pos;\nvoid main() { gl_Position = pos; }\n"},
	} {
		p := link(t, tc.vs, fs)
		in := vertexData(t, p, map[string][][4]float32{"pos": fullRect}, 4)
		tg, err := ref.NewTarget(size, size, []format.Format{format.RGBA8}, format.Invalid)
		if err != nil {
			t.Fatal(err)
		}
		st := ref.DefaultState(size, size)
		clip := ClipState{Enabled: 1}
		clip.Planes[0] = [4]float32{1, 0, 0, 0} // keep x >= 0
		vs, err := p.NewVertexShader(context.Background(), VertexOptions{Clip: clip})
		if err != nil {
			t.Fatal(err)
		}
		fsh, err := p.NewFragmentShader(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		st.Vertex, st.Fragment, st.ClipDistances = vs, fsh, 1
		if vs.ClipDistances() != 1 {
			t.Fatalf("%s: %d clip distances", tc.name, vs.ClipDistances())
		}
		if err := ref.Draw(context.Background(), tg, &st, in, ref.DrawParams{Topology: ref.TriangleStrip, Count: 4}); err != nil {
			t.Fatal(err)
		}
		if l, r := pixel(tg, 1, 4), pixel(tg, 6, 4); l[0] != 0 || r[0] != 255 {
			t.Errorf("%s: left %v right %v, want the left half clipped", tc.name, l, r)
		}
	}
}

// TestUniformBlocks sets members of an instanced and of an anonymous uniform
// block by their GL names (Block.member and member).
func TestUniformBlocks(t *testing.T) {
	vs := "#version 300 es\nin vec4 pos;\nvoid main() { gl_Position = pos; }\n"
	fs := `#version 300 es
precision highp float;
uniform Named { vec2 a; float b[2]; } inst;
uniform Anon { vec4 c; };
out vec4 color;
void main() { color = vec4(inst.a.y, inst.b[1], c.z, 1.0); }
`
	p := link(t, vs, fs)
	for _, s := range []struct {
		name string
		vals []float32
	}{{"Named.a", []float32{9, 0.25}}, {"Named.b[1]", []float32{0.5}}, {"c", []float32{9, 9, 0.75, 9}}} {
		w := make([]uint32, len(s.vals))
		for i, v := range s.vals {
			w[i] = fbits(v)
		}
		if err := p.SetUniform(s.name, ir.F32, w); err != nil {
			t.Fatalf("SetUniform(%s): %v", s.name, err)
		}
	}
	tg := draw(t, p, vertexData(t, p, map[string][][4]float32{"pos": fullRect}, 4), ref.TriangleStrip, 4, nil)
	if got, want := pixel(tg, 2, 2), [4]byte{64, 128, 191, 255}; got != want {
		t.Errorf("pixel = %v, want %v", got, want)
	}
}

// TestVertexAndInstanceID draws two instances of a half-window quad, placed and
// coloured by gl_InstanceID, with the provoking vertex's gl_VertexID.
func TestVertexAndInstanceID(t *testing.T) {
	vs := `#version 140
in vec4 pos;
flat out vec2 ids;
void main() {
	gl_Position = vec4(pos.x * 0.5 - 0.5 + float(gl_InstanceID), pos.yzw);
	ids = vec2(float(gl_VertexID) / 4.0, float(gl_InstanceID));
}
`
	fs := "#version 140\nflat in vec2 ids;\nout vec4 c;\nvoid main() { c = vec4(ids, 0.0, 1.0); }\n"
	p := link(t, vs, fs)
	in := vertexData(t, p, map[string][][4]float32{"pos": fullRect}, 4)
	tg, err := ref.NewTarget(size, size, []format.Format{format.RGBA8}, format.Invalid)
	if err != nil {
		t.Fatal(err)
	}
	st := ref.DefaultState(size, size)
	vsh, err := p.NewVertexShader(context.Background(), VertexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fsh, err := p.NewFragmentShader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st.Vertex, st.Fragment, st.Interp = vsh, fsh, p.Interp(false)
	if err := ref.Draw(context.Background(), tg, &st, in, ref.DrawParams{Topology: ref.TriangleStrip, Count: 4, Instances: 2}); err != nil {
		t.Fatal(err)
	}
	// Bottom-left pixel: the strip's first triangle (vertices 0, 1, 2),
	// provoking vertex 2; top-right: the second (1, 2, 3), provoking 3.
	for _, c := range []struct {
		x, y int
		want [4]byte
	}{{0, 0, [4]byte{128, 0, 0, 255}}, {3, 7, [4]byte{191, 0, 0, 255}}, {4, 0, [4]byte{128, 255, 0, 255}}, {7, 7, [4]byte{191, 255, 0, 255}}} {
		if got := pixel(tg, c.x, c.y); got != c.want {
			t.Errorf("(%d,%d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// TestPointSizeAndCoord draws one point of gl_PointSize 4 reading
// gl_PointCoord; with IgnorePointSize the fixed size 1 applies.
func TestPointSizeAndCoord(t *testing.T) {
	vs := "#version 120\nattribute vec4 pos;\nvoid main() { gl_Position = pos; gl_PointSize = 4.0; }\n"
	fs := "#version 120\nvoid main() { gl_FragColor = vec4(gl_PointCoord, 0.0, 1.0); }\n"
	p := link(t, vs, fs)
	in := vertexData(t, p, map[string][][4]float32{"pos": {{0, 0, 0, 1}}}, 1)
	for _, ignore := range []bool{false, true} {
		tg, err := ref.NewTarget(size, size, []format.Format{format.RGBA8}, format.Invalid)
		if err != nil {
			t.Fatal(err)
		}
		st := ref.DefaultState(size, size)
		vsh, err := p.NewVertexShader(context.Background(), VertexOptions{IgnorePointSize: ignore})
		if err != nil {
			t.Fatal(err)
		}
		fsh, err := p.NewFragmentShader(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		st.Vertex, st.Fragment = vsh, fsh
		if err := ref.Draw(context.Background(), tg, &st, in, ref.DrawParams{Topology: ref.Points, Count: 1}); err != nil {
			t.Fatal(err)
		}
		lit := 0
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				if pixel(tg, x, y)[3] != 0 {
					lit++
				}
			}
		}
		want := 16
		if ignore {
			want = 1
		}
		if lit != want {
			t.Errorf("IgnorePointSize %v: %d pixels, want %d", ignore, lit, want)
		}
		if !ignore {
			// Pixel (2,5) is the top-left texel of the 4x4 point (2..5):
			// gl_PointCoord (1/8, 1/8) with the upper-left origin.
			if got := pixel(tg, 2, 5); got[0] != 32 || got[1] != 32 {
				t.Errorf("top-left gl_PointCoord = %v, want (32, 32)", got)
			}
		}
	}
}

// A program that writes gl_FragDepth must never be skipped by ref's early depth
// test; one that does not may be.
func TestEarlyDepthSafe(t *testing.T) {
	const vs = "#version 130\nin vec4 p;\nvoid main() { gl_Position = p; }\n"
	for _, tc := range []struct {
		fs   string
		safe bool
	}{
		{"#version 130\nvoid main() { gl_FragColor = vec4(1.0); }\n", true},
		{"#version 130\nvoid main() { if (gl_FragCoord.x < 1.0) discard; gl_FragColor = vec4(1.0); }\n", true},
		{"#version 130\nvoid main() { gl_FragColor = vec4(1.0); gl_FragDepth = 0.5; }\n", false},
	} {
		p := link(t, vs, tc.fs)
		f, err := p.NewFragmentShader(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var s ref.FragmentShader = f
		ed, ok := s.(ref.FragmentEarlyDepth)
		if !ok || ed.EarlyDepthSafe() != tc.safe {
			t.Errorf("%q: early-depth safe = %v, want %v", tc.fs, ok && ed.EarlyDepthSafe(), tc.safe)
		}
	}
}

// TestDualSourceOutput checks that the layout(location = 0, index = 1) output
// reaches the blender as render target 0's second source colour and is not
// taken for another render target: SRC1_COLOR·src0 + ZERO·dst gives
// src0·src1 (black if the second colour were lost).
// spec: GLSL 3.30 §4.3.8.2; vortexpipe §3.7 (dual-source blending)
func TestDualSourceOutput(t *testing.T) {
	vs := "#version 330\nin vec4 pos;\nvoid main() { gl_Position = pos; }\n"
	fs := `#version 330
layout(location = 0, index = 1) out vec4 s1;
layout(location = 0) out vec4 o0;
void main() { o0 = vec4(1.0, 0.5, 1.0, 1.0); s1 = vec4(0.5, 1.0, 0.0, 1.0); }
`
	p := link(t, vs, fs)
	if p.fsColors != 1 || p.fsSrc1 < 0 {
		t.Fatalf("layout: %d colour targets, second colour at word %d", p.fsColors, p.fsSrc1)
	}
	tg := draw(t, p, vertexData(t, p, map[string][][4]float32{"pos": fullRect}, 4), ref.TriangleStrip, 4, func(st *ref.State) {
		st.Blend[0] = ref.BlendState{Enable: true, SrcRGB: blend.Src1Color, DstRGB: blend.Zero, SrcAlpha: blend.One, DstAlpha: blend.Zero, WriteMask: 0xF}
	})
	if got, want := pixel(tg, 3, 3), [4]byte{128, 128, 0, 255}; got != want {
		t.Errorf("pixel %v, want %v", got, want)
	}
}
