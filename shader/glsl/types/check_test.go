package types

import (
	"strings"
	"testing"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/parser"
)

func check(t *testing.T, src string, stage ast.Stage) (*ast.File, error) {
	t.Helper()
	f, err := parser.ParseFile("t", src, parser.Options{})
	if err != nil {
		return f, err
	}
	return f, Check(f, Config{Stage: stage})
}

const (
	vs = ast.StageVertex
	fs = ast.StageFragment
)

// TestRules is the accept table for the type rules: each program must compile.
// The rejections live in testdata/check (TestCheckFiles), with the diagnostic
// expected on its line. spec: GLSL 1.10-4.50 and ES 3.00, §4-§8.
func TestRules(t *testing.T) {
	tests := []struct {
		name  string
		stage ast.Stage
		src   string
	}{
		// implicit conversions per version (spec §4.1.10)
		{"int->float in 1.20", vs, "#version 120\nvoid main() { float f = 1; }"},
		{"uint->float in 1.30", vs, "#version 130\nvoid main() { float f = 1u; }"},
		{"int->uint in 4.00", vs, "#version 400\nvoid main() { uint u = 1; }"},
		{"mixed arithmetic 1.20", vs, "#version 120\nvoid main() { vec2 v = vec2(1.0) * 2; }"},
		// operators
		{"matrix times vector", vs, "void main() { mat4 m; vec4 v = m * vec4(1.0); v = v * m; }"},
		{"bitwise 1.30", vs, "#version 130\nvoid main() { int a = (5 & 3) | 1 << 2; uint b = ~0u; }"},
		// l-values (spec §5.8)
		{"swizzle write ok", vs, "void main() { vec4 v; v.zx = vec2(1.0); }"},
		// constant expressions
		{"array size from builtin", vs, "#version 120\nvoid main() { float a[int(sqrt(16.0))]; a[3] = 1.0; }"},
		{"array size from length", vs, "#version 120\nvoid main() { float a[3]; float b[a.length() + 1]; b[3] = 0.0; }"},
		{"gl_Max constants", fs, "void main() { vec4 c[gl_MaxDrawBuffers]; c[7] = vec4(0.0); }"},
		// declarations and scopes
		{"shadowing", vs, "int a; void main() { float a; { bool a; } }"},
		{"flat integer FS input", fs, "#version 130\nflat in int i; void main() {}"},
		{"ES default precision", fs, "#version 100\nprecision mediump float;\nvoid main() { float f; }"},
		{"layout location 3.30", fs, "#version 330\nlayout(location = 1) out vec4 c; void main() { c = vec4(1.0); }"},
		// GL_ARB_explicit_attrib_location and dual-source outputs
		{"location in 1.30 with extension", fs, "#version 130\n#extension GL_ARB_explicit_attrib_location : enable\nlayout(location = 0) out vec4 c; void main() { c = vec4(1.0); }"},
		{"location in 1.40 with extension", vs, "#version 140\n#extension GL_ARB_explicit_attrib_location : enable\nlayout(location = 2) in vec4 p; void main() { gl_Position = p; }"},
		{"location on 1.10 attribute with extension", vs, "#version 110\n#extension GL_ARB_explicit_attrib_location : enable\nlayout(location = 1) attribute vec4 p; void main() { gl_Position = p; }"},
		{"index 1 in 3.30", fs, "#version 330\nlayout(location = 0) out vec4 a; layout(location = 0, index = 1) out vec4 b; void main() { a = b = vec4(1.0); }"},
		{"index with ARB_blend_func_extended", fs, "#version 130\n#extension GL_ARB_blend_func_extended : enable\nlayout(location = 0, index = 1) out vec4 b; void main() { b = vec4(1.0); }"},
		{"index in ES with EXT_blend_func_extended", fs, "#version 300 es\n#extension GL_EXT_blend_func_extended : enable\nprecision mediump float;\nlayout(location = 0, index = 1) out vec4 b; void main() { b = vec4(1.0); }"},
		// int min/max/clamp before 1.30: a Mesa-compatible leniency
		{"int min in 1.10", vs, "#version 110\nuniform int n; void main() { int i = min(n, 4) + max(n, 1) + clamp(n, 0, 3); gl_Position = vec4(float(i)); }"},
		{"ivec min in 1.20", vs, "#version 120\nuniform ivec2 n; void main() { ivec2 i = min(n, 4); gl_Position = vec4(float(i.x)); }"},
		{"uniform block 1.40", vs, "#version 140\nlayout(std140) uniform B { mat4 m; vec4 v; }; void main() { gl_Position = m * v; }"},
		{"block instance", vs, "#version 300 es\nuniform B { mat4 m; } b[2]; void main() { gl_Position = b[1].m[0]; }"},
		// functions (spec §6.1)
		{"overload", vs, "float f(float x) { return x; } int f(int x) { return x; } void main() { f(1); f(1.0); }"},
		{"builtin hiding 1.10", vs, "float sin(float x) { return x; } void main() { float y = sin(1.0); }"},
		// constructors (spec §5.4)
		{"ctor matrix from matrix", vs, "#version 120\nvoid main() { mat3 m = mat3(mat4(1.0)); mat2x3 n = mat2x3(m); }"},
		{"ctor struct", vs, "struct S { float a; vec2 b; }; void main() { S s = S(1.0, vec2(2.0)); }"},
		{"ctor array", vs, "#version 120\nvoid main() { float a[] = float[](1.0, 2.0); a[1] = 0.0; }"},
		{"ctor bool from float", vs, "void main() { bvec2 b = bvec2(1.0, 0.0); int i = int(true); }"},
		// built-in availability (spec §8)
		{"texture in 1.30", fs, "#version 130\nuniform sampler2D s; out vec4 c; void main() { c = texture(s, vec2(0.0)); }"},
		{"texture2DLod in VS", vs, "uniform sampler2D s; void main() { gl_Position = texture2DLod(s, vec2(0.0), 0.0); }"},
		{"dFdx in FS", fs, "void main() { gl_FragColor = vec4(dFdx(1.0), dFdy(1.0), fwidth(1.0), 1.0); }"},
		{"inverse 1.50", vs, "#version 150\nvoid main() { mat3 m = inverse(mat3(2.0)); float d = determinant(mat2(1.0)); }"},
		{"floatBitsToInt 3.30", vs, "#version 330\nvoid main() { int i = floatBitsToInt(1.0); uint u = floatBitsToUint(1.0); }"},
		{"bit functions 4.00", vs, "#version 400\nvoid main() { int n = bitCount(7) + findMSB(8) + findLSB(4); uint c; uint s = uaddCarry(1u, 2u, c); }"},
		{"textureGather 4.00", fs, "#version 400\nuniform sampler2D s; out vec4 c; void main() { c = textureGather(s, vec2(0.0), 1); }"},
		{"cube array 4.00", fs, "#version 400\nuniform samplerCubeArray s; uniform samplerCubeArrayShadow t; out vec4 c; void main() { c = texture(s, vec4(0.0)) + textureLod(s, vec4(0.0), 1.0) + vec4(texture(t, vec4(0.0), 0.5)) + vec4(textureSize(s, 0), 1); }"},
		{"texelFetch", fs, "#version 130\nuniform isampler2DArray s; out vec4 c; void main() { c = vec4(texelFetch(s, ivec3(0), 0)); }"},
		{"shadow", fs, "#version 130\nuniform sampler2DShadow s; out vec4 c; void main() { c = vec4(texture(s, vec3(0.0)), shadow2D(s, vec3(0.0)).x, 0.0, 1.0); }"},
		{"ftransform", vs, "void main() { gl_Position = ftransform(); }"},
		{"legacy matrices", vs, "void main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0; gl_FrontColor = gl_Color; }"},
		{"gl_VertexID 1.30", vs, "#version 130\nvoid main() { gl_Position = vec4(float(gl_VertexID)); }"},
		{"implicit array sized by index", vs, "#version 120\nfloat a[]; void main() { a[3] = 1.0; }"},
		{"implicit array resized", vs, "#version 120\nvoid main() { float a[]; a[1] = 1.0; float a[4]; a[3] = 0.0; }"},
		{"clip distance implicit", vs, "#version 130\nvoid main() { gl_ClipDistance[2] = 1.0; }"},
		{"qualifier order 4.20", vs, "#version 420\nsmooth invariant out float x; void main() {}"},
		{"out parameter conversion", vs, "#version 120\nvoid f(out int x) { x = 1; } void main() { float y; f(y); }"},
		{"ambiguous out conversion", vs, "#version 130\nvoid f(out vec4 x) {} void f(out ivec4 x) {} void main() { vec4 y; ivec4 z; f(y); f(z); uvec4 w; }"},
		{"gl_PerVertex", vs, "#version 150\nout gl_PerVertex { vec4 gl_Position; }; void main() { gl_Position = vec4(0.0); }"},
		{"dead call", vs, "void f(); void main() { if (false) f(); }"},
		{"derivative of constant", fs, "#version 120\nvoid main() { const float d = dFdx(1.0); gl_FragColor = vec4(d); }"},
		{"while condition declaration", vs, "#version 130\nuniform int n; void main() { int k = 0; while (bool more = k < n) { k++; if (more) continue; } for (int i = 0; bool go = i < 3; i++) { k += i; } }"},
		{"initializer list", vs, "#version 420\nstruct S { vec2 a; float b[2]; };\nvoid main() { const float a[] = {1.0, 2.0, 3.0}; mat2 m = {{1.0, 2.0}, vec2(3.0)}; S s = {{1, 2}, {3.0, 4.0}}; float f[a.length()]; }"},
		{"gl_TexCoord redeclare", vs, "varying vec4 gl_TexCoord[4]; void main() { gl_TexCoord[3] = vec4(0.0); }"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := check(t, tc.src, tc.stage); err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
		})
	}
}

