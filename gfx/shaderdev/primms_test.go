package shaderdev_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
)

// msPrimVS/FS draw each primitive in its provoking vertex's colour, so a
// sample's value says only which primitive covers it.
const (
	msPrimVS = `#version 140
in vec4 a_pos; in vec4 a_col; flat out vec4 v_col;
void main() { gl_Position = a_pos; gl_PointSize = a_col.a * 8.0; v_col = vec4(a_col.rgb, 1.0); }`
	msPrimFS = `#version 140
flat in vec4 v_col; out vec4 o;
void main() { o = v_col; }`
)

// msPrimCase is a line or point list in window coordinates of a W×H target.
type msPrimCase struct {
	name   string
	points bool
	poly   bool         // triangles in GL_LINE polygon mode (both faces)
	width  float32      // line width
	verts  [][2]float64 // window positions
	sizes  []float64    // points: gl_PointSize (from the colour's alpha)
}

const msW, msH = 48, 32

func msPrimCases() []msPrimCase {
	var star [][2]float64
	for k := range 12 {
		a := float64(k)*math.Pi/6 + 0.1
		star = append(star, [2]float64{24.3, 16.2}, [2]float64{24.3 + 14*math.Cos(a), 16.2 + 14*math.Sin(a)})
	}
	return []msPrimCase{
		{name: "lines width 1", width: 1, verts: star},
		{name: "lines width 3.5", width: 3.5, verts: star[:12]},
		{name: "GL_LINE polygons width 1.5", poly: true, width: 1.5, verts: [][2]float64{{4.2, 3.1}, {30.5, 6.4}, {12.8, 27.7}, {44.1, 29.3}, {26.6, 12.2}, {40.9, 2.5}}},
		{name: "points", points: true, verts: [][2]float64{{5.5, 5.5}, {12.3, 7.9}, {20.75, 20.1}, {33.1, 9.6}, {40.4, 25.25}},
			sizes: []float64{1, 2.5, 3, 5.25, 7}},
	}
}

