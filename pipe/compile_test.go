package pipe

import (
	"testing"

	"vortexgfx/gl/format"
)

// TestShaderInfoFromCompiler: CreateShaderState fills ShaderInfo from the
// compiled stage, whatever the caller claimed. spec: vortexpipe §2.3.2, §3.1
func TestShaderInfoFromCompiler(t *testing.T) {
	c := NewScreenWithCaps(fullCaps(), Options{}).NewContext(ContextOptions{})
	tests := []struct {
		name  string
		stage Stage
		src   string
		want  ShaderInfo
	}{
		{"vs varyings", StageVertex, `#version 330
layout(location = 0) in vec4 p;
out vec4 a;
out vec3 b;
flat out int k;
void main() { gl_Position = p; a = p; b = p.xyz; k = 1; }
`, ShaderInfo{Compiled: true, VaryingVec4s: 2, FlatWords: 1}},
		{"vs noperspective", StageVertex, `#version 330
noperspective out float a;
void main() { gl_Position = vec4(0.0); a = 1.0; }
`, ShaderInfo{Compiled: true, VaryingVec4s: 1, NoPerspective: true}},
		{"fs mrt depth discard", StageFragment, `#version 330
layout(location = 0) out vec4 c0;
layout(location = 2) out vec4 c2;
uniform float k;
void main() { if (k > 0.5) discard; c0 = vec4(k); c2 = vec4(1.0); gl_FragDepth = k; }
`, ShaderInfo{Compiled: true, ColorOutputs: 3, WritesDepth: true, Discards: true}},
		{"fs texture ops", StageFragment, `#version 330
uniform sampler2DShadow s;
uniform samplerCube cube;
uniform sampler2D t;
out vec4 o;
void main() {
	o = vec4(texture(s, vec3(0.5)), texelFetch(t, ivec2(0), 0).x, textureSize(t, 0).x, texture(cube, vec3(1.0)).x);
}
`, ShaderInfo{Compiled: true, ColorOutputs: 1, TexOps: TexOpShadow | TexOpCube | TexOpFetch | TexOpSize, Samplers: 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sh, err := c.CreateShaderState(ShaderDesc{Stage: tc.stage, GLSL: tc.src,
				Info: ShaderInfo{ColorOutputs: 7, VaryingVec4s: 9}}, nil) // claims are replaced
			if err != nil {
				t.Fatal(err)
			}
			if sh.Desc.Info != tc.want {
				t.Errorf("info %+v, want %+v", sh.Desc.Info, tc.want)
			}
		})
	}
}

// TestProgramVariants: a (VS, FS) pair links once, its device variant compiles
// on the first device draw and is made resident once; a framebuffer of another
// size reopens the device and the frame still matches the reference renderer.
// spec: vortexpipe §2.3.1, §2.5
func TestProgramVariants(t *testing.T) {
	e := newDrawEnv(t, Options{Strict: true}, false)
	e.program(t, testVS, testFS)
	e.posCol(t, quadVerts(0, [4]float32{1, 0.5, 0, 1}, -0.5, -0.5, 0.5, 0.5)...)
	draw := func() {
		t.Helper()
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		draw()
	}
	l, err := e.c.boundProgram()
	if err != nil {
		t.Fatal(err)
	}
	if st := l.variants.Stats(); st.Compiles != 1 || st.Hits != 2 {
		t.Errorf("variants %+v, want one compile and two hits", st)
	}
	if n := len(e.s.be.added); n != 1 {
		t.Errorf("%d programs made resident, want 1", n)
	}
	// A 16x16 framebuffer: the device reopens at that size.
	small := newTex(t, e.s, format.BGRA8, 16, 16)
	if err := e.c.SetFramebufferState(Framebuffer{Width: 16, Height: 16, Cbufs: []*Surface{{Resource: small}}}); err != nil {
		t.Fatal(err)
	}
	if err := e.c.Clear(ClearColor, [4]float32{0, 0, 1, 1}, 1, 0); err != nil {
		t.Fatal(err)
	}
	draw()
	img := e.image(t)
	if p := img.NRGBAAt(8, 8); p.R != 255 || p.G < 126 || p.G > 129 || p.B != 0 {
		t.Errorf("centre of the 16x16 frame %v", p)
	}
	if p := img.NRGBAAt(1, 1); p.B != 255 || p.R != 0 {
		t.Errorf("corner of the 16x16 frame %v", p)
	}
	// Back to the first framebuffer: its earlier frame is still there.
	if err := e.c.SetFramebufferState(Framebuffer{Width: 32, Height: 32, Cbufs: []*Surface{{Resource: e.rt}}}); err != nil {
		t.Fatal(err)
	}
	if p := e.image(t).NRGBAAt(16, 16); p.R != 255 {
		t.Errorf("first framebuffer lost its frame: %v", p)
	}
	// Deleting a shader drops its pairs and unloads their device programs.
	if len(e.s.be.added) != 1 {
		t.Fatalf("%d programs on the device", len(e.s.be.added))
	}
	e.c.DeleteShaderState(e.c.Bound().VS)
	if len(e.s.be.added) != 0 || len(e.s.progs.pairs) != 0 {
		t.Errorf("after delete: %d programs on the device, %d pairs", len(e.s.be.added), len(e.s.progs.pairs))
	}
}
