package pipe

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

const mrtFS = `#version 330
in vec4 v_col;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() { o0 = v_col; o1 = vec4(1.0) - v_col * 0.5; }
`

// targetsEnv binds a framebuffer of the given colour and depth formats.
func targetsEnv(t *testing.T, o Options, colors []format.Format, zs format.Format, samples int) *drawEnv {
	t.Helper()
	e := newDrawEnv(t, o, false)
	fb := Framebuffer{Width: e.w, Height: e.h, Samples: samples}
	mk := func(f format.Format) *Resource {
		r, err := e.s.CreateTexture(TextureDesc{Target: Target2D, Format: f, Width: e.w, Height: e.h, Depth: 1, ArraySize: 1, Levels: 1, Samples: samples})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, f := range colors {
		fb.Cbufs = append(fb.Cbufs, &Surface{Resource: mk(f)})
	}
	if zs != format.Invalid {
		fb.Zsbuf = &Surface{Resource: mk(zs)}
	}
	if err := e.c.SetFramebufferState(fb); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestDrawTargets renders into framebuffers the device holds in planes of their
// own formats (several attachments, sRGB/R8/float colour, D16/D32F depth) and
// compares every attachment with the reference renderer (tolerance as
// TestDrawDifferential). spec: vortexpipe §3.7 (formats, MRT)
func TestDrawTargets(t *testing.T) {
	tests := []struct {
		name   string
		colors []format.Format
		zs     format.Format
		fs     string
		depth  bool
	}{
		{"MRT RGBA8 + BGRA8", []format.Format{format.RGBA8, format.BGRA8}, format.Invalid, mrtFS, false},
		{"sRGB", []format.Format{format.SRGB8A8}, format.Invalid, testFS, false},
		{"R8 + RG8", []format.Format{format.R8, format.RG8}, format.Invalid, mrtFS, false},
		{"RGBA16F", []format.Format{format.RGBA16F}, format.Invalid, testFS, false},
		{"RGBA8 + D32F", []format.Format{format.RGBA8}, format.D32F, testFS, true},
		{"RGBA8 + D16", []format.Format{format.RGBA8}, format.D16, testFS, true},
		{"MRT + D24S8 writes", []format.Format{format.RGBA8, format.RGBA8}, format.D24S8, mrtFS, true},
	}
	draw := func(t *testing.T, e *drawEnv, fs string, depth bool) {
		e.program(t, testVS, fs)
		if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{0.1, 0.2, 0.3, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		if depth {
			d, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less})
			e.c.BindDSAState(d)
		}
		v := append(quadVerts(0.5, [4]float32{1, 0, 0, 1}, -0.9, -0.9, 0.4, 0.4), quadVerts(-0.3, [4]float32{0, 1, 0.5, 1}, -0.4, -0.4, 0.9, 0.9)...)
		v[4+2], v[8+4+1] = 1, 0.5
		e.posCol(t, v...)
		for _, start := range []uint32{0, 4} {
			if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Start: start, Count: 4}}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dev := targetsEnv(t, Options{Strict: true}, tc.colors, tc.zs, 1)
			draw(t, dev, tc.fs, tc.depth)
			ref := targetsEnv(t, Options{ForceReference: true}, tc.colors, tc.zs, 1)
			draw(t, ref, tc.fs, tc.depth)
			if st := dev.c.Stats(); st.Device != 2 || st.Reference != 0 {
				t.Fatalf("device stats %+v", st)
			}
			for i := range tc.colors {
				a, err := dev.c.ReadPixels(i)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := ref.c.ReadPixels(i)
				if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
					t.Errorf("attachment %d: %d pixels differ by more than 3 (worst %d)", i, bad, worst)
				}
			}
			if tc.depth {
				za, err := dev.c.ReadDepth()
				if err != nil {
					t.Fatal(err)
				}
				zb, _ := ref.c.ReadDepth()
				diff := 0
				for i := range za {
					if d := za[i] - zb[i]; d > 1e-3 || d < -1e-3 {
						diff++
					}
				}
				if diff > len(za)/50 {
					t.Errorf("%d depth values differ", diff)
				}
			}
		})
	}
}

