package pipe

import (
	"context"
	"image/color"
	"sync"
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// TestRefTargetKeptOnlyWhileCurrent: a context keeps its reference target
// between draws, so every way the attachments can change between two draws
// must be seen by the second: a host write of the colour resource, a clear of
// the depth, another context clearing the same resources. Each step's image is
// compared with what GL defines.
func TestRefTargetKeptOnlyWhileCurrent(t *testing.T) {
	e := newDrawEnv(t, Options{ForceReference: true}, true)
	e.program(t, testVS, testFS)
	dsa, err := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less})
	if err != nil {
		t.Fatal(err)
	}
	e.c.BindDSAState(dsa)
	red, green := [4]float32{1, 0, 0, 1}, [4]float32{0, 1, 0, 1}
	if err := e.c.Clear(ClearColor|ClearDepth, [4]float32{0, 0, 1, 1}, 1, 0); err != nil {
		t.Fatal(err)
	}
	// A red quad over the left half at depth 0 (window 0.5).
	draw := func(c [4]float32, z float32, x0, x1 float32) {
		t.Helper()
		e.posCol(t, quadVerts(z, c, x0, -1, x1, 1)...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
	}
	at := func(x, y int) color.NRGBA { t.Helper(); return e.image(t).NRGBAAt(x, y) }
	draw(red, 0, -1, 0)
	if got := at(4, 16); got != (color.NRGBA{255, 0, 0, 255}) {
		t.Fatalf("first draw: %v at (4, 16)", got)
	}

	// 1. The host overwrites the colour attachment: a draw elsewhere must keep
	// the written bytes, not the target's copy of the first draw.
	grey := make([]byte, 4*e.w*e.h)
	for i := range grey {
		grey[i] = 0x40
	}
	if err := e.rt.Write(0, grey); err != nil {
		t.Fatal(err)
	}
	draw(green, 0, 0.5, 1)
	if got := at(4, 16); got != (color.NRGBA{0x40, 0x40, 0x40, 0x40}) {
		t.Errorf("after a host write: %v at (4, 16), want the written grey", got)
	}

	// 2. A green quad behind the red one fails the depth test...
	draw(green, 0.5, -1, 0)
	if got := at(4, 16); got != (color.NRGBA{0x40, 0x40, 0x40, 0x40}) {
		t.Errorf("behind the first quad: %v at (4, 16), want it hidden", got)
	}
	// ...until the depth is cleared.
	if err := e.c.Clear(ClearDepth, [4]float32{}, 1, 0); err != nil {
		t.Fatal(err)
	}
	draw(green, 0.5, -1, 0)
	if got := at(4, 16); got != (color.NRGBA{0, 255, 0, 255}) {
		t.Errorf("after a depth clear: %v at (4, 16), want green", got)
	}

	// 3. Another context draws into the same resources in between.
	o := e.s.NewContext(ContextOptions{})
	if err := o.SetFramebufferState(e.c.Bound().FB); err != nil {
		t.Fatal(err)
	}
	if err := o.Clear(ClearColor|ClearDepth, [4]float32{1, 1, 1, 1}, 1, 0); err != nil {
		t.Fatal(err)
	}
	draw(red, 0.9, 0.5, 1)
	if got := at(4, 16); got != (color.NRGBA{255, 255, 255, 255}) {
		t.Errorf("after another context's clear: %v at (4, 16), want white", got)
	}
	if got := at(28, 16); got != (color.NRGBA{255, 0, 0, 255}) {
		t.Errorf("after another context's clear: %v at (28, 16), want the red quad (the depth was cleared)", got)
	}
}

