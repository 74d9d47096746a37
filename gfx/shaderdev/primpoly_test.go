package shaderdev_test

import (
	"context"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/format"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
)

// polyFS reads the smooth and noperspective varyings only, so a polygon's
// edges and vertices shade as the same lines and points do.
const polyFS = `#version 140
in vec3 v_col;
noperspective in float v_np;
out vec4 o;
void main() { o = vec4(v_col, v_np * 0.5 + 0.5); }`

// polyFacingFS shows gl_FrontFacing.
const polyFacingFS = `#version 140
in vec3 v_col;
out vec4 o;
void main() { o = gl_FrontFacing ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(0.0, 1.0, 0.0, 1.0); }`

// polyMesh is a few non-overlapping triangles, counter-clockwise ones (in
// NDC) and clockwise ones, one crossing the near plane and one the target's
// edge.
func polyMesh() ([]primVertex, []uint32, []bool) {
	const W, H = 64, 48
	v := func(x, y, z float32, r, g float32) primVertex {
		p := pix(x, y, W, H)
		p[2] = z
		return primVertex{pos: p, col: [4]float32{r, g, 0.3, 3}}
	}
	verts := []primVertex{
		v(4.5, 4.5, 0, 1, 0), v(24.5, 6.5, 0.2, 0, 1), v(10.5, 20.5, 0.4, 0.5, 0.5), // CCW
		v(30, 4, 0, 1, 1), v(34.25, 22.75, 0, 0, 0), v(58.3, 9.6, 0.1, 1, 0), // CW
		v(6, 26, 0.5, 0, 1), v(26, 30, -1.6, 1, 0), v(14, 44, 0.5, 1, 1), // CCW, through the near plane
		v(40, 28, 0, 0.2, 0.8), v(70, 34, 0, 0.8, 0.2), v(46, 46, 0, 0.5, 0.5), // CCW, off the right edge
	}
	idx := []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	ccw := []bool{true, false, true, true}
	return verts, idx, ccw
}

// drawPolyDevice draws the triangles with polygon modes on the device.
func drawPolyDevice(t *testing.T, p *program.Program, sp *shaderdev.Program, verts []primVertex, idx []uint32, front, back shaderdev.PolygonMode, cull frontend.CullMode, width, size float32, clip uint8) []byte {
	t.Helper()
	const W, H = 64, 48
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	raw := make([]byte, 4*len(verts)*words)
	for i, v := range verts {
		for k := range 4 {
			binary.LittleEndian.PutUint32(raw[4*(i*words+pos.Word+k):], math.Float32bits(v.pos[k]))
			binary.LittleEndian.PutUint32(raw[4*(i*words+col.Word+k):], math.Float32bits(v.col[k]))
		}
	}
	d, err := shaderdev.Open(config.Default(), W, H, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Clear(0, 0xFFFFFF); err != nil {
		t.Fatal(err)
	}
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
	}
	if _, err := d.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Indices: idx, Count: len(idx), Merge: omAll(),
		FillFront: front, FillBack: back, FrontCCW: true, Cull: cull, LineWidth: width, PointSize: size, ClipDistances: clip}); err != nil {
		t.Fatal(err)
	}
	px, err := d.Color()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]byte, 4*len(px))
	for i, v := range px {
		out[4*i], out[4*i+1], out[4*i+2], out[4*i+3] = byte(v>>16), byte(v>>8), byte(v), byte(v>>24)
	}
	return out
}

// TestPolygonModesMatchRef draws triangles in LINE and POINT polygon modes
// on the device and on the reference renderer (its polygon modes: each
// edge clipped as a line, each vertex dropped outside the view volume as a
// point, after facing and culling). Coverage must be equal, colours within
// 1/255 (float32 planes against float64). Under user clip distances
// (gl_ClipDistance) both clip each face's polygon by the planes first and
// draw its edges along them. spec: GL 4.6 §14.6.4
func TestPolygonModesMatchRef(t *testing.T) {
	const W, H = 64, 48
	p := link(t, primVS, polyFS)
	sp, err := shaderdev.NewProgram("poly.prog", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	pc := link(t, primClipVS, polyFS)
	spc, err := shaderdev.NewProgram("polyclip.prog", pc.IR)
	if err != nil {
		t.Fatal(err)
	}
	verts, idx, _ := polyMesh()
	for _, tc := range []struct {
		name        string
		front, back shaderdev.PolygonMode
		cull        frontend.CullMode
		width, size float32
		clip        uint8
	}{
		{"line", shaderdev.PolygonLine, shaderdev.PolygonLine, frontend.CullNone, 1, 1, 0},
		{"line wide, back culled", shaderdev.PolygonLine, shaderdev.PolygonLine, frontend.CullBack, 3, 1, 0},
		{"point", shaderdev.PolygonPoint, shaderdev.PolygonPoint, frontend.CullNone, 1, 4, 0},
		{"point, front culled", shaderdev.PolygonPoint, shaderdev.PolygonPoint, frontend.CullFront, 1, 2.5, 0},
		{"front line, back point", shaderdev.PolygonLine, shaderdev.PolygonPoint, frontend.CullNone, 2, 3, 0},
		{"front point, back line", shaderdev.PolygonPoint, shaderdev.PolygonLine, frontend.CullNone, 1, 2, 0},
		{"line, clip distance 0", shaderdev.PolygonLine, shaderdev.PolygonLine, frontend.CullNone, 1, 1, 1},
		{"wide line, clip distances 0 and 1", shaderdev.PolygonLine, shaderdev.PolygonLine, frontend.CullNone, 3, 1, 3},
		{"point, clip distances 0 and 1", shaderdev.PolygonPoint, shaderdev.PolygonPoint, frontend.CullNone, 1, 3, 3},
		{"line front, back filled and culled, clip distance 1", shaderdev.PolygonLine, shaderdev.PolygonFill, frontend.CullBack, 2, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, sp := p, sp
			if tc.clip != 0 {
				p, sp = pc, spc
			}
			dev := drawPolyDevice(t, p, sp, verts, idx, tc.front, tc.back, tc.cull, tc.width, tc.size, tc.clip)
			tg, err := ref.NewTarget(W, H, []format.Format{format.RGBA8}, format.D24S8)
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
			st := ref.DefaultState(W, H)
			st.Vertex, st.Fragment, st.Interp = vs, fs, p.Interp(false)
			st.LineWidth, st.PointSize = tc.width, tc.size
			st.PolygonFront, st.PolygonBack = ref.PolygonMode(tc.front), ref.PolygonMode(tc.back)
			st.ClipDistances = tc.clip
			switch tc.cull {
			case frontend.CullBack:
				st.Cull = ref.CullBack
			case frontend.CullFront:
				st.Cull = ref.CullFront
			}
			words := p.AttribWords()
			pos, _ := p.Attribute("a_pos")
			col, _ := p.Attribute("a_col")
			data := make([]uint32, len(idx)*words)
			for i, k := range idx {
				v := verts[k]
				for c := range 4 {
					data[i*words+pos.Word+c] = math.Float32bits(v.pos[c])
					data[i*words+col.Word+c] = math.Float32bits(v.col[c])
				}
			}
			if err := ref.Draw(context.Background(), tg, &st, ref.VertexInput{Words: words, Data: data}, ref.DrawParams{Topology: ref.Triangles, Count: len(idx)}); err != nil {
				t.Fatal(err)
			}
			covered, cov, maxd, first := comparePrims(dev, tg.Color[0].Data, W)
			t.Logf("%d pixels covered by both, %d coverage mismatches, max channel difference %d", covered, cov, maxd)
			if covered == 0 || cov != 0 || maxd > 1 {
				t.Errorf("%d coverage mismatches (first %s), channel difference %d", cov, first, maxd)
			}
		})
	}
}

