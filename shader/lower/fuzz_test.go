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
	// The extensions of GLSL 1.10-1.30 the front end implements.
	f.Add(true, "#version 130\n#extension GL_AMD_shader_trinary_minmax : require\n#extension GL_MESA_shader_integer_functions : require\nflat in ivec2 i; out vec4 c;\nvoid main() { uint carry; uint s = uaddCarry(uint(i.x), 1, carry); c = vec4(mid3(1.0, float(i.y), 0.5), float(bitfieldExtract(i.x, 1, 3)), float(bitfieldInsert(s, carry, 2, 4)), ldexp(0.5, i.y)); }\n")
	f.Add(false, "#version 130\n#extension GL_ARB_shading_language_420pack : require\n#extension GL_ARB_arrays_of_arrays : require\nuniform float u[2][3]; in vec4 p;\nvoid main() { const float k = u[1][2]; vec2 v = {k, 1.0}; float a[2][2] = {{1.0, 2.0}, v}; gl_Position = p * a[1].length() + vec4(v.xyxy) + k.xxxx; }\n")
	f.Add(true, "#version 120\n#extension GL_EXT_texture_array : require\n#extension GL_ARB_shader_texture_lod : require\nuniform sampler2DArray a; uniform sampler2D s; uniform sampler2DRectShadow r; varying vec2 uv;\nvoid main() { gl_FragColor = texture2DArray(a, vec3(uv, 1.0)) + texture2DGradARB(s, uv, dFdx(uv), dFdy(uv)) + shadow2DRect(r, vec3(uv, 0.5)); }\n")
	// GL_ARB_gpu_shader5: run-time gather offsets and sampler indices inside
	// arrays of structs, fma, precise, implicit int-to-uint.
	f.Add(true, "#version 150\n#extension GL_ARB_gpu_shader5 : require\nstruct S { sampler2D t[2]; }; uniform S ss[2]; uniform ivec2 o; uniform int n; in vec2 uv; out vec4 c;\nvoid main() { precise float x = fma(uv.x, uv.y, 1.0); uint u = n; c = textureGatherOffset(ss[n].t[n], uv, o + ivec2(u), 2) * x; }\n")
	// The interpolation functions and the per-sample built-ins.
	f.Add(true, "#version 150\n#extension GL_ARB_gpu_shader5 : enable\n#extension GL_ARB_sample_shading : enable\nstruct S { vec3 a; float b; };\nin S s[2]; noperspective in vec2 n; flat in vec4 f; uniform int k; out vec4 c;\nvoid main() { c = vec4(interpolateAtSample(s[k].a, gl_SampleID + k), interpolateAtOffset(n, vec2(gl_SamplePosition.y)).x) + interpolateAtCentroid(f) * float(gl_NumSamples + gl_SampleMaskIn[0]); gl_SampleMask[0] = k; }\n")
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
