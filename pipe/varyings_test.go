package pipe

import "testing"

// TestDrawManyVaryings: varyings beyond the 12 planes (here 7 vec4s) and flat
// words beyond the side array's base region ride shaderdev's per-primitive side
// array; the draw runs on the device (STRICT) and matches the reference
// renderer (tolerance as TestDrawDifferential). spec: vortexpipe §3.2, §3.4
func TestDrawManyVaryings(t *testing.T) {
	const vs = `#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
out vec4 v[7];
flat out ivec4 f[5];
void main() {
	gl_Position = pos;
	for (int i = 0; i < 7; i++) v[i] = col * (float(i) + 1.0) / 7.0 + pos * 0.1 * float(i);
	for (int i = 0; i < 5; i++) f[i] = ivec4(gl_VertexID * 10 + i, i, -i, 3);
}
`
	const fs = `#version 330
in vec4 v[7];
flat in ivec4 f[5];
out vec4 o;
void main() {
	vec4 s = vec4(0.0);
	for (int i = 0; i < 7; i++) s += v[i] * (i % 2 == 0 ? 0.2 : -0.05);
	ivec4 k = f[0] + f[4];
	o = vec4(s.rgb, 1.0) + vec4(float(k.x % 7) / 20.0, float(k.w) / 30.0, 0.0, 0.0);
}
`
	run := func(o Options) *drawEnv {
		e := newDrawEnv(t, o, false)
		e.program(t, vs, fs)
		if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		v := append(quadVerts(0, [4]float32{1, 0.5, 0.2, 1}, -0.9, -0.9, 0.2, 0.3), quadVerts(0, [4]float32{0.1, 0.9, 0.6, 1}, -0.1, -0.2, 0.9, 0.9)...)
		v[4], v[8+5], v[32+6] = 0.1, 0.2, 0.9
		e.posCol(t, v...)
		for _, start := range []uint32{0, 4} {
			if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Start: start, Count: 4}}}); err != nil {
				t.Fatal(err)
			}
		}
		return e
	}
	dev := run(Options{Strict: true})
	if st := dev.c.Stats(); st.Device != 2 || st.Reference != 0 {
		t.Fatalf("device stats %+v", st)
	}
	if info := dev.c.Bound().VS.Desc.Info; info.VaryingVec4s != 7 || info.FlatWords != 20 {
		t.Errorf("ShaderInfo %+v: want 7 vec4s and 20 flat words", info)
	}
	ref := run(Options{ForceReference: true})
	a, b := dev.image(t), ref.image(t)
	if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
		t.Errorf("%d pixels differ by more than 3 (worst %d)", bad, worst)
	}
	lit := 0
	for i := 0; i < len(a.Pix); i += 4 {
		if a.Pix[i]|a.Pix[i+1] != 0 {
			lit++
		}
	}
	if lit < 200 {
		t.Errorf("only %d pixels drawn", lit)
	}
}
