package pipe

import (
	"testing"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// BenchmarkRoute measures one routing decision over a fully bound state.
func BenchmarkRoute(b *testing.B) {
	s := NewScreenWithCaps(fullCaps(), Options{})
	st := eligible(b, s)
	d := DrawShape{Mode: PrimTriangles, Draw: DirectDraw{Count: 3, InstanceCount: 1}}
	caps := fullCaps()
	b.ReportAllocs()
	for b.Loop() {
		if dec := Route(caps, Options{}, st, d); dec.Reference {
			b.Fatal(dec.Gates)
		}
	}
}

// BenchmarkTriangleListStrip translates a 64K-index strip with restarts.
func BenchmarkTriangleListStrip(b *testing.B) {
	idx := make([]uint32, 1<<16)
	for i := range idx {
		idx[i] = uint32(i)
		if i%1000 == 999 {
			idx[i] = 0xFFFFFFFF
		}
	}
	b.SetBytes(int64(4 * len(idx)))
	for b.Loop() {
		if _, err := TriangleList(PrimTriangleStrip, idx, true, 0xFFFFFFFF, false); err != nil {
			b.Fatal(err)
		}
	}
}

// benchFrame measures one frame (clear, one indexed 512-triangle grid draw,
// finish) at 64x64 on the device (STRICT) or the reference renderer.
func benchFrame(b *testing.B, o Options) {
	e := newDrawEnv(b, o, true)
	e.program(b, testVS, testFS)
	const n = 16 // grid cells per side: 2*16*16 triangles
	var v []float32
	for y := 0; y <= n; y++ {
		for x := 0; x <= n; x++ {
			fx, fy := float32(x)/n*2-1, float32(y)/n*2-1
			v = append(v, fx, fy, fx*fy*0.5, 1, float32(x)/n, float32(y)/n, 0.5, 1)
		}
	}
	e.posCol(b, v...)
	var idx []byte
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			i := uint16(y*(n+1) + x)
			for _, k := range []uint16{i, i + 1, i + n + 1, i + n + 1, i + 1, i + n + 2} {
				idx = append(idx, byte(k), byte(k>>8))
			}
		}
	}
	ib := e.bytes(b, idx)
	d, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less})
	e.c.BindDSAState(d)
	info := &DrawInfo{Mode: PrimTriangles, IndexSize: 2, Index: ib, InstanceCount: 1, Draws: []DrawRange{{Count: uint32(len(idx) / 2)}}}
	for b.Loop() {
		if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
			b.Fatal(err)
		}
		if err := e.c.DrawVBO(info); err != nil {
			b.Fatal(err)
		}
		if err := e.c.Finish(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFrameDevice: a frame through the device model (the simulated
// Vortex: VS, front end, RASTER, FS wrapper, OM).
func BenchmarkFrameDevice(b *testing.B) { benchFrame(b, Options{Strict: true}) }

// BenchmarkFrameReference: the same frame on the reference renderer.
func BenchmarkFrameReference(b *testing.B) { benchFrame(b, Options{ForceReference: true}) }

// BenchmarkReferenceFrameFixed measures a reference frame's fixed costs at
// 1920x1080: clear colour, depth and stencil, one small triangle, and the
// colour read back, so the time is the attachments' clears, loads, stores
// and read-back rather than rasterization.
func BenchmarkReferenceFrameFixed(b *testing.B) {
	s := NewScreenWithCaps(Caps{}, Options{ForceReference: true})
	e := &drawEnv{s: s, c: s.NewContext(ContextOptions{}), w: 1920, h: 1080}
	e.rt = newTex(b, s, format.RGBA8, e.w, e.h)
	e.zs = newTex(b, s, format.D24S8, e.w, e.h)
	if err := e.c.SetFramebufferState(Framebuffer{Width: e.w, Height: e.h, Cbufs: []*Surface{{Resource: e.rt}}, Zsbuf: &Surface{Resource: e.zs}}); err != nil {
		b.Fatal(err)
	}
	e.program(b, testVS, testFS)
	d, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less})
	e.c.BindDSAState(d)
	e.posCol(b, 0, 0, 0, 1, 1, 0, 0, 1, 0.01, 0, 0, 1, 1, 0, 0, 1, 0, 0.01, 0, 1, 1, 0, 0, 1)
	info := &DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}}
	out := make([]byte, 4*e.w*e.h)
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{0.1, 0.2, 0.3, 1}, 1, 0); err != nil {
			b.Fatal(err)
		}
		if err := e.c.DrawVBO(info); err != nil {
			b.Fatal(err)
		}
		if err := e.rt.Read(0, out); err != nil {
			b.Fatal(err)
		}
	}
}
