package pipe

import (
	"testing"

	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
)

// TestReferenceSamplePasses draws on a 4-sample attachment on the reference
// renderer (refsamples.go): a rectangle whose right edge halves a column of
// pixels covers, in that column, exactly the samples left of the pixel's
// middle (gl/msaa's positions: the pass's viewport shift moves each sample
// onto the renderer's pixel centre), every sample of the pixels left of it
// and none right of it; and two framebuffer-fetch draws each read their own
// sample's colour.
func TestReferenceSamplePasses(t *testing.T) {
	const n = 4
	e := targetsEnv(t, Options{ForceReference: true}, []format.Format{format.RGBA8}, format.Invalid, n)
	rt := e.c.Bound().FB.Cbufs[0].Resource
	col := e.w / 2 // the edge runs through the middle of this column
	right := 2*(float32(col)+0.5)/float32(e.w) - 1
	e.program(t, testVS, testFS)
	e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, right, 1)...)
	if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, rt.Size())
	if err := rt.Read(0, got); err != nil {
		t.Fatal(err)
	}
	white := func(x, y, k int) bool { return got[((y*e.w+x)*n+k)*4] == 255 }
	y := e.h / 2
	for k := range n {
		sx, _ := msaa.Position(n, k)
		if want := sx < 8; white(col, y, k) != want {
			t.Errorf("column %d sample %d at x %d/16: covered %v, want %v", col, k, sx, white(col, y, k), want)
		}
		if !white(col-1, y, k) || white(col+1, y, k) {
			t.Errorf("sample %d: column %d covered %v, column %d covered %v; want true, false", k, col-1, white(col-1, y, k), col+1, white(col+1, y, k))
		}
	}

	f := targetsEnv(t, Options{ForceReference: true}, []format.Format{format.RGBA8}, format.Invalid, n)
	f.program(t, testVS, fetchFS)
	f.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, 1, 1)...)
	if err := f.c.Clear(ClearColor, [4]float32{0, 0, 0.5, 1}, 1, 0); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := f.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
	}
	frt := f.c.Bound().FB.Cbufs[0].Resource
	fb := make([]byte, frt.Size())
	if err := frt.Read(0, fb); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(fb); i += 4 {
		if fb[i] != 128 || fb[i+2] != 128 {
			t.Fatalf("sample %d of pixel %d: %v, want red 128 (two fetching draws of +0.25) and blue 128 kept", (i/4)%n, i/4/n, fb[i:i+4])
		}
	}
}
