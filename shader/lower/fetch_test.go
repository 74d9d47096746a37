package lower

import (
	"context"
	"reflect"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// TestFetchLayout pins Program.Fetch: the destination words come after every
// other fragment input (varyings and system inputs), one slot per render
// target, in output order and then gl_LastFragData's; and running the
// program shows an inout output starts from its words (a component main does
// not write keeps the fetched value). spec: EXT_shader_framebuffer_fetch
// §4.3.6, §7.2
func TestFetchLayout(t *testing.T) {
	const coh = "#extension GL_EXT_shader_framebuffer_fetch : enable\n"
	vs3 := "#version 300 es\nin vec4 p; out highp vec4 v;\nvoid main() { v = p; gl_Position = p; }\n"
	vs1 := "#version 100\nattribute vec4 p;\nvoid main() { gl_Position = p; }\n"
	tests := []struct {
		name, vs, fs string
		want         []ir.Slot
		// in is the fetched words' values, out the colour words expected
		in, out []uint32
	}{
		// The vertex stage's outputs are gl_Position and v: 8 words.
		{"inout vec4 after the varyings and gl_FragCoord", vs3,
			"#version 300 es\n" + coh + "in highp vec4 v; inout mediump vec4 c;\nvoid main() { c.xy += v.xy + gl_FragCoord.xy; }",
			[]ir.Slot{{Name: "c", Word: 12, Words: 4, Type: ir.F32, Location: 0}},
			[]uint32{fbits(1), fbits(2), fbits(3), fbits(4)}, []uint32{fbits(1), fbits(2), fbits(3), fbits(4)}},
		{"inout array: one slot per element's target", vs3,
			"#version 300 es\n" + coh + "layout(location = 1) inout mediump vec4 c[2];\nvoid main() { c[0].w = 9.0; }",
			[]ir.Slot{{Name: "c", Word: 8, Words: 4, Type: ir.F32, Location: 1}, {Name: "c", Word: 12, Words: 4, Type: ir.F32, Location: 2}},
			[]uint32{1, 2, 3, 4, 5, 6, 7, 8}, []uint32{0, 0, 0, 0, 1, 2, 3, fbits(9), 5, 6, 7, 8}},
		{"integer inout", vs3,
			"#version 300 es\n" + coh + "inout mediump ivec4 c;\nvoid main() { c.x += 1; }",
			[]ir.Slot{{Name: "c", Word: 8, Words: 4, Type: ir.I32, Location: 0}},
			[]uint32{41, 1, 2, 3}, []uint32{42, 1, 2, 3}},
		{"gl_LastFragData: every draw buffer", vs1,
			"#version 100\n" + coh + "void main() { gl_FragData[0] = gl_LastFragData[1]; }",
			[]ir.Slot{{Name: "gl_LastFragData", Word: 4, Words: 4, Type: ir.F32, Location: 0}, {Name: "gl_LastFragData", Word: 8, Words: 4, Type: ir.F32, Location: 1},
				{Name: "gl_LastFragData", Word: 12, Words: 4, Type: ir.F32, Location: 2}, {Name: "gl_LastFragData", Word: 16, Words: 4, Type: ir.F32, Location: 3},
				{Name: "gl_LastFragData", Word: 20, Words: 4, Type: ir.F32, Location: 4}, {Name: "gl_LastFragData", Word: 24, Words: 4, Type: ir.F32, Location: 5},
				{Name: "gl_LastFragData", Word: 28, Words: 4, Type: ir.F32, Location: 6}, {Name: "gl_LastFragData", Word: 32, Words: 4, Type: ir.F32, Location: 7}},
			[]uint32{0, 0, 0, 0, 5, 6, 7, 8}, []uint32{5, 6, 7, 8}},
		{"no fetch", vs3, "#version 300 es\nout mediump vec4 c;\nvoid main() { c = vec4(1.0); }", nil, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := compilePair("f.vert", tc.vs, "f.frag", tc.fs, glsl.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Fetch, tc.want) {
				t.Fatalf("Fetch = %+v, want %+v", p.Fetch, tc.want)
			}
			if len(tc.want) == 0 {
				return
			}
			if end := tc.want[len(tc.want)-1]; end.Word+end.Words != p.FS.InputWords {
				t.Errorf("fetched words end at %d, inputs at %d: they must be last", end.Word+end.Words, p.FS.InputWords)
			}
			m, err := exec.New(p.FS, exec.Config{Width: 1})
			if err != nil {
				t.Fatal(err)
			}
			for k, w := range tc.in {
				m.Input(tc.want[0].Word + k)[0] = w
			}
			if _, err := m.Run(context.Background(), 1, 1); err != nil {
				t.Fatal(err)
			}
			for k, w := range tc.out {
				if got := m.Output(k)[0]; got != w {
					t.Errorf("output word %d = %#x, want %#x", k, got, w)
				}
			}
		})
	}
}
