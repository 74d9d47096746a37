package pipe

import (
	"fmt"
	"image"
	"testing"

	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
)

// ffPartner is a bound stage a generated one links with: for a vertex key a
// fragment shader reading what the key says it reads, for a fragment key a
// vertex shader writing gl_FrontColor or not.
func ffPartner(k ffKey) shader.Source {
	if k.Fragment {
		body := "gl_Position = gl_Vertex;"
		if k.FrontColor {
			body += " gl_FrontColor = vec4(0.25);"
		}
		return shader.Source{Name: "p.vert", Stage: glsl.Vertex, Text: "#version 110\nvoid main() { " + body + " }\n"}
	}
	expr := "vec4(0.0)"
	if k.Color {
		expr += " + gl_Color"
	}
	if k.TexCoords > 0 {
		expr += fmt.Sprintf(" + gl_TexCoord[%d]", k.TexCoords-1)
	}
	return shader.Source{Name: "p.frag", Stage: glsl.Fragment, Text: "#version 110\nvoid main() { gl_FragColor = " + expr + "; }\n"}
}

// TestFFSourceCompiles: the generated fixed-function stage compiles through
// shader.Compile on its own and links with a bound stage for every key, and
// reads the legacy state only through uniforms.
// spec: vortexpipe-driver.md §1.5.1
func TestFFSourceCompiles(t *testing.T) {
	var keys []ffKey
	for _, front := range []bool{false, true} {
		keys = append(keys, ffKey{Fragment: true, FrontColor: front})
	}
	for m := range 16 {
		for _, tcs := range []uint8{0, 1, 2, 8} {
			k := ffKey{Color: m&1 != 0, ColorAttr: m&3 == 3, TexCoords: tcs, TexAttr: m&4 != 0 && tcs > 0, Clip: m&8 != 0}
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		t.Run(fmt.Sprintf("%+v", k), func(t *testing.T) {
			src := k.source()
			if _, err := shader.Compile(src); err != nil {
				t.Fatalf("generated stage alone: %v\n%s", err, src.Text)
			}
			cp, err := shader.Compile(src, ffPartner(k))
			if err != nil {
				t.Fatalf("linked: %v\n%s", err, src.Text)
			}
			if k.Fragment {
				return
			}
			vs := cp.Stage(glsl.Vertex)
			_, clip := slotNamed(vs.Outputs, "gl_ClipVertex")
			if clip != k.Clip {
				t.Errorf("gl_ClipVertex written %v, want %v", clip, k.Clip)
			}
			for _, name := range []string{"gl_Color", "gl_MultiTexCoord0"} {
				_, in := slotNamed(vs.Inputs, name)
				want := name == "gl_Color" && k.ColorAttr || name == "gl_MultiTexCoord0" && k.TexAttr
				if in != want {
					t.Errorf("attribute %s read %v, want %v", name, in, want)
				}
			}
			// The legacy state is read through uniforms, never baked in.
			for _, u := range []string{"gl_ModelViewProjectionMatrix", "gl_ModelViewMatrix", ffColorUniform, ffTexCoordUniform} {
				_, read := slotNamed(cp.Stage(glsl.Vertex).Uniforms, u)
				want := u == "gl_ModelViewProjectionMatrix" || u == "gl_ModelViewMatrix" && k.Clip ||
					u == ffColorUniform && k.Color && !k.ColorAttr ||
					u == ffTexCoordUniform && (k.TexCoords > 1 || k.TexCoords == 1 && !k.TexAttr)
				if read != want {
					t.Errorf("uniform %s read %v, want %v:\n%s", u, read, want, src.Text)
				}
			}
		})
	}
}

// TestFFDeviceMatchesFixedFunction draws legacy draws with an unbound stage
// on the device (the generated stage) and on the reference renderer
// (program.FixedVertex / FixedFragment): every draw runs on the device and
// the images agree. spec: vortexpipe-driver.md §1.5.1, §3.1; GL 2.1
// §2.11-§2.12, §3.8-§3.10
func TestFFDeviceMatchesFixedFunction(t *testing.T) {
	const colourFS = "#version 110\nvoid main() { gl_FragColor = gl_Color; }\n"
	const texFS = "#version 110\nvoid main() { gl_FragColor = vec4(gl_TexCoord[0].xy, gl_TexCoord[1].z, 1.0) * gl_Color; }\n"
	const colourVS = `#version 110
attribute vec4 pos;
attribute vec4 col;
void main() { gl_Position = gl_ModelViewProjectionMatrix * pos; gl_FrontColor = col; gl_BackColor = vec4(1.0) - col; }
`
	const plainVS = "#version 110\nattribute vec4 pos;\nvoid main() { gl_Position = pos; }\n"
	ls := DefaultLegacyState()
	ls.Projection[0], ls.Projection[5], ls.Projection[12] = 0.8, 0.7, 0.05
	ls.ModelView[0], ls.ModelView[13] = 1.1, -0.1
	ls.Color = [4]float32{0.2, 0.4, 0.9, 1}
	ls.TexCoords[1] = [4]float32{0, 0, 0.6, 1}
	// A triangle: red, green, blue corners; texture coordinates from the
	// position.
	tri := []float32{
		-0.9, -0.9, 0, 1, 1, 0, 0, 1, 0.1, 0.1, 0, 1,
		0.9, -0.8, 0, 1, 0, 1, 0, 1, 0.9, 0.2, 0, 1,
		0, 0.9, 0, 1, 0, 0, 1, 1, 0.5, 0.9, 0, 1,
	}
	cases := []struct {
		name     string
		vs, fs   string
		elements int // vertex elements bound: position, colour, texcoord
		rs       RasterizerState
		back     bool // clockwise winding: a back face
		clip     bool // user clip plane 0 in eye space
	}{
		{name: "fixed vertex, colour array", fs: colourFS, elements: 2},
		{name: "fixed vertex, current colour", fs: colourFS, elements: 1},
		{name: "fixed vertex, texcoords", fs: texFS, elements: 3},
		{name: "fixed vertex, current texcoords", fs: texFS, elements: 2},
		{name: "fixed vertex, clip plane", fs: colourFS, elements: 2, rs: RasterizerState{ClipPlaneEnable: 1}, clip: true},
		{name: "fixed vertex, flat", fs: colourFS, elements: 2, rs: RasterizerState{Flatshade: true}},
		{name: "fixed fragment", vs: colourVS, elements: 2},
		{name: "fixed fragment, white", vs: plainVS, elements: 1},
		{name: "fixed fragment, flat", vs: colourVS, elements: 2, rs: RasterizerState{FrontCCW: true, Flatshade: true}},
		{name: "fixed fragment, flat, colour clamp", vs: colourVS, elements: 2, rs: RasterizerState{FrontCCW: true, Flatshade: true, ClampVertexColor: true}},
		{name: "fixed vertex, colour clamp", fs: colourFS, elements: 2, rs: RasterizerState{ClampVertexColor: true}},
		{name: "fixed fragment, two-sided back face", vs: colourVS, elements: 2, rs: RasterizerState{FrontCCW: true, LightTwoSide: true}, back: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			draw := func(o Options) (*image.NRGBA, Stats) {
				e := newDrawEnv(t, o, false)
				if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
					t.Fatal(err)
				}
				ffBind(t, e, tc.vs, tc.fs)
				r, err := e.c.CreateRasterizerState(tc.rs)
				if err != nil {
					t.Fatal(err)
				}
				e.c.BindRasterizerState(r)
				if tc.clip {
					var cs ClipState
					cs.UCP[0] = [4]float32{1, 0.5, 0, 0.1}
					e.c.SetClipState(cs)
				}
				e.c.SetLegacyState(&ls)
				v := append([]float32(nil), tri...)
				if tc.back {
					copy(v[12:24], tri[24:36])
					copy(v[24:36], tri[12:24])
				}
				vb := e.floats(t, v...)
				var els []VertexElement
				for i := range tc.elements {
					els = append(els, VertexElement{SrcOffset: uint32(16 * i), Format: VertexFloat32x4})
				}
				ve, err := e.c.CreateVertexElementsState(els)
				if err != nil {
					t.Fatal(err)
				}
				e.c.BindVertexElementsState(ve)
				e.c.SetVertexBuffers([]VertexBuffer{{Buffer: vb, Stride: 48}})
				for range 2 { // the second draw hits the program cache
					if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}}); err != nil {
						t.Fatal(err)
					}
				}
				if n := len(e.s.progs.ff); !o.ForceReference && n != 1 {
					t.Errorf("%d generated programs, want one for both draws", n)
				}
				return e.image(t), e.c.Stats()
			}
			want, _ := draw(Options{ForceReference: true})
			got, st := draw(Options{})
			if st.Device != 2 || st.Reference != 0 {
				t.Errorf("stats %+v, want both draws on the device", st)
			}
			lit := 0
			for i := 0; i < len(want.Pix); i += 4 {
				if want.Pix[i]|want.Pix[i+1]|want.Pix[i+2] != 0 {
					lit++
				}
			}
			if lit < 50 {
				t.Errorf("the reference image has %d lit pixels", lit)
			}
			if bad, worst := compareImages(got, want, 1); bad > 0 {
				t.Errorf("device and fixed-function stage differ on %d pixels (worst %d)", bad, worst)
			}
		})
	}
}

