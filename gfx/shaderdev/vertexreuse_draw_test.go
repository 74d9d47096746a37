package shaderdev_test

import (
	"encoding/binary"
	"math"
	"math/rand"
	"reflect"
	"slices"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/session"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/compare"
	"vortexgfx/runtime"
	"vortexgfx/shader/ir"
)

// TestVertexReuseDraw draws one indexed grid of shared vertices (gl_VertexID
// in a flat varying, a base vertex) three ways on one device: from host
// indices (the vertex stage shades each distinct vertex once), from a
// resident index buffer alone (no host copy: once per index) and from the
// buffer with its host copy (reuse again). The colour and depth planes and
// every raster and front-end counter are identical; only the vertex stage's
// invocations (and so the CP cycles) differ. An instanced draw never reuses.
// spec: vortexpipe-driver.md §2.5, §3.2
func TestVertexReuseDraw(t *testing.T) {
	const W, H, N, base = 48, 48, 6, 2
	p := link(t, testVS, testFS)
	if err := p.SetUniform("u_scale", ir.F32, []uint32{math.Float32bits(0.9)}); err != nil {
		t.Fatal(err)
	}
	sp, err := shaderdev.NewProgram("reuse", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	nv := base + (N+1)*(N+1)
	raw := make([]byte, 4*nv*words)
	put := func(v, w int, f float32) { binary.LittleEndian.PutUint32(raw[4*(v*words+w):], math.Float32bits(f)) }
	for y := 0; y <= N; y++ {
		for x := 0; x <= N; x++ {
			v := base + y*(N+1) + x
			fx, fy := float32(x)/N*1.8-0.9, float32(y)/N*1.8-0.9
			put(v, pos.Word, fx)
			put(v, pos.Word+1, fy)
			put(v, pos.Word+2, float32((x*7+y*3)%5)/10)
			put(v, col.Word, float32(x)/N)
			put(v, col.Word+1, float32(y)/N)
			put(v, col.Word+2, float32((x+y)%3)/2)
		}
	}
	var idx []uint32
	for y := 0; y < N; y++ {
		for x := 0; x < N; x++ {
			a := uint32(y*(N+1) + x)
			b, c, d := a+1, a+N+1, a+N+2
			if (x+y)%2 == 0 {
				idx = append(idx, a, b, d, a, d, c)
			} else {
				idx = append(idx, a, b, c, b, d, c) // clockwise too: back faces
			}
		}
	}
	ib := make([]byte, 4*len(idx))
	for i, x := range idx {
		binary.LittleEndian.PutUint32(ib[4*i:], x)
	}
	dev, err := shaderdev.Open(config.Default(), W, H, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	rt := dev.Runtime()
	ibuf, err := rt.AllocWith(uint64(len(ib)), runtime.AllocOptions{Physical: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.DefaultQueue().NewBatch().Write(ibuf, 0, ib).Submit().Wait(); err != nil {
		t.Fatal(err)
	}
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
	}
	draw := func(host bool, buf *runtime.Buffer, inst int) (color, depth []uint32, st session.DrawStats) {
		t.Helper()
		dr := &shaderdev.Draw{Program: sp, Attribs: attrs, Count: len(idx), BaseVertex: base, Instances: inst,
			Uniforms: p.Uniforms, Merge: omAll(), IndexBuffer: buf}
		if host {
			dr.Indices = idx
		}
		dr.Merge.DepthTest, dr.Merge.DepthWrite, dr.Merge.DepthFunc = true, true, compare.Less
		if err := dev.Clear(0x10203040, 0xFFFFFF); err != nil {
			t.Fatal(err)
		}
		if st, err = dev.Draw(dr); err != nil {
			t.Fatal(err)
		}
		if color, depth, err = dev.Targets(); err != nil {
			t.Fatal(err)
		}
		return color, depth, st
	}
	distinct := (N + 1) * (N + 1)
	c0, z0, s0 := draw(false, ibuf, 1) // per index: the buffer alone
	if s0.VerticesShaded != len(idx) || s0.Vertices != len(idx) {
		t.Fatalf("per-index draw shaded %d of %d vertices, want %d", s0.VerticesShaded, s0.Vertices, len(idx))
	}
	if s0.Written < 500 {
		t.Fatalf("only %d fragments written", s0.Written)
	}
	same := func(s session.DrawStats) session.DrawStats {
		s.VerticesShaded, s.CPCycles, s.Perf, s.KickCycles = 0, 0, session.PerfCounters{}, 0
		return s
	}
	for _, tc := range []struct {
		name string
		host bool
		buf  *runtime.Buffer
	}{{"host indices", true, nil}, {"buffer and host copy", true, ibuf}} {
		c, z, s := draw(tc.host, tc.buf, 1)
		if s.VerticesShaded != distinct {
			t.Errorf("%s: shaded %d vertices, want the %d distinct", tc.name, s.VerticesShaded, distinct)
		}
		if !slices.Equal(c, c0) || !slices.Equal(z, z0) {
			t.Errorf("%s: the planes differ from the per-index draw", tc.name)
		}
		if a, b := same(s), same(s0); !statsEqual(a, b) {
			t.Errorf("%s: counters differ:\n got %+v\nwant %+v", tc.name, a, b)
		}
		if s.Perf.OMReads != s0.Perf.OMReads || s.Perf.OMWrites != s0.Perf.OMWrites || s.Perf.RasterReads != s0.Perf.RasterReads {
			t.Errorf("%s: unit counters differ: %+v vs %+v", tc.name, s.Perf, s0.Perf)
		}
	}
	if _, _, s := draw(true, nil, 2); s.VerticesShaded != 2*len(idx) {
		t.Errorf("instanced draw shaded %d vertices, want %d (no reuse)", s.VerticesShaded, 2*len(idx))
	}
}

// statsEqual compares two draws' counters field by field.
func statsEqual(a, b session.DrawStats) bool { return reflect.DeepEqual(a, b) }

// TestVertexReuseStreams: an indexed draw whose distinct vertices' records
// still do not fit device memory streams pass by pass over its whole index
// list (reuse off) and draws what the same draw draws with room for them,
// where it shades each distinct vertex once. spec: vortexpipe §3.2
func TestVertexReuseStreams(t *testing.T) {
	const W, H, N = 64, 64, 8 * shaderdev.PassTriangles
	p := link(t, `#version 130
in vec3 a_pos; in vec3 a_col; out vec3 v_col;
void main() { gl_Position = vec4(a_pos, 1.0); v_col = a_col; }`, `#version 130
in vec3 v_col; out vec4 o; void main() { o = vec4(v_col, 1.0); }`)
	sp, err := shaderdev.NewProgram("reuse.stream", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(11))
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	nv := 3 * N
	raw := make([]byte, 4*nv*words)
	for i := range nv {
		cx, cy := r.Float32()*2-1, r.Float32()*2-1
		if i%3 != 0 {
			cx = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*((i-i%3)*words+pos.Word):])) + r.Float32()*0.2
			cy = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*((i-i%3)*words+pos.Word+1):])) + r.Float32()*0.2
		}
		for k, v := range []float32{cx, cy, r.Float32()} {
			binary.LittleEndian.PutUint32(raw[4*(i*words+pos.Word+k):], math.Float32bits(v))
			binary.LittleEndian.PutUint32(raw[4*(i*words+col.Word+k):], math.Float32bits(r.Float32()))
		}
	}
	// Every triangle its own vertices, and every 64th shares its first
	// vertex with the triangle before: reuse applies, but saves little.
	idx := make([]uint32, 3*N)
	distinct := 0
	for t := range N {
		idx[3*t], idx[3*t+1], idx[3*t+2] = uint32(3*t), uint32(3*t+1), uint32(3*t+2)
		if t%64 == 63 {
			idx[3*t] = uint32(3*t - 1)
		} else {
			distinct++
		}
		distinct += 2
	}
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
	}
	draw := func(memBits int) ([]uint32, session.DrawStats) {
		cfg := config.Default()
		cfg.Device.MemBankAddrBits = memBits
		dev, err := shaderdev.Open(cfg, W, H, []*shaderdev.Program{sp})
		if err != nil {
			t.Fatal(err)
		}
		defer dev.Close()
		if err := dev.Clear(0, 0xFFFFFF); err != nil {
			t.Fatal(err)
		}
		ds, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Indices: idx, Count: len(idx), Uniforms: p.Uniforms, Merge: omAll()})
		if err != nil {
			t.Fatalf("%d-bit banks: %v", memBits, err)
		}
		px, err := dev.Color()
		if err != nil {
			t.Fatal(err)
		}
		return px, ds
	}
	want, whole := draw(28)
	got, streamed := draw(25)
	if whole.VerticesShaded != distinct {
		t.Errorf("whole draw shaded %d vertices, want the %d distinct", whole.VerticesShaded, distinct)
	}
	if streamed.VerticesShaded != len(idx) {
		t.Errorf("streamed draw shaded %d vertices, want every index (%d): it did not stream", streamed.VerticesShaded, len(idx))
	}
	if !slices.Equal(got, want) || streamed.Primitives != whole.Primitives {
		t.Errorf("streamed draw: %d primitives (want %d), image equal %v", streamed.Primitives, whole.Primitives, slices.Equal(got, want))
	}
}
