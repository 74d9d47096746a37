package shaderdev_test

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/runtime"
	"vortexgfx/shader/ir"
)

// TestShaderResident draws the same indexed scene twice on one device: once
// from host bytes with a program named at open, once from vertex and index
// buffers resident on Runtime() with a program added after the device opened
// (a second frame re-binds the same buffers without uploading them). The
// images are identical. spec: vortexpipe §1.3, §2.5, §3.2
func TestShaderResident(t *testing.T) {
	const W, H = 32, 32
	p := link(t, testVS, testFS)
	if err := p.SetUniform("u_scale", ir.F32, []uint32{math.Float32bits(0.8)}); err != nil {
		t.Fatal(err)
	}
	named, err := shaderdev.NewProgram("res.named", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	added, err := shaderdev.NewProgram("res.added", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	verts := [][6]float32{
		{-0.4, -0.8, 0, 1, 0, 0}, {0.4, -0.6, 0.5, 0, 1, 0}, {0, 0.1, 1, 0, 0, 1},
		{-0.4, 0.2, 0.2, 1, 1, 0}, {0, 0.9, 0.6, 0, 1, 1}, {0.4, 0.3, 0, 1, 0, 1},
	}
	idx := []uint32{0, 1, 2, 3, 4, 5}
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	raw := make([]byte, 4*len(verts)*words)
	for i, v := range verts {
		for k := range 3 {
			binary.LittleEndian.PutUint32(raw[4*(i*words+pos.Word+k):], math.Float32bits(v[k]))
			binary.LittleEndian.PutUint32(raw[4*(i*words+col.Word+k):], math.Float32bits(v[3+k]))
		}
	}
	ib := make([]byte, 4*len(idx))
	for i, x := range idx {
		binary.LittleEndian.PutUint32(ib[4*i:], x)
	}
	dev, err := shaderdev.Open(config.Default(), W, H, []*shaderdev.Program{named})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if err := dev.AddProgram(added); err != nil {
		t.Fatal(err)
	}
	rt := dev.Runtime()
	vb, err := rt.AllocWith(uint64(len(raw)), runtime.AllocOptions{Physical: true})
	if err != nil {
		t.Fatal(err)
	}
	ibuf, err := rt.AllocWith(uint64(8+len(ib)), runtime.AllocOptions{Physical: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.DefaultQueue().NewBatch().Write(vb, 0, raw).Write(ibuf, 8, ib).Submit().Wait(); err != nil {
		t.Fatal(err)
	}
	om := omAll()
	draw := func(sp *shaderdev.Program, resident bool) []uint32 {
		t.Helper()
		attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
		for i, s := range sp.Attributes() {
			attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
			if resident {
				attrs[i].Data, attrs[i].Buffer = nil, vb
			}
		}
		dr := &shaderdev.Draw{Program: sp, Attribs: attrs, Indices: idx, Count: len(idx), Instances: 2, Uniforms: p.Uniforms, Merge: om}
		if resident {
			dr.Indices, dr.IndexBuffer, dr.IndexOffset = nil, ibuf, 8
		}
		if err := dev.Clear(0, 0xFFFFFF); err != nil {
			t.Fatal(err)
		}
		if _, err := dev.Draw(dr); err != nil {
			t.Fatal(err)
		}
		px, err := dev.Color()
		if err != nil {
			t.Fatal(err)
		}
		return px
	}
	want := draw(named, false)
	lit := 0
	for _, c := range want {
		if c != 0 {
			lit++
		}
	}
	if lit < 50 {
		t.Fatalf("only %d pixels drawn", lit)
	}
	for frame := range 2 {
		if got := draw(added, true); !slices.Equal(got, want) {
			t.Errorf("frame %d: the resident draw differs from the host-bytes draw", frame)
		}
	}
	if err := dev.RemoveProgram(added); err != nil {
		t.Fatal(err)
	}
	if _, err := dev.Draw(&shaderdev.Draw{Program: added, Attribs: make([]shaderdev.AttribBinding, len(added.Attributes())), Count: 3, Uniforms: p.Uniforms}); err == nil {
		t.Error("a removed program still draws")
	}
}
