package parser

import (
	"strings"
	"testing"

	"vortexgfx/shader/glsl/ast"
)

// TestLayoutRepeats checks when one declaration may carry several layout(...)
// qualifiers (GLSL 4.20, GLSL ES 3.10, ARB_shading_language_420pack) and repeat
// a valued identifier inside one (GLSL 4.40, ARB_enhanced_layouts), and that
// only the last occurrence of a repeated valued identifier is kept.
// spec: GLSL 4.40 §4.4, ARB_shading_language_420pack, ARB_enhanced_layouts
func TestLayoutRepeats(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // error substring; "" for none
		layout    string // the kept layout identifiers of the last declaration
	}{
		{"two layouts, 1.40", "#version 140\nlayout(location=2) layout(location=1) out vec3 v;",
			"multiple layout qualifiers in one declaration require GLSL 4.20", ""},
		{"two layouts, ES 3.00", "#version 300 es\nlayout(location=2) layout(location=1) out vec3 v;",
			"multiple layout qualifiers", ""},
		{"two layouts, 420pack", "#version 150\n#extension GL_ARB_shading_language_420pack : enable\n" +
			"layout(points, invocations=3) layout(invocations=4) in;", "", "points invocations=4"},
		{"two layouts, 4.20", "#version 420\nlayout(local_size_z=1) layout(local_size_z=2) in;", "", "local_size_z=2"},
		{"two layouts, ES 3.10", "#version 310 es\nlayout(location=2) layout(location=1) out vec3 v;", "", "location=1"},
		{"repeat in one, 1.50", "#version 150\nlayout(stream=2, stream=1) out;",
			"layout qualifier 'stream' repeated in one layout(...) requires GLSL 4.40 or GL_ARB_enhanced_layouts", ""},
		{"repeat in one, 420pack only", "#version 150\n#extension GL_ARB_shading_language_420pack : enable\n" +
			"layout(max_vertices=2, max_vertices=3) out;", "'max_vertices' repeated", ""},
		{"repeat across, case-insensitive", "#version 150\n#extension GL_ARB_enhanced_layouts : enable\n" +
			"layout(line_strip, max_vertices=2, MAX_VERTICES=3) out;", "", "line_strip MAX_VERTICES=3"},
		{"repeat in one, enhanced layouts", "#version 150\n#extension GL_ARB_enhanced_layouts : enable\n" +
			"layout(local_size_z=1, local_size_z=2, local_size_x=4) in;", "", "local_size_z=2 local_size_x=4"},
		{"repeat in one, 4.40", "#version 440\nlayout(location=2, location=1) out vec3 v;", "", "location=1"},
		{"enhanced layouts needs 1.40", "#version 130\n#extension GL_ARB_explicit_attrib_location : enable\n" +
			"#extension GL_ARB_enhanced_layouts : enable\nlayout(location=2, location=1) in vec3 v;", "'location' repeated", ""},
		// Valueless names may repeat (each overrides the last) and stay as
		// written. spec: GLSL 1.40 §4.3.5.1
		{"binding repeat, 4.20", "#version 420\nlayout(std140, binding = 1, binding = 2) uniform U { vec4 u; };", "", "std140 binding=2"},
		{"valueless repeat", "#version 140\nlayout(std140, row_major, std140) uniform;", "", "std140 row_major std140"},
	}
	for _, tc := range tests {
		f, err := ParseFile("t", tc.src+"\nvoid main() {}\n", Options{})
		if tc.want != "" {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: unexpected error %v", tc.name, err)
			continue
		}
		var q ast.Qualifiers
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.DeclGroup:
				q = d.Qual
			case *ast.QualDecl:
				q = d.Qual
			case *ast.BlockDecl:
				q = d.Qual
			}
		}
		var got []string
		for _, l := range q.Layout {
			s := l.Name
			if lit, ok := l.Value.(*ast.Literal); ok {
				s += "=" + lit.Raw
			}
			got = append(got, s)
		}
		if g := strings.Join(got, " "); g != tc.layout {
			t.Errorf("%s: layout %q, want %q", tc.name, g, tc.layout)
		}
	}
}
