package shaderdev_test

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/ref"
	"vortexgfx/ref/format"
	"vortexgfx/ref/program"
	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

func link(t testing.TB, vs, fs string) *program.Program {
	t.Helper()
	cp, err := shader.Compile(shader.Source{Name: "t.vert", Stage: glsl.Vertex, Text: vs},
		shader.Source{Name: "t.frag", Stage: glsl.Fragment, Text: fs})
	if err != nil {
		t.Fatal(err)
	}
	p, err := program.New(cp, program.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The test program: instancing (gl_InstanceID), a perspective w per vertex, a
// colour varying, a flat integer varying (the provoking vertex's words through
// the side array), and gl_FrontFacing, gl_FragCoord (x, z and w) and a
// derivative in the fragment stage.
const (
	testVS = `#version 140
uniform float u_scale;
in vec3 a_pos;
in vec3 a_col;
out vec3 v_col;
out float v_k;
flat out int v_id;
void main() {
	float w = 1.0 + a_pos.z;
	v_id = gl_VertexID * 3 + gl_InstanceID;
	vec2 p = a_pos.xy * u_scale + vec2(float(gl_InstanceID) * 0.9 - 0.45, 0.0);
	gl_Position = vec4(p * w, 0.5 * w, w);
	v_col = a_col;
	v_k = a_pos.x;
}`
	testFS = `#version 140
in vec3 v_col;
in float v_k;
flat in int v_id;
out vec4 o;
void main() {
	vec3 c = gl_FrontFacing ? v_col : vec3(1.0) - v_col;
	o = vec4(c.r, c.g * 0.5 + float(v_id % 4) * 0.125, c.b * 0.5 + gl_FragCoord.z * 0.5, fract(gl_FragCoord.x / 8.0) * 0.25 + abs(dFdx(v_k)) * 4.0 + gl_FragCoord.w * 0.4);
}`
)

// TestShaderDrawMatchesRef draws an indexed, instanced pair of triangles (one
// counter-clockwise, one clockwise) with a compiled program through the whole
// device model and through ref/program on the reference renderer, with and
// without back-face culling. Coverage may differ only on edge pixels (Q15.16
// edges with the top-left rule against ref's 8 sub-pixel bits); where both
// cover, every channel matches within 2/255. spec: vortexpipe §3.2–§3.4
func TestShaderDrawMatchesRef(t *testing.T) {
	const W, H = 64, 48
	p := link(t, testVS, testFS)
	if err := p.SetUniform("u_scale", ir.F32, []uint32{math.Float32bits(0.8)}); err != nil {
		t.Fatal(err)
	}
	sp, err := shaderdev.NewProgram("test.prog", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	// Vertex 0 is never used: the draw's base vertex is 1.
	verts := [][6]float32{
		{9, 9, 9, 0, 0, 0},
		{-0.4, -0.8, 0, 1, 0, 0}, {0.4, -0.6, 0.5, 0, 1, 0}, {0, 0.1, 1, 0, 0, 1},
		{-0.4, 0.2, 0.2, 1, 1, 0}, {0, 0.9, 0.6, 0, 1, 1}, {0.4, 0.3, 0, 1, 0, 1},
	}
	idx := []uint32{0, 1, 2, 3, 4, 5} // 3..5 wind clockwise
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	data := make([]uint32, len(verts)*words)
	for i, v := range verts {
		for k := range 3 {
			data[i*words+pos.Word+k] = math.Float32bits(v[k])
			data[i*words+col.Word+k] = math.Float32bits(v[3+k])
		}
	}
	raw := make([]byte, 4*len(data))
	for i, w := range data {
		binary.LittleEndian.PutUint32(raw[4*i:], w)
	}
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
	}
	ib := make([]byte, 4*len(idx))
	for i, x := range idx {
		binary.LittleEndian.PutUint32(ib[4*i:], x)
	}
	dev, err := shaderdev.Open(config.Default(), W, H, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	for _, cull := range []bool{false, true} {
		// Reference.
		tg, err := ref.NewTarget(W, H, []format.Format{format.RGBA8}, format.D24S8)
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
		st := ref.DefaultState(W, H)
		st.Vertex, st.Fragment, st.Interp = vs, fs, p.Interp(false)
		if cull {
			st.Cull = ref.CullBack
		}
		if err := tg.ClearDepth(1); err != nil {
			t.Fatal(err)
		}
		err = ref.Draw(context.Background(), tg, &st, ref.VertexInput{Words: words, Data: data},
			ref.DrawParams{Topology: ref.Triangles, Count: len(idx), IndexType: ref.Index32, Indices: ib, BaseVertex: 1, Instances: 2})
		if err != nil {
			t.Fatal(err)
		}
		// Device.
		if err := dev.Clear(0, 0xFFFFFF); err != nil {
			t.Fatal(err)
		}
		c := frontend.CullNone
		if cull {
			c = frontend.CullBack
		}
		ds, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Indices: idx, Count: len(idx), Instances: 2, BaseVertex: 1,
			Uniforms: p.Uniforms, Cull: c, Merge: omAll()})
		if err != nil {
			t.Fatal(err)
		}
		if ds.CmdDraw != 1 || ds.Doorbells != 1 {
			t.Errorf("cull %v: %d CMD_DRAW, %d doorbells; want one each", cull, ds.CmdDraw, ds.Doorbells)
		}
		px, err := dev.Color()
		if err != nil {
			t.Fatal(err)
		}
		refPix := tg.Color[0].Data
		var covered, edge, bad, maxd int
		for i, c := range px {
			r := refPix[4*i:]
			dc := c != 0
			rc := r[0]|r[1]|r[2]|r[3] != 0
			if dc != rc {
				edge++
				continue
			}
			if !dc {
				continue
			}
			covered++
			d := [4]int{int(c>>16&0xFF) - int(r[0]), int(c>>8&0xFF) - int(r[1]), int(c&0xFF) - int(r[2]), int(c>>24) - int(r[3])}
			m := 0
			for _, x := range d {
				m = max(m, x, -x)
			}
			maxd = max(maxd, m)
			if m > 2 {
				if bad < 3 {
					t.Logf("pixel %d: device %08x ref %v", i, c, r[:4])
				}
				bad++
			}
		}
		t.Logf("cull %v: %d px covered in both, %d coverage mismatches, max channel diff %d; device %d prims, %d shaded",
			cull, covered, edge, maxd, ds.Primitives, ds.Shaded)
		wantPrims := 4
		if cull {
			wantPrims = 2
		}
		if ds.Primitives != wantPrims {
			t.Errorf("cull %v: %d primitives, want %d", cull, ds.Primitives, wantPrims)
		}
		if covered < 300 || bad != 0 || edge > covered/10 {
			t.Errorf("cull %v: %d covered, %d over 2/255 (max %d), %d coverage mismatches", cull, covered, bad, maxd, edge)
		}
	}
}

// TestShaderProgramRoutes checks the gated fallbacks: each program the device
// path cannot run is refused with ErrRoute and a reason naming it.
// spec: vortexpipe §1.5.1, §3.4
func TestShaderProgramRoutes(t *testing.T) {
	const vs = `#version 130
in vec4 a; out vec4 v0; out vec4 v1; out vec4 v2; out vec4 v3; flat out int f; noperspective out float n;
void main() { gl_Position = a; v0 = a; v1 = a * 2.0; v2 = a * 3.0; v3 = a * 4.0; f = 1; n = a.x; }`
	tests := []struct {
		name, fs, why string
	}{
		{"planes and side array", `#version 130
in vec4 v0; in vec4 v1; in vec4 v2; in vec4 v3; out vec4 o; void main() { o = v0 + v1 + v2 + v3; }`, ""},
		{"ok", `#version 130
in vec4 v0; in vec4 v1; in vec4 v2; out vec4 o; void main() { o = v0 + v1 + v2; }`, ""},
	}
	for _, tc := range tests {
		p := link(t, vs, tc.fs)
		sp, err := shaderdev.NewProgram(tc.name, p.IR)
		if tc.why == "" {
			if want := map[string]int{"ok": 12, "planes and side array": 16}[tc.name]; err != nil || sp.NVar() != want {
				t.Errorf("%s: %v (%d planes)", tc.name, err, sp.NVar())
			}
			continue
		}
		if !errors.Is(err, shaderdev.ErrRoute) || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%s: %v, want ErrRoute naming %q", tc.name, err, tc.why)
		}
	}
}
