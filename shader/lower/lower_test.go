package lower

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// sharedData returns /work/shared/data relative to the repository, or skips.
func sharedData(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..")
	dir := filepath.Join(repo, "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("../shared data absent: %v", err)
	}
	return dir
}

func fbits(v float32) uint32 { return math.Float32bits(v) }
func ff(w uint32) float32    { return math.Float32frombits(w) }

// slot finds a named slot.
func slot(t *testing.T, ss []ir.Slot, name string) ir.Slot {
	t.Helper()
	for _, s := range ss {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no slot %q in %v", name, ss)
	return ir.Slot{}
}

// setUniform writes float words of a named uniform.
func setUniform(t *testing.T, p *Program, buf []uint32, name string, vals ...float32) {
	s := slot(t, p.Uniforms, name)
	for i, v := range vals {
		buf[s.Word+i] = fbits(v)
	}
}

// constSampler returns a constant texel for every lane.
type constSampler struct{ rgba [4]float32 }

func (s constSampler) Texture(r *exec.TexRequest) error {
	for i := 0; i < 4; i++ {
		for l := range r.Out[i] {
			r.Out[i][l] = fbits(s.rgba[i])
		}
	}
	return nil
}

// TestLambertEndToEnd compiles the benchmark shaders, runs a vertex batch and a
// fragment quad-warp through the executor and checks them against float64 maths.
func TestLambertEndToEnd(t *testing.T) {
	dir := filepath.Join(sharedData(t), "bench")
	vsrc, err := os.ReadFile(filepath.Join(dir, "lambert.vert"))
	if err != nil {
		t.Skipf("../shared data absent: %v", err)
	}
	fsrc, err := os.ReadFile(filepath.Join(dir, "lambert.frag"))
	if err != nil {
		t.Skipf("../shared data absent: %v", err)
	}
	for _, textured := range []bool{false, true} {
		opts := glsl.Options{}
		if textured {
			opts.Defines = map[string]string{"USE_TEXTURE": "1"}
		}
		p, err := compilePair("lambert.vert", string(vsrc), "lambert.frag", string(fsrc), opts)
		if err != nil {
			t.Fatal(err)
		}
		uni := make([]uint32, p.UniformWords)
		// u_mvp: scale by 2 and translate x by 1 (column-major); u_model: identity.
		mvp := []float32{2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 0, 0, 1}
		model := []float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
		setUniform(t, p, uni, "u_mvp", mvp...)
		setUniform(t, p, uni, "u_model", model...)
		setUniform(t, p, uni, "u_light_dir", 0, 0, 1)
		setUniform(t, p, uni, "u_base_color", 1, 0.5, 0.25)

		// Vertex batch: 8 lanes.
		vm, err := exec.New(p.VS, exec.Config{Width: 8})
		if err != nil {
			t.Fatal(err)
		}
		if err := vm.SetUniforms(uni); err != nil {
			t.Fatal(err)
		}
		pos := slot(t, p.Attributes, "a_position")
		nrm := slot(t, p.Attributes, "a_normal")
		for l := 0; l < 8; l++ {
			for k := 0; k < 3; k++ {
				vm.Input(pos.Word + k)[l] = fbits(float32(l + k))
				vm.Input(nrm.Word + k)[l] = fbits([3]float32{0, float32(l), 1}[k])
			}
		}
		if _, err := vm.Run(context.Background(), 0xff, 0xff); err != nil {
			t.Fatal(err)
		}
		gp := slot(t, p.Varyings, "gl_Position")
		for l := 0; l < 8; l++ {
			want := [4]float32{2*float32(l) + 1, 2 * float32(l+1), 2 * float32(l+2), 1}
			for k := 0; k < 4; k++ {
				if got := ff(vm.Output(gp.Word + k)[l]); got != want[k] {
					t.Errorf("lane %d gl_Position[%d] = %v, want %v", l, k, got, want[k])
				}
			}
		}
		// Fragment quad-warp: input word w = vertex output word w.
		fm, err := exec.New(p.FS, exec.Config{Width: 4})
		if err != nil {
			t.Fatal(err)
		}
		if err := fm.SetUniforms(uni); err != nil {
			t.Fatal(err)
		}
		fm.SetSampler(constSampler{[4]float32{0.5, 0.5, 0.5, 1}})
		vn := slot(t, p.Varyings, "v_normal")
		normals := [4][3]float32{{0, 0, 1}, {0, 0, -2}, {3, 0, 4}, {0, 1, 0}}
		for l, n := range normals {
			for k := 0; k < 3; k++ {
				fm.Input(vn.Word + k)[l] = fbits(n[k])
			}
		}
		live, err := fm.Run(context.Background(), 0xf, 0xf)
		if err != nil || live != 0xf {
			t.Fatalf("fragment run: live %#x err %v", live, err)
		}
		col := slot(t, p.Outputs, "frag_color")
		for l, n := range normals {
			ln := math.Sqrt(float64(n[0]*n[0] + n[1]*n[1] + n[2]*n[2]))
			diffuse := math.Max(float64(n[2])/ln, 0)
			k := 0.15 + 0.85*diffuse
			tex := 1.0
			if textured {
				tex = 0.5
			}
			want := [4]float64{1 * tex * k, 0.5 * tex * k, 0.25 * tex * k, 1}
			for c := 0; c < 4; c++ {
				got := float64(ff(fm.Output(col.Word + c)[l]))
				if math.Abs(got-want[c]) > 1e-6 {
					t.Errorf("textured=%v lane %d colour[%d] = %v, want %v", textured, l, c, got, want[c])
				}
			}
		}
	}
}

// runExpr compiles a vertex shader that writes vec4 r = EXPR from vec4 input a and
// returns r for each input row.
func runExpr(t *testing.T, decls, expr string, inputs [][4]float32) [][4]float32 {
	t.Helper()
	src := "#version 430\nin vec4 a;\nout vec4 r;\n" + decls + "\nvoid main() { gl_Position = vec4(0.0); r = " + expr + "; }\n"
	vs, err := compileStage("t.vert", src, glsl.Vertex, glsl.Options{})
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	m, err := exec.New(vs, exec.Config{Width: len(inputs)})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetUniforms(make([]uint32, vs.UniformWords)); err != nil {
		t.Fatal(err)
	}
	for l, in := range inputs {
		for k := 0; k < 4; k++ {
			m.Input(k)[l] = fbits(in[k])
		}
	}
	if _, err := m.Run(context.Background(), (1<<len(inputs))-1, (1<<len(inputs))-1); err != nil {
		t.Fatal(err)
	}
	var rw int
	for _, s := range vs.Outputs {
		if s.Name == "r" {
			rw = s.Word
		}
	}
	out := make([][4]float32, len(inputs))
	for l := range inputs {
		for k := 0; k < 4; k++ {
			out[l][k] = ff(m.Output(rw + k)[l])
		}
	}
	return out
}

func near(a, b float64, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

// TestBuiltins checks GLSL built-in functions, lowered to scalar IR and executed,
// against float64 references.
func TestBuiltins(t *testing.T) {
	inputs := [][4]float32{{0.5, -1.25, 2, 0.1}, {-3, 0.75, 1, 4}, {1, 2, 3, 4}, {0, 0.3, -0.7, 9}}
	type ref func(a [4]float64) [4]float64
	dot3 := func(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
	tests := []struct {
		decls, expr string
		f           ref
	}{
		{"", "vec4(sin(a.x), cos(a.y), exp2(a.z), inversesqrt(abs(a.w) + 1.0))", func(a [4]float64) [4]float64 {
			return [4]float64{math.Sin(a[0]), math.Cos(a[1]), math.Exp2(a[2]), 1 / math.Sqrt(math.Abs(a[3])+1)}
		}},
		{"", "vec4(length(a.xyz), distance(a.xy, a.zw), dot(a, a), normalize(a.xyz).y)", func(a [4]float64) [4]float64 {
			l := math.Sqrt(dot3([3]float64{a[0], a[1], a[2]}, [3]float64{a[0], a[1], a[2]}))
			return [4]float64{l, math.Hypot(a[0]-a[2], a[1]-a[3]), a[0]*a[0] + a[1]*a[1] + a[2]*a[2] + a[3]*a[3], a[1] / l}
		}},
		{"", "vec4(cross(a.xyz, a.yzw), 1.0)", func(a [4]float64) [4]float64 {
			x, y := [3]float64{a[0], a[1], a[2]}, [3]float64{a[1], a[2], a[3]}
			return [4]float64{x[1]*y[2] - y[1]*x[2], x[2]*y[0] - y[2]*x[0], x[0]*y[1] - y[0]*x[1], 1}
		}},
		{"", "vec4(mix(a.x, a.y, 0.25), step(0.5, a.x), smoothstep(0.0, 2.0, a.z), clamp(a.w, 0.0, 1.0))", func(a [4]float64) [4]float64 {
			st := 1.0
			if a[0] < 0.5 {
				st = 0
			}
			tt := math.Min(math.Max(a[2]/2, 0), 1)
			return [4]float64{a[0]*0.75 + a[1]*0.25, st, tt * tt * (3 - 2*tt), math.Min(math.Max(a[3], 0), 1)}
		}},
		{"", "vec4(mod(a.x, 0.75), fract(a.y), floor(a.z + 0.5), sign(a.w - 1.0))", func(a [4]float64) [4]float64 {
			return [4]float64{a[0] - 0.75*math.Floor(a[0]/0.75), a[1] - math.Floor(a[1]), math.Floor(a[2] + 0.5), math.Copysign(1, a[3]-1)}
		}},
		{"", "reflect(a, normalize(vec4(0.0, 1.0, 0.0, 0.0)))", func(a [4]float64) [4]float64 {
			return [4]float64{a[0], -a[1], a[2], a[3]}
		}},
		{"", "vec4(refract(normalize(vec3(1.0, -1.0, 0.0)), vec3(0.0, 1.0, 0.0), 0.5), 0.0)", func(a [4]float64) [4]float64 {
			i := [3]float64{1 / math.Sqrt2, -1 / math.Sqrt2, 0}
			d := -1 / math.Sqrt2
			k := 1 - 0.25*(1-d*d)
			s := 0.5*d + math.Sqrt(k)
			return [4]float64{0.5 * i[0], 0.5*i[1] - s, 0, 0}
		}},
		{"", "vec4(determinant(mat3(a.x, 1.0, 2.0, 0.0, a.y, 1.0, 3.0, 0.0, a.z)), determinant(mat2(a.xy, a.zw)), 0.0, 0.0)", func(a [4]float64) [4]float64 {
			// columns (x,1,2) (0,y,1) (3,0,z)
			m := [3][3]float64{{a[0], 0, 3}, {1, a[1], 0}, {2, 1, a[2]}} // m[row][col]
			det := m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) - m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) + m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
			return [4]float64{det, a[0]*a[3] - a[2]*a[1], 0, 0}
		}},
		{"", "(inverse(mat4(2.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 0.0, 8.0, 0.0, a.x, a.y, a.z, 1.0)) * vec4(1.0))", func(a [4]float64) [4]float64 {
			// inverse of scale(2,4,8) then translate(t): x' = (x - t)/s
			return [4]float64{(1 - a[0]) / 2, (1 - a[1]) / 4, (1 - a[2]) / 8, 1}
		}},
		{"", "(transpose(mat2(a.x, a.y, a.z, a.w)) * vec2(1.0, 2.0)).xyxy", func(a [4]float64) [4]float64 {
			// M = cols (x,y) (z,w); M^T * v = (x+2y, z+2w)
			return [4]float64{a[0] + 2*a[1], a[2] + 2*a[3], a[0] + 2*a[1], a[2] + 2*a[3]}
		}},
		{"", "vec4(outerProduct(a.xy, vec2(2.0, 3.0))[1], 0.0, 0.0)", func(a [4]float64) [4]float64 {
			return [4]float64{3 * a[0], 3 * a[1], 0, 0}
		}},
		{"", "vec4(lessThan(a, vec4(0.5)))", func(a [4]float64) [4]float64 {
			var r [4]float64
			for i := range a {
				if a[i] < 0.5 {
					r[i] = 1
				}
			}
			return r
		}},
		{"", "vec4(float(any(greaterThan(a, vec4(3.5)))), float(all(notEqual(a, vec4(0.0)))), float(bitCount(7u)), float(findMSB(256)))", func(a [4]float64) [4]float64 {
			anyGt, allNe := 0.0, 1.0
			for i := range a {
				if a[i] > 3.5 {
					anyGt = 1
				}
				if a[i] == 0 {
					allNe = 0
				}
			}
			return [4]float64{anyGt, allNe, 3, 8}
		}},
		{"", "vec4(float(int(a.y) / 2), float(int(a.x * 10.0) % 3), float(ivec2(a.zw).y << 2), float(uint(a.z) >> 1u))", func(a [4]float64) [4]float64 {
			return [4]float64{float64(int32(a[1]) / 2), float64(int32(a[0]*10) % 3), float64(int32(a[3]) << 2), float64(uint32(int32(a[2])) >> 1)}
		}},
		{"", "unpackUnorm4x8(packUnorm4x8(clamp(a * 0.25, 0.0, 1.0)))", func(a [4]float64) [4]float64 {
			var r [4]float64
			for i := range a {
				r[i] = math.RoundToEven(math.Min(math.Max(float64(float32(a[i]*0.25)), 0), 1)*255) / 255
			}
			return r
		}},
		{"", "vec4(unpackHalf2x16(packHalf2x16(a.xy)), pow(abs(a.z) + 1.0, 1.5), atan(a.w, a.x))", func(a [4]float64) [4]float64 {
			h := func(x float64) float64 { return float64(ir.HalfToFloat(ir.FloatToHalf(float32(x)))) }
			return [4]float64{h(a[0]), h(a[1]), math.Pow(math.Abs(a[2])+1, 1.5), math.Atan2(a[3], a[0])}
		}},
		{"float sq(float x) { return x * x; }\nvoid split(in vec4 v, out float s, inout float acc) { s = v.x + v.y; acc += sq(v.z); }",
			"vec4(0.0) + (split(a, r.x, r.y), vec4(r.x, r.y, sq(a.w), 0.0))", func(a [4]float64) [4]float64 {
				return [4]float64{a[0] + a[1], a[2] * a[2], a[3] * a[3], 0}
			}},
		{"struct S { float w[3]; vec2 v; };\nfloat pick(S s, int i) { return s.w[i] + s.v.y; }\n" +
			"S mk(vec3 w, vec2 v) { S s; s.w[0] = w.x; s.w[1] = w.y; s.w[2] = w.z; s.v = v; return s; }",
			"vec4(pick(mk(a.xyz, a.zw), int(a.w) % 3), pick(mk(vec3(1.0, 2.0, 3.0), vec2(0.0)), 7), 0.0, 0.0)", func(a [4]float64) [4]float64 {
				i := int32(a[3]) % 3
				w := [3]float64{a[0], a[1], a[2]}
				i = min(max(i, 0), 2)
				return [4]float64{w[i] + a[3], 3, 0, 0}
			}},
		{"float loop(float x) { float s = 0.0; for (int i = 0; i < 10; i++) { if (i == 2) continue; if (float(i) > x) break; s += float(i); } return s; }\n" +
			"float sw(int k) { float r = 0.0; switch (k) { case 0: r = 10.0; case 1: r += 1.0; break; case 2: r = 20.0; break; default: r = -1.0; } return r; }",
			"vec4(loop(a.w), sw(int(a.y)), sw(0), sw(int(a.z)))", func(a [4]float64) [4]float64 {
				s := 0.0
				for i := 0; i < 10; i++ {
					if i == 2 {
						continue
					}
					if float64(i) > a[3] {
						break
					}
					s += float64(i)
				}
				sw := func(k int32) float64 {
					switch k {
					case 0:
						return 11
					case 1:
						return 1
					case 2:
						return 20
					}
					return -1
				}
				return [4]float64{s, sw(int32(a[1])), 11, sw(int32(a[2]))}
			}},
		{"const uvec2 m[] = uvec2[4](uvec2(0, 0), uvec2(0, 1), uvec2(1, 0), uvec2(1, 1));",
			"vec4(vec2(0.0, a.x)[m[int(a.z) & 3].x], vec2(0.0, a.y)[m[int(a.z) & 3].y], float(m[2].x), 0.0)", func(a [4]float64) [4]float64 {
				m := [4][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
				k := m[int32(a[2])&3]
				return [4]float64{[2]float64{0, a[0]}[k[0]], [2]float64{0, a[1]}[k[1]], 1, 0}
			}},
		{"", "vec4(a.x > 0.0 ? a.y : a.z, (a.x > 0.0 && a.y > 0.0) ? 1.0 : 0.0, float(a.x == a.x), a.w)", func(a [4]float64) [4]float64 {
			r := [4]float64{a[2], 0, 1, a[3]}
			if a[0] > 0 {
				r[0] = a[1]
			}
			if a[0] > 0 && a[1] > 0 {
				r[1] = 1
			}
			return r
		}},
	}
	for _, tc := range tests {
		got := runExpr(t, tc.decls, tc.expr, inputs)
		for l, in := range inputs {
			var a [4]float64
			for k := range a {
				a[k] = float64(in[k])
			}
			want := tc.f(a)
			for k := 0; k < 4; k++ {
				if !near(float64(got[l][k]), want[k], 2e-6) {
					t.Errorf("%s\n  input %v component %d: got %v, want %v", tc.expr, in, k, got[l][k], want[k])
				}
			}
		}
	}
}

// TestErrorsHavePositions checks that lowering and front-end errors carry
// file:line:col.
func TestErrorsHavePositions(t *testing.T) {
	srcs := []string{
		"#version 130\nvoid main() { gl_Position = vec4(undefinedName); }\n",
		"#version 400\nin vec4 a;\nvoid main() { gl_Position = vec4(interpolateAtCentroid(a.x)); }\n",
	}
	for _, s := range srcs {
		_, err := compileStage("bad.vert", s, glsl.Vertex, glsl.Options{})
		if err == nil {
			continue // the front end may reject or accept; only errors are checked
		}
		if !strings.HasPrefix(err.Error(), "bad.vert:") || !strings.Contains(err.Error(), ": error: ") {
			t.Errorf("error without position: %v", err)
		}
	}
}

// Unary minus on uint wraps modulo 2^32 (GLSL 4.50 §5.9); it used to be lowered to
// the i32-typed ineg and rejected by the verifier.
func TestUintNegation(t *testing.T) {
	got := runExpr(t, "", "vec4(uvec4(-uvec2(uint(a.x), 0u), -uint(a.y), 5u - 7u) & uvec4(0xFFFFu))",
		[][4]float32{{3, 1, 0, 0}})
	want := [4]float32{0xFFFD, 0, 0xFFFF, 0xFFFE}
	if got[0] != want {
		t.Errorf("uint negation = %v, want %v", got[0], want)
	}
}

// A global declared in two units of one stage is one variable, and an array declared
// without a size in one unit takes the size another declares (piglit's link-order-a-b).
func TestGlobalSharedAcrossUnits(t *testing.T) {
	a, err := glsl.Compile("a.vert", "#version 120\nvec4 vals[];\nvoid setPosition() { gl_Position = vals[1]; }\n", glsl.Vertex, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := glsl.Compile("b.vert", "#version 120\nattribute vec4 p;\nvec4 vals[2];\nvoid setPosition();\nvoid main() { vals[1] = p; setPosition(); }\n", glsl.Vertex, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lp, err := glsl.LinkShaders(a, b)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := Lower(lp)
	if err != nil {
		t.Fatal(err)
	}
	m, err := exec.New(prog.VS, exec.Config{Width: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetUniforms(make([]uint32, prog.VS.UniformWords)); err != nil {
		t.Fatal(err)
	}
	for k, v := range []float32{1, 2, 3, 4} {
		m.Input(slot(t, prog.Attributes, "p").Word + k)[0] = fbits(v)
	}
	if _, err := m.Run(context.Background(), 1, 1); err != nil {
		t.Fatal(err)
	}
	pos := slot(t, prog.Varyings, "gl_Position").Word
	for k, want := range []float32{1, 2, 3, 4} {
		if got := ff(m.Output(pos + k)[0]); got != want {
			t.Errorf("gl_Position[%d] = %v, want %v (the units must share vals)", k, got, want)
		}
	}
}
