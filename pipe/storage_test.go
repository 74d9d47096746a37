package pipe

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/gl/format"
	"vortexgfx/shader/ir"
)

// orderFS numbers its fragments with an atomic counter and records, at each
// number, which pixel took it: the side-effect order made visible.
const orderFS = `#version 330
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shader_atomic_counters : require
layout(binding = 0, offset = 0) uniform atomic_uint n;
layout(std430, binding = 1) buffer Order { uint pixel[]; };
in vec4 v_col;
out vec4 o_col;
void main() {
	uint i = atomicCounterIncrement(n);
	pixel[i] = uint(gl_FragCoord.y) * 32u + uint(gl_FragCoord.x);
	o_col = vec4(float(i & 255u) / 255.0, 0.0, 0.0, 1.0);
}
`

// storageEnv is a draw environment with orderFS's counter and order buffers.
func storageEnv(t *testing.T, o Options, fs string) (*drawEnv, *Resource, *Resource) {
	t.Helper()
	e := newDrawEnv(t, o, false)
	e.program(t, testVS, fs)
	counter, err := e.s.CreateBuffer(4)
	if err != nil {
		t.Fatal(err)
	}
	order, err := e.s.CreateBuffer(4 * e.w * e.h)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.c.SetStorageBindings([]StorageBinding{{Kind: abi.DescAtomicCounter, Slot: 0, Resource: counter},
		{Kind: abi.DescStorageBuffer, Slot: 1, Resource: order}}); err != nil {
		t.Fatal(err)
	}
	return e, counter, order
}

func readAll(t *testing.T, r *Resource) []byte {
	t.Helper()
	b := make([]byte, r.Size())
	if err := r.Read(0, b); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStorageDrawOrderDeterministic: a fragment shader with atomics and
// storage-buffer stores runs once per fragment (the counter ends at the pixel
// count, the order buffer holds every pixel once), its draw on a device
// screen is gated with GateStorage and counted, STRICT refuses it naming the
// reason, and the counter, buffer and image are the same bytes with 1, 2 and 4
// reference workers (ref.FragmentOrdered: one worker, serial order).
func TestStorageDrawOrderDeterministic(t *testing.T) {
	info := &DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}
	var first [3][]byte
	for k, workers := range []int{1, 2, 4} {
		e, counter, order := storageEnv(t, Options{}, orderFS)
		e.c.SetReferenceConfig(ReferenceConfig{Workers: workers})
		e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, 1, 1)...)
		if !e.c.fs.Desc.Info.Storage {
			t.Fatal("ShaderInfo.Storage not set for a fragment shader with a buffer block")
		}
		decs, err := e.c.Where(info)
		if err != nil {
			t.Fatal(err)
		}
		if len(decs) != 1 || !decs[0].Reference || decs[0].Gates[0].Code != GateStorage {
			t.Fatalf("Where: %+v, want the draw gated by GateStorage", decs)
		}
		if err := e.c.DrawVBO(info); err != nil {
			t.Fatal(err)
		}
		if err := e.c.Finish(); err != nil {
			t.Fatal(err)
		}
		if st := e.c.Stats(); st.Fallbacks[GateStorage] != 1 {
			t.Errorf("stats %+v: want one draw gated by GateStorage", st)
		}
		got := [3][]byte{readAll(t, counter), readAll(t, order), readAll(t, e.rt)}
		if n := binary.LittleEndian.Uint32(got[0]); n != uint32(e.w*e.h) {
			t.Errorf("%d workers: counter %d, want %d (one increment per fragment)", workers, n, e.w*e.h)
		}
		seen := map[uint32]bool{}
		for i := 0; i < e.w*e.h; i++ {
			seen[binary.LittleEndian.Uint32(got[1][4*i:])] = true
		}
		if len(seen) != e.w*e.h {
			t.Errorf("%d workers: the order buffer names %d distinct pixels, want %d", workers, len(seen), e.w*e.h)
		}
		if k == 0 {
			first = got
			continue
		}
		for i, what := range []string{"counter", "order buffer", "image"} {
			if !bytes.Equal(first[i], got[i]) {
				t.Errorf("%d workers: the %s differs from 1 worker's", workers, what)
			}
		}
	}

	s, _, _ := storageEnv(t, Options{Strict: true}, orderFS)
	s.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, 1, 1)...)
	var se *StrictError
	if err := s.c.DrawVBO(info); !errors.As(err, &se) || se.Reasons[0].Code != GateStorage {
		t.Fatalf("STRICT: %v, want a *StrictError naming GateStorage", err)
	}
}

