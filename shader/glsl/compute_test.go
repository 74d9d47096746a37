package glsl

import (
	"strings"
	"testing"

	"vortexgfx/shader/glsl/types"
)

// computeOK are compute shaders the front end must accept. spec: GLSL 4.50 §4.3.7
// (shared), §4.3.9 (buffer blocks), §4.4.1.4 (local size), §8.11-§8.17.
var computeOK = []struct{ name, src string }{
	{"minimal", "#version 430\nlayout(local_size_x = 64) in;\nvoid main() {}\n"},
	{"row-major-matrix", "#version 430\nlayout(local_size_x = 1) in;\nlayout(std430, row_major) buffer B { mat2 m; };\nvoid main() { m[1][0] = 1.0; }\n"},
	{"implicit-middle", "#version 430\nlayout(local_size_x = 1) in;\nlayout(std430) buffer B { int a[]; int b[]; };\nvoid main() { a[3] = b.length(); }\n"},
	{"es", "#version 310 es\nlayout(local_size_x = 8, local_size_y = 8) in;\nvoid main() {}\n"},
	{"builtins", `#version 430
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(std430, binding = 0) buffer Out { uint v[]; } o;
void main() {
	uvec3 g = gl_GlobalInvocationID + gl_LocalInvocationID + gl_WorkGroupID + gl_NumWorkGroups;
	const uvec3 s = gl_WorkGroupSize;
	o.v[gl_LocalInvocationIndex] = g.x + s.x * s.y * s.z;
}
`},
	{"shared-barrier", `#version 430
layout(local_size_x = 32) in;
shared float tmp[32];
shared uint count;
layout(std430, binding = 1) buffer Data { float data[]; };
void main() {
	tmp[gl_LocalInvocationIndex] = data[gl_GlobalInvocationID.x];
	memoryBarrierShared();
	barrier();
	groupMemoryBarrier();
	memoryBarrier();
	atomicAdd(count, 1u);
	data[gl_GlobalInvocationID.x] = tmp[31u - gl_LocalInvocationIndex] + float(data.length());
}
`},
	{"atomics", `#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 0) coherent buffer B { int i; uint u; int arr[4]; } b;
shared int s;
void main() {
	int a = atomicAdd(b.i, 1) + atomicMin(b.arr[2], 3) + atomicMax(s, 4) + atomicCompSwap(b.i, 1, 2);
	uint c = atomicAnd(b.u, 1u) | atomicOr(b.u, 2u) | atomicXor(b.u, 3u) | atomicExchange(b.u, 4u);
	b.i = a + int(c);
}
`},
	{"images", `#version 430
layout(local_size_x = 8, local_size_y = 8) in;
layout(rgba8, binding = 0) readonly uniform image2D src;
layout(rgba32f, binding = 1) writeonly uniform image2D dst;
layout(r32ui, binding = 2) uniform uimage2D hist;
layout(r32i, binding = 3) uniform iimage3D vol;
layout(rgba16f, binding = 4) uniform image2DArray layers;
void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	vec4 c = imageLoad(src, p);
	imageStore(dst, p, c);
	imageAtomicAdd(hist, p, 1u);
	int old = imageAtomicCompSwap(vol, ivec3(p, 0), 0, 1) + imageAtomicExchange(vol, ivec3(0), 5);
	ivec2 sz = imageSize(src);
	ivec3 lz = imageSize(layers);
	imageStore(layers, ivec3(p, 1), imageLoad(layers, ivec3(p, 0)) + vec4(sz, lz.z, old));
}
`},
	{"counters", `#version 430
layout(local_size_x = 16) in;
layout(binding = 0, offset = 4) uniform atomic_uint next;
layout(binding = 0) uniform atomic_uint other;
layout(std430, binding = 1) buffer Out { uint slot[]; };
void main() {
	uint i = atomicCounterIncrement(next);
	slot[i] = atomicCounter(other) + atomicCounterDecrement(other);
}
`},
	{"row-major-no-matrix", "#version 430\nlayout(local_size_x = 1) in;\nlayout(std430, row_major) buffer B { vec4 v; };\nvoid main() { v = vec4(1.0); }\n"},
	{"std430-struct", `#version 430
layout(local_size_x = 1) in;
struct P { vec3 pos; float w; vec2 uv; };
layout(std430, binding = 2) readonly buffer In { mat3 m; P ps[]; } inb;
layout(std430, binding = 3) writeonly buffer O { vec4 r[]; };
void main() { r[0] = vec4(inb.m * inb.ps[1].pos, inb.ps[inb.ps.length() - 1].uv.y); }
`},
}