// TestDrawTargetsLoad: attachments the device holds in planes of their own
// formats whose host contents are not a clear (R8 colour, D32F and D16 depth
// written by the host, MRT with D24S8) are seeded into the planes (gfx
// WriteTarget/WriteDepthStencil) and drawn on the device (STRICT), matching the
// reference renderer. spec: vortexpipe §3.2 (the pass seeds its planes)
func TestDrawTargetsLoad(t *testing.T) {
	tests := []struct {
		name   string
		colors []format.Format
		zs     format.Format
		fs     string
	}{
		{"R8", []format.Format{format.R8}, format.Invalid, testFS},
		{"RGBA8 + D32F", []format.Format{format.RGBA8}, format.D32F, testFS},
		{"RGBA8 + D16", []format.Format{format.RGBA8}, format.D16, testFS},
		{"MRT + D24S8", []format.Format{format.RGBA8, format.RG8}, format.D24S8, mrtFS},
	}
	run := func(t *testing.T, o Options, colors []format.Format, zs format.Format, fs string) *drawEnv {
		e := targetsEnv(t, o, colors, zs, 1)
		e.program(t, testVS, fs)
		fb := e.c.Bound().FB
		for i, s := range append(append([]*Surface(nil), fb.Cbufs...), fb.Zsbuf) {
			if s == nil {
				continue
			}
			px := make([]byte, s.Resource.Size())
			switch s.Fmt() {
			case format.D32F:
				for k := 0; k < len(px); k += 4 {
					binary.LittleEndian.PutUint32(px[k:], math.Float32bits(float32(k/4%e.w)/float32(e.w)))
				}
			default:
				for k := range px {
					px[k] = byte(k*7 + i*31)
				}
			}
			if err := s.Resource.Write(0, px); err != nil {
				t.Fatal(err)
			}
		}
		if zs != format.Invalid {
			d, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less})
			e.c.BindDSAState(d)
		}
		e.posCol(t, quadVerts(0.2, [4]float32{1, 0.5, 0.25, 1}, -0.8, -0.8, 0.7, 0.6)...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dev := run(t, Options{Strict: true}, tc.colors, tc.zs, tc.fs)
			ref := run(t, Options{ForceReference: true}, tc.colors, tc.zs, tc.fs)
			if st := dev.c.Stats(); st.Device != 1 || st.Reference != 0 {
				t.Fatalf("device stats %+v", st)
			}
			for i := range tc.colors {
				a, err := dev.c.ReadPixels(i)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := ref.c.ReadPixels(i)
				if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
					t.Errorf("attachment %d: %d pixels differ by more than 3 (worst %d)", i, bad, worst)
				}
			}
			if tc.zs != format.Invalid {
				za, err := dev.c.ReadDepth()
				if err != nil {
					t.Fatal(err)
				}
				zb, _ := ref.c.ReadDepth()
				diff := 0
				for i := range za {
					if d := za[i] - zb[i]; d > 1e-3 || d < -1e-3 {
						diff++
					}
				}
				if diff > len(za)/50 {
					t.Errorf("%d depth values differ", diff)
				}
			}
		})
	}
}

// TestDrawTargetsUnloadable: a 4x attachment whose samples differ within a
// pixel cannot be seeded (a plane is seeded from one sample per pixel): the
// draw falls back (STRICT: an error naming GateDeviceBackend; without it the
// fallback is counted and the reference renderer draws it one sample at a
// time, refsamples.go: every sample of a pixel inside the quad is written,
// the distinct samples outside it are kept).
func TestDrawTargetsUnloadable(t *testing.T) {
	for _, strict := range []bool{true, false} {
		e := targetsEnv(t, Options{Strict: strict}, []format.Format{format.RGBA8}, format.Invalid, 4)
		e.program(t, testVS, testFS)
		e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -0.5, -0.5, 0.5, 0.5)...)
		rt := e.c.Bound().FB.Cbufs[0].Resource
		px := make([]byte, rt.Size())
		for i := range px {
			px[i] = byte(i)
		}
		_ = rt.Write(0, px)
		err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}})
		var se *StrictError
		switch {
		case strict && (!errors.As(err, &se) || se.Reasons[0].Code != GateDeviceBackend):
			t.Errorf("STRICT: %v", err)
		case !strict && (err != nil || e.c.Stats().Fallbacks[GateDeviceBackend] != 1):
			t.Errorf("fallback: %v %+v", err, e.c.Stats())
		}
		if strict {
			continue
		}
		got := make([]byte, rt.Size())
		if err := rt.Read(0, got); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got[:16], px[:16]) {
			t.Errorf("pixel 0's samples (outside the quad) %v, want kept %v", got[:16], px[:16])
		}
		c := 16 * ((e.h/2)*e.w + e.w/2)
		if want := bytes.Repeat([]byte{255, 255, 255, 255}, 4); !slices.Equal(got[c:c+16], want) {
			t.Errorf("centre pixel's samples %v, want all four drawn white", got[c:c+16])
		}
	}
}

