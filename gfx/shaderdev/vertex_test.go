package shaderdev

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/mem"
	"vortexgfx/gfx/frontend"
	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
)

// kernelRig is a bare device (no CP) with the front-end image loaded, for
// launching setup_k / binning_k on hand-made argument blocks.
type kernelRig struct {
	m     *mem.Device
	d     *device.Device
	base  uint64
	entry map[string]uint64
}

// launch runs kernel name over a 2-CTA grid of 4 threads with args at addr.
func (r *kernelRig) launch(name string, args uint64) error {
	pc := r.entry[name]
	for _, w := range []struct {
		a abi.DCR
		v uint32
	}{
		{abi.DCRStartupAddr0, uint32(r.base)}, {abi.DCRStartupAddr1, 0},
		{abi.DCRKernelEntry0, uint32(pc)}, {abi.DCRKernelEntry1, 0},
		{abi.DCRStartupArg0, uint32(args)}, {abi.DCRStartupArg1, uint32(args >> 32)},
		{abi.DCRBlockDimX, 4}, {abi.DCRBlockDimY, 1}, {abi.DCRBlockDimZ, 1},
		{abi.DCRGridDimX, 2}, {abi.DCRGridDimY, 1}, {abi.DCRGridDimZ, 1}, {abi.DCRLMemSize, 0}, {abi.DCRBlockSize, 4},
		{abi.DCRWarpStepX, 0}, {abi.DCRWarpStepY, 0}, {abi.DCRWarpStepZ, 0},
		{abi.DCRClusterDimX, 1}, {abi.DCRClusterDimY, 1}, {abi.DCRClusterDimZ, 1},
	} {
		if err := r.d.DCRWrite(w.a, w.v); err != nil {
			return err
		}
	}
	_, err := r.d.Launch(context.Background())
	return err
}

// newShaderRig is a bare device (no CP) with a compiled program's VS module
// loaded, for launching its vertex kernel and expand_k on hand-made argument
// blocks.
func newShaderRig(t testing.TB) (*kernelRig, *Program) {
	t.Helper()
	cp, err := shader.Compile(shader.Source{Name: "f.vert", Stage: glsl.Vertex, Text: `#version 140
uniform mat4 u_m;
in vec4 a_pos;
in vec3 a_col;
out vec3 v_col;
flat out int v_id;
void main() { gl_Position = u_m * a_pos; v_col = a_col; v_id = gl_VertexID + gl_InstanceID; }`},
		shader.Source{Name: "f.frag", Stage: glsl.Fragment, Text: `#version 140
in vec3 v_col;
flat in int v_id;
out vec4 o;
void main() { o = vec4(v_col, float(v_id)); }`})
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewProgram("fuzz.prog", cp.IR)
	if err != nil {
		t.Fatal(err)
	}
	m := mem.NewDevice(0x1000_0000, 1<<22)
	lib := device.NewLibrary()
	if err := sp.Register(lib); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Device.Threads, cfg.Device.Warps = 4, 1
	d, err := device.New(cfg, m, lib)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	img, err := sp.VSImage()
	if err != nil {
		t.Fatal(err)
	}
	ents, err := abi.DecodeKernelImage(img)
	if err != nil {
		t.Fatal(err)
	}
	base, err := m.Alloc(uint64(len(img)), 64)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Write(base, img); err != nil {
		t.Fatal(err)
	}
	r := &kernelRig{m: m, d: d, base: base, entry: map[string]uint64{}}
	for _, e := range ents {
		r.entry[e.Name] = base + uint64(e.EntryOffset)
	}
	return r, sp
}

// FuzzShaderKernelArgs: a compiled program's vertex kernel and expand_k given
// an arbitrary argument block (and whatever memory its addresses name) fail
// with an error or finish; they never panic the simulator or run unbounded.
// The seeds name unmapped buffers (a fault) and an all-zero block. spec: vortexpipe §2.5
func FuzzShaderKernelArgs(f *testing.F) {
	good := make([]byte, 8*abi.ArgSlots)
	for i, v := range []uint64{0x1000_0000 + 1<<20, 0x1000_0000 + 1<<21, 0, 0, 0, 0, 2, 0, 0x1000_0000 + 3<<20} {
		binary.LittleEndian.PutUint64(good[8*i:], v)
	}
	f.Add(good, false)
	f.Add(good, true)
	f.Add(make([]byte, 8*abi.ArgSlots), false)
	f.Fuzz(func(t *testing.T, blk []byte, expand bool) {
		r, _ := newShaderRig(t)
		args, err := r.m.Alloc(8*abi.ArgSlots, 64)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 8*abi.ArgSlots)
		copy(b, blk)
		// Keep counts small so a run stays short; addresses stay arbitrary.
		for _, slot := range []int{abi.ArgVSCount, 2} {
			if expand == (slot == 2) {
				binary.LittleEndian.PutUint64(b[8*slot:], binary.LittleEndian.Uint64(b[8*slot:])%64)
			}
		}
		if err := r.m.Write(args, b); err != nil {
			t.Fatal(err)
		}
		name := "main"
		if expand {
			name = "expand_k"
		}
		_ = r.launch(name, args) // an error is fine; a panic or hang is not
	})
}

