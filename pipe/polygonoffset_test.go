package pipe

import (
	"fmt"
	"math"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// offsetScene is one polygon-offset scene: a base drawn without offset, then
// a second primitive with the offset under test, both with depth writes.
type offsetScene struct {
	name string
	// base and top are triangle-strip vertices (clip position, colour).
	base, top []float32
}

// offsetScenes: a decal coplanar with its base (the same four vertices in a
// different colour: without offset it z-fights, so LESS keeps the base and
// LEQUAL the decal, and the offset decides), and a steep triangle over a
// flat quad (|∂z/∂x| large: the factor term dominates and moves the line
// where the two cross, pushing parts of the triangle past 0 or 1).
func offsetScenes() []offsetScene {
	var decalBase, decal []float32
	for _, p := range [][2]float32{{-0.9, -0.85}, {0.8, -0.9}, {-0.85, 0.9}, {0.9, 0.8}} {
		z := 0.3*p[0] + 0.2*p[1] + 0.1 // one plane: both triangles have its m
		decalBase = append(decalBase, p[0], p[1], z, 1, 0, 1, 0, 1)
		decal = append(decal, p[0], p[1], z, 1, 1, 0, 0, 1)
	}
	var steep []float32
	for _, p := range [][3]float32{{-0.9, -0.9, -0.97}, {0.9, -0.7, 0.95}, {-0.7, 0.9, 0.1}} {
		steep = append(steep, p[0], p[1], p[2], 1, 0.2, 0.4, 1, 1)
	}
	return []offsetScene{
		{"decal", decalBase, decal},
		{"steep", quadVerts(0.05, [4]float32{0, 1, 0, 1}, -0.95, -0.95, 0.95, 0.95), steep},
	}
}

// drawOffsetScene draws sc over a 64×64 RGBA8 target and a zf depth
// attachment with depth func fn, the top primitive with polygon offset rs.
func drawOffsetScene(t *testing.T, o Options, sc offsetScene, zf format.Format, fn compare.Func, rs RasterizerState) (*drawEnv, []float32) {
	t.Helper()
	s, err := OpenScreen(config.Default(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	e := &drawEnv{s: s, c: s.NewContext(ContextOptions{}), w: 64, h: 64}
	e.rt = newTex(t, s, format.RGBA8, e.w, e.h)
	e.zs = newTex(t, s, zf, e.w, e.h)
	if err := e.c.SetFramebufferState(Framebuffer{Width: e.w, Height: e.h, Cbufs: []*Surface{{Resource: e.rt}}, Zsbuf: &Surface{Resource: e.zs}}); err != nil {
		t.Fatal(err)
	}
	e.program(t, testVS, testFS)
	if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
		t.Fatal(err)
	}
	d, err := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: fn})
	if err != nil {
		t.Fatal(err)
	}
	e.c.BindDSAState(d)
	off, err := e.c.CreateRasterizerState(rs)
	if err != nil {
		t.Fatal(err)
	}
	e.posCol(t, append(append([]float32(nil), sc.base...), sc.top...)...)
	nb, nt := uint32(len(sc.base)/8), uint32(len(sc.top)/8)
	for i, r := range [][2]uint32{{0, nb}, {nb, nt}} {
		if r[1] == 0 {
			continue
		}
		e.c.BindRasterizerState(nil)
		if i == 1 {
			e.c.BindRasterizerState(off)
		}
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Start: r[0], Count: r[1]}}}); err != nil {
			t.Fatal(err)
		}
	}
	z, err := e.c.ReadDepth()
	if err != nil {
		t.Fatal(err)
	}
	return e, z
}

