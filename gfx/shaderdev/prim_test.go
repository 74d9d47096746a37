package shaderdev_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
)

// The line and point test program: a clip position per vertex, a smooth
// colour, a noperspective value, a flat integer (the provoking vertex's) and
// gl_PointSize from an attribute.
const (
	primVS = `#version 140
in vec4 a_pos;
in vec4 a_col;
out vec3 v_col;
noperspective out float v_np;
flat out int v_id;
void main() {
	gl_Position = a_pos;
	gl_PointSize = a_col.w;
	v_col = a_col.rgb;
	v_np = a_col.r * 0.5 + a_col.g * 0.5;
	v_id = gl_VertexID;
}`
	primFS = `#version 140
in vec3 v_col;
noperspective in float v_np;
flat in int v_id;
out vec4 o;
void main() {
	o = vec4(v_col.r, v_col.g, v_np, float(v_id % 8) / 8.0 + (gl_FrontFacing ? 0.125 : 0.0) + gl_FragCoord.z * 0.0625);
}`
)

// primClipVS is primVS writing two clip distances.
const primClipVS = `#version 140
in vec4 a_pos;
in vec4 a_col;
out vec3 v_col;
noperspective out float v_np;
flat out int v_id;
out float gl_ClipDistance[2];
void main() {
	gl_Position = a_pos;
	gl_PointSize = a_col.w;
	v_col = a_col.rgb;
	v_np = a_col.r * 0.5 + a_col.g * 0.5;
	v_id = gl_VertexID;
	gl_ClipDistance[0] = a_pos.x + 0.3;
	gl_ClipDistance[1] = 0.55 - a_pos.y;
}`

// primCoordFS reads gl_PointCoord (0 on lines, as the reference has it).
const primCoordFS = `#version 140
in vec3 v_col;
noperspective in float v_np;
flat in int v_id;
out vec4 o;
void main() {
	o = vec4(gl_PointCoord, v_col.r * 0.5 + v_np * 0.25, 1.0);
}`

// primVertex is one vertex of a line or point test: clip position, colour
// and (alpha) point size.
type primVertex struct{ pos, col [4]float32 }

// primCase is one draw of lines or points, on the device and on the
// reference renderer.
type primCase struct {
	name      string
	top       ref.Topology
	verts     []primVertex
	width     float32 // line width
	size      float32 // API point size
	shader    bool    // points: gl_PointSize
	first     bool    // provoking vertex first
	w, h      int
	viewport  *ref.Viewport
	depthTest bool
	clip      uint8         // enabled user clip distances
	planes    [8][4]float32 // legacy clip planes (a program without gl_ClipDistance)
	clipVS    bool          // the program writing gl_ClipDistance[0..1]
	coordFS   bool          // the fragment stage reading gl_PointCoord
	lower     bool          // gl_PointCoord's origin lower left
}

// primList assembles ref's topology into the device's segment or point list
// (as the driver does): strips and loops become pairs.
func primList(top ref.Topology, n int) (shaderdev.Prim, []uint32) {
	var idx []uint32
	switch top {
	case ref.Points:
		for i := range n {
			idx = append(idx, uint32(i))
		}
		return shaderdev.PrimPoints, idx
	case ref.Lines:
		for i := 0; i+1 < n; i += 2 {
			idx = append(idx, uint32(i), uint32(i+1))
		}
	case ref.LineStrip, ref.LineLoop:
		for i := 0; i+1 < n; i++ {
			idx = append(idx, uint32(i), uint32(i+1))
		}
		if top == ref.LineLoop && n >= 2 {
			idx = append(idx, uint32(n-1), 0)
		}
	}
	return shaderdev.PrimLines, idx
}

