package shaderdev_test

import (
	"encoding/binary"
	"math"
	"math/rand"
	"slices"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/shaderdev"
)

// TestShaderDrawStreams: a draw whose whole-draw vertex records do not fit
// device memory streams them pass by pass (the vertex stage and expand_k
// per pass over pass-sized records) and draws what the same draw draws on a
// device with room for them: the same image and the same front-end counts.
// spec: vortexpipe §3.2 (the front end's passes)
func TestShaderDrawStreams(t *testing.T) {
	const W, H, N = 64, 64, 8 * shaderdev.PassTriangles
	p := link(t, `#version 130
in vec3 a_pos; in vec3 a_col; out vec3 v_col;
void main() { gl_Position = vec4(a_pos, 1.0); v_col = a_col; }`, `#version 130
in vec3 v_col; out vec4 o; void main() { o = vec4(v_col, 1.0); }`)
	sp, err := shaderdev.NewProgram("stream.prog", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(9))
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	raw := make([]byte, 4*3*N*words)
	for i := range 3 * N {
		cx, cy := r.Float32()*2-1, r.Float32()*2-1
		if i%3 != 0 { // the triangle's first vertex places it
			cx = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*((i-i%3)*words+pos.Word):])) + r.Float32()*0.2
			cy = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*((i-i%3)*words+pos.Word+1):])) + r.Float32()*0.2
		}
		for k, v := range []float32{cx, cy, r.Float32()} {
			binary.LittleEndian.PutUint32(raw[4*(i*words+pos.Word+k):], math.Float32bits(v))
			binary.LittleEndian.PutUint32(raw[4*(i*words+col.Word+k):], math.Float32bits(r.Float32()))
		}
	}
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
	}
	draw := func(memBits int) ([]uint32, int, uint64) {
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
		ds, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3 * N, Uniforms: p.Uniforms, Merge: omAll()})
		if err != nil {
			t.Fatalf("%d-bit banks: %v", memBits, err)
		}
		px, err := dev.Color()
		if err != nil {
			t.Fatal(err)
		}
		return px, ds.Primitives, ds.CPCycles
	}
	want, wantPrims, wholeCycles := draw(28)
	got, prims, cycles := draw(25)
	if !slices.Equal(got, want) || prims != wantPrims {
		t.Errorf("streamed draw: %d primitives (want %d), image equal %v", prims, wantPrims, slices.Equal(got, want))
	}
	// Streaming launches the vertex stage and expand_k once per pass: the
	// command processor spends more cycles on the draw.
	if cycles <= wholeCycles {
		t.Errorf("streamed draw: %d CP cycles, the whole-draw layout %d: it did not stream", cycles, wholeCycles)
	}
}