// TestPolygonModeFacing checks that a polygon's edges and vertices face as
// the polygon does: gl_FrontFacing is false on a clockwise triangle's
// edges and points, true on a counter-clockwise one's; FILL on the other
// face fills it. spec: GL 4.6 §14.6.1, §14.6.4
func TestPolygonModeFacing(t *testing.T) {
	p := link(t, primVS, polyFacingFS)
	sp, err := shaderdev.NewProgram("polyface.prog", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	verts, idx, ccw := polyMesh()
	for _, mode := range []shaderdev.PolygonMode{shaderdev.PolygonLine, shaderdev.PolygonPoint} {
		img := drawPolyDevice(t, p, sp, verts, idx[:6], mode, mode, frontend.CullNone, 1, 3, 0)
		var red, green int
		for i := 0; i < len(img); i += 4 {
			switch {
			case img[i] == 255 && img[i+1] == 0:
				red++
			case img[i] == 0 && img[i+1] == 255:
				green++
			}
		}
		if !ccw[0] || ccw[1] || red == 0 || green == 0 {
			t.Errorf("mode %d: %d front-facing, %d back-facing pixels; want both", mode, red, green)
		}
		// Back faces filled: the clockwise triangle covers its interior.
		filled := drawPolyDevice(t, p, sp, verts, idx[:6], mode, shaderdev.PolygonFill, frontend.CullNone, 1, 3, 0)
		var g2 int
		for i := 0; i < len(filled); i += 4 {
			if filled[i] == 0 && filled[i+1] == 255 {
				g2++
			}
		}
		if g2 <= 3*green {
			t.Errorf("mode %d with back faces filled: %d back-facing pixels (edges alone: %d)", mode, g2, green)
		}
	}
}

// TestPolygonModeClipFillRefused checks that a draw filling a face the cull
// mode keeps under user clip distances is refused with its reason (setup_k
// does not clip a polygon-mode launch), and that culling the filled face
// lets it draw.
func TestPolygonModeClipFillRefused(t *testing.T) {
	const W, H = 64, 48
	p := link(t, primClipVS, polyFS)
	sp, err := shaderdev.NewProgram("polyclip.prog", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	verts, idx, _ := polyMesh()
	words := p.AttribWords()
	raw := make([]byte, 4*len(verts)*words)
	d, err := shaderdev.Open(config.Default(), W, H, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
	}
	for _, tc := range []struct {
		cull frontend.CullMode
		ccw  bool
		ok   bool
	}{
		{frontend.CullNone, true, false},
		{frontend.CullFront, true, false}, // setup_k's front faces are the API's front: the back (FILL) kept
		{frontend.CullBack, true, true},
		{frontend.CullFront, false, true}, // clockwise front faces: setup_k's front is the API's back
	} {
		_, err := d.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Indices: idx, Count: len(idx), Merge: omAll(),
			FillFront: shaderdev.PolygonLine, FillBack: shaderdev.PolygonFill, FrontCCW: tc.ccw, Cull: tc.cull, LineWidth: 1, PointSize: 1, ClipDistances: 1})
		if tc.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), "fill a face the cull mode keeps under user clip distances") {
			t.Errorf("cull %d, ccw %v: %v (want ok %v)", tc.cull, tc.ccw, err, tc.ok)
		}
	}
	// A primitive-id table must number every triangle of the list.
	_, err = d.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Indices: idx, Count: len(idx), Merge: omAll(), PrimitiveIDs: []uint32{0, 1}})
	if err == nil || !strings.Contains(err.Error(), "2 primitive ids for 4 primitives") {
		t.Errorf("short primitive-id table: %v", err)
	}
}
