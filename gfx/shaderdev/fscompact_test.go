package shaderdev

import (
	"encoding/binary"
	"math"
	"math/rand"
	"reflect"
	"slices"
	"testing"

	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/session"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/ref/program"
	"vortexgfx/shader"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
)

// compactVS feeds the fragment programs below: a position, a colour and a
// flat word.
const compactVS = `#version 130
in vec3 a_pos; in vec3 a_col; out vec3 v_col; flat out int v_id;
void main() { gl_Position = vec4(a_pos, 1.0); v_col = a_col; v_id = gl_VertexID; }`

func compileProgram(t testing.TB, name, vs, fs string) (*Program, *program.Program) {
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
	sp, err := NewProgram(name, p.IR)
	if err != nil {
		t.Fatal(err)
	}
	return sp, p
}

// TestFSCompactDecision pins which fragment programs run on their covered
// lanes only: those whose lanes cannot see each other.
func TestFSCompactDecision(t *testing.T) {
	for _, tc := range []struct {
		name, decl, body string
		want             bool
	}{
		{"arithmetic", "", `o = vec4(normalize(v_col) * 0.5, 1.0);`, true},
		{"control flow and discard", "", `vec3 c = v_col; for (int i = 0; i < 3; i++) { if (c.r > 0.5) c = c.gbr; } if (c.g < 0.1) discard; o = vec4(c, 1.0);`, true},
		{"gl_FragCoord and facing", "", `o = vec4(gl_FragCoord.xy / 64.0, gl_FrontFacing ? 1.0 : 0.0, 1.0);`, true},
		{"derivative", "", `o = vec4(dFdx(v_col.r), fwidth(v_col.g), 0.0, 1.0);`, false},
		{"texture", "uniform sampler2D u_tex;", `o = texture(u_tex, v_col.xy);`, false},
		{"flat input", "flat in int v_id;", `o = vec4(float(v_id % 4) * 0.25);`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := "#version 130\nin vec3 v_col; out vec4 o; " + tc.decl + "\nvoid main() { " + tc.body + " }"
			sp, _ := compileProgram(t, "compact."+tc.name, compactVS, fs)
			if sp.fsCompact != tc.want {
				t.Errorf("fsCompact = %v, want %v", sp.fsCompact, tc.want)
			}
		})
	}
	// gl_HelperInvocation (GLSL 4.50) reads the lane's helper flag.
	sp, _ := compileProgram(t, "compact.helper", "#version 450\nin vec3 a_pos; void main() { gl_Position = vec4(a_pos, 1.0); }",
		"#version 450\nout vec4 o;\nvoid main() { o = vec4(gl_HelperInvocation ? 1.0 : 0.0); }")
	if sp.fsCompact {
		t.Error("a program reading gl_HelperInvocation compacts")
	}
}

// TestFSCompactDraw is the differential test of the covered-lane packing: a
// thousand small, overlapping triangles (most of their waves' lanes helpers)
// drawn with depth test and blending through a lane-free program that
// discards some fragments, once packed and once on whole quads, give the
// same colour and depth planes and every counter alike (cycles included).
func TestFSCompactDraw(t *testing.T) {
	const W, H, N = 96, 80, 1000
	fs := `#version 130
in vec3 v_col; out vec4 o;
void main() {
	vec3 c = v_col;
	if (fract(gl_FragCoord.x * 0.37 + c.b * 3.0) < 0.2) discard;
	for (int i = 0; i < 2; i++) { if (c.r > c.g) c = c.gbr * 0.9; }
	o = vec4(c, 0.6);
}`
	sp, p := compileProgram(t, "compact.draw", compactVS, fs)
	if !sp.fsCompact {
		t.Fatal("the test program does not compact")
	}
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	r := rand.New(rand.NewSource(12))
	raw := make([]byte, 4*3*N*words)
	put := func(v, w int, f float32) { binary.LittleEndian.PutUint32(raw[4*(v*words+w):], math.Float32bits(f)) }
	for tr := range N {
		cx, cy, s := r.Float32()*2-1, r.Float32()*2-1, 0.01+r.Float32()*0.08
		for k := range 3 {
			v := 3*tr + k
			put(v, pos.Word, cx+(r.Float32()*2-1)*s)
			put(v, pos.Word+1, cy+(r.Float32()*2-1)*s)
			put(v, pos.Word+2, r.Float32())
			for j := range 3 {
				put(v, col.Word+j, r.Float32())
			}
		}
	}
	attrs := make([]AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
	}
	var m swom.State
	m.Targets[0].Blend = swom.Blend{Enable: true, WriteMask: 0xF, EqRGB: blend.Add, EqA: blend.Add,
		SrcRGB: blend.SrcAlpha, SrcA: blend.One, DstRGB: blend.OneMinusSrcAlpha, DstA: blend.Zero}
	m.DepthTest, m.DepthWrite, m.DepthFunc = true, true, compare.LessEqual
	draw := func(compact bool) ([]uint32, []uint32, session.DrawStats) {
		t.Helper()
		sp.fsCompact = compact
		dev, err := Open(config.Default(), W, H, []*Program{sp})
		if err != nil {
			t.Fatal(err)
		}
		defer dev.Close()
		if err := dev.Clear(0x20406080, 0xFFFFFF); err != nil {
			t.Fatal(err)
		}
		st, err := dev.Draw(&Draw{Program: sp, Attribs: attrs, Count: 3 * N, Uniforms: p.Uniforms, Merge: m})
		if err != nil {
			t.Fatal(err)
		}
		c, z, err := dev.Targets()
		if err != nil {
			t.Fatal(err)
		}
		return c, z, st
	}
	c0, z0, s0 := draw(false)
	c1, z1, s1 := draw(true)
	// Kept scratch last used by a software walk's per-sample lanes (sample
	// 3 of a 4× pass) must not leak into the packed single-sample waves.
	for shard := range fsShards {
		for w := 4; w <= exec.MaxWidth; w += 4 {
			s, err := sp.fsScratch(shard, w)
			if err != nil {
				t.Fatal(err)
			}
			for l := range s.smp {
				s.smp[l] = 3
			}
			sp.release(s, shard, w)
		}
	}
	c2, z2, s2 := draw(true)
	if !slices.Equal(c0, c2) || !slices.Equal(z0, z2) || !reflect.DeepEqual(s0, s2) {
		t.Error("a packed draw on scratch a per-sample walk left differs from the whole-quad draw")
	}
	if s0.Written < 1000 || 4*s0.Quads < 2*s0.Shaded {
		t.Fatalf("%d fragments written, %d shaded in %d quads: want many, most quads' lanes helpers", s0.Written, s0.Shaded, s0.Quads)
	}
	if !slices.Equal(c0, c1) || !slices.Equal(z0, z1) {
		t.Error("the packed draw's planes differ from the whole-quad draw's")
	}
	if !reflect.DeepEqual(s0, s1) {
		t.Errorf("counters differ:\n packed %+v\n whole  %+v", s1, s0)
	}
}
