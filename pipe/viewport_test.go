package pipe

import (
	"fmt"
	"math"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// glViewport is the Gallium viewport of glViewport(x, y, w, h) and
// glDepthRange(n, f).
func glViewport(x, y, w, h, n, f float32) Viewport {
	return Viewport{Scale: [3]float32{w / 2, h / 2, (f - n) / 2}, Translate: [3]float32{x + w/2, y + h/2, (n + f) / 2}}
}

// viewportScene is three overlapping triangles at different depths, one
// near-clipped, reaching past NDC ±1 on every side (so the viewport's x/y
// clip matters), and a quad behind them; smooth gives the triangles
// per-vertex colours, else each triangle has one colour (interpolated
// exactly on both paths, so the images compare coverage and depth alone).
func viewportScene(smooth bool) []float32 {
	v := quadVerts(0.6, [4]float32{0.2, 0.3, 0.9, 1}, -0.95, -0.9, 0.9, 0.95)
	for _, tr := range [][3][4]float32{
		{{-1.4, -0.7, -0.2, 1}, {0.83, -1.3, 0.4, 1}, {0.1, 1.25, 0.1, 1}},
		{{1.5, 0.6, 0.3, 1}, {-0.77, 0.93, -0.5, 1}, {0.3, -1.6, 0.8, 1}},
		{{-0.61, -0.43, 0.9, 1.3}, {0.57, 0.12, -0.7, 0.8}, {-0.2, 0.77, 0.2, 1.1}},
	} {
		ti := (len(v) - 32) / 24 // the triangle's index
		for k, p := range tr {
			if !smooth {
				k = ti
			}
			c := [4]float32{float32(k&1) * 0.9, float32(k>>1&1)*0.8 + 0.1, 0.35 + 0.2*float32(k), 1}
			v = append(v, p[0], p[1], p[2], p[3], c[0], c[1], c[2], c[3])
		}
	}
	return v
}

// TestViewportScissorDepthRangeDifferential draws viewportScene through a
// table of viewports (sub-rectangles, offset, partly and wholly outside the
// framebuffer, non-integer, y-flipped, 1×1), depth ranges ([0, 1], [0.25,
// 0.75], [0, 0], [1, 1], reversed [1, 0], all with the depth test) and
// scissors (inside, partly outside, empty) on the device under STRICT (no
// draw may reach the reference renderer), with the FF units and with every
// unit forced to software (the software raster covers exactly setup_k's
// clamped boxes), and on the reference renderer, and requires the images to
// be identical: every pixel, every channel. The draws' edges are chosen so no
// pixel centre lies on an edge, where the reference's float edges (snapped
// to 1/256 pixel) and the device's Q15.16 edges could break a tie
// differently; the viewport and scissor rectangles' edges follow the same
// top-left rule on both paths. spec: vortexpipe-driver §3.8 (viewport / depth
// range row); rasterizer.md §4 (RASTER_SCISSOR_X/Y); vortexpipe §5.2 (the
// CPU renderer is the oracle)
func TestViewportScissorDepthRangeDifferential(t *testing.T) {
	const W, H = 64, 48
	// zTol bounds a depth difference: the device's Q7.24 screen-space
	// depth plane (set up in float32 from the perspective-divided
	// vertices) against the reference's float64 window depth, both stored
	// as D24. The full-framebuffer viewport, drawn on the device before
	// viewports were, differs by as much (2.9e-5 here).
	const zTol = 1e-4
	none := Scissor{}
	cases := []struct {
		name    string
		vp      Viewport
		scissor *Scissor
		zfunc   compare.Func
		empty   bool // nothing reaches the framebuffer
		cull    CullFace
	}{
		{"full", glViewport(0, 0, W, H, 0, 1), nil, compare.Less, false, CullNone},
		{"full always", glViewport(0, 0, W, H, 0, 1), nil, compare.Always, false, CullNone},
		{"zero viewport state", Viewport{}, nil, compare.Less, false, CullNone},
		{"sub-rectangle", glViewport(8, 6, 32, 24, 0, 1), nil, compare.Less, false, CullNone},
		{"offset", glViewport(30, 20, 40, 30, 0, 1), nil, compare.Less, false, CullNone},
		{"partly outside left-bottom", glViewport(-20, -14, 50, 40, 0, 1), nil, compare.Less, false, CullNone},
		{"larger than the framebuffer", glViewport(-40, -30, 150, 110, 0, 1), nil, compare.Less, false, CullNone},
		{"wholly outside", glViewport(70, 10, 20, 20, 0, 1), nil, compare.Less, true, CullNone},
		{"non-integer", glViewport(5.25, 3.75, 41.3, 29.6, 0, 1), nil, compare.Less, false, CullNone},
		{"half-pixel corners", glViewport(4.5, 2.5, 31, 21, 0, 1), nil, compare.Less, false, CullNone},
		{"y-flipped", Viewport{Scale: [3]float32{24, -18, 0.5}, Translate: [3]float32{30, 22, 0.5}}, nil, compare.Less, false, CullNone},
		// The y-flip turns the counter-clockwise triangles clockwise in
		// window space: back faces, culled by CullBack, kept by CullFront.
		{"y-flipped, cull back", Viewport{Scale: [3]float32{24, -18, 0.5}, Translate: [3]float32{30, 22, 0.5}}, nil, compare.Always, true, CullBack},
		{"y-flipped, cull front", Viewport{Scale: [3]float32{24, -18, 0.5}, Translate: [3]float32{30, 22, 0.5}}, nil, compare.Always, false, CullFront},
		{"sub-rectangle, cull back", glViewport(8, 6, 32, 24, 0, 1), nil, compare.Always, false, CullBack},
		{"1x1", glViewport(17, 11, 1, 1, 0, 1), nil, compare.Always, false, CullNone},
		{"depth [0.25, 0.75]", glViewport(0, 0, W, H, 0.25, 0.75), nil, compare.Less, false, CullNone},
		{"depth [0, 0]", glViewport(0, 0, W, H, 0, 0), nil, compare.LessEqual, false, CullNone},
		{"depth [1, 1]", glViewport(0, 0, W, H, 1, 1), nil, compare.LessEqual, false, CullNone},
		{"depth [1, 0]", glViewport(0, 0, W, H, 1, 0), nil, compare.Greater, false, CullNone},
		{"depth [1, 0] less", glViewport(0, 0, W, H, 1, 0), nil, compare.Less, false, CullNone},
		{"depth [0.25, 0.75] in a sub-viewport", glViewport(6, 4, 40, 30, 0.25, 0.75), nil, compare.Less, false, CullNone},
		{"scissor inside", glViewport(0, 0, W, H, 0, 1), &Scissor{MinX: 9, MinY: 5, MaxX: 41, MaxY: 37}, compare.Less, false, CullNone},
		{"scissor partly outside", glViewport(0, 0, W, H, 0, 1), &Scissor{MinX: -7, MinY: 20, MaxX: 30, MaxY: 90}, compare.Less, false, CullNone},
		{"scissor empty", glViewport(0, 0, W, H, 0, 1), &Scissor{MinX: 20, MinY: 10, MaxX: 20, MaxY: 30}, compare.Less, true, CullNone},
		{"scissor zero", glViewport(0, 0, W, H, 0, 1), &none, compare.Less, true, CullNone},
		{"scissor outside", glViewport(0, 0, W, H, 0, 1), &Scissor{MinX: 70, MinY: 0, MaxX: 90, MaxY: 48}, compare.Less, true, CullNone},
		{"scissor and viewport", glViewport(10, 8, 44, 30, 0.1, 0.9), &Scissor{MinX: 4, MinY: 15, MaxX: 33, MaxY: 46}, compare.Less, false, CullNone},
	}
	run := func(t *testing.T, o Options, vp Viewport, sc *Scissor, zf compare.Func, cull CullFace, smooth bool) ([]byte, []float32, Stats) {
		s, err := OpenScreen(config.Default(), o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		e := &drawEnv{s: s, c: s.NewContext(ContextOptions{}), w: W, h: H}
		e.rt = newTex(t, s, format.RGBA8, W, H)
		e.zs = newTex(t, s, format.D24S8, W, H)
		if err := e.c.SetFramebufferState(Framebuffer{Width: W, Height: H, Cbufs: []*Surface{{Resource: e.rt}}, Zsbuf: &Surface{Resource: e.zs}}); err != nil {
			t.Fatal(err)
		}
		// Clear the depth to the middle, so [0, 0], [1, 1] and the
		// reversed range all pass some fragments and fail others.
		if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{0.05, 0.1, 0.15, 1}, 0.5, 0); err != nil {
			t.Fatal(err)
		}
		d, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: zf})
		e.c.BindDSAState(d)
		if sc != nil || cull != CullNone {
			r, _ := e.c.CreateRasterizerState(RasterizerState{Scissor: sc != nil, Cull: cull, FrontCCW: true})
			e.c.BindRasterizerState(r)
			if sc != nil {
				e.c.SetScissor(*sc)
			}
		}
		e.c.SetViewport(vp)
		e.program(t, testVS, testFS)
		e.posCol(t, viewportScene(smooth)...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Start: 4, Count: 9}}}); err != nil {
			t.Fatal(err)
		}
		img := e.image(t)
		z, err := e.c.ReadDepth()
		if err != nil {
			t.Fatal(err)
		}
		return img.Pix, z, e.c.Stats()
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Constant colours: identical images. Per-vertex colours:
			// every channel within 1 (the device interpolates in float32
			// from its planes, the reference in float64; both round to
			// 8 bits), coverage identical.
			for _, smooth := range []bool{false, true} {
				tol := 0
				if smooth {
					tol = 1
				}
				ref, refZ, _ := run(t, Options{ForceReference: true}, tc.vp, tc.scissor, tc.zfunc, tc.cull, smooth)
				drawn := 0
				for _, z := range refZ {
					if z < 0.5-1e-6 || z > 0.5+1e-6 { // the clear value in D24
						drawn++
					}
				}
				if (drawn == 0) != tc.empty && tc.zfunc != compare.LessEqual {
					t.Fatalf("the reference renderer wrote %d depth values", drawn)
				}
				for _, force := range []Unit{0, UnitAll} {
					dev, devZ, st := run(t, Options{Strict: true, ForceSW: force}, tc.vp, tc.scissor, tc.zfunc, tc.cull, smooth)
					zbad, zworst := 0, float32(0)
					for i := range refZ {
						d := devZ[i] - refZ[i]
						zworst = max(zworst, d, -d)
						if d > zTol || d < -zTol {
							zbad++
						}
					}
					if zbad != 0 || testing.Verbose() && !smooth && force == 0 && tc.zfunc != compare.Always {
						t.Logf("smooth %v, force %v: %d depth values differ by more than %g (largest %g)", smooth, force, zbad, zTol, zworst)
					}
					if zbad != 0 {
						t.Fail()
					}
					if st.Reference != 0 || st.Device != 2 && st.Device+st.Empty != 2 {
						t.Fatalf("force %v: stats %+v", force, st)
					}
					bad, worst, first := 0, 0, ""
					for i := 0; i < len(ref); i += 4 {
						px := 0
						for k := 0; k < 4; k++ {
							d := int(dev[i+k]) - int(ref[i+k])
							px = max(px, d, -d)
						}
						worst = max(worst, px)
						if px > tol {
							if bad == 0 {
								first = fmt.Sprintf(" first at (%d, %d): device %v, reference %v", i/4%W, i/4/W, dev[i:i+4], ref[i:i+4])
							}
							bad++
						}
					}
					if bad != 0 {
						t.Errorf("smooth %v, force %v: %d of %d pixels differ by more than %d (largest channel difference %d)%s",
							smooth, force, bad, W*H, tol, worst, first)
					}
				}
			}
		})
	}
}