// TestPolygonOffsetDifferential: polygon offset (factor, units, clamp)
// runs on the device (STRICT: a routed draw fails) and matches the
// reference renderer, over D24S8, D16 and D32F, with LESS and LEQUAL, for
// a coplanar decal (where the offset alone decides visibility) and a steep
// triangle (where m dominates). Tolerances, and why:
//   - images: identical except at most 8 pixels of 4096 (measured: 0, or 3
//     on the decal's outline whenever the decal shows, with or without
//     offset: ref's float64 rasterizer and RASTER's Q15.16 fill rule
//     disagree on a few edge pixels; where two surfaces cross, depths a
//     step apart on the two paths could flip the winner); the decal's
//     interior must match exactly and show the winner the offset's sign
//     decides;
//   - depth: the top primitive alone (depth func ALWAYS), each path's
//     offset (its depth with the offset minus its depth without) is the same
//     to offsetDepthTol steps of the attachment (where the result is clamped
//     to 0 or 1, to that plus the paths' difference without offset, which
//     the clamp exposes); absolute depths differ
//     between the paths as they do without offset (ref interpolates in
//     float64, the device evaluates a Q7.24 plane).
//
// spec: GL 4.6 §14.6.5; rasterizer §2.3 (depth plane)
func TestPolygonOffsetDifferential(t *testing.T) {
	offsets := []struct {
		factor, units, clamp float32
	}{
		{0, 1, 0}, {1, 0, 0}, {2, 4, 0}, {0, -1, 0}, {-1, -2, 0}, {-2, 0, 0},
		{4, 8, 0.002}, {-4, -8, -0.002}, {0, 0, 0},
	}
	for _, zf := range []format.Format{format.D24S8, format.D16, format.D32F} {
		for _, sc := range offsetScenes() {
			top := offsetScene{name: sc.name, top: sc.top}
			zero := RasterizerState{OffsetTri: true}
			dev0img, dev0 := drawOffsetScene(t, Options{Strict: true}, top, zf, compare.Always, zero)
			ref0img, ref0 := drawOffsetScene(t, Options{ForceReference: true}, top, zf, compare.Always, zero)
			for _, o := range offsets {
				rs := RasterizerState{OffsetTri: true, OffsetScale: o.factor, OffsetUnits: o.units, OffsetClamp: o.clamp}
				name := fmt.Sprintf("%v/%s/f%g_u%g_c%g", zf, sc.name, o.factor, o.units, o.clamp)
				t.Run(name, func(t *testing.T) {
					for _, fn := range []compare.Func{compare.Less, compare.LessEqual} {
						dev, _ := drawOffsetScene(t, Options{Strict: true}, sc, zf, fn, rs)
						if st := dev.c.Stats(); st.Device != 2 || st.Reference != 0 {
							t.Fatalf("device stats %+v", st)
						}
						ref, _ := drawOffsetScene(t, Options{ForceReference: true}, sc, zf, fn, rs)
						a, b := dev.image(t), ref.image(t)
						bad, worst := compareImages(a, b, 0)
						if bad > 8 {
							t.Errorf("%v: %d pixels differ (worst %d)", fn, bad, worst)
						}
						t.Logf("%v: %d pixels differ", fn, bad)
						if sc.name == "decal" {
							// The offset's sign decides: in front (o < 0)
							// the decal wins, behind the base, and at o = 0
							// LEQUAL lets the coplanar decal through.
							sum := float64(o.factor) + float64(o.units)
							wantDecal := sum < 0 || sum == 0 && fn == compare.LessEqual
							if c := a.Pix[4*(32*dev.w+32)]; (c == 255) != wantDecal {
								t.Errorf("%v: the decal shows %v, want %v", fn, c == 255, wantDecal)
							}
							// The interior (inset 8 px): the offset alone
							// decides, identically on both paths.
							for y := 8; y < dev.h-8; y++ {
								for x := 8; x < dev.w-8; x++ {
									if i := 4 * (y*dev.w + x); a.Pix[i] != b.Pix[i] || a.Pix[i+1] != b.Pix[i+1] {
										t.Fatalf("%v: decal pixel (%d, %d) is %v on the device, %v on ref", fn, x, y, a.Pix[i:i+4], b.Pix[i:i+4])
									}
								}
							}
						}
					}
					dimg, za := drawOffsetScene(t, Options{Strict: true}, top, zf, compare.Always, rs)
					rimg, zb := drawOffsetScene(t, Options{ForceReference: true}, top, zf, compare.Always, rs)
					for i := range zb {
						// GL clamps the offset depth to [0, 1], over a float
						// attachment too (GL 4.6 §14.6.5); ref stores D32F
						// depths unclamped (z + o < 0 stays negative), the
						// device clamps as GL says. Compared clamped.
						zb[i] = min(max(zb[i], 0), 1)
					}
					step, tol := 1.0/float64(uint32(1)<<zf.Info().DepthBits-1), offsetDepthTol(zf)
					if zf == format.D32F {
						step = math.Ldexp(1, -24)
					}
					ai, bi, a0, b0 := dimg.image(t), rimg.image(t), dev0img.image(t), ref0img.image(t)
					worst, bad, n := 0.0, 0, 0
					for i := range za {
						// Image row 0 is window row h−1 (ReadPixels), depth
						// row 0 window row 0 (ReadDepth).
						k := 4 * ((dimg.h-1-i/dimg.w)*dimg.w + i%dimg.w)
						lit := func(p []uint8) bool { return p[k]|p[k+1]|p[k+2] != 0 }
						if !lit(ai.Pix) || !lit(bi.Pix) || !lit(a0.Pix) || !lit(b0.Pix) {
							continue // not covered on every path
						}
						n++
						d := math.Abs(float64(za[i]-dev0[i])-float64(zb[i]-ref0[i])) / step
						allow := tol + 0.01 // float32 read-back: a step is not exact
						if za[i] == 0 || zb[i] == 0 || za[i] == 1 || zb[i] == 1 {
							// Clamped to [0, 1]: the paths' offsets differ
							// by their depths without offset.
							allow += math.Abs(float64(dev0[i]-ref0[i])) / step
						}
						if d > allow {
							bad++
						}
						worst = max(worst, d)
					}
					if bad > 0 || n < 500 {
						t.Errorf("%d of %d depth offsets differ by more than %g steps (worst %.2f)", bad, n, tol, worst)
					}
					t.Logf("%d pixels, offsets within %.2f steps", n, worst)
				})
			}
		}
	}
}

// offsetDepthTol is the steps of zf by which the two paths' offsets may
// differ: each path rounds its depth with and without the offset to the
// attachment independently (ref through float32 first, whose step at
// depths over 0.5 is a D24 step; the device from its Q7.24 plane, with the
// offset rounded to the plane's 2^−24 step), each up to one step off, so
// the two differences are up to two steps apart. D32F counts steps of
// 2^−24: the device's depth there is the Q7.24 plane value.
func offsetDepthTol(zf format.Format) float64 { return 2 }
