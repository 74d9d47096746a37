package pipe

import (
	"bytes"
	"errors"
	"testing"
)

const (
	gsPassFS = `#version 150
in vec4 g_col;
out vec4 o_col;
void main() { o_col = g_col; }
`
	gsPass = `#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_col[];
out vec4 g_col;
void main() {
	for (int i = 0; i < 3; i++) {
		gl_Position = gl_in[i].gl_Position;
		g_col = v_col[i];
		EmitVertex();
	}
}
`
)

// bindGS compiles and binds a geometry shader.
func (e *drawEnv) bindGS(t *testing.T, src string) {
	t.Helper()
	g, err := e.c.CreateShaderState(ShaderDesc{Stage: StageGeometry, Name: "t.geom", GLSL: src}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.c.BindGSState(g); err != nil {
		t.Fatal(err)
	}
}

// TestGeometryRoutesToReference: a draw with a geometry shader bound on a
// device screen is gated with GateGeometryStage (Where says so), fails under
// STRICT with nothing drawn, and otherwise runs on the reference renderer,
// where a pass-through geometry shader draws what the pair without it draws.
func TestGeometryRoutesToReference(t *testing.T) {
	verts := quadVerts(0, [4]float32{1, 0.5, 0.25, 1}, -0.75, -0.5, 0.5, 0.75)
	info := func() *DrawInfo {
		return &DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}
	}
	frame := func(e *drawEnv) []byte {
		if err := e.c.Finish(); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, e.rt.Size())
		if err := e.rt.Read(0, b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	setup := func(o Options, gs bool) *drawEnv {
		e := newDrawEnv(t, o, false)
		if gs {
			e.program(t, testVS, gsPassFS)
			e.bindGS(t, gsPass)
		} else {
			e.program(t, testVS, testFS)
		}
		e.posCol(t, verts...)
		if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		return e
	}

	ref := setup(Options{ForceReference: true}, false)
	if err := ref.c.DrawVBO(info()); err != nil {
		t.Fatal(err)
	}
	want := frame(ref)

	e := setup(Options{}, true)
	decs, err := e.c.Where(info())
	if err != nil {
		t.Fatal(err)
	}
	if len(decs) != 1 || !decs[0].Reference || len(decs[0].Gates) != 1 || decs[0].Gates[0].Code != GateGeometryStage {
		t.Fatalf("Where: %+v, want the draw gated by GateGeometryStage", decs)
	}
	if err := e.c.DrawVBO(info()); err != nil {
		t.Fatal(err)
	}
	st := e.c.Stats()
	if st.Reference != 1 || st.Fallbacks[GateGeometryStage] != 1 || st.FallbackDetails["geometry shader"] != 1 {
		t.Errorf("stats %+v: want one reference draw gated by the geometry shader", st)
	}
	if got := frame(e); !bytes.Equal(got, want) {
		t.Error("a pass-through geometry shader changed the image")
	}
	if n := bytes.Count(want, []byte{255, 128, 64, 255}); n == 0 {
		t.Error("the reference draw drew nothing")
	}

	s := setup(Options{Strict: true}, true)
	before := frame(s)
	err = s.c.DrawVBO(info())
	var se *StrictError
	if !errors.As(err, &se) || len(se.Reasons) == 0 || se.Reasons[0].Code != GateGeometryStage {
		t.Fatalf("STRICT: %v, want a *StrictError naming GateGeometryStage", err)
	}
	if !bytes.Equal(before, frame(s)) {
		t.Error("STRICT draw changed the framebuffer")
	}

	// A topology the geometry shader does not take is the reference
	// renderer's error, named.
	bad := info()
	bad.Mode = PrimPoints
	if err := e.c.DrawVBO(bad); err == nil {
		t.Error("POINTS into a triangles geometry shader drew")
	}
	if err := e.c.BindGSState(&Shader{Desc: ShaderDesc{Stage: StageVertex}}); err == nil {
		t.Error("BindGSState took a vertex shader")
	}
}
