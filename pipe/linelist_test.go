package pipe

import (
	"encoding/binary"
	"math"
	"reflect"
	"testing"
)

// TestLineList checks the segment and point lists LineList builds: strips,
// loops, separate lines with an unpaired vertex, points, and primitive
// restart ending each primitive. spec: GL 4.6 §10.1.2–§10.1.5
func TestLineList(t *testing.T) {
	const R = 0xFFFF
	for _, tc := range []struct {
		mode    PrimMode
		idx     []uint32
		restart bool
		want    []uint32
	}{
		{PrimLines, []uint32{0, 1, 2, 3, 4}, false, []uint32{0, 1, 2, 3}},
		{PrimLineStrip, []uint32{5, 6, 7}, false, []uint32{5, 6, 6, 7}},
		{PrimLineLoop, []uint32{5, 6, 7}, false, []uint32{5, 6, 6, 7, 7, 5}},
		{PrimLineLoop, []uint32{5}, false, []uint32{}},
		{PrimPoints, []uint32{3, 1, 2}, false, []uint32{3, 1, 2}},
		{PrimLineStrip, []uint32{0, 1, 2, R, 3, 4}, true, []uint32{0, 1, 1, 2, 3, 4}},
		{PrimLineLoop, []uint32{0, 1, 2, R, 3, 4}, true, []uint32{0, 1, 1, 2, 2, 0, 3, 4, 4, 3}},
		{PrimLines, []uint32{0, 1, 2, R, 3, 4}, true, []uint32{0, 1, 3, 4}},
		{PrimPoints, []uint32{0, R, 1}, true, []uint32{0, 1}},
		{PrimLineStrip, []uint32{0, R, 1}, false, []uint32{0, R, R, 1}},
	} {
		got, err := LineList(tc.mode, tc.idx, tc.restart, R)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v %v restart %v: %v, want %v", tc.mode, tc.idx, tc.restart, got, tc.want)
		}
	}
	if _, err := LineList(PrimTriangles, []uint32{0, 1, 2}, false, 0); err == nil {
		t.Error("LineList of triangles: no error")
	}
}