// TestRefTargetClearMirrored: an attachment that is not the whole of its
// resource's storage (here level 0 of two) is drawn in the kept target's own
// buffer: a clear fills that buffer along with the attachment (so the next
// draw reloads nothing), a draw's store leaves it current, and a partial
// depth/stencil clear mirrors only into a buffer that already holds the
// resource's bytes. Every step's bytes are checked against the resources'.
func TestRefTargetClearMirrored(t *testing.T) {
	e := newDrawEnv(t, Options{ForceReference: true}, true)
	const w, h = 32, 32
	mip := func(f format.Format) *Resource {
		r, err := e.s.CreateTexture(TextureDesc{Target: Target2D, Format: f, Width: w, Height: h, Depth: 1, ArraySize: 1, Levels: 2})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	e.rt, e.zs = mip(format.RGBA8), mip(format.D24S8)
	if err := e.c.SetFramebufferState(Framebuffer{Width: w, Height: h, Cbufs: []*Surface{{Resource: e.rt}}, Zsbuf: &Surface{Resource: e.zs}}); err != nil {
		t.Fatal(err)
	}
	e.program(t, testVS, testFS)
	dsa, err := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less})
	if err != nil {
		t.Fatal(err)
	}
	e.c.BindDSAState(dsa)
	k := &e.c.refTgt
	fb := &e.c.Bound().FB
	draw := func(c [4]float32, z float32, x0, x1 float32) {
		t.Helper()
		e.posCol(t, quadVerts(z, c, x0, -1, x1, 1)...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
	}
	// same reports whether the own buffers hold the resources' level-0
	// bytes where the held records say they are current.
	same := func(step string) {
		t.Helper()
		for i, buf := range k.own {
			r := [...]*Resource{e.rt, e.zs}[i]
			if !k.held[i].ok {
				continue
			}
			got := make([]byte, len(buf))
			if err := r.Read(0, got); err != nil {
				t.Fatal(err)
			}
			if string(got) != string(buf) {
				t.Errorf("%s: attachment %d held current but differs from its resource", step, i)
			}
		}
	}
	draw([4]float32{1, 0, 0, 1}, 0, -1, 0) // makes the kept target
	if k.t == nil {
		t.Fatal("no kept reference target after a draw")
	}
	if k.inPlace[0] != nil || k.inPlace[1] != nil || !k.held[0].current(fb.Cbufs[0]) || !k.held[1].current(fb.Zsbuf) {
		t.Errorf("a store into a two-level texture did not leave the own buffers current")
	}
	same("draw")
	if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{0, 0, 1, 1}, 1, 7); err != nil {
		t.Fatal(err)
	}
	if !k.held[0].current(fb.Cbufs[0]) || !k.held[1].current(fb.Zsbuf) {
		t.Errorf("a whole clear did not leave the kept target current")
	}
	same("whole clear")
	// A stencil-only clear is per texel: mirrored only into a current target.
	if err := e.c.Clear(ClearStencil, [4]float32{}, 0, 3); err != nil {
		t.Fatal(err)
	}
	if !k.held[1].current(fb.Zsbuf) {
		t.Errorf("a stencil clear of a current target left it stale")
	}
	same("stencil clear")
	draw([4]float32{0, 1, 0, 1}, 0, -1, 0)
	// A host write of level 1 makes the buffer stale (every write bumps the
	// version), so the next stencil clear does not mirror.
	if err := e.zs.Write(4*w*h, []byte{0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if err := e.c.Clear(ClearStencil, [4]float32{}, 0, 5); err != nil {
		t.Fatal(err)
	}
	if k.held[1].ok {
		t.Errorf("a stencil clear of a stale target recorded it current")
	}
	// The next draw reloads the depth (cleared depth 1, stencil 5) and keeps
	// the first quad's depth-passing green.
	draw([4]float32{1, 1, 1, 1}, 0.5, -1, 1)
	img := e.image(t)
	if got := img.NRGBAAt(4, 16); got != (color.NRGBA{0, 255, 0, 255}) {
		t.Errorf("(4, 16) = %v, want the green quad in front", got)
	}
	if got := img.NRGBAAt(28, 16); got != (color.NRGBA{255, 255, 255, 255}) {
		t.Errorf("(28, 16) = %v, want the white quad over the clear", got)
	}
	zs := make([]byte, 4*w*h)
	if err := e.zs.Read(0, zs); err != nil {
		t.Fatal(err)
	}
	if zs[(16*w+28)*4] != 5 {
		t.Errorf("stencil at (28, 16) = %d, want the cleared 5", zs[(16*w+28)*4])
	}
}

// TestRefTargetDrawsInPlace: an attachment that is the whole of its
// resource's storage is drawn in place (the target's surface is the
// resource's bytes, so nothing is loaded or stored), every draw bumps the
// resource's version, a failed draw too (what it wrote is the resource's),
// an attachment bound twice is not drawn in place, and rebinding to other
// resources of the same size draws into those, leaving the first alone.
func TestRefTargetDrawsInPlace(t *testing.T) {
	e := newDrawEnv(t, Options{ForceReference: true}, true)
	e.program(t, testVS, testFS)
	k := &e.c.refTgt
	draw := func() error {
		e.posCol(t, quadVerts(0, [4]float32{1, 0, 0, 1}, -1, -1, 0, 1)...)
		return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}})
	}
	if err := draw(); err != nil {
		t.Fatal(err)
	}
	if &k.t.Color[0].Data[0] != &e.rt.data[0] || &k.t.DepthStencil.Data[0] != &e.zs.data[0] {
		t.Fatal("whole-storage attachments were not drawn in place")
	}
	v := e.rt.versionNow()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e.c.SetReferenceConfig(ReferenceConfig{Context: ctx})
	if err := draw(); err == nil {
		t.Fatal("a draw under a cancelled context succeeded")
	}
	if e.rt.versionNow() == v {
		t.Error("a failed draw in place left the resource's version")
	}
	e.c.SetReferenceConfig(ReferenceConfig{})

	// Other resources of the same size: drawn into, the first untouched.
	before := make([]byte, 4*e.w*e.h)
	if err := e.rt.Read(0, before); err != nil {
		t.Fatal(err)
	}
	rt2 := newTex(t, e.s, format.RGBA8, e.w, e.h)
	if err := e.c.SetFramebufferState(Framebuffer{Width: e.w, Height: e.h, Cbufs: []*Surface{{Resource: rt2}}, Zsbuf: &Surface{Resource: e.zs}}); err != nil {
		t.Fatal(err)
	}
	if err := e.c.Clear(ClearColor, [4]float32{0, 1, 0, 1}, 1, 0); err != nil {
		t.Fatal(err)
	}
	if err := draw(); err != nil {
		t.Fatal(err)
	}
	after := make([]byte, len(before))
	if err := e.rt.Read(0, after); err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Error("a draw into another resource changed the first")
	}
	if got := e.image(t).NRGBAAt(4, 16); got != (color.NRGBA{255, 0, 0, 255}) {
		t.Errorf("second resource (4, 16) = %v, want the red quad", got)
	}

	// One resource bound as two colour attachments is drawn in own buffers.
	if err := e.c.SetFramebufferState(Framebuffer{Width: e.w, Height: e.h, Cbufs: []*Surface{{Resource: rt2}, {Resource: rt2}}}); err != nil {
		t.Fatal(err)
	}
	if err := draw(); err != nil {
		t.Fatal(err)
	}
	if &k.t.Color[0].Data[0] == &rt2.data[0] || &k.t.Color[1].Data[0] == &rt2.data[0] {
		t.Error("a resource bound twice was drawn in place")
	}
}