// TestViewportRouting: Where keeps every viewport, depth range and scissor of
// the differential table on the device, and gates only a viewport the
// device coordinate range cannot hold (or one the reference renderer itself
// refuses), naming it. spec: vortexpipe-driver §3.8 (viewport / depth range
// row; scissor DCR: 16-bit coordinates); vortexpipe §1.5.1 (a gated fallback
// names its reason)
func TestViewportRouting(t *testing.T) {
	e := newDrawEnv(t, Options{}, true)
	e.program(t, testVS, testFS)
	e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, 1, 1)...)
	r, _ := e.c.CreateRasterizerState(RasterizerState{Scissor: true})
	e.c.BindRasterizerState(r)
	info := &DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}
	for _, tc := range []struct {
		vp      Viewport
		scissor Scissor
		why     string
	}{
		{glViewport(4, 4, 8, 8, 0, 1), Scissor{MinX: 2, MinY: 3, MaxX: 9, MaxY: 30}, ""},
		{glViewport(-100, 20, 300, 7.5, 0, 0), Scissor{MinX: 40, MinY: 40, MaxX: 50, MaxY: 50}, ""},
		{glViewport(0, 0, 32, 32, 1, 0), Scissor{MinX: 5, MinY: 5, MaxX: 5, MaxY: 9}, ""},
		{glViewport(-32768, -32768, 65536, 65536, 1, 1), Scissor{MaxX: 32, MaxY: 32}, ""},
		{glViewport(-32768, 0, 65537, 32, 0, 1), Scissor{MaxX: 32, MaxY: 32}, "viewport beyond the device coordinate range [-32768, 32768]"},
		{glViewport(0, 30000, 32, 5000, 0, 1), Scissor{MaxX: 32, MaxY: 32}, "viewport beyond the device coordinate range [-32768, 32768]"},
		{glViewport(0, 0, 0, 32, 0, 1), Scissor{MaxX: 32, MaxY: 32}, "viewport of zero or negative width or zero height"},
		{glViewport(0, 0, 32, 32, 0, float32(math.Inf(1))), Scissor{MaxX: 32, MaxY: 32}, "viewport or depth range not finite"},
	} {
		e.c.SetViewport(tc.vp)
		e.c.SetScissor(tc.scissor)
		dec, err := e.c.Where(info)
		if err != nil {
			t.Fatal(err)
		}
		d := dec[0]
		switch {
		case tc.why == "" && d.Reference:
			t.Errorf("viewport %+v, scissor %+v: routed to the reference renderer: %v", tc.vp, tc.scissor, d.Gates)
		case tc.why != "" && (len(d.Gates) != 1 || d.Gates[0].Code != GateDeviceBackend || d.Gates[0].Detail != tc.why):
			t.Errorf("viewport %+v: gates %v, want GateDeviceBackend %q", tc.vp, d.Gates, tc.why)
		}
	}
}