// TestLinesPointsDeviceMatchesRef draws lines and points through DrawVBO on
// the device (STRICT: nothing falls back) and on the reference renderer
// (ForceReference) and requires the same pixels: coverage exactly, colours
// within 1/255 (the device interpolates on float32 planes, the reference in
// float64). Indexed strips with primitive restart, a loop with the first
// vertex provoking a flat colour, wide lines, points sized by gl_PointSize
// and by the rasterizer, and a user clip plane. spec: GL 4.6 §14.4, §14.5
func TestLinesPointsDeviceMatchesRef(t *testing.T) {
	const vs = `#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
out vec4 v_col;
flat out vec4 v_flat;
void main() { gl_Position = pos; gl_PointSize = 1.0 + 6.0 * col.b; v_col = col; v_flat = col.bgra; }
`
	const fs = `#version 330
in vec4 v_col;
flat in vec4 v_flat;
out vec4 o_col;
void main() { o_col = vec4(v_col.rg, v_flat.b, 1.0); }
`
	var verts []float32
	for k := range 9 {
		a := float64(k) * 2 * math.Pi / 9
		r := 0.35 + 0.5*float64(k%2)
		verts = append(verts, float32(r*math.Cos(a)), float32(r*math.Sin(a)), 0, 1,
			float32(k)/8, 1-float32(k)/8, float32(k%3)/2, 1)
	}
	ib := make([]byte, 2*11)
	for i, v := range []uint16{0, 1, 2, 3, 0xFFFF, 4, 5, 6, 0xFFFF, 7, 8} {
		binary.LittleEndian.PutUint16(ib[2*i:], v)
	}
	for _, tc := range []struct {
		name string
		rast RasterizerState
		draw func(e *drawEnv) *DrawInfo
	}{
		{"lines", RasterizerState{}, func(*drawEnv) *DrawInfo {
			return &DrawInfo{Mode: PrimLines, InstanceCount: 1, Draws: []DrawRange{{Count: 9}}}
		}},
		{"strip restart, 2 instances", RasterizerState{LineWidth: 2}, func(e *drawEnv) *DrawInfo {
			return &DrawInfo{Mode: PrimLineStrip, IndexSize: 2, Index: e.bytes(t, ib), PrimitiveRestart: true, RestartIndex: 0xFFFF,
				InstanceCount: 2, Draws: []DrawRange{{Count: 11}}}
		}},
		{"loop first", RasterizerState{FlatshadeFirst: true, LineWidth: 3.4}, func(*drawEnv) *DrawInfo {
			return &DrawInfo{Mode: PrimLineLoop, InstanceCount: 1, Draws: []DrawRange{{Count: 9}}}
		}},
		{"loop clipped", RasterizerState{ClipPlaneEnable: 1}, func(*drawEnv) *DrawInfo {
			return &DrawInfo{Mode: PrimLineLoop, InstanceCount: 1, Draws: []DrawRange{{Count: 9}}}
		}},
		{"points shader size", RasterizerState{}, func(*drawEnv) *DrawInfo {
			return &DrawInfo{Mode: PrimPoints, InstanceCount: 1, Draws: []DrawRange{{Count: 9}}}
		}},
		{"points api size", RasterizerState{PointSize: 2.5, IgnoreShaderPointSize: true}, func(*drawEnv) *DrawInfo {
			return &DrawInfo{Mode: PrimPoints, InstanceCount: 1, Draws: []DrawRange{{Count: 9}}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var imgs [2][]byte
			for i, o := range []Options{{Strict: true}, {ForceReference: true}} {
				e := newDrawEnv(t, o, false)
				if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 0}, 1, 0); err != nil {
					t.Fatal(err)
				}
				r, err := e.c.CreateRasterizerState(tc.rast)
				if err != nil {
					t.Fatal(err)
				}
				e.c.BindRasterizerState(r)
				if tc.rast.ClipPlaneEnable != 0 {
					e.c.SetClipState(ClipState{UCP: [8][4]float32{{1, 0.5, 0, 0.2}}})
				}
				e.program(t, vs, fs)
				e.posCol(t, verts...)
				if err := e.c.DrawVBO(tc.draw(e)); err != nil {
					t.Fatal(err)
				}
				imgs[i] = e.image(t).Pix
				if st := e.c.Stats(); i == 0 && st.Device != 1 {
					t.Errorf("device screen: %+v", st)
				}
			}
			covered, cov, worst := 0, 0, 0
			for p := 0; p < len(imgs[0]); p += 4 {
				dc, rc := imgs[0][p+3] != 0, imgs[1][p+3] != 0
				if dc != rc {
					cov++
					continue
				}
				if dc {
					covered++
				}
				for k := range 4 {
					worst = max(worst, abs(int(imgs[0][p+k])-int(imgs[1][p+k])))
				}
			}
			if covered == 0 || cov != 0 || worst > 1 {
				t.Errorf("%d pixels covered by both, %d coverage mismatches, worst channel difference %d", covered, cov, worst)
			}
		})
	}
}

