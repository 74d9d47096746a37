package arbasm

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// run compiles prog (a program of target whose result is result.color)
// and runs it on one lane with program.local[i] = locals[i]; it returns the
// colour and whether the lane survived (KIL).
func run(t *testing.T, target Target, prog string, locals ...[4]float32) ([4]float32, bool) {
	t.Helper()
	p, cp, err := Compile(prog, target)
	if err != nil {
		t.Fatalf("%s: %v", prog, err)
	}
	code := cp.Stage(target.Stage())
	m, err := exec.New(code, exec.Config{Width: 1})
	if err != nil {
		t.Fatal(err)
	}
	uni := make([]uint32, code.UniformWords)
	for _, s := range code.Uniforms {
		if s.Name != p.Local.Name {
			continue
		}
		for i, v := range locals {
			for k := range 4 {
				if w := 4*i + k; w < s.Words {
					uni[s.Word+w] = math.Float32bits(v[k])
				}
			}
		}
	}
	if err := m.SetUniforms(uni); err != nil {
		t.Fatal(err)
	}
	live, err := m.Run(context.Background(), 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	name := "gl_FrontColor"
	if target == FragmentProgram {
		name = "gl_FragColor"
	}
	var out [4]float32
	for _, s := range code.Outputs {
		if s.Name == name {
			for k := range 4 {
				out[k] = math.Float32frombits(m.Output(s.Word + k)[0])
			}
			return out, live&1 != 0
		}
	}
	if live&1 != 0 {
		t.Fatalf("%s: no %s output", prog, name)
	}
	return out, false
}

func f32(x float64) float32 { return float32(x) }

// TestInstructions runs each instruction on the IR executor and compares
// with the specification's pseudo-code: exact where the instruction is
// exact, within 2 ulp where it calls a transcendental (the specification's
// approximations are at least as loose). spec: ARB_vertex_program §2.14.5,
// ARB_fragment_program §3.11.5
func TestInstructions(t *testing.T) {
	a := [4]float32{0.5, -0.25, 2, -3}
	b := [4]float32{-1, 4, 0.5, 0.25}
	c := [4]float32{0.125, 8, -2, 1}
	inf := float32(math.Inf(1))
	cases := []struct {
		target Target
		body   string
		locals [][4]float32
		want   [4]float32
		approx bool
	}{
		{VertexProgram, "ABS result.color, program.local[0];", [][4]float32{a}, [4]float32{0.5, 0.25, 2, 3}, false},
		{VertexProgram, "ADD result.color, program.local[0], program.local[1];", [][4]float32{a, b}, [4]float32{-0.5, 3.75, 2.5, -2.75}, false},
		{VertexProgram, "SUB result.color, program.local[0], program.local[1];", [][4]float32{a, b}, [4]float32{1.5, -4.25, 1.5, -3.25}, false},
		{VertexProgram, "MUL result.color, program.local[0], program.local[1];", [][4]float32{a, b}, [4]float32{-0.5, -1, 1, -0.75}, false},
		{VertexProgram, "MAD result.color, program.local[0], program.local[1], program.local[2];", [][4]float32{a, b, c}, [4]float32{-0.375, 7, -1, 0.25}, false},
		{VertexProgram, "MOV result.color, -program.local[0].wzyx;", [][4]float32{a}, [4]float32{3, -2, 0.25, -0.5}, false},
		{VertexProgram, "MOV result.color, program.local[0].y;", [][4]float32{a}, [4]float32{-0.25, -0.25, -0.25, -0.25}, false},
		{VertexProgram, "MAX result.color, program.local[0], program.local[1];", [][4]float32{a, b}, [4]float32{0.5, 4, 2, 0.25}, false},
		{VertexProgram, "MIN result.color, program.local[0], program.local[1];", [][4]float32{a, b}, [4]float32{-1, -0.25, 0.5, -3}, false},
		{VertexProgram, "FLR result.color, program.local[0];", [][4]float32{{1.5, -1.5, 2, -0.25}}, [4]float32{1, -2, 2, -1}, false},
		{VertexProgram, "FRC result.color, program.local[0];", [][4]float32{{1.5, -1.5, 2, -0.25}}, [4]float32{0.5, 0.5, 0, 0.75}, false},
		{VertexProgram, "SGE result.color, program.local[0], program.local[1];", [][4]float32{{1, 2, 3, 4}, {1, 3, 2, 5}}, [4]float32{1, 0, 1, 0}, false},
		{VertexProgram, "SLT result.color, program.local[0], program.local[1];", [][4]float32{{1, 2, 3, 4}, {1, 3, 2, 5}}, [4]float32{0, 1, 0, 1}, false},
		{VertexProgram, "DP3 result.color, program.local[0], program.local[1];", [][4]float32{a, b}, [4]float32{-0.5, -0.5, -0.5, -0.5}, false},
		{VertexProgram, "DP4 result.color, program.local[0], program.local[1];", [][4]float32{a, b}, [4]float32{-1.25, -1.25, -1.25, -1.25}, false},
		// DPH: s0.xyz . s1.xyz + s1.w (s0.w unused).
		{VertexProgram, "DPH result.color, program.local[0], program.local[1];", [][4]float32{a, b}, [4]float32{-0.25, -0.25, -0.25, -0.25}, false},
		// DST: (1, s0.y*s1.y, s0.z, s1.w).
		{VertexProgram, "DST result.color, program.local[0], program.local[1];", [][4]float32{a, b}, [4]float32{1, -1, 2, 0.25}, false},
		{VertexProgram, "XPD result.color.xyz, program.local[0], program.local[1];", [][4]float32{{1, 0, 0, 9}, {0, 1, 0, 9}}, [4]float32{0, 0, 1, 0}, false},
		{VertexProgram, "EX2 result.color, program.local[0].z;", [][4]float32{a}, [4]float32{4, 4, 4, 4}, false},
		{VertexProgram, "LG2 result.color, program.local[0].x;", [][4]float32{{8, 0, 0, 0}}, [4]float32{3, 3, 3, 3}, false},
		// Scalar instructions replicate their result.
		{VertexProgram, "RCP result.color, program.local[0].w;", [][4]float32{a}, [4]float32{f32(-1.0 / 3), f32(-1.0 / 3), f32(-1.0 / 3), f32(-1.0 / 3)}, false},
		{VertexProgram, "RCP result.color, program.local[0].x;", [][4]float32{{0, 0, 0, 0}}, [4]float32{inf, inf, inf, inf}, false},
		// RSQ takes the absolute value.
		{VertexProgram, "RSQ result.color, program.local[0].x;", [][4]float32{{-4, 0, 0, 0}}, [4]float32{0.5, 0.5, 0.5, 0.5}, true},
		{VertexProgram, "POW result.color, program.local[0].x, program.local[0].y;", [][4]float32{{2, 10, 0, 0}}, [4]float32{1024, 1024, 1024, 1024}, true},
		{VertexProgram, "POW result.color, program.local[0].x, program.local[0].y;", [][4]float32{{0, 0, 0, 0}}, [4]float32{1, 1, 1, 1}, false},
		// EXP: (2^floor(s), s - floor(s), 2^s, 1).
		{VertexProgram, "EXP result.color, program.local[0].x;", [][4]float32{{4.5, 0, 0, 0}}, [4]float32{16, 0.5, f32(math.Pow(2, 4.5)), 1}, true},
		{VertexProgram, "EXP result.color, program.local[0].x;", [][4]float32{{-1.25, 0, 0, 0}}, [4]float32{0.25, 0.75, f32(math.Pow(2, -1.25)), 1}, true},
		// LOG of |s|: (exponent, mantissa in [1, 2), log2, 1).
		{VertexProgram, "LOG result.color, program.local[0].x;", [][4]float32{{64, 0, 0, 0}}, [4]float32{6, 1, 6, 1}, false},
		{VertexProgram, "LOG result.color, program.local[0].x;", [][4]float32{{-50, 0, 0, 0}}, [4]float32{5, 1.5625, f32(math.Log2(50)), 1}, true},
		{VertexProgram, "LOG result.color, program.local[0].x;", [][4]float32{{0.75, 0, 0, 0}}, [4]float32{-1, 1.5, f32(math.Log2(0.75)), 1}, true},
		// The largest float below 2: the exponent is 0, whatever log2 rounds to.
		{VertexProgram, "LOG result.color, program.local[0].x;", [][4]float32{{math.Nextafter32(2, 0), 0, 0, 0}}, [4]float32{0, math.Nextafter32(2, 0), 1, 1}, true},
		// LIT: (1, max(x,0), x > 0 ? max(y,0)^clamp(w,-128,128) : 0, 1).
		{VertexProgram, "LIT result.color, program.local[0];", [][4]float32{{0.5, 4, 0, 2}}, [4]float32{1, 0.5, 16, 1}, true},
		{VertexProgram, "LIT result.color, program.local[0];", [][4]float32{{-0.5, 4, 0, 2}}, [4]float32{1, 0, 0, 1}, false},
		{VertexProgram, "LIT result.color, program.local[0];", [][4]float32{{0.5, 0, 0, 0}}, [4]float32{1, 0.5, 1, 1}, false},
		{VertexProgram, "LIT result.color, program.local[0];", [][4]float32{{1, 1.0078125, 0, 1000}}, [4]float32{1, 1, f32(math.Pow(1.0078125, 128)), 1}, true},
		// SWZ's extended swizzle: components, 0, 1, negation.
		{VertexProgram, "SWZ result.color, program.local[0], -w, 0, 1, -y;", [][4]float32{a}, [4]float32{3, 0, 1, 0.25}, false},
		// Write masks keep the other components.
		{VertexProgram, "TEMP t; MOV t, {1, 2, 3, 4}; MOV t.yw, program.local[0]; MOV result.color, t;", [][4]float32{a}, [4]float32{1, -0.25, 3, -3}, false},
		// A destination that is an operand is read first.
		{VertexProgram, "TEMP t; MOV t, program.local[0]; XPD t.xyz, t, t.yzxw; MOV result.color, t;", [][4]float32{{1, 2, 3, 4}},
			[4]float32{2*1 - 3*3, 3*2 - 1*1, 1*3 - 2*2, 4}, false},
		// ARL and relative addressing: floor, with an offset.
		{VertexProgram, "ADDRESS A; PARAM v[3] = { {1,1,1,1}, {2,2,2,2}, program.local[1] }; ARL A.x, program.local[0].x; MOV result.color, v[A.x + 1];",
			[][4]float32{{0.75, 0, 0, 0}, a}, [4]float32{2, 2, 2, 2}, false},
		{VertexProgram, "ADDRESS A; PARAM v[] = { program.local[1..2] }; ARL A.x, program.local[0].x; MOV result.color, v[A.x - 1];",
			[][4]float32{{2.5, 0, 0, 0}, b, a}, a, false},
		// Fragment program instructions.
		{FragmentProgram, "CMP result.color, program.local[0], program.local[1], program.local[2];", [][4]float32{a, b, c}, [4]float32{0.125, 4, -2, 0.25}, false},
		{FragmentProgram, "LRP result.color, program.local[0], program.local[1], program.local[2];", [][4]float32{{0.5, 0, 1, 0.25}, {2, 4, 6, 8}, {4, 2, 0, 4}},
			[4]float32{3, 2, 6, 5}, false},
		{FragmentProgram, "SCS result.color.xy, program.local[0].x;", [][4]float32{{0, 0, 0, 0}}, [4]float32{1, 0, 0, 0}, false},
		{FragmentProgram, "SIN result.color, program.local[0].x;", [][4]float32{{1, 0, 0, 0}}, [4]float32{f32(math.Sin(1)), f32(math.Sin(1)), f32(math.Sin(1)), f32(math.Sin(1))}, true},
		{FragmentProgram, "COS result.color, program.local[0].x;", [][4]float32{{1, 0, 0, 0}}, [4]float32{f32(math.Cos(1)), f32(math.Cos(1)), f32(math.Cos(1)), f32(math.Cos(1))}, true},
		{FragmentProgram, "ADD_SAT result.color, program.local[0], program.local[1];", [][4]float32{a, b}, [4]float32{0, 1, 1, 0}, false},
		{FragmentProgram, "MOV result.color, fragment.position.w; MOV result.color.rg, program.local[0].bgra;", [][4]float32{a}, [4]float32{2, -0.25, 0, 0}, false},
	}
	for _, tc := range cases {
		hdr := "!!ARBvp1.0\n"
		if tc.target == FragmentProgram {
			hdr = "!!ARBfp1.0\n"
		}
		prog := hdr + tc.body + "\nEND\n"
		got, live := run(t, tc.target, prog, tc.locals...)
		if !live {
			t.Errorf("%s: fragment killed", tc.body)
			continue
		}
		for k := range 4 {
			g, w := got[k], tc.want[k]
			if strings.Contains(tc.body, "fragment.position") && k >= 2 {
				continue // gl_FragCoord is not set by this harness
			}
			ok := g == w || tc.approx && math.Abs(float64(g-w)) <= 2*ulp(w)
			if !ok {
				t.Errorf("%s with %v: component %d = %v, want %v", tc.body, tc.locals, k, g, w)
			}
		}
	}
}

// ulp is the spacing of float32 values at v.
func ulp(v float32) float64 {
	return float64(math.Nextafter32(float32(math.Abs(float64(v))), float32(math.Inf(1))) - float32(math.Abs(float64(v))))
}

// TestKIL checks that KIL discards when any component is negative, -0
// included as not negative. spec: ARB_fragment_program §3.11.5.12 (KIL)
func TestKIL(t *testing.T) {
	for _, tc := range []struct {
		v    [4]float32
		live bool
	}{
		{[4]float32{0, 1, 2, 3}, true},
		{[4]float32{1, 1, 1, -0.001}, false},
		{[4]float32{-1, 1, 1, 1}, false},
		{[4]float32{float32(math.Copysign(0, -1)), 0, 0, 0}, true},
	} {
		_, live := run(t, FragmentProgram, "!!ARBfp1.0\nKIL program.local[0];\nMOV result.color, 1;\nEND\n", tc.v)
		if live != tc.live {
			t.Errorf("KIL %v: live %v, want %v", tc.v, live, tc.live)
		}
	}
}

// TestIRInterface checks the translation's interface: the uniform arrays'
// sizes, the samplers with their units and kinds, the outputs written.
func TestIRInterface(t *testing.T) {
	src := "!!ARBfp1.0\nOPTION ARB_fragment_program_shadow;\nTEMP a;\nTEX a, fragment.texcoord[1], texture[3], SHADOW2D;\n" +
		"TXP a, a, texture[0], RECT;\nMUL result.color, a, program.env[4];\nMOV result.depth.z, program.local[1].x;\nEND\n"
	p, cp, err := Compile(src, FragmentProgram)
	if err != nil {
		t.Fatal(err)
	}
	if p.Env != (Params{"vx_fp_env", 5}) || p.Local != (Params{"vx_fp_local", 2}) {
		t.Errorf("env %+v local %+v", p.Env, p.Local)
	}
	want := []Sampler{{"vx_fp_tex0", 0, "RECT"}, {"vx_fp_tex3", 3, "SHADOW2D"}}
	if fmt.Sprint(p.Samplers) != fmt.Sprint(want) {
		t.Errorf("samplers %+v, want %+v", p.Samplers, want)
	}
	fs := cp.Stage(FragmentProgram.Stage())
	kinds := map[string]ir.SamplerKind{}
	for _, s := range fs.Samplers {
		kinds[s.Name] = s.Kind
	}
	if kinds["vx_fp_tex0"] != ir.Sampler2DRect || kinds["vx_fp_tex3"] != ir.Sampler2DShadow {
		t.Errorf("sampler kinds %v", kinds)
	}
	outs := map[string]bool{}
	for _, s := range fs.Outputs {
		outs[s.Name] = true
	}
	if !outs["gl_FragColor"] || !outs["gl_FragDepth"] {
		t.Errorf("outputs %v", fs.Outputs)
	}
}
