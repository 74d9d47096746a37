package glsl

import "testing"

// TestActiveUniforms checks the active-uniform reflection against the std140
// rules: flattened structs, arrays of structs by element, basic arrays as one
// "[0]" entry with their stride, matrix strides and order, and -1 offsets for
// default-block uniforms. spec: OpenGL 4.5 §7.3.1.1, §7.6.2.2
func TestActiveUniforms(t *testing.T) {
	vs := mustCompile(t, "a.vert", `#version 140
struct S { vec3 a; float b; mat2x3 m; };
layout(std140, row_major) uniform B { float f; vec2 v; S s[2]; layout(column_major) mat3 c; float arr[3]; };
uniform vec4 plain[2];
void main() { gl_Position = vec4(f, v, s[1].b) + plain[1] + vec4(c[0], arr[2]) + vec4(s[0].m[0], 0.0); }
`, Vertex)
	fs := mustCompile(t, "b.frag", "#version 140\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n", Fragment)
	p, err := Link(vs, fs)
	if err != nil {
		t.Fatal(err)
	}
	tests := []ActiveUniform{
		{Name: "f", Type: "GL_FLOAT", Size: 1, Offset: 0},
		{Name: "v", Type: "GL_FLOAT_VEC2", Size: 1, Offset: 8},
		{Name: "s[0].a", Type: "GL_FLOAT_VEC3", Size: 1, Offset: 16},
		{Name: "s[0].b", Type: "GL_FLOAT", Size: 1, Offset: 28},
		// row-major mat2x3: 3 rows of vec2 padded to 16 bytes
		{Name: "s[0].m", Type: "GL_FLOAT_MAT2x3", Size: 1, Offset: 32, MatrixStride: 16, RowMajor: true},
		{Name: "s[1].a", Type: "GL_FLOAT_VEC3", Size: 1, Offset: 80},
		{Name: "c", Type: "GL_FLOAT_MAT3", Size: 1, Offset: 144, MatrixStride: 16},
		{Name: "arr[0]", Type: "GL_FLOAT", Size: 3, Offset: 192, ArrayStride: 16},
		{Name: "plain[0]", Type: "GL_FLOAT_VEC4", Size: 2, Offset: -1, ArrayStride: -1, MatrixStride: -1},
	}
	for _, want := range tests {
		got, ok := p.ActiveUniform(want.Name)
		if !ok || got != want {
			t.Errorf("%s: got %+v (found %v), want %+v", want.Name, got, ok, want)
		}
	}
	if _, ok := p.ActiveUniform("arr"); !ok {
		t.Error("an array is not found without its [0]")
	}
	if _, ok := p.ActiveUniform("s.a"); ok {
		t.Error("an array of structs answered to its bare name")
	}
}

// TestStorageBlockDataSize checks GL_BUFFER_DATA_SIZE (a runtime-sized last
// member counted as one element, an implicitly sized one by its largest
// constant index) and the names of arrays of blocks, bad ones included.
func TestStorageBlockDataSize(t *testing.T) {
	src := `#version 430
layout(std430, binding = 0) buffer A { vec4 s[]; vec2 t[]; } a;
layout(std140, binding = 1) buffer C { float f; float g[]; } c[2][3];
layout(std430, binding = 7) buffer D { mat3 m; };
out vec4 o;
void main() { o = a.s[2] + vec4(a.t[0], c[1][2].g[0], m[0][0]); }
`
	vs, err := Compile("t.vert", "#version 430\nvoid main() { gl_Position = vec4(0.0); }\n", Vertex, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := Compile("t.frag", src, Fragment, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := LinkShaders(vs, fs)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		size int
		ok   bool
	}{
		{"A", 56, true}, {"C[1][2]", 32, true}, {"C[0][0]", 32, true}, {"D", 48, true},
		{"C", 0, false}, {"C[1]", 0, false}, {"C[2][0]", 0, false}, {"C[1][3]", 0, false},
		{"C[-1][0]", 0, false}, {"C[x][0]", 0, false}, {"C[1][2]x", 0, false}, {"A[0]", 0, false}, {"B", 0, false},
	} {
		n, ok := p.StorageBlockDataSize(tc.name)
		if n != tc.size || ok != tc.ok {
			t.Errorf("%s: %d, %v; want %d, %v", tc.name, n, ok, tc.size, tc.ok)
		}
	}
}
