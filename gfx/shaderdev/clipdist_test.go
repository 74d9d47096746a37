package shaderdev_test

import (
	"context"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/ref"
	"vortexgfx/ref/format"
	"vortexgfx/ref/program"
)

// clipDistVS writes three clip distances: x ≥ −0.2, y ≤ 0.3 and a plane
// that is outside everywhere (enabled only by the "all out" case).
const clipDistVS = `#version 330
in vec4 a_pos; in vec4 a_col; out vec4 v_col;
void main() {
	gl_Position = a_pos; v_col = a_col;
	gl_ClipDistance[0] = a_pos.x + 0.2 * a_pos.w;
	gl_ClipDistance[1] = 0.3 * a_pos.w - a_pos.y;
	gl_ClipDistance[2] = -1.0;
}`

// clipDistWideVS also has 20 varying words (8 beyond the 12 planes), so the
// clipped primitives' extra varyings come through the barycentric weights
// setup_k carries through the user planes.
const clipDistWideVS = `#version 330
in vec4 a_pos; in vec4 a_col; out vec4 v_a; out vec4 v_b; out vec4 v_c; out vec4 v_d; out vec4 v_e;
void main() {
	gl_Position = a_pos;
	v_a = a_col; v_b = a_col.yzwx; v_c = a_col.zwxy; v_d = a_col.wxyz; v_e = a_col * 0.5;
	gl_ClipDistance[0] = a_pos.x + 0.2 * a_pos.w;
	gl_ClipDistance[1] = 0.3 * a_pos.w - a_pos.y;
}`

// clipVertexVS clips with the legacy planes on gl_ClipVertex (here the
// position shifted right by 0.4); clipPositionVS has none (the planes then
// dot gl_Position).
const clipVertexVS = `#version 120
attribute vec4 a_pos; attribute vec4 a_col; varying vec4 v_col;
void main() { gl_Position = a_pos; v_col = a_col; gl_ClipVertex = a_pos + vec4(0.4 * a_pos.w, 0.0, 0.0, 0.0); }`

const clipPositionVS = `#version 120
attribute vec4 a_pos; attribute vec4 a_col; varying vec4 v_col;
void main() { gl_Position = a_pos; v_col = a_col; }`

const clipLegacyFS = `#version 120
varying vec4 v_col; void main() { gl_FragColor = v_col; }`

// clipLegacyPlanes are x ≥ 0.2 (plane 1) and y ≥ −0.3 (plane 3) as
// GL_CLIP_PLANEi equations.
var clipLegacyPlanes = [frontend.MaxClipDistances][4]float32{1: {1, 0, 0, -0.2}, 3: {0, 1, 0, 0.3}}

const clipDistWideFS = `#version 330
in vec4 v_a; in vec4 v_b; in vec4 v_c; in vec4 v_d; in vec4 v_e; out vec4 o;
void main() { o = (v_a + v_b.wxyz + v_c.zwxy + v_d.yzwx) * 0.125 + v_e; }`

// TestShaderClipDistances clips the large unit triangle against one and two
// user clip distances (gl_ClipDistance[i] ≥ 0, enabled by
// Draw.ClipDistances), and against legacy clip planes
// (Draw.ClipPlanes dotted with gl_ClipVertex or gl_Position), on the
// device and on the reference renderer,
// which clips them in its homogeneous clipper: within 2.5/255 per channel on
// all but 4% of the pixels (edges), and the clipped area really missing. An
// enable beyond the distances the VS writes clips nothing (as in ref); a
// plane outside everywhere leaves nothing drawn.
// spec: GL 4.6 §13.7; vortexpipe §3.8
func TestShaderClipDistances(t *testing.T) {
	for _, c := range []struct {
		name    string
		vs, fs  string
		mask    uint8
		minDraw int // pixels drawn at least
		maxDraw int // and at most (the unclipped triangle covers ~500)
	}{
		{"none", clipDistVS, unitsFS, 0, 380, 440},
		{"one plane", clipDistVS, unitsFS, 0b001, 220, 300},
		{"two planes", clipDistVS, unitsFS, 0b011, 190, 250},
		{"two planes and an unwritten enable", clipDistVS, unitsFS, 0b1000_0011, 190, 250},
		{"all out", clipDistVS, unitsFS, 0b100, 0, 0},
		{"two planes, extra varyings", clipDistWideVS, clipDistWideFS, 0b011, 190, 250},
		{"legacy planes on gl_ClipVertex", clipVertexVS, clipLegacyFS, 0b1010, 110, 160},
		{"legacy planes on gl_Position", clipPositionVS, clipLegacyFS, 0b1010, 25, 60},
		{"legacy plane disabled", clipPositionVS, clipLegacyFS, 0b0100, 380, 440},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := link(t, c.vs, c.fs)
			sp, err := shaderdev.NewProgram("clipdist."+c.name, p.IR)
			if err != nil {
				t.Fatal(err)
			}
			got := renderClipDevice(t, p, sp, c.mask, unitTris(false)[0])
			want := renderClipRef(t, p, sp.ClipMask(c.mask), unitTris(false)[0])
			const tol = 2.5 / 255
			bad, drawn, maxd := compareTargets(format.RGBA8, got, want, [4]float32{}, tol)
			_, refDrawn, _ := compareTargets(format.RGBA8, want, want, [4]float32{}, tol)
			t.Logf("%d drawn (ref %d), %d beyond %.4f (max %.4f)", drawn, refDrawn, bad, tol, maxd)
			if drawn < c.minDraw || drawn > c.maxDraw || bad > uW*uH*4/100 {
				t.Errorf("%d drawn (want %d..%d), %d pixels beyond tolerance (max %.4f)", drawn, c.minDraw, c.maxDraw, bad, maxd)
			}
		})
	}
}

func renderClipDevice(t *testing.T, p *program.Program, sp *shaderdev.Program, mask uint8, tri [3][8]float32) []byte {
	t.Helper()
	dev, err := shaderdev.OpenTargets(config.Default(), uW, uH, shaderdev.TargetConfig{Colors: []format.Format{format.RGBA8}}, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if err := dev.ClearTarget(0, [4]float32{}); err != nil {
		t.Fatal(err)
	}
	_, raw := vertexBytes(p, tri)
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * p.AttribWords())}
	}
	if _, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3, Uniforms: p.Uniforms, Merge: omAll(),
		ClipDistances: mask, ClipPlanes: clipLegacyPlanes}); err != nil {
		t.Fatal(err)
	}
	out, err := dev.ReadTarget(0)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func renderClipRef(t *testing.T, p *program.Program, mask uint8, tri [3][8]float32) []byte {
	t.Helper()
	tg, err := ref.NewTarget(uW, uH, []format.Format{format.RGBA8}, format.D24S8)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := p.NewVertexShader(context.Background(), program.VertexOptions{Clip: program.ClipState{Enabled: mask, Planes: clipLegacyPlanes}})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := p.NewFragmentShader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st := ref.DefaultState(uW, uH)
	st.Vertex, st.Fragment, st.Interp = vs, fs, p.Interp(false)
	if n := vs.ClipDistances(); n > 0 {
		st.ClipDistances = mask & uint8(1<<n-1)
	}
	data, _ := vertexBytes(p, tri)
	if err := ref.Draw(context.Background(), tg, &st, ref.VertexInput{Words: p.AttribWords(), Data: data}, ref.DrawParams{Topology: ref.Triangles, Count: 3}); err != nil {
		t.Fatal(err)
	}
	return tg.Color[0].Data
}
