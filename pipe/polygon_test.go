package pipe

import (
	"slices"
	"testing"
)

// TestPolygonTriangles checks the triangle order of quads, quad strips and
// polygons (ref's assembly), restart runs and the primitive counts.
// spec: GL 2.1 §2.6.1
func TestPolygonTriangles(t *testing.T) {
	const r = 0xFFFF
	tests := []struct {
		mode    PrimMode
		idx     []uint32
		restart bool
		want    []uint32
		prims   int
	}{
		{PrimQuads, []uint32{0, 1, 2, 3, 4, 5, 6}, false, []uint32{0, 1, 2, 0, 2, 3}, 1},
		{PrimQuadStrip, []uint32{0, 1, 2, 3, 4, 5}, false, []uint32{0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4}, 2},
		{PrimPolygon, []uint32{0, 1, 2, 3, 4}, false, []uint32{0, 1, 2, 0, 2, 3, 0, 3, 4}, 1},
		{PrimPolygon, []uint32{0, 1, 2, r, 3, 4, r, 5, 6, 7, 8}, true, []uint32{0, 1, 2, 5, 6, 7, 5, 7, 8}, 2},
		{PrimQuads, []uint32{0, 1, 2, r, 3, 4, 5, 6}, true, []uint32{3, 4, 5, 3, 5, 6}, 1},
	}
	for _, tc := range tests {
		got, err := TriangleList(tc.mode, tc.idx, tc.restart, r, false)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%v %v: %v, %v, want %v", tc.mode, tc.idx, got, err, tc.want)
		}
		if n := polygonCount(tc.mode, tc.idx, tc.restart, r); n != tc.prims {
			t.Errorf("%v %v: %d primitives, want %d", tc.mode, tc.idx, n, tc.prims)
		}
	}
}

// flatVS and flatFS pass the colour on as a flat varying.
const (
	flatVS = `#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
flat out vec4 v_col;
void main() { gl_Position = pos; v_col = col; }
`
	flatFS = `#version 330
flat in vec4 v_col;
out vec4 o_col;
void main() { o_col = v_col; }
`
)

// TestPolygonDraws draws quads, a quad strip and a polygon with per-vertex
// colours on the device (under STRICT) and on the reference renderer and
// compares the images; flat varyings on quads go to the reference renderer
// as GateFlatPolygons. spec: GL 2.1 §2.6.1; vortexpipe §1.5.1
func TestPolygonDraws(t *testing.T) {
	// Six vertices around the window's centre, each its own colour.
	verts := []float32{
		-0.8, -0.8, 0, 1, 1, 0, 0, 1,
		0.8, -0.8, 0, 1, 0, 1, 0, 1,
		0.9, 0.1, 0, 1, 0, 0, 1, 1,
		0.2, 0.9, 0, 1, 1, 1, 0, 1,
		-0.6, 0.7, 0, 1, 0, 1, 1, 1,
		-0.9, 0.0, 0, 1, 1, 0, 1, 1,
	}
	cases := []struct {
		name   string
		mode   PrimMode
		vs, fs string
		gate   ReasonCode
	}{
		{"quads", PrimQuads, testVS, testFS, 0},
		{"quad strip", PrimQuadStrip, testVS, testFS, 0},
		{"polygon", PrimPolygon, testVS, testFS, 0},
		{"flat quads", PrimQuads, flatVS, flatFS, GateFlatPolygons},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			draw := func(o Options) *drawEnv {
				e := newDrawEnv(t, o, false)
				if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
					t.Fatal(err)
				}
				e.program(t, tc.vs, tc.fs)
				e.posCol(t, verts...)
				if err := e.c.DrawVBO(&DrawInfo{Mode: tc.mode, InstanceCount: 1, Draws: []DrawRange{{Count: 6}}}); err != nil {
					t.Fatal(err)
				}
				return e
			}
			want := draw(Options{ForceReference: true})
			dev := draw(Options{Strict: tc.gate == 0})
			st := dev.c.Stats()
			switch {
			case tc.gate == 0 && (st.Device != 1 || st.Reference != 0):
				t.Errorf("stats %+v, want the draw on the device", st)
			case tc.gate != 0 && (st.Reference != 1 || st.Fallbacks[tc.gate] != 1):
				t.Errorf("stats %+v, want the draw on the reference renderer for %v", st, tc.gate)
			}
			a, b := dev.image(t), want.image(t)
			covered := 0
			for i := 0; i < len(b.Pix); i += 4 {
				if b.Pix[i] != 0 || b.Pix[i+1] != 0 || b.Pix[i+2] != 0 {
					covered++
				}
			}
			if bad, worst := compareImages(a, b, 3); bad > covered/50 || covered < 200 {
				t.Errorf("%d covered pixels, %d differ (worst %d)", covered, bad, worst)
			}
		})
	}
}
