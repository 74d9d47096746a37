package lower

import (
	"strings"
	"testing"

	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// FuzzLowerUnits links two vertex units and a fragment unit of arbitrary
// GLSL: whatever compiles and links (interface blocks and outputs shared
// across the units, implicitly sized members sized across them, uniform
// blocks under several instance names) must lower without panicking into IR
// that verifies; a link or lower error must be a diagnostic, never an
// internal one. spec: CONVENTIONS (bad input never panics).
func FuzzLowerUnits(f *testing.F) {
	f.Add("#version 150\nin vec4 p;\nout blk { float v[]; } ifc;\nout float b[2];\nuniform U { vec4 c; } u;\nvoid g();\nvoid main() { ifc.v[0] = u.c.x; b[0] = 1.0; g(); gl_Position = p; }\n",
		"#version 150\nout blk { float v[]; } other;\nout float b[2];\nuniform U { vec4 c; } w;\nvoid g() { other.v[1] = w.c.y; b[1] = 2.0; }\n",
		"#version 150\nin blk { float v[2]; } ifc;\nin float b[2];\nout vec4 o;\nvoid main() { o = vec4(ifc.v[0], ifc.v[1], b[0], b[1]); }\n")
	f.Add("#version 150\nout blk { float w[]; };\nvoid g();\nvoid main() { g(); w[0] = 1.0; gl_Position = vec4(0.0); }\n",
		"#version 150\nout blk { float w[]; };\nvoid g() { w[2] = 1.0; }\n",
		"#version 150\nin blk { float w[3]; };\nout vec4 o;\nvoid g();\nvoid main() { o = vec4(w[2]); }\n")
	f.Add("#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); gl_Position = c; }\n",
		"#version 150\nout vec4 c;\n",
		"#version 150\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n")
	f.Fuzz(func(t *testing.T, vs1, vs2, fs string) {
		var units []*glsl.Shader
		for i, src := range []string{vs1, vs2, fs} {
			st := glsl.Vertex
			if i == 2 {
				st = glsl.Fragment
			}
			sh, err := glsl.Compile("u", src, st, glsl.Options{})
			if err != nil {
				if strings.Contains(err.Error(), "internal") {
					t.Fatal(err)
				}
				return
			}
			units = append(units, sh)
		}
		lp, err := glsl.LinkShaders(units...)
		if err != nil {
			if strings.Contains(err.Error(), "internal") {
				t.Fatal(err)
			}
			return
		}
		p, err := Lower(lp)
		if err != nil {
			if strings.Contains(err.Error(), "internal") {
				t.Fatal(err)
			}
			return
		}
		for _, sp := range []*ir.Program{p.VS, p.FS} {
			if err := ir.Verify(sp); err != nil {
				t.Fatalf("lowered program does not verify: %v", err)
			}
		}
	})
}