// TestAnnotations checks the contract the lowering relies on: conversions are
// explicit, calls are resolved and constants are folded.
func TestAnnotations(t *testing.T) {
	src := "#version 120\nconst float k = 2.0 * 3.0;\nfloat g(float x) { return x; }\n" +
		"void main() { int i = 1; float f = i + k; f = g(i); vec3 v = vec3(i); gl_Position = vec4(sin(f)); }"
	f, err := check(t, src, vs)
	if err != nil {
		t.Fatal(err)
	}
	dump := strings.Join(strings.Fields(ast.Sprint(f)), " ")
	for _, want := range []string{
		"Var k : float\n      Binary * : float = 6",
		"Binary + : float\n              Conv : float\n                Ident i : int\n              Ident k : float = 6",
		"CallFunc g : float\n            Conv : float\n              Ident i : int",
		"Construct vec3 : vec3\n              Ident i : int",
		"CallBuiltin sin : float",
	} {
		if want = strings.Join(strings.Fields(want), " "); !strings.Contains(dump, want) {
			t.Errorf("dump lacks %q:\n%s", want, dump)
		}
	}
}

// TestMultipleErrors checks that independent errors are all reported, sorted.
func TestMultipleErrors(t *testing.T) {
	_, err := check(t, "void main() {\n  x = 1;\n  y = 2;\n}\nvoid f() { z = 3; }", vs)
	if err == nil {
		t.Fatal("expected errors")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{"t:2:3: error: undeclared identifier 'x'", "t:3:3: error: undeclared identifier 'y'", "t:5:12: error: undeclared identifier 'z'"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Fatalf("got\n%s\nwant\n%s", err, strings.Join(want, "\n"))
	}
}

// TestBuiltinAvailability checks built-in signatures per version and stage.
// spec: GLSL 4.50 §8 (availability per version as given in each GLSL spec).
func TestBuiltinAvailability(t *testing.T) {
	tests := []struct {
		fn      string
		version int
		es      bool
		stage   ast.Stage
		n       int // number of overloads; 0 = unavailable
	}{
		{"sin", 110, false, vs, 4},
		{"sinh", 120, false, vs, 0},
		{"sinh", 130, false, vs, 4},
		{"sinh", 300, true, vs, 4},
		{"sinh", 100, true, vs, 0},
		{"abs", 120, false, vs, 4},
		{"abs", 130, false, vs, 8},
		{"min", 110, false, vs, 14}, // int overloads: Mesa-compatible leniency; min(float, float) once
		{"min", 100, true, vs, 7},
		{"clamp", 120, false, vs, 14},
		{"min", 130, false, vs, 21},
		{"mix", 130, false, vs, 11},
		{"lessThan", 110, false, vs, 6},
		{"lessThan", 130, false, vs, 9},
		{"equal", 110, false, vs, 9},
		{"matrixCompMult", 110, false, vs, 3},
		{"matrixCompMult", 120, false, vs, 9},
		{"outerProduct", 110, false, vs, 0},
		{"outerProduct", 120, false, vs, 9},
		{"transpose", 300, true, vs, 9},
		{"determinant", 140, false, vs, 0},
		{"determinant", 150, false, vs, 3},
		{"inverse", 140, false, vs, 3},
		{"dFdx", 110, false, fs, 4},
		{"dFdx", 110, false, vs, 0},
		{"dFdxFine", 440, false, fs, 0},
		{"dFdxFine", 450, false, fs, 4},
		{"packHalf2x16", 300, true, vs, 1},
		{"packHalf2x16", 410, false, vs, 0},
		{"packHalf2x16", 420, false, vs, 1},
		{"fma", 400, false, vs, 4},
		{"texture2D", 110, false, vs, 1},
		{"texture2D", 110, false, fs, 2},
		{"texture2D", 100, true, fs, 2},
		{"texture2D", 300, true, fs, 0},
		{"texture2DLod", 120, false, fs, 0},
		{"texture2DLod", 120, false, vs, 1},
		{"textureCubeLod", 100, true, vs, 1},
		{"shadow2D", 120, false, fs, 2},
		{"ftransform", 120, false, vs, 1},
		{"ftransform", 120, false, fs, 0},
		{"texture", 120, false, fs, 0},
		{"textureGather", 330, false, fs, 0},
		{"noise1", 110, false, vs, 4},
		{"noise1", 300, true, vs, 0},
	}
	for _, tc := range tests {
		c := &checker{conf: Config{Stage: tc.stage}, version: tc.version, es: tc.es}
		got := len(builtinSigs(tc.fn, c))
		if got != tc.n {
			t.Errorf("%s in %d es=%v %s: %d overloads, want %d", tc.fn, tc.version, tc.es, tc.stage, got, tc.n)
		}
	}
	// Every built-in id has at least one overload in GLSL 4.50 (fragment stage),
	// except the compatibility-only and the legacy lookups, checked above.
	c := &checker{conf: Config{Stage: fs, Compatibility: true}, version: 450}
	for b := ast.FnNone + 1; b.String() != "builtin?"; b++ {
		if b == ast.FnFtransform {
			continue
		}
		sigs := builtinSigs(b.String(), c)
		if len(sigs) == 0 && b == ast.FnBarrier {
			// barrier() exists only in compute shaders (and tessellation control).
			sigs = builtinSigs(b.String(), &checker{conf: Config{Stage: ast.StageCompute}, version: 450})
		}
		if len(sigs) == 0 && (b == ast.FnEmitVertex || b == ast.FnEndPrimitive || b == ast.FnEmitStreamVertex || b == ast.FnEndStreamPrimitive) {
			// EmitVertex() and EndPrimitive() and their stream forms exist
			// only in geometry shaders.
			sigs = builtinSigs(b.String(), &checker{conf: Config{Stage: ast.StageGeometry}, version: 400})
		}
		if len(sigs) == 0 && b == ast.FnTextureQueryLOD {
			// textureQueryLOD exists only with GL_ARB_texture_query_lod enabled.
			e := &checker{conf: Config{Stage: fs}, version: 130, file: &ast.File{Extensions: map[string]string{ExtTextureQueryLod: "enable"}}}
			sigs = builtinSigs(b.String(), e)
		}
		if len(sigs) == 0 && b >= ast.FnAtomicCounterAdd && b <= ast.FnAtomicCounterCompSwap {
			// The ARB counter operations exist only with their extension.
			e := &checker{conf: Config{Stage: fs}, version: 450, file: &ast.File{Extensions: map[string]string{ExtAtomicCounterOps: "require"}}}
			sigs = builtinSigs(b.String(), e)
		}
		if len(sigs) == 0 && b >= ast.FnMin3 && b < ast.FnEmitVertex {
			// min3, max3 and mid3, the texture1DArray family and the *GradARB
			// lookups exist only with their extensions enabled.
			e := &checker{conf: Config{Stage: fs, Compatibility: true}, version: 130, file: &ast.File{Extensions: map[string]string{
				ExtTrinaryMinmax: "require", ExtTextureArray: "require", ExtShaderTextureLod: "require", ExtTextureRectangle: "require"}}}
			sigs = builtinSigs(b.String(), e)
			if len(sigs) == 0 {
				sigs = textureSigs(b, e)
			}
		}
		if len(sigs) == 0 && b >= ast.FnAnyInvocationARB && b <= ast.FnAllInvocationsEqualARB {
			// The votes exist only with GL_ARB_shader_group_vote enabled.
			e := &checker{conf: Config{Stage: fs}, version: 450, file: &ast.File{Extensions: map[string]string{ExtShaderGroupVote: "enable"}}}
			sigs = builtinSigs(b.String(), e)
		}
		if len(sigs) == 0 {
			t.Errorf("built-in %s has no overloads in GLSL 4.50 compatibility", b)
		}
		for _, s := range sigs {
			if s.ret == nil || s.fn != b {
				t.Errorf("built-in %s: malformed overload %+v", b, s)
			}
			for _, p := range s.params {
				if p == nil || p.IsInvalid() {
					t.Errorf("built-in %s: nil parameter type in %+v", b, s)
				}
			}
		}
	}
}

// TestFold checks constant folding of operators and built-ins against float64
// references. spec: GLSL 4.50 §4.3.3.
func TestFold(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"1 + 2 * 3", "7"},
		{"7 / 2", "3"},
		{"-7 / 2", "-3"},
		{"7 % 3", "1"},
		{"1 << 4", "16"},
		{"-16 >> 2", "-4"},
		{"0xFFFFFFFFu >> 4", "268435455u"},
		{"~0", "-1"},
		{"1.0 / 4.0", "0.25"},
		{"vec2(1.0, 2.0) * 2.0", "vec2(2, 4)"},
		{"mat2(1.0, 2.0, 3.0, 4.0) * vec2(1.0, 1.0)", "vec2(4, 6)"},
		{"vec2(1.0, 1.0) * mat2(1.0, 2.0, 3.0, 4.0)", "vec2(3, 7)"},
		{"vec4(1.0, 2.0, 3.0, 4.0).wzy", "vec3(4, 3, 2)"},
		{"mat3(2.0)[1]", "vec3(0, 2, 0)"},
		{"float[2](1.0, 2.0)[1]", "2"},
		{"int(2.7)", "2"},
		{"int(-2.7)", "-2"},
		{"bool(0.0)", "false"},
		{"vec3(1, 2, true)", "vec3(1, 2, 1)"},
		{"sqrt(16.0)", "4"},
		{"pow(2.0, 10.0)", "1024"},
		{"clamp(5, 0, 3)", "3"},
		{"mix(0.0, 10.0, 0.25)", "2.5"},
		{"dot(vec3(1.0, 2.0, 3.0), vec3(4.0, 5.0, 6.0))", "32"},
		{"cross(vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0))", "vec3(0, 0, 1)"},
		{"length(vec2(3.0, 4.0))", "5"},
		{"determinant(mat2(1.0, 2.0, 3.0, 4.0))", "-2"},
		{"inverse(mat2(2.0))", "mat2(0.5, 0, 0, 0.5)"},
		{"transpose(mat2(1.0, 2.0, 3.0, 4.0))", "mat2(1, 3, 2, 4)"},
		{"all(lessThan(vec2(1.0), vec2(2.0)))", "true"},
		{"floatBitsToUint(1.0)", "1065353216u"},
		{"bitCount(255)", "8"},
		{"findMSB(-1)", "-1"},
		{"packHalf2x16(vec2(1.0, -2.0))", "3221240832u"},
		{"roundEven(2.5)", "2"},
		{"sign(-3)", "-1"},
		{"mod(-1.0, 3.0)", "2"},
		{"true ^^ true", "false"},
		{"vec2(1.0) == vec2(1.0, 1.0)", "true"},
		{"min3(2.0, -1.0, 0.5)", "-1"},
		{"mid3(2, -1, 0)", "0"},
		{"max3(3u, 9u, 1u)", "9u"},
		{"bitfieldExtract(0xF0, 4, 4)", "-1"}, // sign-extended from the field's top bit
		{"bitfieldExtract(0x70, 4, 4)", "7"},
		{"bitfieldExtract(0xF0, 4, 3)", "-1"},
		{"bitfieldExtract(0xF0u, 4, 3)", "7u"},
		{"bitfieldExtract(-1, 0, 32)", "-1"},
		{"bitfieldExtract(7, 0, 0)", "0"},
		{"bitfieldInsert(0xFFu, 0u, 4, 2)", "207u"},
		{"bitfieldInsert(0, -1, 0, 32)", "-1"},
		{"floatBitsToUint(ldexp(0.5, -125))", "8388608u"},     // 2^-126, the smallest normal
		{"floatBitsToUint(ldexp(-0.5, -126))", "2147483648u"}, // a denormal flushes to -0
	}
	for _, tc := range tests {
		src := "#version 450\n#extension GL_AMD_shader_trinary_minmax : require\nvoid main() { }\nconst int dummy = 0;\n"
		x, err := parser.ParseExpr(tc.expr)
		if err != nil {
			t.Fatalf("%s: %v", tc.expr, err)
		}
		f, _ := parser.ParseFile("t", src, parser.Options{Extensions: []string{ExtTrinaryMinmax}})
		c := &checker{conf: Config{Stage: vs}, file: f, version: 450, calls: map[*ast.Func][]*ast.Func{}}
		c.builtin = &scope{names: map[string]*entity{}}
		c.globals = &scope{parent: c.builtin, names: map[string]*entity{}, global: true}
		c.cur = c.globals
		got := c.expr(x)
		if len(c.errs) > 0 {
			t.Fatalf("%s: %v", tc.expr, c.errs)
		}
		if got.Value() == nil {
			t.Fatalf("%s: not folded", tc.expr)
		}
		if s := got.Value().String(); s != tc.want {
			t.Errorf("%s = %s, want %s", tc.expr, s, tc.want)
		}
	}
}

