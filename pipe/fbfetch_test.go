package pipe

import (
	"bytes"
	"errors"
	"testing"
)

// fetchFS adds a quarter of red to the colour already in the framebuffer.
const fetchFS = `#version 330
#extension GL_EXT_shader_framebuffer_fetch : enable
inout vec4 o_col;
void main() { o_col += vec4(0.25, 0.0, 0.0, 0.0); }
`

// TestFramebufferFetchRoutesToReference: a fragment shader that reads the
// framebuffer is reported (ShaderInfo.FramebufferFetch), its draws on a
// device screen are gated with GateFramebufferFetch and run on the reference
// renderer, where a second draw reads the first's writes, and STRICT refuses
// them naming the reason with nothing drawn. spec: EXT_shader_framebuffer_fetch
func TestFramebufferFetchRoutesToReference(t *testing.T) {
	verts := quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, 1, 1)
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
	setup := func(o Options) *drawEnv {
		e := newDrawEnv(t, o, false)
		e.program(t, testVS, fetchFS)
		e.posCol(t, verts...)
		if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0.5, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		return e
	}

	e := setup(Options{})
	if !e.c.fs.Desc.Info.FramebufferFetch {
		t.Fatal("ShaderInfo.FramebufferFetch not set for an inout output")
	}
	decs, err := e.c.Where(info())
	if err != nil {
		t.Fatal(err)
	}
	if len(decs) != 1 || !decs[0].Reference || len(decs[0].Gates) != 1 || decs[0].Gates[0].Code != GateFramebufferFetch {
		t.Fatalf("Where: %+v, want the draw gated by GateFramebufferFetch", decs)
	}
	for range 2 {
		if err := e.c.DrawVBO(info()); err != nil {
			t.Fatal(err)
		}
	}
	st := e.c.Stats()
	if st.Reference != 2 || st.Fallbacks[GateFramebufferFetch] != 2 {
		t.Errorf("stats %+v: want two reference draws gated by framebuffer fetch", st)
	}
	got := frame(e)
	// Red: 0 -> 0.25 (stored 64) -> 64/255 + 0.25 (stored 128); blue kept.
	if n := bytes.Count(got, []byte{128, 0, 128, 255}); n != len(got)/4 {
		t.Errorf("%d of %d pixels are (128, 0, 128, 255) after two fetching draws; first pixel %v", n, len(got)/4, got[:4])
	}

	s := setup(Options{Strict: true})
	before := frame(s)
	err = s.c.DrawVBO(info())
	var se *StrictError
	if !errors.As(err, &se) || len(se.Reasons) == 0 || se.Reasons[0].Code != GateFramebufferFetch {
		t.Fatalf("STRICT: %v, want a *StrictError naming GateFramebufferFetch", err)
	}
	if !bytes.Equal(before, frame(s)) {
		t.Error("STRICT draw changed the framebuffer")
	}

	plain := newDrawEnv(t, Options{}, false)
	plain.program(t, testVS, testFS)
	if plain.c.fs.Desc.Info.FramebufferFetch {
		t.Error("ShaderInfo.FramebufferFetch set for a plain output")
	}
}
