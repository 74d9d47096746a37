package codegen

import (
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/shader/ir"
)

// TestRefusals: what the backend does not implement is refused with an error that
// names the IR op (or the missing feature), never compiled to a wrong sequence.
func TestRefusals(t *testing.T) {
	// Every pure op of a compute program has a sequence now; an op the backend
	// does not generate (here a fragment output in a hand-built compute program)
	// is refused by name.
	exp := &ir.Program{Stage: ir.Compute, LocalSize: [3]uint32{1, 1, 1}, InputWords: ir.ComputeInputWords,
		Code: []ir.Inst{{Op: ir.Export, Dst: ir.NoReg, Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}}}}
	if _, err := Compile(exp); err == nil || !strings.Contains(err.Error(), "export") {
		t.Errorf("export in a compute program: %v, want a refusal naming it", err)
	}
	img := compileCS(t, "image", `#version 430
layout(local_size_x = 4) in;
layout(rgba8, binding = 0) uniform image2D img;
void main() { imageStore(img, ivec2(gl_GlobalInvocationID.xy), vec4(float(gl_GlobalInvocationID.x))); }`)
	if _, err := Compile(img); err != nil {
		t.Errorf("rgba8 image store: %v", err)
	}
	img16 := compileCS(t, "image16", `#version 430
layout(local_size_x = 4) in;
layout(rgba16f, binding = 0) uniform image2D img;
void main() { imageStore(img, ivec2(gl_GlobalInvocationID.xy), vec4(float(gl_GlobalInvocationID.x))); }`)
	if _, err := Compile(img16); err != nil {
		t.Errorf("rgba16f image store: %v", err)
	}
	tex := compileCS(t, "tex", `#version 430
layout(local_size_x = 4) in;
layout(std430, binding = 1) buffer Out { vec4 o[]; };
uniform sampler2D s;
void main() { o[0] = textureLod(s, vec2(0.5), 0.0); }`)
	if _, err := Compile(tex); err == nil || !strings.Contains(err.Error(), "texture op samplelod") {
		t.Errorf("texture: error %v", err)
	}
	vs := &ir.Program{Stage: ir.Vertex}
	if _, err := Compile(vs); err == nil || !strings.Contains(err.Error(), "only compute") {
		t.Errorf("vertex program: error %v", err)
	}
	ftz := compileCS(t, "ftz", hdr+"layout(local_size_x = 4) in;\nvoid main() { o[0] = a[0]; }")
	ftz.FlushDenormals = true
	if _, err := Compile(ftz); err == nil || !strings.Contains(err.Error(), "denormals") {
		t.Errorf("flushing program: error %v", err)
	}
	if _, err := Compile(nil); err == nil {
		t.Errorf("nil program compiled")
	}
	bad := &ir.Program{Stage: ir.Compute, LocalSize: [3]uint32{1, 1, 1}, InputWords: ir.ComputeInputWords,
		Code: []ir.Inst{{Op: ir.If, Src: [4]ir.Reg{7, ir.NoReg, ir.NoReg, ir.NoReg}}}}
	if _, err := Compile(bad); err == nil {
		t.Errorf("unverifiable program compiled")
	}
}

// TestDispatchBase: gl_WorkGroupID and gl_GlobalInvocationID include the dispatch
// base of arg slots 2/3 (vortexpipe-driver §2.3.2), as the executor's do.
func TestDispatchBase(t *testing.T) {
	c := corpus[len(corpus)-1] // ids_3d
	p := compileCS(t, c.name, c.src)
	k, err := Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	bufs := map[Binding][]byte{{Kind: abi.DescStorageBuffer, Slot: 0}: make([]byte, 64), {Kind: abi.DescStorageBuffer, Slot: 1}: make([]byte, 4*4096)}
	l := &Launch{Groups: [3]uint32{1, 2, 1}, Base: [3]uint32{1, 0, 1}, Threads: 4, Buffers: cloneBufs(bufs)}
	ref := &Launch{Groups: l.Groups, Base: l.Base, Threads: 4, Buffers: cloneBufs(bufs)}
	if err := runIR(p, ref); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(k, l); err != nil {
		t.Fatal(err)
	}
	compareBufs(t, describe(l), ref.Buffers, l.Buffers)
}

// TestMissingBinding: a binding the blob lacks has size 0 (robust access: loads
// read 0, stores are dropped), on both sides.
func TestMissingBinding(t *testing.T) {
	c := corpus[0]
	p := compileCS(t, c.name, c.src)
	k, err := Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	bufs := map[Binding][]byte{{Kind: abi.DescStorageBuffer, Slot: 1}: make([]byte, 4*1024)}
	l := &Launch{Groups: c.groups, Threads: 8, Buffers: cloneBufs(bufs)}
	ref := &Launch{Groups: c.groups, Threads: 8, Buffers: cloneBufs(bufs)}
	if err := runIR(p, ref); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(k, l); err != nil {
		t.Fatal(err)
	}
	compareBufs(t, describe(l), ref.Buffers, l.Buffers)
}