// TestPolygonModeDeviceMatchesRef draws a counter-clockwise triangle with
// its front face in LINE mode and a clockwise one with its back face in
// POINT mode through DrawVBO on the device (STRICT), and compares them with
// the reference renderer drawing the first triangle's edges as lines and the
// second's vertices as points (it has no polygon modes): coverage exactly,
// colours within 1/255. spec: GL 4.6 §14.6.4
func TestPolygonModeDeviceMatchesRef(t *testing.T) {
	const fs = `#version 330
in vec4 v_col;
out vec4 o_col;
void main() { o_col = vec4(v_col.rgb, 1.0); }
`
	v := func(x, y, r, g float32) []float32 { return []float32{x, y, 0, 1, r, g, 0.5, 1} }
	ccw := [][]float32{v(-0.8, -0.7, 1, 0), v(0.1, -0.75, 0, 1), v(-0.5, 0.6, 1, 1)}
	cw := [][]float32{v(0.2, 0.1, 0, 0), v(0.6, 0.85, 1, 0), v(0.9, -0.3, 0, 1)}
	cat := func(vs ...[]float32) []float32 {
		var out []float32
		for _, x := range vs {
			out = append(out, x...)
		}
		return out
	}
	draw := func(o Options, rs RasterizerState, verts []float32, mode PrimMode) []byte {
		e := newDrawEnv(t, o, false)
		if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 0}, 1, 0); err != nil {
			t.Fatal(err)
		}
		r, err := e.c.CreateRasterizerState(rs)
		if err != nil {
			t.Fatal(err)
		}
		e.c.BindRasterizerState(r)
		e.program(t, testVS, fs)
		e.posCol(t, verts...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: mode, InstanceCount: 1, Draws: []DrawRange{{Count: uint32(len(verts) / 8)}}}); err != nil {
			t.Fatal(err)
		}
		if st := e.c.Stats(); o.Strict && st.Device != 1 {
			t.Errorf("device screen: %+v", st)
		}
		return e.image(t).Pix
	}
	rs := RasterizerState{FrontCCW: true, FillFront: PolygonLine, FillBack: PolygonPoint, LineWidth: 2, PointSize: 3, IgnoreShaderPointSize: true}
	dev := draw(Options{Strict: true}, rs, cat(append(ccw, cw...)...), PrimTriangles)
	lines := draw(Options{ForceReference: true}, RasterizerState{LineWidth: 2}, cat(ccw[0], ccw[1], ccw[1], ccw[2], ccw[2], ccw[0]), PrimLines)
	points := draw(Options{ForceReference: true}, RasterizerState{PointSize: 3, IgnoreShaderPointSize: true}, cat(cw...), PrimPoints)
	covered, cov, worst := 0, 0, 0
	for p := 0; p < len(dev); p += 4 {
		want := lines[p : p+4]
		if points[p+3] != 0 {
			want = points[p : p+4]
		}
		dc, rc := dev[p+3] != 0, want[3] != 0
		if dc != rc {
			cov++
			continue
		}
		if dc {
			covered++
		}
		for k := range 4 {
			worst = max(worst, abs(int(dev[p+k])-int(want[k])))
		}
	}
	if covered == 0 || cov != 0 || worst > 1 {
		t.Errorf("%d pixels covered by both, %d coverage mismatches, worst channel difference %d", covered, cov, worst)
	}
}

// TestPolygonEdgeFlags checks the edge flags of the triangles TriangleList
// makes of quads, quad strips and polygons: every boundary edge once, no fan
// diagonal. spec: GL 4.6 §14.6.4; GL 2.1 §2.6.2
func TestPolygonEdgeFlags(t *testing.T) {
	const R = 0xFF
	for _, tc := range []struct {
		mode    PrimMode
		idx     []uint32
		restart bool
		want    []uint8
	}{
		{PrimQuads, []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8}, false, []uint8{0b011, 0b110, 0b011, 0b110}},
		{PrimQuadStrip, []uint32{0, 1, 2, 3, 4, 5}, false, []uint8{0b011, 0b110, 0b011, 0b110}},
		{PrimPolygon, []uint32{0, 1, 2}, false, []uint8{0b111}},
		{PrimPolygon, []uint32{0, 1, 2, 3, 4}, false, []uint8{0b011, 0b010, 0b110}},
		{PrimPolygon, []uint32{0, 1, 2, 3, R, 4, 5, 6}, true, []uint8{0b011, 0b110, 0b111}},
		{PrimQuads, []uint32{0, 1, 2, R, 3, 4, 5, 6}, true, []uint8{0b011, 0b110}},
	} {
		got := PolygonEdgeFlags(tc.mode, tc.idx, tc.restart, R)
		tris, err := TriangleList(tc.mode, tc.idx, tc.restart, R, false)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tc.want) || len(got) != len(tris)/3 {
			t.Errorf("%v %v: %b (for %d triangles), want %b", tc.mode, tc.idx, got, len(tris)/3, tc.want)
		}
	}
}