// TestDrawTargetsMSAALoad: a 4x attachment whose samples agree in every pixel
// (host-written contents replicated per sample) is seeded and drawn on the
// device; the samples the draw does not cover keep the host contents.
func TestDrawTargetsMSAALoad(t *testing.T) {
	e := targetsEnv(t, Options{Strict: true}, []format.Format{format.RGBA8}, format.Invalid, 4)
	e.program(t, testVS, testFS)
	e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -0.5, -0.5, 0.5, 0.5)...)
	rt := e.c.Bound().FB.Cbufs[0].Resource
	px := make([]byte, rt.Size())
	for p := 0; p < e.w*e.h; p++ {
		for k := range 4 {
			copy(px[(4*p+k)*4:], []byte{byte(p), byte(p >> 3), 7, 255})
		}
	}
	_ = rt.Write(0, px)
	if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, rt.Size())
	if err := rt.Read(0, got); err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{0, e.w*e.h - 1, 3*e.w + 2} {
		if o := 16 * p; !slices.Equal(got[o:o+16], px[o:o+16]) {
			t.Errorf("pixel %d outside the quad: %v, want the seeded %v", p, got[o:o+16], px[o:o+16])
		}
	}
	if p := 16*e.w + 16; got[16*p] != 255 || got[16*p+1] != 255 {
		t.Errorf("pixel %d inside the quad: %v, want white", p, got[16*p:16*p+16])
	}
}

// TestDrawMSAA renders a 4x framebuffer on the device (software raster and
// merger, sample-major planes), resolves it with Blit and compares it with the
// single-sample reference image: equal inside the shapes, blended on the edges.
// spec: vortexpipe §3.4.1
func TestDrawMSAA(t *testing.T) {
	e := targetsEnv(t, Options{Strict: true}, []format.Format{format.RGBA8}, format.D24S8, 4)
	e.program(t, testVS, testFS)
	if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
		t.Fatal(err)
	}
	var v []float32
	for _, p := range [][2]float32{{-0.9, -0.9}, {0.9, -0.7}, {-0.6, 0.9}} {
		v = append(v, p[0], p[1], 0, 1, 1, 1, 1, 1)
	}
	e.posCol(t, v...)
	if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}}); err != nil {
		t.Fatal(err)
	}
	if st := e.c.Stats(); st.Device != 1 || st.Routes[RouteMultisample] != 1 {
		t.Fatalf("stats %+v", st)
	}
	ms := e.c.Bound().FB.Cbufs[0]
	out := newTex(t, e.s, format.RGBA8, e.w, e.h)
	if err := e.c.Blit(BlitInfo{Src: ms, Dst: &Surface{Resource: out}, SrcRect: Rect{0, 0, e.w, e.h}, DstRect: Rect{0, 0, e.w, e.h}}); err != nil {
		t.Fatal(err)
	}
	px := make([]byte, out.Size())
	_ = out.Read(0, px)
	var full, edge int
	for i := 0; i < len(px); i += 4 {
		switch px[i] {
		case 255:
			full++
		case 0:
		default:
			edge++
		}
	}
	if full < 300 || edge < 20 {
		t.Errorf("resolved image: %d covered pixels, %d partly covered (want a filled triangle with blended edges)", full, edge)
	}
}

// TestTargetsSwitch: drawing into [A, B] then into [A] alone moves A's drawn
// contents to the host and seeds the new planes with them: both draws run on
// the device, and the result equals the reference renderer's.
func TestTargetsSwitch(t *testing.T) {
	run := func(o Options) (*drawEnv, error) {
		e := targetsEnv(t, o, []format.Format{format.RGBA8, format.R8}, format.Invalid, 1)
		e.program(t, testVS, mrtFS)
		if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
			return e, err
		}
		e.posCol(t, append(quadVerts(0, [4]float32{1, 0, 0, 1}, -1, -1, 0, 0), quadVerts(0, [4]float32{0, 0, 1, 1}, 0, 0, 1, 1)...)...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			return e, err
		}
		fb := e.c.Bound().FB
		fb.Cbufs = fb.Cbufs[1:]
		if err := e.c.SetFramebufferState(fb); err != nil {
			return e, err
		}
		e.program(t, testVS, testFS)
		return e, e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Start: 4, Count: 4}}})
	}
	dev, err := run(Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := dev.c.Stats(); st.Device != 2 || st.Reference != 0 {
		t.Errorf("stats %+v", st)
	}
	ref, err := run(Options{ForceReference: true})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := dev.c.ReadPixels(0)
	b, _ := ref.c.ReadPixels(0)
	if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
		t.Errorf("%d pixels differ (worst %d)", bad, worst)
	}
}

