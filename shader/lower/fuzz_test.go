package lower

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

type zeroSampler struct{}

func (zeroSampler) Texture(*exec.TexRequest) error { return nil }

// FuzzLower compiles arbitrary GLSL; whatever the front end accepts must lower
// without panicking into IR that verifies and runs (bounded) without panicking.
// spec: CONVENTIONS (bad input never panics or hangs).
func FuzzLower(f *testing.F) {
	f.Add(true, "#version 130\nout vec4 c;\nuniform sampler2D s;\nin vec2 uv;\nvoid main() { c = texture(s, uv) * dFdx(uv.x); if (uv.y > 0.5) discard; }\n")
	f.Add(false, "#version 120\nuniform mat4 m[4];\nattribute vec4 p;\nattribute float i;\nvoid main() { gl_Position = m[int(i)] * p; }\n")
	f.Add(false, "#version 130\nin vec4 a;\nout float r;\nfloat f(inout float x) { x += 1.0; return x * 2.0; }\nvoid main() { float s = 0.0; for (int i = 0; i < int(a.x); i++) { switch (i) { case 1: continue; default: s += f(s); } } r = s; gl_Position = a; }\n")
	f.Add(true, "#version 150\nin vec3 n;\nout vec4 c;\nvoid main() { mat3 m = mat3(n, n.yzx, n.zxy); c = vec4(inverse(m)[0] * determinant(m), 1.0); }\n")
	f.Fuzz(func(t *testing.T, frag bool, src string) {
		stage := glsl.Vertex
		if frag {
			stage = glsl.Fragment
		}
		p, err := compileStage("fuzz", src, stage, glsl.Options{})
		if err != nil {
			// Diagnostics are fine; a program the front end accepts but the
			// lowering cannot verify, or a recovered panic, is a compiler bug.
			if strings.Contains(err.Error(), "internal") {
				t.Fatal(err)
			}
			return
		}
		if err := ir.Verify(p); err != nil {
			t.Fatalf("lowered program does not verify: %v", err)
		}
		m, err := exec.New(p, exec.Config{Width: 4, MaxSteps: 20000})
		if err != nil {
			t.Fatal(err)
		}
		m.SetSampler(zeroSampler{})
		if err := m.SetUniforms(make([]uint32, p.UniformWords)); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Run(context.Background(), 0xf, 0xf); err != nil && !errors.Is(err, exec.ErrBudget) {
			t.Fatal(err)
		}
	})
}