// TestShaderKernelsOnDevice runs the vertex kernel and expand_k on a bare
// device over two vertices and checks the records: gl_Position from the
// uniform matrix, the colour varying packed onto the first three planes and
// the flat gl_VertexID + gl_InstanceID word in the flat side words.
// spec: vortexpipe §3.2 step 1
func TestShaderKernelsOnDevice(t *testing.T) {
	r, sp := newShaderRig(t)
	alloc := func(n int) uint64 {
		a, err := r.m.Alloc(uint64(n), 64)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	attr, table, recs, verts := alloc(56), alloc(abi.VSAttribTableLocs*abi.VSAttribEntryBytes), alloc(2*4*sp.prog.VS.OutputWords), alloc(2*frontend.CompiledVertexBytes)
	desc, ub := alloc(8*abi.FSDescSlots), alloc(4*sp.UniformWords())
	put := func(addr uint64, words ...uint32) {
		b := make([]byte, 4*len(words))
		for i, w := range words {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		if err := r.m.Write(addr, b); err != nil {
			t.Fatal(err)
		}
	}
	put64 := func(addr uint64, v ...uint64) {
		b := make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(b[8*i:], x)
		}
		if err := r.m.Write(addr, b); err != nil {
			t.Fatal(err)
		}
	}
	f := math.Float32bits
	// Two vertices of {a_pos xyzw, a_col rgb}, interleaved (7 words).
	put(attr, f(1), f(2), f(3), f(1), f(0.25), f(0.5), f(0.75), f(-1), f(0), f(1), f(2), f(1), f(0), f(0.5))
	attrs := sp.Attributes()
	if len(attrs) != 2 {
		t.Fatalf("%d attributes", len(attrs))
	}
	for i, s := range attrs {
		off := uint64(0)
		if s.Name == "a_col" {
			off = 16
		}
		put64(table+uint64(i)*abi.VSAttribEntryBytes, attr+off, 28, 0)
	}
	// u_m = 2·identity.
	m := make([]uint32, sp.UniformWords())
	for i := range 4 {
		m[5*i] = f(2)
	}
	put(ub, m...)
	put64(desc, ub)
	args := make([]uint64, abi.ArgSlots)
	args[abi.ArgVSOutput], args[abi.ArgVSAttribTable], args[abi.ArgVSCount], args[abi.ArgVSDescTable] = recs, table, 2, desc
	args[abi.ArgVSVertsPerInst], args[abi.ArgVSBaseVertex] = 1, 0 // two instances of one vertex
	argAddr := alloc(8 * abi.ArgSlots)
	put64(argAddr, args...)
	if err := r.launch("main", argAddr); err != nil {
		t.Fatal(err)
	}
	ow := uint64(sp.prog.VS.OutputWords)
	exArgs := alloc(8 * ExpandArgSlots)
	put64(exArgs, recs, verts, 2, ow)
	if err := r.launch("expand_k", exArgs); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 2*frontend.CompiledVertexBytes)
	if err := r.m.Read(verts, got); err != nil {
		t.Fatal(err)
	}
	w := func(v, i int) uint32 { return binary.LittleEndian.Uint32(got[v*frontend.CompiledVertexBytes+4*i:]) }
	// Instance k reads vertex 0 (verts-per-instance 1, per-vertex attributes):
	// position 2·(1,2,3,1), colour (0.25, 0.5, 0.75), flat id 0 + k.
	for v := range 2 {
		want := []uint32{f(2), f(4), f(6), f(2), f(0.25), f(0.5), f(0.75)}
		for i, x := range want {
			if w(v, i) != x {
				t.Errorf("vertex %d word %d = %#x, want %#x", v, i, w(v, i), x)
			}
		}
		if id := w(v, frontend.CompiledFlatOffset/4); id != uint32(v) {
			t.Errorf("vertex %d flat id %d, want %d", v, id, v)
		}
	}
	if sp.NVar() != 3 || sp.NFlat() != 1 {
		t.Errorf("%d planes, %d flat words; want 3 and 1", sp.NVar(), sp.NFlat())
	}
}
