package program

import (
	"testing"

	"vortexgfx/shader/ir"
)

// FuzzSetUniform feeds arbitrary uniform names (the GL name grammar
// "a[2].b.c[0]" parsed by resolve) and values: bad names return an error and
// nothing panics or writes outside the uniform buffer.
func FuzzSetUniform(f *testing.F) {
	for _, s := range []string{"f", "a[2]", "s[1].v", "m", "s[0].x", "a[", "a[-1]", "s.v", "a[1]]", "s[1].v.x", "", "[0]", "a[99999999999999999999]", "Blk.x"} {
		f.Add(s, uint32(0x3f800000))
	}
	fs := `#version 120
struct S { float x; vec3 v; };
uniform float f;
uniform vec2 a[3];
uniform S s[2];
uniform mat3x2 m;
uniform sampler2D t[2];
void main() { gl_FragColor = vec4(f, a[2].y, s[1].v.z, m[2][1]) + texture2D(t[1], a[0]); }
`
	p, err := compile(passVS, fs)
	if err != nil {
		f.Fatal(err)
	}
	n := len(p.Uniforms)
	f.Fuzz(func(t *testing.T, name string, v uint32) {
		_ = p.SetUniform(name, ir.F32, []uint32{v, v, v, v, v, v, v, v})
		if len(p.Uniforms) != n {
			t.Fatalf("uniform buffer resized to %d", len(p.Uniforms))
		}
	})
}