// TestStd140 checks block member offsets. spec: OpenGL 4.5 §7.6.2.2.
func TestStd140(t *testing.T) {
	src := "#version 140\nstruct S { vec3 a; float b; };\nlayout(std140) uniform B {\n" +
		"  float f; vec2 v2; vec3 v3; float g; mat3 m; float arr[3]; S s; bool last;\n};\nvoid main() {}"
	f, err := check(t, src, vs)
	if err != nil {
		t.Fatal(err)
	}
	b := f.Blocks[0]
	want := map[string]int{"f": 0, "v2": 8, "v3": 16, "g": 28, "m": 32, "arr": 80, "s": 128, "last": 144}
	for _, m := range b.Members {
		if m.Offset != want[m.Name] {
			t.Errorf("offset of %s = %d, want %d", m.Name, m.Offset, want[m.Name])
		}
	}
	if b.Size != 160 {
		t.Errorf("block size %d, want 160", b.Size)
	}
	src = "#version 140\nlayout(std140, row_major) uniform R { mat2x4 a; layout(column_major) mat2x4 b; float c; };\nvoid main() {}"
	f, err = check(t, src, vs)
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]int{"a": 0, "b": 64, "c": 96}
	for _, m := range f.Blocks[0].Members {
		if m.Offset != want[m.Name] {
			t.Errorf("row-major block: offset of %s = %d, want %d", m.Name, m.Offset, want[m.Name])
		}
	}
}