// TestViewportScissorMSAA: a 4x framebuffer draws an integer sub-viewport
// and a scissor on the device (the software raster's boxes are clamped to
// the clip rectangle per pixel, all four samples alike). The reference
// renderer has no 4x attachments, so the resolved image is checked against
// the clip rectangle (every pixel outside it keeps the clear colour exactly)
// and against the reference's single-sample image (the pixels no edge
// crosses agree within 1 per channel); a fractional viewport on it is gated,
// naming why. spec: vortexpipe-driver §3.4.1 (4x on the software raster),
// §3.8
func TestViewportScissorMSAA(t *testing.T) {
	clear := [4]float32{0.05, 0.1, 0.15, 1}
	sc := Scissor{MinX: 3, MinY: 2, MaxX: 27, MaxY: 31}
	run := func(o Options, vp Viewport, samples int) ([]byte, Stats, int, int) {
		e := targetsEnv(t, o, []format.Format{format.RGBA8}, format.D24S8, samples)
		if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, clear, 1, 0); err != nil {
			t.Fatal(err)
		}
		d, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less})
		e.c.BindDSAState(d)
		r, _ := e.c.CreateRasterizerState(RasterizerState{Scissor: true})
		e.c.BindRasterizerState(r)
		e.c.SetScissor(sc)
		e.c.SetViewport(vp)
		e.program(t, testVS, testFS)
		e.posCol(t, viewportScene(false)...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Start: 4, Count: 9}}}); err != nil {
			t.Fatal(err)
		}
		ms := e.c.Bound().FB.Cbufs[0]
		out := newTex(t, e.s, format.RGBA8, e.w, e.h)
		if err := e.c.Blit(BlitInfo{Src: ms, Dst: &Surface{Resource: out}, SrcRect: Rect{0, 0, e.w, e.h}, DstRect: Rect{0, 0, e.w, e.h}}); err != nil {
			t.Fatal(err)
		}
		px := make([]byte, out.Size())
		_ = out.Read(0, px)
		return px, e.c.Stats(), e.w, e.h
	}
	vp := glViewport(6, 1, 20, 22, 0.2, 0.8)
	ref, _, _, _ := run(Options{ForceReference: true}, vp, 1)
	dev, st, w, h := run(Options{Strict: true}, vp, 4)
	if st.Device != 2 || st.Reference != 0 {
		t.Fatalf("stats %+v", st)
	}
	// The clip rectangle: viewport [6, 26) × [1, 23) ∩ scissor.
	x0, x1, y0, y1 := 6, 26, 2, 23
	cc := [4]byte{13, 26, 38, 255}
	outside, agree, inside := 0, 0, 0
	for y := range h {
		for x := range w {
			p := dev[4*(y*w+x):][:4]
			in := x >= x0 && x < x1 && y >= y0 && y < y1
			if !in {
				if [4]byte(p) != cc {
					outside++
				}
				continue
			}
			inside++
			q := ref[4*(y*w+x):][:4]
			ok := true
			for k := range 4 {
				if d := int(p[k]) - int(q[k]); d > 1 || d < -1 {
					ok = false
				}
			}
			if ok {
				agree++
			}
		}
	}
	t.Logf("4x: %d pixels outside the clip rectangle changed; %d of %d inside agree with the single-sample reference", outside, agree, inside)
	if outside != 0 || agree < inside*3/4 {
		t.Errorf("4x: %d pixels drawn outside the clip rectangle; %d of %d inside agree with the single-sample reference", outside, agree, inside)
	}
	// A fractional viewport on 4x: gated (the reference renderer has no
	// 4x attachments either; a renderer draws such a frame on its
	// reference path, as vortex render's 4x passes do).
	e := targetsEnv(t, Options{}, []format.Format{format.RGBA8}, format.D24S8, 4)
	e.program(t, testVS, testFS)
	e.posCol(t, viewportScene(false)...)
	e.c.SetViewport(glViewport(4.25, 3, 20, 22, 0, 1))
	dec, err := e.c.Where(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Start: 4, Count: 9}}})
	if err != nil {
		t.Fatal(err)
	}
	if g := dec[0].Gates; len(g) != 1 || g[0] != (Reason{GateDeviceBackend, "viewport with fractional bounds on a multisampled framebuffer"}) {
		t.Errorf("fractional viewport on 4x: gates %v", g)
	}
}
