package types

import (
	"testing"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/parser"
)

// TestFetchAccepts is the accept table of framebuffer fetch: each shader
// compiles and the variable it names is a fetched one (ast.Var.Fetch) of the
// kind the lowering expects (inout outputs are outputs, gl_LastFragData an
// input). The rejections are testdata/check/fbfetch.frag and .vert.
// spec: EXT_shader_framebuffer_fetch, EXT_shader_framebuffer_fetch_non_coherent
func TestFetchAccepts(t *testing.T) {
	const (
		coh = "#extension GL_EXT_shader_framebuffer_fetch : enable\n"
		nc  = "#extension GL_EXT_shader_framebuffer_fetch_non_coherent : enable\n"
	)
	tests := []struct {
		name, src, v string
		kind         ast.VarKind
		prec         ast.Precision
	}{
		{"ES 3.00 inout", "#version 300 es\n" + coh + "inout mediump vec4 c;\nvoid main() { c += vec4(0.5); }", "c", ast.VarOut, ast.PrecMedium},
		{"ES 3.00 inout array", "#version 300 es\n" + coh + "inout mediump vec4 c[4];\nvoid main() { c[1] = c[0]; }", "c", ast.VarOut, ast.PrecMedium},
		{"ES 3.00 integer inout", "#version 300 es\n" + coh + "inout mediump ivec4 c;\nvoid main() { c += ivec4(1); }", "c", ast.VarOut, ast.PrecMedium},
		{"GLSL 1.50 inout", "#version 150\n" + coh + "inout vec4 c;\nvoid main() { c = c * 2.0; }", "c", ast.VarOut, ast.PrecNone},
		{"non-coherent inout", "#version 300 es\n" + nc + "layout(noncoherent) inout mediump vec4 c;\nvoid main() { c += vec4(0.5); }", "c", ast.VarOut, ast.PrecMedium},
		{"both extensions, coherent inout", "#version 300 es\n" + coh + nc + "inout highp vec4 c;\nvoid main() { c += vec4(0.5); }", "c", ast.VarOut, ast.PrecHigh},
		{"gl_LastFragData", "#version 100\n" + coh + "void main() { gl_FragColor = gl_LastFragData[0]; }", "gl_LastFragData", ast.VarIn, ast.PrecMedium},
		{"gl_LastFragData redeclared highp", "#version 100\n" + coh + "highp vec4 gl_LastFragData[gl_MaxDrawBuffers];\nvoid main() { gl_FragColor = gl_LastFragData[0]; }", "gl_LastFragData", ast.VarIn, ast.PrecHigh},
		{"gl_LastFragData non-coherent", "#version 100\n" + nc + "layout(noncoherent) lowp vec4 gl_LastFragData[gl_MaxDrawBuffers];\nvoid main() { gl_FragData[1] = gl_LastFragData[1]; }", "gl_LastFragData", ast.VarIn, ast.PrecLow},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := parser.ParseFile("t", tc.src, parser.Options{Extensions: []string{ExtFramebufferFetch, ExtFramebufferFetchNonCoherent}})
			if err == nil {
				err = Check(f, Config{Stage: ast.StageFragment})
			}
			if err != nil {
				t.Fatal(err)
			}
			var got *ast.Var
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && id.Var != nil && id.Var.Name == tc.v {
					got = id.Var
				}
				return got == nil
			})
			if got == nil {
				t.Fatalf("no use of %s", tc.v)
			}
			if !got.Fetch || got.Kind != tc.kind || got.Qual.Precision != tc.prec {
				t.Errorf("%s: Fetch %v kind %v precision %v, want true %v %v", tc.v, got.Fetch, got.Kind, got.Qual.Precision, tc.kind, tc.prec)
			}
		})
	}
}