// TestImplicitBlockMember checks that an unsized uniform block member takes the
// size of its largest constant index and the block is laid out with that size,
// through an instance name or without one. spec: GLSL 4.50 §4.1.9, OpenGL 4.5
// §7.6.2.2.
func TestImplicitBlockMember(t *testing.T) {
	src := "#version 140\nlayout(std140) uniform B { float a; float arr[]; float last; };\n" +
		"layout(std140) uniform C { vec4 v[]; } c;\nuniform D { float never[]; };\n" +
		"void main() { gl_Position = vec4(arr[2], c.v[1].x, c.v[0].y, last); }"
	f, err := check(t, src, vs)
	if err != nil {
		t.Fatal(err)
	}
	b, cb, db := f.Blocks[0], f.Blocks[1], f.Blocks[2]
	if n := b.Members[1].Type.Len; n != 3 {
		t.Errorf("arr sized %d, want 3", n)
	}
	want := map[string]int{"a": 0, "arr": 16, "last": 64}
	for _, m := range b.Members {
		if m.Offset != want[m.Name] {
			t.Errorf("offset of %s = %d, want %d", m.Name, m.Offset, want[m.Name])
		}
	}
	if b.Size != 80 {
		t.Errorf("block size %d, want 80", b.Size)
	}
	if n := cb.Members[0].Type.Len; n != 2 || cb.Size != 32 || cb.Type.Struct.Fields[0].Type.Len != 2 {
		t.Errorf("c.v sized %d (instance field %d), block size %d; want 2, 2, 32", n, cb.Type.Struct.Fields[0].Type.Len, cb.Size)
	}
	if n := db.Members[0].Type.Len; n != 1 || db.Size != 16 {
		t.Errorf("never-indexed member sized %d, block size %d; want 1, 16", n, db.Size)
	}
}

