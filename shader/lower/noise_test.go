package lower

import (
	"context"
	"math"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
)

// noiseFS is a noise shader in the style of real-world procedural code: macros,
// overloaded helpers, a loop of octaves, swizzles and mix/floor/fract/sin.
const noiseFS = `#version 120
#define OCTAVES 4
#define HASH(p) fract(sin(p) * 43758.5453)
varying vec2 uv;
float hash(vec2 p) { return HASH(dot(p, vec2(127.1, 311.7))); }
float hash(float p) { return HASH(p); }
float vnoise(vec2 p) {
	vec2 i = floor(p);
	vec2 f = fract(p);
	vec2 u = f * f * (3.0 - 2.0 * f);
	float a = hash(i), b = hash(i + vec2(1.0, 0.0));
	float c = hash(i + vec2(0.0, 1.0)), d = hash(i + vec2(1.0, 1.0));
	return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}
float fbm(vec2 p) {
	float s = 0.0, a = 0.5;
	for (int k = 0; k < OCTAVES; k++) {
		s += a * vnoise(p);
		p = p * 2.0 + vec2(hash(float(k)), 0.0);
		a *= 0.5;
	}
	return s;
}
void main() { gl_FragColor = vec4(fbm(uv * 8.0), hash(uv.x), 0.0, 1.0); }
`

// The same computation in Go float32, operation by operation (explicit float32
// conversions keep Go from fusing a multiply and an add on any architecture).
type f32v2 [2]float32

func fr32(x float32) float32 { return x - float32(math.Floor(float64(x))) }
func hash32(x float32) float32 {
	return fr32(float32(float32(math.Sin(float64(x))) * 43758.5453))
}
func hash2(p f32v2) float32         { return hash32(float32(p[0]*127.1) + float32(p[1]*311.7)) }
func mix32(x, y, a float32) float32 { return float32(x*(1-a)) + float32(y*a) }
func vnoise32(p f32v2) float32 {
	i := f32v2{float32(math.Floor(float64(p[0]))), float32(math.Floor(float64(p[1])))}
	f := f32v2{fr32(p[0]), fr32(p[1])}
	u := f32v2{f[0] * f[0] * (3 - float32(2*f[0])), f[1] * f[1] * (3 - float32(2*f[1]))}
	a, b := hash2(i), hash2(f32v2{i[0] + 1, i[1]})
	c, d := hash2(f32v2{i[0], i[1] + 1}), hash2(f32v2{i[0] + 1, i[1] + 1})
	return mix32(mix32(a, b, u[0]), mix32(c, d, u[0]), u[1])
}
func fbm32(p f32v2) float32 {
	s, a := float32(0), float32(0.5)
	for k := 0; k < 4; k++ {
		s += float32(a * vnoise32(p))
		p = f32v2{float32(p[0]*2) + hash32(float32(k)), p[1] * 2}
		a *= 0.5
	}
	return s
}

// TestNoiseShader compiles the noise shader with `vortex glsl`'s path and checks
// a fragment warp against the float32 Go computation bit for bit.
func TestNoiseShader(t *testing.T) {
	p, err := compileStage("noise.frag", noiseFS, glsl.Fragment, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := exec.New(p, exec.Config{Width: 16})
	if err != nil {
		t.Fatal(err)
	}
	uv := slot(t, p.Inputs, "uv")
	coord := func(l int) f32v2 { return f32v2{float32(l)*0.0731 + 0.013, float32(l)*0.0417 + 0.3} }
	for l := 0; l < 16; l++ {
		c := coord(l)
		m.Input(uv.Word)[l], m.Input(uv.Word + 1)[l] = fbits(c[0]), fbits(c[1])
	}
	if _, err := m.Run(context.Background(), 0xffff, 0xffff); err != nil {
		t.Fatal(err)
	}
	for l := 0; l < 16; l++ {
		c := coord(l)
		want := [2]float32{fbm32(f32v2{c[0] * 8, c[1] * 8}), hash32(c[0])}
		for k := 0; k < 2; k++ {
			if got := ff(m.Output(k)[l]); got != want[k] {
				t.Errorf("lane %d component %d: got %v, want %v", l, k, got, want[k])
			}
		}
	}
}