// TestShaderMSAALinesPointsMatchRef draws lines (widths 1 and 3.5) and
// points (sizes 1 to 7) on multisampled passes of every count and compares
// the device's sample planes sample by sample with the reference
// renderer's sample passes drawing GL's multisample shapes as triangles —
// the rectangle of the line width centred on each segment, the size×size
// square centred on each point (GL 4.6 §14.5.4, §14.4.3; the reference
// renderer's own line and point rules are the single-sample ones) — with
// pass k's pixel centres on sample k. Tolerance: at most 0.5% of the samples
// differ (a sample on, or within the fixed-point quantization of, a shape's
// edge). spec: GL 4.6 §14.4.3, §14.5.4
func TestShaderMSAALinesPointsMatchRef(t *testing.T) {
	p := link(t, msPrimVS, msPrimFS)
	sp, err := shaderdev.NewProgram("msprims", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range msPrimCases() {
		for _, n := range []int{2, 4, 8, 16} {
			t.Run(fmt.Sprintf("%s %dx", c.name, n), func(t *testing.T) {
				got := msPrimsDevice(t, p, sp, c, n)
				want := msPrimsRef(t, p, c, n)
				diff, drawn := 0, 0
				for i := 0; i < len(got); i += 4 {
					if string(got[i:i+4]) != string(want[i:i+4]) {
						diff++
					}
					if want[i+3] != 0 {
						drawn++
					}
				}
				total := len(got) / 4
				t.Logf("%d of %d samples drawn, %d differ", drawn, total, diff)
				if drawn < total/50 || diff > total/200 {
					t.Errorf("%d of %d samples differ from the reference's shapes (%d drawn)", diff, total, drawn)
				}
			})
		}
	}
}

// msPrimColour is primitive i's colour (alpha: the point size / 8).
func msPrimColour(c msPrimCase, i int) [4]float32 {
	col := [4]float32{float32(i%5) / 4, float32(i%3) / 2, float32(i%7) / 6, 1}
	if c.points {
		col[3] = float32(c.sizes[i] / 8)
	}
	return col
}

func msNDC(v [2]float64) [4]float32 {
	return [4]float32{float32(2*v[0]/msW - 1), float32(2*v[1]/msH - 1), 0, 1}
}

// msPrimsDevice draws c on an n-sample device pass and returns colour
// target 0's sample planes.
func msPrimsDevice(t *testing.T, p *program.Program, sp *shaderdev.Program, c msPrimCase, n int) []byte {
	t.Helper()
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	data := make([]byte, 4*words*len(c.verts))
	for i, v := range c.verts {
		prim := i / 2 // a segment's provoking vertex is its last: both get its colour
		switch {
		case c.points:
			prim = i
		case c.poly:
			prim = i / 3
		}
		cl := msPrimColour(c, prim)
		np := msNDC(v)
		for k := range 4 {
			binary.LittleEndian.PutUint32(data[4*(i*words+pos.Word+k):], math.Float32bits(np[k]))
			binary.LittleEndian.PutUint32(data[4*(i*words+col.Word+k):], math.Float32bits(cl[k]))
		}
	}
	dev, err := shaderdev.OpenTargets(config.Default(), msW, msH, shaderdev.TargetConfig{Colors: []format.Format{format.RGBA8}, NoDepth: true, Samples: n}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if err := dev.AddProgram(sp); err != nil {
		t.Fatal(err)
	}
	if err := dev.ClearTarget(0, [4]float32{}); err != nil {
		t.Fatal(err)
	}
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: data, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
	}
	prim := shaderdev.PrimLines
	if c.points {
		prim = shaderdev.PrimPoints
	}
	dr := &shaderdev.Draw{Program: sp, Attribs: attrs, Count: len(c.verts), Prim: prim, LineWidth: c.width,
		ShaderPointSize: c.points, Uniforms: p.Uniforms, Merge: omAll()}
	if c.poly {
		dr.Prim, dr.FillFront, dr.FillBack = shaderdev.PrimTriangles, shaderdev.PolygonLine, shaderdev.PolygonLine
	}
	st, err := dev.Draw(dr)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Route.SWRaster {
		t.Errorf("routed %+v, want the software raster", st.Route)
	}
	out, err := dev.ReadSamples(0)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// msPrimsRef draws c's multisample shapes as triangles in n reference
// passes and interleaves them sample-major.
func msPrimsRef(t *testing.T, p *program.Program, c msPrimCase, n int) []byte {
	t.Helper()
	// The shapes' corners in the window, two triangles each, in order.
	var tris [][3][2]float64
	var cols [][4]float32
	quad := func(q [4][2]float64, cl [4]float32) {
		tris = append(tris, [3][2]float64{q[0], q[2], q[3]}, [3][2]float64{q[0], q[3], q[1]})
		cols = append(cols, cl, cl)
	}
	if c.points {
		for i, v := range c.verts {
			h := c.sizes[i] / 2
			quad([4][2]float64{{v[0] - h, v[1] - h}, {v[0] - h, v[1] + h}, {v[0] + h, v[1] - h}, {v[0] + h, v[1] + h}}, msPrimColour(c, i))
		}
	} else {
		w := math.Max(float64(c.width), 1)
		seg := func(a, b [2]float64, cl [4]float32) {
			l := math.Hypot(b[0]-a[0], b[1]-a[1])
			nx, ny := -(b[1]-a[1])/l*w/2, (b[0]-a[0])/l*w/2
			quad([4][2]float64{{a[0] - nx, a[1] - ny}, {a[0] + nx, a[1] + ny}, {b[0] - nx, b[1] - ny}, {b[0] + nx, b[1] + ny}}, cl)
		}
		if c.poly {
			// A triangle's three edges, in order, in its colour.
			for i := 0; i+2 < len(c.verts); i += 3 {
				for e := range 3 {
					seg(c.verts[i+e], c.verts[i+(e+1)%3], msPrimColour(c, i/3))
				}
			}
		} else {
			for i := 0; i+1 < len(c.verts); i += 2 {
				seg(c.verts[i], c.verts[i+1], msPrimColour(c, i/2))
			}
		}
	}
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	data := make([]uint32, 3*len(tris)*words)
	for ti, tr := range tris {
		for k, v := range tr {
			o := (3*ti + k) * words
			np := msNDC(v)
			for j := range 4 {
				data[o+pos.Word+j] = math.Float32bits(np[j])
				data[o+col.Word+j] = math.Float32bits(cols[ti][j])
			}
		}
	}
	out := make([]byte, msW*msH*n*4)
	for k := range n {
		tg, err := ref.NewTarget(msW, msH, []format.Format{format.RGBA8}, format.Invalid)
		if err != nil {
			t.Fatal(err)
		}
		vs, err := p.NewVertexShader(context.Background(), program.VertexOptions{IgnorePointSize: true})
		if err != nil {
			t.Fatal(err)
		}
		fs, err := p.NewFragmentShader(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		st := ref.DefaultState(msW, msH)
		st.Vertex, st.Fragment, st.Interp = vs, fs, p.Interp(false)
		sx, sy := msaa.Position(n, k)
		st.Viewport.X -= float32(sx-8) / 16
		st.Viewport.Y -= float32(sy-8) / 16
		if err := ref.Draw(context.Background(), tg, &st, ref.VertexInput{Words: words, Data: data}, ref.DrawParams{Topology: ref.Triangles, Count: 3 * len(tris)}); err != nil {
			t.Fatal(err)
		}
		for px := range msW * msH {
			copy(out[(px*n+k)*4:], tg.Color[0].Data[4*px:4*px+4])
		}
	}
	return out
}