// helperFS needs its quads' helpers (dFdx) and discards the left half; the
// pixels that survive mark themselves and count.
const helperFS = `#version 330
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shader_atomic_counters : require
layout(binding = 0, offset = 0) uniform atomic_uint n;
layout(std430, binding = 1) buffer Marks { uint mark[]; };
in vec4 v_col;
out vec4 o_col;
void main() {
	float d = dFdx(gl_FragCoord.x);
	if (gl_FragCoord.x < 16.0)
		discard;
	mark[uint(gl_FragCoord.y) * 32u + uint(gl_FragCoord.x)] = 1u;
	atomicCounterIncrement(n);
	o_col = vec4(0.0, d, 1.0, 1.0);
}
`

// TestStorageHelpersAndDiscardDoNotWrite: a triangle whose edge cuts quads
// (so helper lanes run for dFdx) with a discard: exactly the pixels written
// to the framebuffer marked the buffer and counted; helpers and discarded
// fragments wrote nothing. spec: GLSL 4.60 §7.1.2, ARB_shader_image_load_store.
func TestStorageHelpersAndDiscardDoNotWrite(t *testing.T) {
	e, counter, marks := storageEnv(t, Options{}, helperFS)
	e.posCol(t, 0.9, -0.95, 0, 1, 1, 1, 1, 1,
		-0.95, 0.93, 0, 1, 1, 1, 1, 1,
		0.97, 0.97, 0, 1, 1, 1, 1, 1)
	if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}}); err != nil {
		t.Fatal(err)
	}
	if err := e.c.Finish(); err != nil {
		t.Fatal(err)
	}
	img, m := readAll(t, e.rt), readAll(t, marks)
	written := 0
	for p := 0; p < e.w*e.h; p++ {
		w := img[4*p+2] == 255 // blue: the shader wrote the pixel
		mk := binary.LittleEndian.Uint32(m[4*p:]) == 1
		if w {
			written++
		}
		if w != mk {
			t.Errorf("pixel (%d,%d): written %v, marked %v", p%e.w, p/e.w, w, mk)
		}
	}
	if written == 0 || written == e.w*e.h/2 {
		t.Fatalf("%d pixels written: the triangle should cover part of the right half", written)
	}
	if n := binary.LittleEndian.Uint32(readAll(t, counter)); n != uint32(written) {
		t.Errorf("counter %d, want %d (the written pixels)", n, written)
	}
}

// TestStorageBindingErrors: bindings of the wrong resource, kind or image
// format are refused naming them, and a draw whose program declares a binding
// nothing is bound to fails naming it.
func TestStorageBindingErrors(t *testing.T) {
	e := newDrawEnv(t, Options{}, false)
	buf, err := e.s.CreateBuffer(16)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		b    StorageBinding
		want string
	}{
		{StorageBinding{Kind: abi.DescStorageBuffer, Slot: 3}, "no resource"},
		{StorageBinding{Kind: abi.DescStorageBuffer, Slot: 3, Resource: e.rt}, "is a texture"},
		{StorageBinding{Kind: abi.DescStorageImage, Slot: 3, Resource: buf}, "is a buffer"},
		{StorageBinding{Kind: abi.DescStorageImage, Slot: 3, Resource: e.rt, Format: ir.FormatRGBA32F}, "does not store"},
		{StorageBinding{Kind: abi.DescUniformBuffer, Slot: 3, Resource: buf}, "is not a storage buffer"},
	} {
		err := e.c.SetStorageBindings([]StorageBinding{c.b})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error containing %q", c.b, err, c.want)
		}
	}
	if err := e.c.SetStorageBindings([]StorageBinding{{Kind: abi.DescStorageImage, Slot: 0, Resource: e.rt, Format: ir.FormatRGBA8}}); err != nil {
		t.Errorf("an RGBA8 texture as an rgba8 image: %v", err)
	}
	if f, ok := imageFormatOf(format.RGBA8); !ok || f != ir.FormatRGBA8 {
		t.Errorf("imageFormatOf(RGBA8) = %v, %v", f, ok)
	}
	e.program(t, testVS, orderFS)
	e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, 1, 1)...)
	err = e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}})
	if err == nil || !strings.Contains(err.Error(), "no storage buffer bound at binding 1 (Order)") {
		t.Errorf("draw without its storage buffer: %v, want an error naming binding 1 (Order)", err)
	}
}