// TestDrawMSAAMRT: a 4x draw into two attachments runs on the device
// (STRICT); each attachment's samples equal those of a 4x single-attachment
// draw of the same output (TestDrawMSAA compares that path with the
// reference), so MRT adds nothing but the second plane. spec: vortexpipe §3.4.1
func TestDrawMSAAMRT(t *testing.T) {
	const fs1 = `#version 330
in vec4 v_col;
out vec4 o;
void main() { o = vec4(1.0) - v_col * 0.5; }
`
	var v []float32
	for _, p := range [][2]float32{{-0.9, -0.9}, {0.9, -0.7}, {-0.6, 0.9}} {
		v = append(v, p[0], p[1], 0, 1, 0.9, 0.3, 0.6, 1)
	}
	draw := func(colors []format.Format, fs string) [][]byte {
		e := targetsEnv(t, Options{Strict: true}, colors, format.D24S8, 4)
		e.program(t, testVS, fs)
		if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		e.posCol(t, v...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}}); err != nil {
			t.Fatal(err)
		}
		if st := e.c.Stats(); st.Device != 1 || st.Routes[RouteMultisample] != 1 {
			t.Fatalf("stats %+v", st)
		}
		var out [][]byte
		for _, s := range e.c.Bound().FB.Cbufs {
			px := make([]byte, s.Resource.Size())
			if err := s.Resource.Read(0, px); err != nil {
				t.Fatal(err)
			}
			out = append(out, px)
		}
		return out
	}
	mrt := draw([]format.Format{format.RGBA8, format.RGBA8}, mrtFS)
	one := draw([]format.Format{format.RGBA8}, testFS)
	two := draw([]format.Format{format.RGBA8}, fs1)
	for i, want := range [][]byte{one[0], two[0]} {
		if !slices.Equal(mrt[i], want) {
			t.Errorf("attachment %d's samples differ from the single-attachment draw", i)
		}
	}
	edge := 0
	for p := 0; p+16 <= len(mrt[0]); p += 16 {
		if !slices.Equal(mrt[0][p:p+4], mrt[0][p+12:p+16]) {
			edge++
		}
	}
	if edge < 10 {
		t.Errorf("%d pixels with differing samples: want antialiased edges", edge)
	}
}

// TestDrawManyTargets: six colour attachments (more than the FF merger's four
// banks) run on the software merger (STRICT, RouteManyRTs) and every
// attachment matches the reference renderer. spec: vortexpipe §3.7 (MRT)
func TestDrawManyTargets(t *testing.T) {
	const fs6 = `#version 330
in vec4 v_col;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
layout(location = 4) out vec4 o4;
layout(location = 5) out vec4 o5;
void main() {
	o0 = v_col; o1 = v_col.gbra; o2 = v_col.brga; o3 = vec4(1.0) - v_col;
	o4 = v_col * 0.5; o5 = vec4(v_col.a, v_col.r, 0.25, 1.0);
}
`
	colors := []format.Format{format.RGBA8, format.BGRA8, format.RGBA8, format.R8, format.RG8, format.RGBA8}
	run := func(o Options) *drawEnv {
		e := targetsEnv(t, o, colors, format.Invalid, 1)
		e.program(t, testVS, fs6)
		if err := e.c.Clear(ClearColor, [4]float32{0.1, 0.2, 0.3, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		v := quadVerts(0, [4]float32{1, 0.5, 0.25, 1}, -0.8, -0.9, 0.7, 0.6)
		v[4+2], v[8+4+1] = 0, 1
		e.posCol(t, v...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
		return e
	}
	dev, ref := run(Options{Strict: true}), run(Options{ForceReference: true})
	if st := dev.c.Stats(); st.Device != 1 || st.Routes[RouteManyRTs] != 1 {
		t.Fatalf("device stats %+v", st)
	}
	for i := range colors {
		a, err := dev.c.ReadPixels(i)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := ref.c.ReadPixels(i)
		if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
			t.Errorf("attachment %d: %d pixels differ by more than 3 (worst %d)", i, bad, worst)
		}
	}
}
