package lower

import (
	"context"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
)

// TestDualSourceOutputs checks where layout(index = 1) outputs land: after every
// index-0 colour, with the location of the target they blend into and Index 1,
// and gl_FragDepth after them. spec: GLSL 3.30 §4.3.8.2.
func TestDualSourceOutputs(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want map[string][3]int // name -> word, location, index
	}{
		{"3.30 one target",
			"#version 330\nlayout(location = 0, index = 1) out vec4 s; layout(location = 0) out vec4 c;\n" +
				"void main() { c = vec4(1.0, 2.0, 3.0, 4.0); s = vec4(5.0, 6.0, 7.0, 8.0); gl_FragDepth = 0.5; }\n",
			map[string][3]int{"c": {0, 0, 0}, "s": {4, 0, 1}, "gl_FragDepth": {8, -1, 0}}},
		{"3.30 two targets",
			"#version 330\nlayout(location = 1) out vec4 d; layout(location = 0) out vec4 c; layout(location = 1, index = 1) out vec4 s;\n" +
				"void main() { c = vec4(1.0, 2.0, 3.0, 4.0); d = vec4(9.0); s = vec4(5.0, 6.0, 7.0, 8.0); }\n",
			map[string][3]int{"c": {0, 0, 0}, "d": {4, 1, 0}, "s": {8, 1, 1}}},
		{"ARB_blend_func_extended in 1.30",
			"#version 130\n#extension GL_ARB_blend_func_extended : enable\n#extension GL_ARB_explicit_attrib_location : enable\n" +
				"layout(location = 0, index = 1) out vec4 s; layout(location = 0, index = 0) out vec4 c;\n" +
				"void main() { c = vec4(1.0, 2.0, 3.0, 4.0); s = vec4(5.0, 6.0, 7.0, 8.0); }\n",
			map[string][3]int{"c": {0, 0, 0}, "s": {4, 0, 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := compileStage("d.frag", tc.src, glsl.Fragment, glsl.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for name, w := range tc.want {
				s := slot(t, p.Outputs, name)
				if s.Word != w[0] || s.Location != w[1] || s.Index != w[2] {
					t.Errorf("%s: word %d location %d index %d, want %v", name, s.Word, s.Location, s.Index, w)
				}
			}
			m, err := exec.New(p, exec.Config{Width: 4})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.Run(context.Background(), 0xf, 0xf); err != nil {
				t.Fatal(err)
			}
			c, s := slot(t, p.Outputs, "c"), slot(t, p.Outputs, "s")
			for k := 0; k < 4; k++ {
				if got := ff(m.Output(c.Word + k)[0]); got != float32(1+k) {
					t.Errorf("c[%d] = %v, want %v", k, got, 1+k)
				}
				if got := ff(m.Output(s.Word + k)[0]); got != float32(5+k) {
					t.Errorf("s[%d] = %v, want %v", k, got, 5+k)
				}
			}
		})
	}
}
