package lower

import (
	"context"
	"fmt"
	"math"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
)

// TestFloatConversionFoldedMatchesExecuted converts each value to int and uint
// twice: as a constant expression, which the GLSL constant folder evaluates
// ("const uint k = uint(-3.0);" must fold), and from a uniform, which the lowered
// program converts on the executor. Both must give the word package convert
// documents — the Vortex cores' RISC-V fcvt results where GLSL 4.60 §5.4.1
// leaves the conversion undefined — so uint(x) does not depend on whether x is constant.
func TestFloatConversionFoldedMatchesExecuted(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, c := range []struct {
		glsl     string // the value as a GLSL constant expression
		v        float32
		int, uns uint32
	}{
		{"0.0", 0, 0, 0},
		{"-0.0", float32(math.Copysign(0, -1)), 0, 0},
		{"2.7", 2.7, 2, 2},
		{"-2.7", -2.7, 0xfffffffe, 0},
		{"-0.5", -0.5, 0, 0},
		{"-1.0", -1, 0xffffffff, 0},
		{"-3.0", -3, 0xfffffffd, 0},
		{"2147483520.0", 2147483520, 2147483520, 2147483520},
		{"-2147483648.0", -2147483648, 0x80000000, 0},
		{"2147483648.0", 2147483648, 0x7fffffff, 0x80000000},
		{"3e9", 3e9, 0x7fffffff, 3000000000},
		{"4278190080.0", 4278190080, 0x7fffffff, 4278190080},
		{"4294967040.0", 4294967040, 0x7fffffff, 4294967040},
		{"4294967296.0", 4294967296, 0x7fffffff, 0xffffffff},
		{"-3e9", -3e9, 0x80000000, 0},
		{"1e20", 1e20, 0x7fffffff, 0xffffffff},
		{"(1.0 / 0.0)", inf, 0x7fffffff, 0xffffffff},
		{"(-1.0 / 0.0)", -inf, 0x80000000, 0},
		{"(0.0 / 0.0)", nan, 0x7fffffff, 0xffffffff},
	} {
		src := fmt.Sprintf(`#version 430
uniform float u;
flat out uvec4 r;
const int ki = int(%[1]s);
const uint ku = uint(%[1]s);
void main() {
	gl_Position = vec4(0.0);
	r = uvec4(uint(ki), ku, uint(int(u)), uint(u));
}
`, c.glsl)
		vs, err := compileStage("conv.vert", src, glsl.Vertex, glsl.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.glsl, err)
		}
		m, err := exec.New(vs, exec.Config{Width: 1})
		if err != nil {
			t.Fatal(err)
		}
		uni := make([]uint32, vs.UniformWords)
		uni[slot(t, vs.Uniforms, "u").Word] = math.Float32bits(c.v)
		if err := m.SetUniforms(uni); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Run(context.Background(), 1, 1); err != nil {
			t.Fatal(err)
		}
		r := slot(t, vs.Outputs, "r").Word
		got := [4]uint32{m.Output(r)[0], m.Output(r + 1)[0], m.Output(r + 2)[0], m.Output(r + 3)[0]}
		want := [4]uint32{c.int, c.uns, c.int, c.uns}
		if got != want {
			t.Errorf("%s: int folded %#x, uint folded %#x, int executed %#x, uint executed %#x; want int %#x, uint %#x",
				c.glsl, got[0], got[1], got[2], got[3], c.int, c.uns)
		}
	}
}
