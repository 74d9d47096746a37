package pipe

import "testing"

// TestShaderParts links a vertex shader of two sources (main calls a
// function the second part defines) and draws with it on the device and on
// the reference renderer; a part that does not compile names itself.
// spec: GL 4.6 §7.3 (several shader objects of one stage)
func TestShaderParts(t *testing.T) {
	const main = `#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
out vec4 v_col;
vec4 shade(vec4 c);
void main() { gl_Position = pos; v_col = shade(col); }
`
	const part = `#version 330
vec4 shade(vec4 c) { return c.bgra; }
`
	for _, o := range []Options{{ForceReference: true}, {Strict: true}} {
		e := newDrawEnv(t, o, false)
		vs, err := e.c.CreateShaderState(ShaderDesc{Stage: StageVertex, Name: "t.vert", GLSL: main, Parts: []string{part}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		fs, err := e.c.CreateShaderState(ShaderDesc{Stage: StageFragment, GLSL: testFS}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.c.BindVSState(vs); err != nil {
			t.Fatal(err)
		}
		if err := e.c.BindFSState(fs); err != nil {
			t.Fatal(err)
		}
		e.posCol(t, quadVerts(0, [4]float32{1, 0, 0, 1}, -1, -1, 1, 1)...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
		if c := e.image(t).NRGBAAt(16, 16); c.R != 0 || c.G != 0 || c.B != 255 {
			t.Errorf("force reference %v: %v, want blue (the part's swizzle)", o.ForceReference, c)
		}
		_, err = e.c.CreateShaderState(ShaderDesc{Stage: StageVertex, Name: "t.vert", GLSL: main, Parts: []string{"#version 330\nvec4 shade(vec4 c) { return x; }\n"}}, nil)
		if err == nil || !contains(err.Error(), "t.vert#1") {
			t.Errorf("a bad part: %v, want an error naming t.vert#1", err)
		}
	}
}
