package pipe

import (
	"fmt"
	"testing"
)

// TestFixedFunctionStages draws a quad with an unbound stage: the
// fixed-function vertex stage (transformed by the legacy state's matrices,
// the colour from element 1 or, without it, the current colour) under a
// GLSL fragment shader, and a GLSL vertex shader with the fixed-function
// fragment stage. Each draw runs on the device as a program with the
// generated stage (ffgen.go) and, under ForceReference, on the reference
// renderer's fixed-function stage; both cover the transformed quad in the
// expected colour. spec: GL 2.1 §2.11-§2.12, §3.8-§3.10;
// vortexpipe-driver.md §1.5.1
func TestFixedFunctionStages(t *testing.T) {
	const colourFS = `#version 120
void main() { gl_FragColor = gl_Color; }
`
	const colourVS = `#version 120
attribute vec4 pos;
attribute vec4 col;
void main() { gl_Position = pos * vec4(0.5, 0.5, 1.0, 1.0); gl_FrontColor = col; }
`
	ls := DefaultLegacyState()
	ls.Projection[0], ls.Projection[5] = 0.5, 0.5
	ls.Color = [4]float32{0, 0, 1, 1}
	cases := []struct {
		name    string
		vs, fs  string
		colour  bool // vertex element 1 carries the colour (green)
		r, g, b uint8
	}{
		{"fixed vertex, colour array", "", colourFS, true, 0, 255, 0},
		{"fixed vertex, current colour", "", colourFS, false, 0, 0, 255},
		{"fixed fragment", colourVS, "", true, 0, 255, 0},
	}
	for _, tc := range cases {
		for _, ref := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/reference=%v", tc.name, ref), func(t *testing.T) {
				e := newDrawEnv(t, Options{ForceReference: ref}, false)
				if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
					t.Fatal(err)
				}
				for _, s := range []struct {
					stage Stage
					src   string
					bind  func(*Shader) error
				}{{StageVertex, tc.vs, e.c.BindVSState}, {StageFragment, tc.fs, e.c.BindFSState}} {
					if s.src == "" {
						continue
					}
					sh, err := e.c.CreateShaderState(ShaderDesc{Stage: s.stage, GLSL: s.src}, nil)
					if err != nil {
						t.Fatal(err)
					}
					if err := s.bind(sh); err != nil {
						t.Fatal(err)
					}
				}
				e.c.SetLegacyState(&ls)
				e.posCol(t, quadVerts(0, [4]float32{0, 1, 0, 1}, -1, -1, 1, 1)...)
				if !tc.colour {
					ve, err := e.c.CreateVertexElementsState([]VertexElement{{SrcOffset: 0, Format: VertexFloat32x4}})
					if err != nil {
						t.Fatal(err)
					}
					e.c.BindVertexElementsState(ve)
				}
				if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
					t.Fatal(err)
				}
				if st := e.c.Stats(); ref && st.Reference != 1 || !ref && (st.Device != 1 || st.Reference != 0) {
					t.Errorf("stats %+v, want one draw on the %s", st, map[bool]string{false: "device", true: "reference renderer"}[ref])
				}
				img := e.image(t)
				bad := 0
				for y := 0; y < 32; y++ {
					for x := 0; x < 32; x++ {
						c := img.NRGBAAt(x, y)
						in := x >= 8 && x < 24 && y >= 8 && y < 24
						if (c.R == tc.r && c.G == tc.g && c.B == tc.b) != in {
							bad++
						}
					}
				}
				if bad != 0 {
					t.Errorf("%d pixels wrong", bad)
				}
			})
		}
	}
}