// computeBad are shaders the front end must reject, with a fragment of the message.
var computeBad = []struct{ name, src, want string }{
	{"no-local-size", "#version 430\nvoid main() {}\n", "local_size"},
	{"zero", "#version 430\nlayout(local_size_x = 0) in;\nvoid main() {}\n", "at least 1"},
	{"conflict", "#version 430\nlayout(local_size_x = 2) in;\nlayout(local_size_x = 4) in;\nvoid main() {}\n", "conflicts"},
	{"too-big", "#version 430\nlayout(local_size_x = 1024, local_size_y = 2) in;\nvoid main() {}\n", "gl_MaxComputeWorkGroupInvocations"},
	{"old-version", "#version 420\nlayout(local_size_x = 1) in;\nvoid main() {}\n", ""},
	{"shared-init", "#version 430\nlayout(local_size_x = 1) in;\nshared int s = 1;\nvoid main() {}\n", "cannot be initialized"},
	{"shared-local", "#version 430\nlayout(local_size_x = 1) in;\nvoid main() { shared int s; }\n", "global scope"},
	{"buffer-var", "#version 430\nlayout(local_size_x = 1) in;\nbuffer int x;\nvoid main() {}\n", "storage block"},
	{"atomic-local", "#version 430\nlayout(local_size_x = 1) in;\nvoid main() { int x = 0; atomicAdd(x, 1); }\n", "buffer or shared"},
	{"atomic-float", "#version 430\nlayout(local_size_x = 1) in;\nshared float f;\nvoid main() { atomicAdd(f, 1.0); }\n", "no matching overload"},
	{"readonly-store", "#version 430\nlayout(local_size_x = 1) in;\nlayout(std430) readonly buffer B { int x; };\nvoid main() { x = 1; }\n", "read"},
	{"readonly-member", "#version 430\nlayout(local_size_x = 1) in;\nlayout(std430) buffer B { readonly int x; } b;\nvoid main() { b.x = 1; }\n", "readonly"},
	{"readonly-atomic", "#version 430\nlayout(local_size_x = 1) in;\nlayout(std430) buffer B { readonly int x; };\nvoid main() { atomicAdd(x, 1); }\n", "read"},
	{"unsized-middle", "#version 430\nlayout(local_size_x = 1) in;\nlayout(std430) buffer B { int a[]; int b; };\nvoid main() {}\n", "not the last member, and no constant index sizes it"},
	{"image-no-format", "#version 430\nlayout(local_size_x = 1) in;\nuniform image2D img;\nvoid main() {}\n", "format"},
	{"image-format-base", "#version 430\nlayout(local_size_x = 1) in;\nlayout(r32f) uniform uimage2D img;\nvoid main() {}\n", "does not match"},
	{"image-writeonly-load", "#version 430\nlayout(local_size_x = 1) in;\nlayout(rgba8) writeonly uniform image2D img;\nvoid main() { vec4 c = imageLoad(img, ivec2(0)); }\n", "writeonly"},
	{"image-readonly-store", "#version 430\nlayout(local_size_x = 1) in;\nlayout(rgba8) readonly uniform image2D img;\nvoid main() { imageStore(img, ivec2(0), vec4(1)); }\n", "readonly"},
	{"image-atomic-float", "#version 430\nlayout(local_size_x = 1) in;\nlayout(rgba32ui) uniform uimage2D img;\nvoid main() { imageAtomicAdd(img, ivec2(0), 1u); }\n", "r32ui"},
	{"image-coords", "#version 430\nlayout(local_size_x = 1) in;\nlayout(rgba8) uniform image2D img;\nvoid main() { imageLoad(img, ivec3(0)); }\n", "no matching overload"},
	{"memory-qual-plain", "#version 430\nlayout(local_size_x = 1) in;\nreadonly int x;\nvoid main() {}\n", "memory qualifiers"},
	{"barrier-in-fragment", "#version 430\nout vec4 c;\nvoid main() { barrier(); c = vec4(0); }\n", "barrier"},
	{"shared-in-fragment", "#version 430\nshared int s;\nout vec4 c;\nvoid main() { c = vec4(0); }\n", "compute"},
	{"local-size-in-fragment", "#version 430\nlayout(local_size_x = 2) in;\nout vec4 c;\nvoid main() { c = vec4(0); }\n", "compute"},
	{"workgroupsize-before", "#version 430\nconst uvec3 s = gl_WorkGroupSize;\nlayout(local_size_x = 2) in;\nvoid main() {}\n", "gl_WorkGroupSize"},
	{"es-image-readwrite", "#version 310 es\nlayout(local_size_x = 1) in;\nlayout(rgba8) uniform highp image2D img;\nvoid main() {}\n", "readonly or writeonly"},
	{"member-offset-misaligned", "#version 440\nlayout(local_size_x = 1) in;\nlayout(std430) buffer B { layout(offset = 6) vec2 v; };\nvoid main() {}\n", "alignment"},
	{"member-offset-overlap", "#version 440\nlayout(local_size_x = 1) in;\nlayout(std430) buffer B { vec4 a; layout(offset = 8) float f; };\nvoid main() {}\n", "overlaps"},
	{"counter-offset", "#version 430\nlayout(local_size_x = 1) in;\nlayout(binding = 0, offset = 2) uniform atomic_uint c;\nvoid main() {}\n", "multiple of 4"},
	{"compute-with-vertex", "", "cannot be linked"},
	{"compute-in", "#version 430\nlayout(local_size_x = 1) in;\nin vec4 x;\nvoid main() {}\n", "no 'in' variables"},
	{"compute-out", "#version 430\nlayout(local_size_x = 1) in;\nout vec4 x;\nvoid main() {}\n", "no 'out' variables"},
}