// drawPrims renders c on both paths and returns the device's and the
// reference's RGBA8 pixels.
func drawPrims(t *testing.T, p *program.Program, sp *shaderdev.Program, c primCase) (dev, refPix []byte) {
	t.Helper()
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	data := make([]uint32, len(c.verts)*words)
	for i, v := range c.verts {
		for k := range 4 {
			data[i*words+pos.Word+k] = math.Float32bits(v.pos[k])
			data[i*words+col.Word+k] = math.Float32bits(v.col[k])
		}
	}
	raw := make([]byte, 4*len(data))
	for i, w := range data {
		binary.LittleEndian.PutUint32(raw[4*i:], w)
	}
	// Reference.
	tg, err := ref.NewTarget(c.w, c.h, []format.Format{format.RGBA8}, format.D24S8)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := p.NewVertexShader(context.Background(), program.VertexOptions{IgnorePointSize: !c.shader,
		Clip: program.ClipState{Enabled: c.clip, Planes: c.planes}})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := p.NewFragmentShader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st := ref.DefaultState(c.w, c.h)
	st.Vertex, st.Fragment, st.Interp = vs, fs, p.Interp(false)
	st.LineWidth, st.PointSize = c.width, c.size
	st.ClipDistances = c.clip
	st.PointOriginLower = c.lower
	if c.first {
		st.Provoking = ref.ProvokingFirst
	}
	if c.viewport != nil {
		st.Viewport = *c.viewport
	}
	if c.depthTest {
		st.Depth.Test = true
	}
	if err := tg.ClearDepth(1); err != nil {
		t.Fatal(err)
	}
	if err := ref.Draw(context.Background(), tg, &st, ref.VertexInput{Words: words, Data: data},
		ref.DrawParams{Topology: c.top, Count: len(c.verts)}); err != nil {
		t.Fatal(err)
	}
	// Device.
	d, err := shaderdev.Open(config.Default(), c.w, c.h, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Clear(0, 0xFFFFFF); err != nil {
		t.Fatal(err)
	}
	prim, idx := primList(c.top, len(c.verts))
	if len(idx) == 0 {
		t.Fatalf("%s: no primitives", c.name)
	}
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
	}
	m := omAll()
	if c.depthTest {
		m.DepthTest, m.DepthWrite, m.DepthFunc = true, true, compare.Less
	}
	dr := &shaderdev.Draw{Program: sp, Attribs: attrs, Indices: idx, Count: len(idx), Prim: prim,
		LineWidth: c.width, PointSize: c.size, ShaderPointSize: c.shader, ProvokingFirst: c.first, Merge: m,
		ClipDistances: c.clip, ClipPlanes: c.planes, PointOriginLower: c.lower}
	if vp := c.viewport; vp != nil {
		dr.Viewport = &frontend.Viewport{SX: vp.W / 2, TX: vp.X + vp.W/2, SY: vp.H / 2, TY: vp.Y + vp.H/2}
		dr.Near, dr.Far, dr.ExactDepth = vp.MinDepth, vp.MaxDepth, true
	}
	if _, err := d.Draw(dr); err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	px, err := d.Color()
	if err != nil {
		t.Fatal(err)
	}
	dev = make([]byte, 4*len(px))
	for i, v := range px {
		dev[4*i], dev[4*i+1], dev[4*i+2], dev[4*i+3] = byte(v>>16), byte(v>>8), byte(v), byte(v>>24)
	}
	return dev, tg.Color[0].Data
}

// comparePrims reports the pixels whose coverage differs and the largest
// channel difference where both cover.
func comparePrims(dev, refPix []byte, w int) (covered, coverage, maxd int, first string) {
	for i := 0; i < len(dev); i += 4 {
		dc := dev[i]|dev[i+1]|dev[i+2]|dev[i+3] != 0
		rc := refPix[i]|refPix[i+1]|refPix[i+2]|refPix[i+3] != 0
		if dc != rc {
			if coverage == 0 {
				first = fmt.Sprintf("pixel (%d, %d): device %v ref %v", i/4%w, i/4/w, dev[i:i+4], refPix[i:i+4])
			}
			coverage++
			continue
		}
		if !dc {
			continue
		}
		covered++
		for k := range 4 {
			d := int(dev[i+k]) - int(refPix[i+k])
			maxd = max(maxd, d, -d)
		}
	}
	return covered, coverage, maxd, first
}

// pix is the clip position of window point (x, y) on a w×h target (w = 1).
func pix(x, y float32, w, h int) [4]float32 {
	return [4]float32{2*x/float32(w) - 1, 2*y/float32(h) - 1, 0, 1}
}

