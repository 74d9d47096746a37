package lower

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// TestComputeLayout checks the compute layout a lowered program exposes to the
// dispatcher: local size, shared bytes, storage buffers (binding, std430 fixed
// size, runtime stride, access), images and atomic counters, and the built-in
// input words. spec: vortexpipe-driver §2.5 (descriptor table: kind, elem_bytes,
// writable).
func TestComputeLayout(t *testing.T) {
	src := `#version 430
layout(local_size_x = 8, local_size_y = 4) in;
layout(std430, binding = 2) readonly buffer In { uint n; vec3 p; uvec2 items[]; } inb;
layout(std430, binding = 5) writeonly buffer Out { mat3 m; float r[]; };
layout(std140, binding = 1) buffer Both { float a[2]; vec4 c; };
shared float tile[8][4];
shared uint count;
layout(rgba8, binding = 3) readonly uniform image2D src;
layout(r32ui, binding = 4) uniform uimage3D vol;
layout(binding = 1, offset = 8) uniform atomic_uint k;
uniform float scale;
void main() {
	tile[gl_LocalInvocationID.x][gl_LocalInvocationID.y] = float(inb.items[gl_GlobalInvocationID.x].y) * scale + a[1] + c.w;
	barrier();
	r[gl_LocalInvocationIndex] = tile[0][1] + imageLoad(src, ivec2(0)).x + float(imageAtomicAdd(vol, ivec3(1), 1u) + atomicCounterIncrement(k) + count + inb.n);
	m[0] = inb.p;
	c = vec4(0.0);
}
`
	p, err := compileCompute("t.comp", src, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Stage != ir.Compute || p.LocalSize != [3]uint32{8, 4, 1} || p.InputWords != ir.ComputeInputWords {
		t.Errorf("stage %v local size %v inputs %d", p.Stage, p.LocalSize, p.InputWords)
	}
	if p.SharedBytes != 8*4*4+4 {
		t.Errorf("shared bytes %d, want %d", p.SharedBytes, 8*4*4+4)
	}
	wantBuf := []ir.BufferBinding{
		{Name: "In", Binding: 2, Fixed: 32, Stride: 8, ReadOnly: true},
		{Name: "Out", Binding: 5, Fixed: 48, Stride: 4, WriteOnly: true},
		{Name: "Both", Binding: 1, Fixed: 48},
	}
	if !reflect.DeepEqual(p.Buffers, wantBuf) {
		t.Errorf("buffers\n %+v\nwant\n %+v", p.Buffers, wantBuf)
	}
	wantImg := []ir.ImageBinding{
		{Name: "src", Binding: 3, Dim: ir.Image2D, Format: ir.FormatRGBA8, ReadOnly: true},
		{Name: "vol", Binding: 4, Dim: ir.Image3D, Format: ir.FormatR32UI},
	}
	if !reflect.DeepEqual(p.Images, wantImg) {
		t.Errorf("images %+v, want %+v", p.Images, wantImg)
	}
	if want := []ir.CounterBinding{{Name: "k", Binding: 1, Offset: 8, Count: 1}}; !reflect.DeepEqual(p.Counters, want) {
		t.Errorf("counters %+v, want %+v", p.Counters, want)
	}
	if p.UniformWords != 1 || len(p.Samplers) != 0 {
		t.Errorf("uniform words %d samplers %d, want 1 and 0", p.UniformWords, len(p.Samplers))
	}
	words := map[string]int{}
	for _, s := range p.Inputs {
		words[s.Name] = s.Word
	}
	want := map[string]int{"gl_LocalInvocationID": ir.InLocalID, "gl_WorkGroupID": ir.InWorkGroupID,
		"gl_NumWorkGroups": ir.InNumWorkGroups, "gl_GlobalInvocationID": ir.InGlobalID, "gl_LocalInvocationIndex": ir.InLocalIndex}
	if !reflect.DeepEqual(words, want) {
		t.Errorf("input words %v, want %v", words, want)
	}
	if !strings.Contains(p.String(), "barrier") || !strings.Contains(p.String(), "matomic") {
		t.Errorf("printed program lacks barrier or atomic:\n%s", p)
	}
}

// TestComputeFuzzSeeds checks that the checked-in fuzz seeds exercise the compute
// paths: every seed but the last (a conflicting local size) compiles.
func TestComputeFuzzSeeds(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzCompute")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(b), "\n", 2)
		lit := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(lines[1]), "string("), ")"))
		src, err := strconv.Unquote(lit)
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		_, err = compileCompute(e.Name(), src, glsl.Options{})
		if bad := strings.Contains(src, "local_size_x = 3"); (err != nil) != bad {
			t.Errorf("%s: compile error %v", e.Name(), err)
		}
	}
}

