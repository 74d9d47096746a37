package shaderdev_test

import (
	"context"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/ref"
	"vortexgfx/ref/format"
	"vortexgfx/ref/program"
)

// twoSideVS writes different front and back colours; twoSideFS shows the
// colour gl_Color selects.
const twoSideVS = `#version 120
attribute vec4 a_pos; attribute vec4 a_col;
void main() { gl_Position = a_pos; gl_FrontColor = a_col; gl_BackColor = vec4(1.0) - a_col.zxyw; }`

const twoSideFS = `#version 120
void main() { gl_FragColor = gl_Color; }`

// twoSideBackVS writes only the back colour; twoSideFlatVS/FS make the
// colours flat (the provoking vertex's words through the side array).
const (
	twoSideBackVS = `#version 120
attribute vec4 a_pos; attribute vec4 a_col;
void main() { gl_Position = a_pos; gl_BackColor = a_col.yzxw; }`
	twoSideFlatVS = `#version 130
in vec4 a_pos; in vec4 a_col; flat out vec4 gl_FrontColor; flat out vec4 gl_BackColor;
void main() { gl_Position = a_pos; gl_FrontColor = a_col; gl_BackColor = vec4(1.0) - a_col.zxyw; }`
	twoSideFlatFS = `#version 130
flat in vec4 gl_Color;
void main() { gl_FragColor = gl_Color; }`
)

// TestShaderTwoSidedColour draws a front-facing (counter-clockwise) and a
// back-facing (clockwise) triangle with two-sided colour on and off and
// compares each image with the reference renderer's (ref.State.TwoSide from
// the linked program): within 2.5/255 on all but 1% of the pixels (edges),
// for smooth colours, flat colours and a vertex stage that writes only the
// back colour (drawn back-facing with two-sided colour: the front colour is
// undefined). With two-sided colour the back-facing triangle shows
// gl_BackColor, without it gl_FrontColor, so those renders must differ.
// spec: GL 2.1 §2.14.1 (two-sided colour)
func TestShaderTwoSidedColour(t *testing.T) {
	front := [3][8]float32{{-0.8, -0.8, 0.5, 1, 0.9, 0.1, 0.2, 1}, {0.8, -0.8, 0.5, 1, 0.1, 0.8, 0.3, 1}, {0, 0.8, 0.5, 1, 0.2, 0.3, 0.9, 1}}
	back := [3][8]float32{front[0], front[2], front[1]}
	type draw struct {
		name string
		tri  [3][8]float32
		two  bool
	}
	all := []draw{{"front", front, false}, {"front two-sided", front, true}, {"back", back, false}, {"back two-sided", back, true}}
	for _, pc := range []struct {
		name, vs, fs string
		draws        []draw
	}{
		{"smooth", twoSideVS, twoSideFS, all},
		{"flat", twoSideFlatVS, twoSideFlatFS, all},
		{"back only", twoSideBackVS, twoSideFS, all[3:]},
	} {
		t.Run(pc.name, func(t *testing.T) {
			p := link(t, pc.vs, pc.fs)
			sp, err := shaderdev.NewProgram("twoside."+pc.name, p.IR)
			if err != nil {
				t.Fatal(err)
			}
			if len(sp.TwoSidePairs()) != 1 || len(p.TwoSide()) != 1 {
				t.Fatalf("pairs: device %v, ref %v; want one each", sp.TwoSidePairs(), p.TwoSide())
			}
			r := p.TwoSide()[0]
			if q := sp.TwoSidePairs()[0]; q != (shaderdev.TwoSide{Front: r.Front, Back: r.Back, Words: r.Words}) {
				t.Fatalf("device pair %+v, ref pair %+v", q, r)
			}
			images := map[string][]byte{}
			for _, tc := range pc.draws {
				var pairs []shaderdev.TwoSide
				if tc.two {
					pairs = sp.TwoSidePairs()
				}
				got := renderTwoSideDevice(t, p, sp, pairs, tc.tri)
				want := renderTwoSideRef(t, p, tc.two, tc.tri)
				const tol = 2.5 / 255
				bad, drawn, maxd := compareTargets(format.RGBA8, got, want, [4]float32{}, tol)
				t.Logf("%s: %d drawn, %d beyond %.4f (max %.4f)", tc.name, drawn, bad, tol, maxd)
				if drawn < uW*uH/8 || bad > uW*uH/100 {
					t.Errorf("%s: %d drawn, %d pixels beyond tolerance (max %.4f)", tc.name, drawn, bad, maxd)
				}
				images[tc.name] = got
			}
			if len(pc.draws) < len(all) {
				return
			}
			if diff, _, _ := compareTargets(format.RGBA8, images["back"], images["back two-sided"], [4]float32{}, 2.5/255); diff < uW*uH/8 {
				t.Errorf("the back face shows the same colour with and without two-sided colour (%d pixels differ)", diff)
			}
			if diff, _, _ := compareTargets(format.RGBA8, images["front"], images["front two-sided"], [4]float32{}, 0); diff != 0 {
				t.Errorf("two-sided colour changed %d pixels of the front face", diff)
			}
			if _, err := renderTwoSideErr(p, sp, []shaderdev.TwoSide{{Front: 99, Back: 1, Words: 4}}, front); err == nil {
				t.Error("a pair the program does not pack was accepted")
			}
		})
	}
}

func renderTwoSideErr(p *program.Program, sp *shaderdev.Program, pairs []shaderdev.TwoSide, tri [3][8]float32) ([]byte, error) {
	dev, err := shaderdev.OpenTargets(config.Default(), uW, uH, shaderdev.TargetConfig{Colors: []format.Format{format.RGBA8}}, []*shaderdev.Program{sp})
	if err != nil {
		return nil, err
	}
	defer dev.Close()
	if err := dev.ClearTarget(0, [4]float32{}); err != nil {
		return nil, err
	}
	_, raw := vertexBytes(p, tri)
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * p.AttribWords())}
	}
	if _, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3, Uniforms: p.Uniforms, Merge: omAll(), TwoSide: pairs}); err != nil {
		return nil, err
	}
	return dev.ReadTarget(0)
}

func renderTwoSideDevice(t *testing.T, p *program.Program, sp *shaderdev.Program, pairs []shaderdev.TwoSide, tri [3][8]float32) []byte {
	t.Helper()
	out, err := renderTwoSideErr(p, sp, pairs, tri)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func renderTwoSideRef(t *testing.T, p *program.Program, two bool, tri [3][8]float32) []byte {
	t.Helper()
	tg, err := ref.NewTarget(uW, uH, []format.Format{format.RGBA8}, format.D24S8)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := p.NewVertexShader(context.Background(), program.VertexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := p.NewFragmentShader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st := ref.DefaultState(uW, uH)
	st.Vertex, st.Fragment, st.Interp = vs, fs, p.Interp(false)
	st.TwoSided, st.TwoSide = two, p.TwoSide()
	data, _ := vertexBytes(p, tri)
	if err := ref.Draw(context.Background(), tg, &st, ref.VertexInput{Words: p.AttribWords(), Data: data}, ref.DrawParams{Topology: ref.Triangles, Count: 3}); err != nil {
		t.Fatal(err)
	}
	return tg.Color[0].Data
}
