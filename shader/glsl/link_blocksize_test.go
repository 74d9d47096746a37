package glsl

import (
	"strings"
	"testing"

	"vortexgfx/shader/glsl/ast"
)

// TestLinkBlockMemberSizes: an input or output block member left unsized is
// sized by the largest index used across the units of its stage (a sized
// declaration in another unit holds, and indexing past it is an error), and
// only then matched with the other stage, where the sizes must agree.
// spec: GLSL 1.50 §4.3.7, §4.1.9.
func TestLinkBlockMemberSizes(t *testing.T) {
	const gs = "#version 150\nlayout(triangles) in; layout(triangle_strip, max_vertices = 3) out;\n"
	type unit struct {
		st  Stage
		src string
	}
	vsA := func(blk string) string {
		return "#version 150\n" + blk + "\nvoid f();\nvoid main() { f(); ifc.v[0] = 1.0; gl_Position = vec4(0.0); }"
	}
	vsB := func(blk string, i int) string {
		return "#version 150\n" + blk + "\nvoid f() { ifc.v[" + itoa(i) + "] = 1.0; }"
	}
	const fs = "#version 150\nout vec4 o; void main() { o = vec4(1.0); }"
	gsIn := func(decl string) string {
		return gs + "in blk { float v" + decl + "; } ifc[];\nvoid main() { gl_Position = vec4(ifc[0].v[0]); EmitVertex(); }"
	}
	const unsized = "out blk { float v[]; } ifc;"
	tests := []struct {
		name  string
		units []unit
		want  string
		size  int // the VS member's size after a successful link
	}{
		{"implicit in both VS units, sized alike in the GS", []unit{{Vertex, vsA(unsized)}, {Vertex, vsB(unsized, 1)}, {Geometry, gsIn("[2]")}, {Fragment, fs}}, "", 2},
		{"implicit in one VS unit, sized in the other", []unit{{Vertex, vsA(unsized)}, {Vertex, vsB("out blk { float v[3]; } ifc;", 1)}, {Geometry, gsIn("[3]")}, {Fragment, fs}}, "", 3},
		{"implicit VS sizes across units differ from the GS size", []unit{{Vertex, vsA(unsized)}, {Vertex, vsB(unsized, 2)}, {Geometry, gsIn("[2]")}, {Fragment, fs}},
			"interface block 'blk' has different members in different shaders", 0},
		{"indexed past another unit's size", []unit{{Vertex, vsA("out blk { float v[2]; } ifc;")}, {Vertex, vsB(unsized, 2)}, {Geometry, gsIn("[2]")}, {Fragment, fs}},
			"block member 'v' is indexed up to 2 here but declared with size 2 in another shader of the stage", 0},
		{"unnamed blocks in two VS units against a sized unnamed FS block", []unit{
			{Vertex, "#version 150\nout blk { float w[]; };\nvoid f();\nvoid main() { f(); w[0] = 1.0; gl_Position = vec4(0.0); }"},
			{Vertex, "#version 150\nout blk { float w[]; };\nvoid f() { w[1] = 1.0; }"},
			{Fragment, "#version 150\nin blk { float w[2]; };\nout vec4 o; void main() { o = vec4(w[1]); }"}}, "", 0},
	}
	for _, tc := range tests {
		var units []*Shader
		for i, u := range tc.units {
			sh, err := Compile("u", u.src, u.st, Options{})
			if err != nil {
				t.Fatalf("%s: unit %d: %v", tc.name, i, err)
			}
			units = append(units, sh)
		}
		_, err := LinkShaders(units...)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
		if tc.size == 0 || err != nil {
			continue
		}
		for i, u := range units {
			if u.Stage != Vertex {
				continue
			}
			for _, b := range u.File.Blocks {
				if b.Storage == ast.StorageOut && b.Name == "blk" && b.Members[0].Type.Len != tc.size {
					t.Errorf("%s: unit %d: blk.v has %d elements, want %d", tc.name, i, b.Members[0].Type.Len, tc.size)
				}
			}
		}
	}
}