// TestStorageOutsideCompute checks that vertex and fragment shaders lower storage
// blocks, images and atomic counters to memory instructions at their bindings
// (draws bind them: pipe/storage.go), and that geometry shaders, which nothing
// hands a Memory, are refused.
func TestStorageOutsideCompute(t *testing.T) {
	for _, src := range []string{
		"#version 430\nlayout(std430, binding = 2) buffer B { vec4 v[]; };\nout vec4 c;\nvoid main() { c = v[0]; v[1] = c; }\n",
		"#version 430\nlayout(rgba8, binding = 2) uniform image2D img;\nout vec4 c;\nvoid main() { c = imageLoad(img, ivec2(0)); }\n",
		"#version 430\nlayout(binding = 2) uniform atomic_uint a;\nout vec4 c;\nvoid main() { c = vec4(atomicCounterIncrement(a)); }\n",
	} {
		p, err := compileStage("t.frag", src, glsl.Fragment, glsl.Options{})
		if err != nil {
			t.Errorf("fragment shader with storage: %v", err)
			continue
		}
		n := len(p.Buffers) + len(p.Images) + len(p.Counters)
		if n != 1 || len(p.Buffers) == 1 && p.Buffers[0].Binding != 2 || len(p.Images) == 1 && p.Images[0].Binding != 2 || len(p.Counters) == 1 && p.Counters[0].Binding != 2 {
			t.Errorf("fragment shader bindings: buffers %+v images %+v counters %+v", p.Buffers, p.Images, p.Counters)
		}
	}
}

// TestComputeArrays checks arrays of buffer blocks (one binding per element,
// constant and run-time indices) and arrays of atomic counters (consecutive words).
func TestComputeArrays(t *testing.T) {
	src := `#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 3) buffer B { uint v[]; } bufs[2];
layout(binding = 1, offset = 4) uniform atomic_uint c[3];
layout(binding = 1) uniform atomic_uint after;
void main() {
	bufs[1].v[0] = bufs[0].v[1] + atomicCounterIncrement(c[2]) + atomicCounter(after);
}
`
	p, err := compileCompute("t.comp", src, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Buffers) != 2 || p.Buffers[0].Binding != 3 || p.Buffers[1].Binding != 4 || p.Buffers[1].Name != "B[1]" {
		t.Errorf("buffers %+v", p.Buffers)
	}
	want := []ir.CounterBinding{{Name: "c", Binding: 1, Offset: 4, Count: 3}, {Name: "after", Binding: 1, Offset: 16, Count: 1}}
	if !reflect.DeepEqual(p.Counters, want) {
		t.Errorf("counters %+v, want %+v", p.Counters, want)
	}
	// A run-time index (GLSL 4.00 on) loads from the element it selects: a
	// branch per element, each reading its own binding.
	dyn := strings.Replace(src, "bufs[0]", "bufs[int(atomicCounter(after))]", 1)
	q, err := compileCompute("t.comp", dyn, glsl.Options{})
	if err != nil {
		t.Fatalf("dynamic block index: %v", err)
	}
	loads := map[uint32]int{}
	for _, in := range q.Code {
		if in.Op == ir.MemLoad && ir.Space(in.Len) == ir.SpaceBuffer {
			loads[in.Imm]++
		}
	}
	if loads[3] != 1 || loads[4] != 1 {
		t.Errorf("dynamic block index: buffer loads by binding %v, want one from each of 3 and 4", loads)
	}
}

// TestComputeSharedLimit checks the gl_MaxComputeSharedMemorySize limit.
func TestComputeSharedLimit(t *testing.T) {
	src := "#version 430\nlayout(local_size_x = 1) in;\nshared vec4 big[2049];\nvoid main() { big[0] = vec4(1.0); }\n"
	if _, err := compileCompute("t.comp", src, glsl.Options{}); err == nil || !strings.Contains(err.Error(), "gl_MaxComputeSharedMemorySize") {
		t.Errorf("32 KiB + 16 of shared memory: %v", err)
	}
	ok := strings.Replace(src, "2049", "2048", 1)
	if _, err := compileCompute("t.comp", ok, glsl.Options{}); err != nil {
		t.Errorf("32 KiB of shared memory: %v", err)
	}
}

// TestComputeExplicitOffsets checks layout(offset) and layout(align) on storage
// block members. spec: GLSL 4.50 §4.4.5.
func TestComputeExplicitOffsets(t *testing.T) {
	src := `#version 440
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float a; layout(offset = 32) vec2 v; layout(align = 64) uint u; float rest[]; };
void main() { rest[0] = a + v.y + float(u); }
`
	p, err := compileCompute("t.comp", src, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// a at 0, v at 32, u at 64 (align 64), rest at 68, stride 4.
	if b := p.Buffers[0]; b.Fixed != 68 || b.Stride != 4 {
		t.Errorf("buffer %+v, want fixed 68 stride 4", b)
	}
}
