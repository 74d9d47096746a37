package types

import (
	"testing"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/parser"
)

// TestGeometryCullDistanceInput: with GL_ARB_cull_distance a geometry
// shader's gl_in[] has gl_CullDistance[]; without it, it has none.
// spec: ARB_cull_distance §7.1.
func TestGeometryCullDistanceInput(t *testing.T) {
	body := "layout(points) in; layout(points, max_vertices = 1) out;\nout vec4 c;\nvoid main() { c = vec4(gl_in[0].gl_CullDistance[0]); EmitVertex(); }"
	for _, tc := range []struct {
		head string
		ok   bool
	}{{"#version 150\n#extension GL_ARB_cull_distance : enable\n", true}, {"#version 150\n", false}} {
		f, err := parser.ParseFile("t", tc.head+body, parser.Options{Extensions: []string{ExtCullDistance}})
		if err == nil {
			err = Check(f, Config{Stage: ast.StageGeometry})
		}
		if (err == nil) != tc.ok {
			t.Errorf("%q: error %v, want ok=%v", tc.head, err, tc.ok)
		}
	}
}
