package shadertest

import (
	"strings"
	"testing"

	"vortexgfx/config"
)

const computeHead = `[require]
GL >= 4.3
GLSL >= 4.30

[compute shader]
#version 430
`

// TestComputeCommands runs compute tests on the device path (package
// compute) whatever the back end: storage buffers with subdata and probes,
// atomic counters, uniforms, images through fb tex 2d, link errors, and the
// skip of compute commands in graphics tests.
func TestComputeCommands(t *testing.T) {
	ssbo := computeHead + `layout(local_size_x = 4) in;
layout(std430, binding = 2) buffer B { uint u[8]; int i; float f; };
uniform uint add;
void main() {
	uint k = gl_GlobalInvocationID.x;
	u[k] = u[k] * 2u + add;
	if (k == 0u) { i = -7; f *= 0.5; }
}

[test]
ssbo 2 48
ssbo 2 subdata int 0 5
ssbo 2 subdata int 28 0x10
ssbo 2 subdata float 36 3.0
uniform uint add 1
compute 2 1 1
probe ssbo uint 2 0 == 11
probe ssbo uint 2 4 == 1
probe ssbo uint 2 28 == 0x21
probe ssbo int 2 32 == -7
probe ssbo int 2 32 < 0
probe ssbo float 2 36 == 1.5
compute 2 1 1
probe ssbo uint 2 0 == 23
`
	counters := computeHead + `layout(local_size_x = 8, local_size_y = 2) in;
layout(binding = 0) uniform atomic_uint a;
layout(binding = 1, offset = 4) uniform atomic_uint b;
void main() {
	atomicCounterIncrement(a);
	if (gl_LocalInvocationID.y == 1u)
		atomicCounterDecrement(b);
}

[test]
atomic counters 1
atomic counter buffer 1 2
atomic counter 1 1 100
compute 3 1 1
probe atomic counter 0 == 48
probe atomic counter buffer 1 4 == 76
probe atomic counter buffer 1 0 == 0
`
	image := computeHead + `layout(local_size_x = 2, local_size_y = 2) in;
layout(rgba8) writeonly uniform image2D tex;
uniform vec4 color;
void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	if (p.x < 3)
		imageStore(tex, p, color);
}

[test]
clear color 0.0 0.0 1.0 0.0
clear
uniform int tex 0
texture rgbw 0 (4, 2) GL_RGBA8
image texture 0 GL_RGBA8
fb tex 2d 0
uniform vec4 color 0.0 1.0 0.0 1.0
compute 2 1 1
probe rgb 0 0 0.0 1.0 0.0
probe rgb 2 1 0.0 1.0 0.0
probe rgba 3 1 1.0 1.0 1.0 1.0
clear
probe all rgba 0.0 0.0 1.0 0.0
`
	// A sampler uniform pointed at texture unit 1 by "uniform int": the
	// generated texture there is sampled on the device's software sampler.
	sampled := computeHead + `layout(local_size_x = 4, local_size_y = 4) in;
layout(std430, binding = 0) buffer B { vec4 c[16]; };
uniform sampler2D tex;
void main() {
	ivec2 p = ivec2(gl_LocalInvocationID.xy);
	c[p.y * 4 + p.x] = texture(tex, (vec2(p) + 0.5) / 4.0);
}

[test]
texture rgbw 1 (4, 4)
uniform int tex 1
ssbo 0 256
compute 1 1 1
probe ssbo float 0 0 == 1.0
probe ssbo float 0 4 == 0.0
probe ssbo float 0 60 == 1.0
probe ssbo float 0 248 == 1.0
`
	// texture integer's texels as piglit_integer_texture makes them: R32I
	// x + y·b + a, RGBA32I (x, y, b, a).
	integer := computeHead + `layout(local_size_x = 3, local_size_y = 2) in;
layout(r32i, binding = 0) readonly uniform iimage2D one;
layout(rgba32i, binding = 1) readonly uniform iimage2D four;
layout(std430, binding = 0) buffer B { int v[6]; ivec4 w[6]; };
void main() {
	ivec2 p = ivec2(gl_LocalInvocationID.xy);
	v[p.y * 3 + p.x] = imageLoad(one, p).x;
	w[p.y * 3 + p.x] = imageLoad(four, p);
}

[test]
texture integer 0 (3, 2) (5, 7) GL_R32I
image texture 0 GL_R32I
texture integer 1 (3, 2) (-4, 9) GL_RGBA32I
image texture 1 GL_RGBA32I
ssbo 0 128
compute 1 1 1
probe ssbo int 0 0 == 7
probe ssbo int 0 8 == 9
probe ssbo int 0 20 == 14
probe ssbo int 0 112 == 2
probe ssbo int 0 116 == 1
probe ssbo int 0 120 == -4
probe ssbo int 0 124 == 9
`
	for _, tc := range []struct {
		name   string
		src    string
		status Status
		reason string
	}{
		{"ssbo", ssbo, Pass, ""},
		{"texture integer", integer, Pass, ""},
		{"texture integer in a 16-bit format", strings.Replace(integer, "(5, 7) GL_R32I", "(5, 7) GL_R16I", 1), Fail, "32-bit integer format"},
		{"sampled texture", sampled, Pass, ""},
		{"sampled texture on an empty unit", strings.Replace(sampled, "uniform int tex 1", "uniform int tex 3", 1), Fail, "no texture bound at texture unit 3"},
		{"ssbo probe fails", strings.Replace(ssbo, "probe ssbo uint 2 4 == 1", "probe ssbo uint 2 4 == 2", 1), Fail,
			"line 24: SSBO 2 offset 4: expected == 2, observed 1"},
		{"counters", counters, Pass, ""},
		{"counter probe fails", counters + "probe atomic counter 0 != 48\n", Fail, "atomic counter at 0: expected != 48, observed 48"},
		{"image", image, Pass, ""}, // texel (3, 1) keeps rgbw's white
		{"image probe fails", strings.Replace(image, "probe rgba 3 1 1.0 1.0 1.0 1.0", "probe rgba 3 1 0.0 1.0 0.0 1.0", 1), Fail,
			"line 27: probe color at (3,1): expected 0.000000 1.000000 0.000000 1.000000, observed 1.000000 1.000000 1.000000 1.000000"},
		{"missing ssbo", computeHead + "layout(local_size_x = 1) in;\nlayout(std430, binding = 1) buffer B { uint v[]; };\nvoid main() { v[0] = 1u; }\n[test]\ncompute 1 1 1\n",
			Fail, "no ssbo bound at binding 1"},
		{"compile error", computeHead + "void main() { nope(); }\n[test]\ncompute 1 1 1\n", Fail, "failed to compile compute shader"},
		{"link error expected", computeHead + "layout(local_size_x = 1) in;\nvoid main() {}\n[vertex shader]\nvoid main() {}\n[test]\nlink error\n", Pass, ""},
		{"draw in a compute test", computeHead + "layout(local_size_x = 1) in;\nvoid main() {}\n[test]\ndraw rect -1 -1 2 2\n",
			Skip, "not supported in a compute test"},
		{"too large for the device", computeHead + "layout(local_size_x = 1024, local_size_y = 1) in;\nvoid main() {}\n[test]\ncompute 1 1 1\n", Pass, ""},
		{"compute command without a compute shader", progHead + "compute 1 1 1\n", Skip, "is not supported without a compute shader"},
		{"bad ssbo line", computeHead + "layout(local_size_x = 1) in;\nvoid main() {}\n[test]\nprobe ssbo uint 0 0 =~ 1\n", Fail, "invalid comparison"},
	} {
		// The same results on the IR executor and as machine code (the sampled
		// texture falls back to the IR executor there: codegen compiles compute
		// texelFetch, not filtered sampling).
		for _, cores := range []string{config.CoresIR, config.CoresISA} {
			st, reason := execText(t, &computeFake{newFake(), ComputeOptions{Cores: cores}}, tc.src)
			if st != tc.status || !strings.Contains(reason, tc.reason) {
				t.Errorf("%s (cores %s): %v %q, want %v containing %q", tc.name, cores, st, reason, tc.status, tc.reason)
			}
		}
	}
	// Without STRICT such a test passes on the IR executor and says so.
	if st, reason := execText(t, &computeFake{newFake(), ComputeOptions{Cores: config.CoresISA}}, sampled); st != Pass ||
		!strings.Contains(reason, "on the IR executor, not machine code: codegen: compute-stage texture") {
		t.Errorf("isa sampled texture: %v %q, want a pass naming the fallback", st, reason)
	}
	// Under STRICT a program that does not compile to machine code fails its test.
	st, reason := execText(t, &computeFake{newFake(), ComputeOptions{Cores: config.CoresISA, Strict: true}}, sampled)
	if st != Fail || !strings.Contains(reason, "STRICT") || !strings.Contains(reason, "texture op sample") {
		t.Errorf("strict sampled texture: %v %q, want a failure naming STRICT and texture op sample", st, reason)
	}
	// texelFetch compiles: under STRICT the same test with a fetch passes as
	// machine code (spec: vortexpipe-driver.md §3.6; docs/ABI.md row 45).
	fetched := strings.Replace(sampled, "texture(tex, (vec2(p) + 0.5) / 4.0)", "texelFetch(tex, p, 0)", 1)
	if st, reason := execText(t, &computeFake{newFake(), ComputeOptions{Cores: config.CoresISA, Strict: true}}, fetched); st != Pass {
		t.Errorf("strict fetched texture: %v %q, want a pass as machine code", st, reason)
	}
}

// computeFake is a fake back end that chooses the compute options.
type computeFake struct {
	*fakeBackend
	opts ComputeOptions
}

func (b *computeFake) ComputeOptions() ComputeOptions { return b.opts }
