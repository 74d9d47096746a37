package program

import (
	"context"
	"errors"
	"testing"

	"vortexgfx/ref"
	"vortexgfx/shader/exec"
)

const memVS = `#version 330
in vec4 pos;
void main() { gl_Position = pos; }
`

// TestFragmentMemoryRules: a fragment program that stores or does atomics
// reports side effects (ref shades it on one worker) and is not early-depth
// safe (its stores happen before the late depth test); one that only loads is
// neither; a program with memory instructions and no Memory set fails with
// exec.ErrNoMemory rather than reading zeros.
func TestFragmentMemoryRules(t *testing.T) {
	for _, c := range []struct {
		name, fs    string
		effects, ed bool
	}{
		{"store", "#version 330\n#extension GL_ARB_shader_storage_buffer_object : require\nlayout(std430, binding = 0) buffer B { uint v; };\nout vec4 o;\nvoid main() { v = 1u; o = vec4(1.0); }\n", true, false},
		{"atomic counter", "#version 330\n#extension GL_ARB_shader_atomic_counters : require\nlayout(binding = 0) uniform atomic_uint a;\nout vec4 o;\nvoid main() { o = vec4(atomicCounterIncrement(a)); }\n", true, false},
		{"load", "#version 330\n#extension GL_ARB_shader_storage_buffer_object : require\nlayout(std430, binding = 0) buffer B { vec4 v; };\nout vec4 o;\nvoid main() { o = v; }\n", false, true},
	} {
		p, err := compile(memVS, c.fs)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !p.UsesMemory() {
			t.Errorf("%s: UsesMemory false", c.name)
		}
		fs, err := p.NewFragmentShader(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var _ ref.FragmentOrdered = fs
		if fs.SideEffects() != c.effects || fs.EarlyDepthSafe() != c.ed {
			t.Errorf("%s: SideEffects %v EarlyDepthSafe %v, want %v %v", c.name, fs.SideEffects(), fs.EarlyDepthSafe(), c.effects, c.ed)
		}
		q := []ref.Quad{{}}
		if err := fs.ShadeQuads(q, nil); !errors.Is(err, exec.ErrNoMemory) {
			t.Errorf("%s: shading without a Memory: %v, want exec.ErrNoMemory", c.name, err)
		}
	}
}