// TestPolygonModeQuadsMatchRef draws two quads and a pentagon in LINE and
// in POINT polygon mode on the device (STRICT) and compares them with the
// reference renderer drawing their outlines as lines and their vertices as
// points: the fans' diagonals are not drawn, each vertex once. spec: GL 4.6
// §14.6.4
func TestPolygonModeQuadsMatchRef(t *testing.T) {
	const fs = `#version 330
in vec4 v_col;
out vec4 o_col;
void main() { o_col = vec4(v_col.rgb, 1.0); }
`
	v := func(x, y, r, g float32) []float32 { return []float32{x, y, 0, 1, r, g, 0.5, 1} }
	quads := [][]float32{v(-0.9, -0.9, 1, 0), v(-0.2, -0.85, 0, 1), v(-0.25, -0.2, 1, 1), v(-0.8, -0.3, 0, 0),
		v(0.1, -0.9, 0, 1), v(0.9, -0.8, 1, 0), v(0.8, -0.1, 0, 0), v(0.2, -0.2, 1, 1)}
	pent := [][]float32{v(0, 0.1, 1, 0), v(0.6, 0.3, 0, 1), v(0.4, 0.9, 1, 1), v(-0.4, 0.9, 0, 0), v(-0.6, 0.3, 1, 0)}
	cat := func(vs [][]float32) []float32 {
		var out []float32
		for _, x := range vs {
			out = append(out, x...)
		}
		return out
	}
	outline := func(ring [][]float32) [][]float32 {
		var out [][]float32
		for i := range ring {
			out = append(out, ring[i], ring[(i+1)%len(ring)])
		}
		return out
	}
	draw := func(o Options, rs RasterizerState, draws ...func() ([]float32, PrimMode)) []byte {
		e := newDrawEnv(t, o, false)
		if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 0}, 1, 0); err != nil {
			t.Fatal(err)
		}
		r, err := e.c.CreateRasterizerState(rs)
		if err != nil {
			t.Fatal(err)
		}
		e.c.BindRasterizerState(r)
		e.program(t, testVS, fs)
		for _, d := range draws {
			verts, mode := d()
			e.posCol(t, verts...)
			if err := e.c.DrawVBO(&DrawInfo{Mode: mode, InstanceCount: 1, Draws: []DrawRange{{Count: uint32(len(verts) / 8)}}}); err != nil {
				t.Fatal(err)
			}
		}
		if st := e.c.Stats(); o.Strict && st.Device != uint64(len(draws)) {
			t.Errorf("device screen: %+v", st)
		}
		return e.image(t).Pix
	}
	for _, mode := range []PolygonMode{PolygonLine, PolygonPoint} {
		rs := RasterizerState{FrontCCW: true, FillFront: mode, FillBack: mode, LineWidth: 1, PointSize: 3, IgnoreShaderPointSize: true}
		dev := draw(Options{Strict: true}, rs,
			func() ([]float32, PrimMode) { return cat(quads), PrimQuads },
			func() ([]float32, PrimMode) { return cat(pent), PrimPolygon })
		var want []byte
		if mode == PolygonLine {
			want = draw(Options{ForceReference: true}, RasterizerState{LineWidth: 1},
				func() ([]float32, PrimMode) {
					return cat(append(append(outline(quads[:4]), outline(quads[4:])...), outline(pent)...)), PrimLines
				})
		} else {
			want = draw(Options{ForceReference: true}, RasterizerState{PointSize: 3, IgnoreShaderPointSize: true},
				func() ([]float32, PrimMode) { return cat(append(append([][]float32{}, quads...), pent...)), PrimPoints })
		}
		covered, cov, worst := 0, 0, 0
		for p := 0; p < len(dev); p += 4 {
			dc, rc := dev[p+3] != 0, want[p+3] != 0
			if dc != rc {
				cov++
				continue
			}
			if dc {
				covered++
			}
			for k := range 4 {
				worst = max(worst, abs(int(dev[p+k])-int(want[k+p])))
			}
		}
		if covered == 0 || cov != 0 || worst > 1 {
			t.Errorf("mode %d: %d pixels covered by both, %d coverage mismatches, worst channel difference %d", mode, covered, cov, worst)
		}
	}
}