// TestDefaultBlockLayout checks that layout(...) uniform; sets the packing and
// matrix order of the blocks declared after it, which their own qualifiers
// override. spec: GLSL 4.50 §4.4.5, GLSL ES 3.00 §4.3.8.3.
func TestDefaultBlockLayout(t *testing.T) {
	src := "#version 140\nuniform A { mat4 a; };\nlayout(std140, row_major) uniform;\n" +
		"uniform B { mat4 b; layout(column_major) mat4 b2; };\nlayout(packed, column_major) uniform C { mat4 c; };\n" +
		"void main() { gl_Position = a[0] + b[0] + b2[0] + c[0]; }"
	f, err := check(t, src, vs)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		layout   string
		rowMajor []bool
	}
	for i, w := range []want{{"shared", []bool{false}}, {"std140", []bool{true, false}}, {"packed", []bool{false}}} {
		b := f.Blocks[i]
		if b.Layout != w.layout {
			t.Errorf("block %s: layout %s, want %s", b.Name, b.Layout, w.layout)
		}
		for j, m := range b.Members {
			if m.RowMajor != w.rowMajor[j] {
				t.Errorf("block %s member %s: row_major %v, want %v", b.Name, m.Name, m.RowMajor, w.rowMajor[j])
			}
		}
	}
}