// ffBind binds a vertex and a fragment shader, either of them "" for the
// fixed-function stage.
func ffBind(t *testing.T, e *drawEnv, vs, fs string) {
	t.Helper()
	for _, s := range []struct {
		stage Stage
		src   string
		bind  func(*Shader) error
	}{{StageVertex, vs, e.c.BindVSState}, {StageFragment, fs, e.c.BindFSState}} {
		if s.src == "" {
			if err := s.bind(nil); err != nil {
				t.Fatal(err)
			}
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
}

// TestFFNotGenerated: a fragment shader reading a varying the fixed-function
// vertex stage does not write keeps the draw on the reference renderer, with
// GateNoVS naming the input.
func TestFFNotGenerated(t *testing.T) {
	e := newDrawEnv(t, Options{}, false)
	ffBind(t, e, "", "#version 110\nvarying vec4 v;\nvoid main() { gl_FragColor = v; }\n")
	e.posCol(t, quadVerts(0, [4]float32{0, 1, 0, 1}, -1, -1, 1, 1)...)
	decs, err := e.c.Where(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(decs) != 1 || !decs[0].Reference || len(decs[0].Gates) != 1 || decs[0].Gates[0] != (Reason{GateNoVS, "fragment shader reads v"}) {
		t.Errorf("decisions %+v, want GateNoVS for v", decs)
	}
}