// lineCases are the line draws the device must render as the reference
// does: every octant from a centre, exact diagonals, endpoints on pixel
// centres and on pixel corners, strips and loops, wide lines, perspective,
// clipping at the target's edges and at the near plane.
func lineCases() []primCase {
	const W, H = 64, 48
	v := func(x, y float32, r, g float32) primVertex {
		return primVertex{pos: pix(x, y, W, H), col: [4]float32{r, g, 0.5, 1}}
	}
	var star []primVertex
	for k := range 16 {
		a := float64(k) * math.Pi / 8
		star = append(star, v(32.5, 24.5, 1, 0), v(32.5+float32(20*math.Cos(a)), 24.5+float32(20*math.Sin(a)), 0, 1))
	}
	var diag []primVertex
	for _, d := range [][4]float32{{4.5, 4.5, 40.5, 40.5}, {60.5, 4.5, 24.5, 40.5}, {10, 40, 30, 20}, {50, 10, 50, 40}, {5, 30, 60, 30}} {
		diag = append(diag, v(d[0], d[1], 0.2, 0.9), v(d[2], d[3], 0.9, 0.2))
	}
	strip := []primVertex{v(3.3, 5.1, 1, 0), v(20.7, 9.9, 0, 1), v(30.2, 40.6, 1, 1), v(55.9, 35.4, 0, 0), v(60.1, 3.2, 0.5, 0.5)}
	persp := []primVertex{
		{pos: [4]float32{-0.9, -0.8, 0.2, 1}, col: [4]float32{1, 0, 0, 1}}, {pos: [4]float32{2.4, 1.6, 2.5, 3}, col: [4]float32{0, 1, 0, 1}},
		{pos: [4]float32{-0.5, 0.9, 0, 1}, col: [4]float32{0, 0, 1, 1}}, {pos: [4]float32{1.5, -1.5, 0.1, 2}, col: [4]float32{1, 1, 0, 1}},
	}
	clip := []primVertex{
		v(-10, 10, 1, 0), v(80, 30, 0, 1), // through the left and right edges
		v(20, -5, 1, 1), v(40, 60, 0, 0), // through the bottom and top
		{pos: [4]float32{-0.5, -0.5, -2, 1}, col: [4]float32{1, 0, 0, 1}}, {pos: [4]float32{0.6, 0.4, 0.5, 1}, col: [4]float32{0, 1, 0, 1}}, // near plane
	}
	// A viewport inside the target: the widened primitives reach past it.
	inner := &ref.Viewport{X: 8, Y: 6, W: 40, H: 30, MinDepth: 0, MaxDepth: 1}
	edge := []primVertex{
		{pos: [4]float32{-1, -0.5, 0, 1}, col: [4]float32{1, 0, 0, 1}}, {pos: [4]float32{-1, 0.7, 0, 1}, col: [4]float32{0, 1, 0, 1}},
		{pos: [4]float32{-0.8, 1, 0, 1}, col: [4]float32{0, 0, 1, 1}}, {pos: [4]float32{0.9, 1, 0, 1}, col: [4]float32{1, 1, 0, 1}},
		{pos: [4]float32{-1.3, -1.2, 0, 1}, col: [4]float32{1, 0, 1, 1}}, {pos: [4]float32{1.4, 1.1, 0, 1}, col: [4]float32{0, 1, 1, 1}},
	}
	// More segments than one front-end pass takes (PassTriangles / 2):
	// the pid space restarts, and so does the exact coverage per pid.
	var many []primVertex
	x := uint32(12345)
	rnd := func() float32 { x = x*1664525 + 1013904223; return float32(x>>8) / (1 << 24) }
	for range 6000 {
		x0, y0 := rnd()*float32(W), rnd()*float32(H)
		many = append(many, v(x0, y0, rnd(), rnd()), v(x0+rnd()*6-3, y0+rnd()*6-3, rnd(), rnd()))
	}
	return []primCase{
		{name: "two passes", top: ref.Lines, verts: many, width: 1, w: W, h: H, depthTest: true},
		{name: "viewport edges", top: ref.Lines, verts: edge, width: 5, w: W, h: H, viewport: inner},
		{name: "octants", top: ref.Lines, verts: star, width: 1, w: W, h: H},
		{name: "diagonals", top: ref.Lines, verts: diag, width: 1, w: W, h: H},
		{name: "strip", top: ref.LineStrip, verts: strip, width: 1, w: W, h: H},
		{name: "loop first", top: ref.LineLoop, verts: strip, width: 1, first: true, w: W, h: H},
		{name: "wide 3", top: ref.LineStrip, verts: strip, width: 3, w: W, h: H},
		{name: "wide 4.6", top: ref.Lines, verts: diag, width: 4.6, w: W, h: H},
		{name: "perspective", top: ref.Lines, verts: persp, width: 2, w: W, h: H, depthTest: true},
		{name: "clipped", top: ref.Lines, verts: clip, width: 2, w: W, h: H},
	}
}

// pointCases are the point draws: sizes 1 to 9 (fractional ones too) from
// the API and from gl_PointSize, centres on pixel centres and corners, and
// points outside the view volume (dropped) and at the target's edges.
func pointCases() []primCase {
	const W, H = 64, 48
	var pts []primVertex
	for k := range 12 {
		x, y := 4.5+float32(k)*5, 6+float32(k%3)*13.25
		pts = append(pts, primVertex{pos: pix(x, y, W, H), col: [4]float32{float32(k) / 12, 1 - float32(k)/12, 0, 1 + float32(k)*0.7}})
	}
	pts = append(pts, primVertex{pos: pix(0.2, 47.9, W, H), col: [4]float32{1, 1, 1, 5}},
		primVertex{pos: [4]float32{1.2, 0, 0, 1}, col: [4]float32{1, 0, 1, 5}},  // outside: dropped
		primVertex{pos: [4]float32{0, 0, -1.5, 1}, col: [4]float32{1, 0, 1, 5}}) // before the near plane
	inner := &ref.Viewport{X: 8, Y: 6, W: 40, H: 30, MinDepth: 0, MaxDepth: 1}
	return []primCase{
		{name: "viewport edges", top: ref.Points, verts: pts, size: 7, w: W, h: H, viewport: inner},
		{name: "api size 1", top: ref.Points, verts: pts, size: 1, w: W, h: H},
		{name: "api size 2.5", top: ref.Points, verts: pts, size: 2.5, w: W, h: H},
		{name: "api size 4", top: ref.Points, verts: pts, size: 4, w: W, h: H},
		{name: "shader sizes", top: ref.Points, verts: pts, size: 1, shader: true, w: W, h: H},
	}
}