func compileCompute(src string) error {
	s, err := Compile("t.comp", src, Compute, Options{})
	if err != nil {
		return err
	}
	_, err = LinkShaders(s)
	return err
}

func TestComputeFrontEnd(t *testing.T) {
	for _, tc := range computeOK {
		if err := compileCompute(tc.src); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		s, _ := Compile("t.comp", tc.src, Compute, Options{})
		if err := types.Verify(s.File); err != nil {
			t.Errorf("%s: checked tree breaks the contract: %v", tc.name, err)
		}
	}
	for _, tc := range computeBad {
		var err error
		switch tc.name {
		case "compute-with-vertex":
			cs, e1 := Compile("t.comp", computeOK[0].src, Compute, Options{})
			vs, e2 := Compile("t.vert", "#version 430\nvoid main() { gl_Position = vec4(0); }\n", Vertex, Options{})
			if e1 != nil || e2 != nil {
				t.Fatalf("%v %v", e1, e2)
			}
			_, err = LinkShaders(cs, vs)
		case "barrier-in-fragment", "shared-in-fragment", "local-size-in-fragment":
			_, err = Compile("t.frag", tc.src, Fragment, Options{})
		default:
			err = compileCompute(tc.src)
		}
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q does not mention %q", tc.name, err, tc.want)
		}
	}
}

// TestComputeLinkLocalSize checks the local size rules across compute units.
func TestComputeLinkLocalSize(t *testing.T) {
	unit := func(decl, body string) *Shader {
		s, err := Compile("u.comp", "#version 430\n"+decl+"\n"+body+"\n", Compute, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	main := "void foo();\nvoid main() { foo(); }"
	foo := "void foo() {}"
	for _, tc := range []struct {
		a, b string
		want string // "" = links
		size [3]int
	}{
		{"layout(local_size_x = 2) in;", "layout(local_size_x = 2, local_size_y = 1) in;", "", [3]int{2, 1, 1}},
		{"layout(local_size_x = 2) in;", "", "", [3]int{2, 1, 1}},
		{"", "layout(local_size_z = 3) in;", "", [3]int{1, 1, 3}},
		{"layout(local_size_x = 2) in;", "layout(local_size_y = 2) in;", "conflicts", [3]int{}},
		{"", "", "no layout(local_size", [3]int{}},
	} {
		p, err := LinkShaders(unit(tc.a, main), unit(tc.b, foo))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q + %q: %v", tc.a, tc.b, err)
		case tc.want == "" && p.LocalSize != tc.size:
			t.Errorf("%q + %q: local size %v, want %v", tc.a, tc.b, p.LocalSize, tc.size)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q + %q: error %v, want %q", tc.a, tc.b, err, tc.want)
		}
	}
}
