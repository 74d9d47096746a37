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