// TestPrimsMatchRef draws lines and points through the device (prim_k, then
// the triangle front end and RASTER) and through the reference renderer:
// coverage must be equal, pixel for pixel, and colours within 1/255 (the
// device interpolates on float32 planes, the reference in float64).
// spec: GL 4.6 §14.4, §14.5
func TestPrimsMatchRef(t *testing.T) {
	p := link(t, primVS, primFS)
	sp, err := shaderdev.NewProgram("prims.prog", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	pc := link(t, primClipVS, primFS)
	spc, err := shaderdev.NewProgram("primsclip.prog", pc.IR)
	if err != nil {
		t.Fatal(err)
	}
	pp := link(t, primVS, primCoordFS)
	spp, err := shaderdev.NewProgram("primscoord.prog", pp.IR)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range append(append(append(lineCases(), pointCases()...), clipCases()...), coordCases()...) {
		t.Run(c.name, func(t *testing.T) {
			p, sp := p, sp
			switch {
			case c.clipVS:
				p, sp = pc, spc
			case c.coordFS:
				p, sp = pp, spp
			}
			dev, rp := drawPrims(t, p, sp, c)
			covered, cov, maxd, first := comparePrims(dev, rp, c.w)
			t.Logf("%d pixels covered by both, %d coverage mismatches, max channel difference %d", covered, cov, maxd)
			if covered == 0 {
				t.Fatal("nothing drawn")
			}
			if cov != 0 {
				t.Errorf("%d pixels differ in coverage; first %s", cov, first)
			}
			if maxd > 1 {
				t.Errorf("channel difference %d > 1", maxd)
			}
		})
	}
}

// clipCases clip lines and points by user clip distances: the vertex
// stage's gl_ClipDistance, and legacy planes dotted with gl_Position.
func clipCases() []primCase {
	const W, H = 64, 48
	var fan, pts []primVertex
	for k := range 12 {
		a := float64(k) * math.Pi / 6
		fan = append(fan, primVertex{pos: [4]float32{0, 0, 0, 1}, col: [4]float32{1, 0, 0, 1}},
			primVertex{pos: [4]float32{float32(0.9 * math.Cos(a)), float32(0.9 * math.Sin(a)), 0, 1}, col: [4]float32{0, 1, 0, 1}})
		pts = append(pts, primVertex{pos: [4]float32{float32(0.8 * math.Cos(a)), float32(0.7 * math.Sin(a)), 0, 1}, col: [4]float32{0, 1, 1, 4}})
	}
	planes := [8][4]float32{{1, 1, 0, 0.2}, {0, -1, 0, 0.6}}
	return []primCase{
		{name: "lines gl_ClipDistance", top: ref.Lines, verts: fan, width: 2, w: W, h: H, clip: 3, clipVS: true},
		{name: "points gl_ClipDistance", top: ref.Points, verts: pts, size: 3, w: W, h: H, clip: 1, clipVS: true},
		{name: "lines clip planes", top: ref.Lines, verts: fan, width: 1, w: W, h: H, clip: 3, planes: planes},
		{name: "points clip planes", top: ref.Points, verts: pts, size: 5, shader: true, w: W, h: H, clip: 2, planes: planes},
	}
}

// coordCases read gl_PointCoord: points of integral and fractional sizes
// from gl_PointSize, both origins, and a line draw of the same program.
func coordCases() []primCase {
	const W, H = 64, 48
	var pts []primVertex
	for k := range 8 {
		x, y := 5.5+float32(k)*7.3, 10.25+float32(k%2)*20
		pts = append(pts, primVertex{pos: pix(x, y, W, H), col: [4]float32{0.5, 0.5, 0.5, 2 + float32(k)*1.35}})
	}
	return []primCase{
		{name: "gl_PointCoord upper left", top: ref.Points, verts: pts, size: 1, shader: true, w: W, h: H, coordFS: true},
		{name: "gl_PointCoord lower left", top: ref.Points, verts: pts, size: 1, shader: true, w: W, h: H, coordFS: true, lower: true},
		{name: "gl_PointCoord api size 6", top: ref.Points, verts: pts, size: 6, w: W, h: H, coordFS: true},
		{name: "gl_PointCoord on lines", top: ref.LineStrip, verts: pts, width: 2, w: W, h: H, coordFS: true},
	}
}
