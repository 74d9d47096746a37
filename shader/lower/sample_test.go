package lower

import (
	"context"
	"strings"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// TestSampleBuiltins checks the per-sample built-ins' layout and values:
// gl_SampleID (int), gl_SamplePosition (2 floats) and gl_SampleMaskIn (one
// int) are system inputs after the varyings, gl_SampleMask one int output
// after gl_FragDepth; they exist from GLSL 4.00 and ES 3.20 and not before.
// spec: GLSL 4.00 §7.1, GLSL ES 3.20 §7.1.2
func TestSampleBuiltins(t *testing.T) {
	src := "#version 400\nin float v; out vec4 o;\n" +
		"void main() { o = vec4(v, gl_SamplePosition, float(gl_SampleID)); gl_FragDepth = 0.5; gl_SampleMask[0] = gl_SampleMaskIn[0] & 6; }\n"
	p, err := compileStage("s.frag", src, glsl.Fragment, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		words int
		typ   ir.Type
	}{"gl_SampleID": {1, ir.I32}, "gl_SamplePosition": {2, ir.F32}, "gl_SampleMaskIn": {1, ir.I32}}
	v := slot(t, p.Inputs, "v")
	for name, w := range want {
		s := slot(t, p.Inputs, name)
		if s.Words != w.words || s.Type != w.typ || s.Word <= v.Word {
			t.Errorf("%s: word %d, %d words of %v (varying at %d)", name, s.Word, s.Words, s.Type, v.Word)
		}
	}
	d, m := slot(t, p.Outputs, "gl_FragDepth"), slot(t, p.Outputs, "gl_SampleMask")
	if m.Word != d.Word+1 || m.Words != 1 || m.Type != ir.I32 || p.OutputWords != m.Word+1 {
		t.Errorf("gl_SampleMask at word %d (%d words of %v), gl_FragDepth at %d, %d output words", m.Word, m.Words, m.Type, d.Word, p.OutputWords)
	}
	x, err := exec.New(p, exec.Config{Width: 4})
	if err != nil {
		t.Fatal(err)
	}
	id, pos, in := slot(t, p.Inputs, "gl_SampleID"), slot(t, p.Inputs, "gl_SamplePosition"), slot(t, p.Inputs, "gl_SampleMaskIn")
	for l := range 4 {
		x.Input(id.Word)[l] = uint32(l)
		x.Input(pos.Word)[l] = fbits(0.25 * float32(l))
		x.Input(pos.Word + 1)[l] = fbits(0.5)
		x.Input(in.Word)[l] = 1 << l
	}
	if _, err := x.Run(context.Background(), 0xf, 0xf); err != nil {
		t.Fatal(err)
	}
	for l := range 4 {
		o := slot(t, p.Outputs, "o")
		if got := ff(x.Output(o.Word + 1)[l]); got != 0.25*float32(l) {
			t.Errorf("lane %d: gl_SamplePosition.x read %v", l, got)
		}
		if got := ff(x.Output(o.Word + 3)[l]); got != float32(l) {
			t.Errorf("lane %d: gl_SampleID read %v", l, got)
		}
		if got := x.Output(m.Word)[l]; got != uint32(1<<l)&6 {
			t.Errorf("lane %d: gl_SampleMask %#x, want %#x", l, got, uint32(1<<l)&6)
		}
	}
	for _, old := range []string{"#version 330\nout vec4 o;\nvoid main() { o = vec4(float(gl_SampleID)); }\n",
		"#version 310 es\nprecision mediump float;\nout vec4 o;\nvoid main() { o = vec4(gl_SamplePosition, 0.0, 1.0); }\n"} {
		if _, err := compileStage("old.frag", old, glsl.Fragment, glsl.Options{}); err == nil || !strings.Contains(err.Error(), "gl_Sample") {
			t.Errorf("%q: %v, want an undeclared gl_Sample* error", old[:14], err)
		}
	}
}