// TestInRowsCoversEveryRowOnce: however inRows splits the rows, every row is
// handed to exactly one call.
func TestInRowsCoversEveryRowOnce(t *testing.T) {
	for _, c := range []struct{ h, row int }{{0, 10}, {1, 1 << 22}, {7, 1 << 20}, {1080, 7680}, {3, 1}} {
		var mu sync.Mutex
		seen := make([]int, c.h)
		inRows(c.h, c.row, func(y0, y1 int) {
			mu.Lock()
			defer mu.Unlock()
			for y := y0; y < y1; y++ {
				seen[y]++
			}
		})
		for y, n := range seen {
			if n != 1 {
				t.Fatalf("h %d, %d-byte rows: row %d handed out %d times", c.h, c.row, y, n)
			}
		}
	}
}

// TestLargeClearAndRead: a clear and a read-back large enough to be split
// across goroutines give every texel the clear value, in the resource and in
// the kept reference target.
func TestLargeClearAndRead(t *testing.T) {
	s := NewScreenWithCaps(Caps{}, Options{ForceReference: true})
	c := s.NewContext(ContextOptions{})
	const w, h = 1024, 600
	rt := newTex(t, s, format.RGBA8, w, h)
	zs := newTex(t, s, format.D24S8, w, h)
	if err := c.SetFramebufferState(Framebuffer{Width: w, Height: h, Cbufs: []*Surface{{Resource: rt}}, Zsbuf: &Surface{Resource: zs}}); err != nil {
		t.Fatal(err)
	}
	e := &drawEnv{s: s, c: c, w: w, h: h, rt: rt, zs: zs}
	e.program(t, testVS, testFS)
	e.posCol(t, 0, 0, 0, 1, 1, 0, 0, 1, 0.001, 0, 0, 1, 1, 0, 0, 1, 0, 0.001, 0, 1, 1, 0, 0, 1)
	for _, col := range [][4]float32{{1, 0, 0.5, 1}, {0, 0.25, 1, 0}} {
		if err := c.Clear(ClearColor|ClearDepth|ClearStencil, col, 0.5, 9); err != nil {
			t.Fatal(err)
		}
		want := format.FromFloatRGBA8(col)
		got := make([]byte, 4*w*h)
		if err := rt.Read(0, got); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(got); i += 4 {
			if got[i] != byte(want[0]) || got[i+1] != byte(want[1]) || got[i+2] != byte(want[2]) || got[i+3] != byte(want[3]) {
				t.Fatalf("colour %v: texel %d = %v", col, i/4, got[i:i+4])
			}
		}
		if err := zs.Read(0, got); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(got); i += 4 {
			if got[i] != 9 || got[i+1] != 0 || got[i+2] != 0 || got[i+3] != 0x80 {
				t.Fatalf("depth/stencil texel %d = %v", i/4, got[i:i+4])
			}
		}
		if k := &c.refTgt; k.t != nil && k.held[0].ok && string(k.t.Color[0].Data) != string(func() []byte { b := make([]byte, 4*w*h); _ = rt.Read(0, b); return b }()) {
			t.Fatalf("colour %v: kept target differs from the resource", col)
		}
		// A draw makes the kept target (drawing in place) for the next clear.
		if err := c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFillBand: a band of any number of rows, with or without its first row
// already in place, ends up every row a copy of the pattern, and nothing
// past the band is written.
func TestFillBand(t *testing.T) {
	first := []byte{1, 2, 3, 4, 5, 6}
	for rows := 0; rows <= 37; rows++ {
		for _, has := range []bool{false, true} {
			buf := make([]byte, (rows+1)*len(first))
			band := buf[:rows*len(first)]
			if has && rows > 0 {
				copy(band, first)
			}
			fillBand(band, first, has)
			for y := range rows {
				if got := band[y*len(first) : (y+1)*len(first)]; string(got) != string(first) {
					t.Fatalf("%d rows (has %v): row %d = %v", rows, has, y, got)
				}
			}
			for _, b := range buf[len(band):] {
				if b != 0 {
					t.Fatalf("%d rows (has %v): wrote past the band", rows, has)
				}
			}
		}
	}
}
