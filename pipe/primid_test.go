package pipe

import "testing"

// pidFS shows gl_PrimitiveID (without a geometry stage) as a colour.
const pidFS = `#version 330
out vec4 o_col;
void main() {
	int p = gl_PrimitiveID;
	o_col = vec4(float(p & 7) / 7.0, float((p >> 3) & 7) / 7.0, 1.0, 1.0);
}
`

// TestPrimitiveIDDraws draws strips, fans, quads, a quad strip, a polygon,
// lines, points, instances, a culled strip and a LINE polygon mode with a
// fragment shader reading gl_PrimitiveID on the device (under STRICT) and
// on the reference renderer, which counts the draw's primitives as GL does
// (a quad or polygon one primitive, culled primitives counted, from 0 for
// each instance), and compares the images. spec: GL 4.6 §11.1.3.9; GLSL
// 1.50 §7.1
func TestPrimitiveIDDraws(t *testing.T) {
	// A zig-zag of eight vertices across the window: strips wind
	// alternately, quads and polygons are convex enough.
	verts := []float32{
		-0.9, -0.8, 0, 1, 0, 0, 0, 1,
		-0.9, 0.8, 0, 1, 0, 0, 0, 1,
		-0.4, -0.7, 0, 1, 0, 0, 0, 1,
		-0.3, 0.9, 0, 1, 0, 0, 0, 1,
		0.2, -0.9, 0, 1, 0, 0, 0, 1,
		0.25, 0.75, 0, 1, 0, 0, 0, 1,
		0.85, -0.6, 0, 1, 0, 0, 0, 1,
		0.9, 0.7, 0, 1, 0, 0, 0, 1,
	}
	poly := []float32{
		0.0, -0.9, 0, 1, 0, 0, 0, 1,
		0.7, -0.6, 0, 1, 0, 0, 0, 1,
		0.9, 0.1, 0, 1, 0, 0, 0, 1,
		0.4, 0.8, 0, 1, 0, 0, 0, 1,
		-0.5, 0.7, 0, 1, 0, 0, 0, 1,
		-0.9, -0.2, 0, 1, 0, 0, 0, 1,
	}
	// Three triangles: counter-clockwise, clockwise, counter-clockwise.
	tris := []float32{
		-0.9, -0.9, 0, 1, 0, 0, 0, 1,
		-0.2, -0.9, 0, 1, 0, 0, 0, 1,
		-0.5, 0.9, 0, 1, 0, 0, 0, 1,
		-0.1, -0.9, 0, 1, 0, 0, 0, 1,
		0.2, 0.9, 0, 1, 0, 0, 0, 1,
		0.4, -0.9, 0, 1, 0, 0, 0, 1,
		0.45, -0.9, 0, 1, 0, 0, 0, 1,
		0.95, -0.9, 0, 1, 0, 0, 0, 1,
		0.7, 0.9, 0, 1, 0, 0, 0, 1,
	}
	cases := []struct {
		name      string
		mode      PrimMode
		v         []float32
		instances uint32
		rast      RasterizerState
	}{
		{"triangle strip", PrimTriangleStrip, verts, 1, RasterizerState{}},
		{"triangle strip, two instances", PrimTriangleStrip, verts, 2, RasterizerState{}},
		{"triangles, back faces culled", PrimTriangles, tris, 1, RasterizerState{Cull: CullBack, FrontCCW: true}},
		{"triangle strip, line polygon mode", PrimTriangleStrip, verts, 1, RasterizerState{FillFront: PolygonLine, FillBack: PolygonLine}},
		{"triangle fan", PrimTriangleFan, poly, 1, RasterizerState{}},
		{"quads", PrimQuads, verts, 1, RasterizerState{}},
		{"quad strip", PrimQuadStrip, verts, 1, RasterizerState{}},
		{"polygon, point polygon mode", PrimPolygon, poly, 1, RasterizerState{FillFront: PolygonPoint, FillBack: PolygonPoint, PointSize: 3}},
		{"polygon", PrimPolygon, poly, 1, RasterizerState{}},
		{"line strip", PrimLineStrip, verts, 1, RasterizerState{LineWidth: 2}},
		{"points", PrimPoints, verts, 1, RasterizerState{PointSize: 4}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			draw := func(o Options) *drawEnv {
				e := newDrawEnv(t, o, false)
				if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
					t.Fatal(err)
				}
				e.program(t, testVS, pidFS)
				e.posCol(t, tc.v...)
				r, err := e.c.CreateRasterizerState(tc.rast)
				if err != nil {
					t.Fatal(err)
				}
				e.c.BindRasterizerState(r)
				if err := e.c.DrawVBO(&DrawInfo{Mode: tc.mode, InstanceCount: tc.instances, Draws: []DrawRange{{Count: uint32(len(tc.v) / 8)}}}); err != nil {
					t.Fatal(err)
				}
				return e
			}
			want := draw(Options{ForceReference: true})
			dev := draw(Options{Strict: true})
			if st := dev.c.Stats(); st.Device != 1 || st.Reference != 0 {
				t.Errorf("stats %+v, want the draw on the device", st)
			}
			a, b := dev.image(t), want.image(t)
			covered, ids := 0, map[[2]uint8]bool{}
			for i := 0; i < len(b.Pix); i += 4 {
				if b.Pix[i+2] != 0 {
					covered++
					ids[[2]uint8{b.Pix[i], b.Pix[i+1]}] = true
				}
			}
			minIDs := 2 // a polygon is one primitive
			if tc.mode == PrimPolygon {
				minIDs = 1
			}
			if bad, worst := compareImages(a, b, 1); bad > covered/50 || covered < 20 || len(ids) < minIDs {
				t.Errorf("%d covered pixels, %d primitive ids, %d differ (worst %d)", covered, len(ids), bad, worst)
			}
		})
	}
}

// TestPolygonPrimitiveIDs numbers quads', quad strips' and polygons'
// triangles by their GL primitive, across restart runs.
func TestPolygonPrimitiveIDs(t *testing.T) {
	const r = 0xFFFF
	for _, tc := range []struct {
		mode    PrimMode
		idx     []uint32
		restart bool
		want    []uint32
	}{
		{PrimQuads, []uint32{0, 1, 2, 3, 4, 5, 6, 7}, false, []uint32{0, 0, 1, 1}},
		{PrimQuadStrip, []uint32{0, 1, 2, 3, 4, 5}, false, []uint32{0, 0, 1, 1}},
		{PrimPolygon, []uint32{0, 1, 2, 3, 4}, false, []uint32{0, 0, 0}},
		{PrimPolygon, []uint32{0, 1, 2, r, 3, 4, r, 5, 6, 7, 8}, true, []uint32{0, 1, 1}},
		{PrimQuads, []uint32{0, 1, 2, r, 3, 4, 5, 6, r, 7, 8, 9, 10}, true, []uint32{0, 0, 1, 1}},
	} {
		got := polygonPrimitiveIDs(PolygonEdgeFlags(tc.mode, tc.idx, tc.restart, r))
		if len(got) != len(tc.want) {
			t.Errorf("%v %v: ids %v, want %v", tc.mode, tc.idx, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%v %v: ids %v, want %v", tc.mode, tc.idx, got, tc.want)
				break
			}
		}
	}
}
