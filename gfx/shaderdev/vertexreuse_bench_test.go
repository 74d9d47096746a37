package shaderdev_test

import (
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/runtime"
)

// BenchmarkIndexedMeshDraw draws an indexed 64×64-quad grid (8192 triangles
// over 4225 shared vertices, as the bench scene's meshes share theirs) on a
// 128×128 target per op, with the driver's vertex reuse (host indices: the
// vertex stage shades each vertex once) and without it (a resident index
// buffer alone: once per index); it reports wall and CPU time per triangle.
func BenchmarkIndexedMeshDraw(b *testing.B) {
	const W, H, N = 128, 128, 64
	p := link(b, `#version 130
uniform mat4 u_mvp;
in vec3 a_pos; in vec3 a_nrm; out vec3 v_nrm;
void main() { gl_Position = u_mvp * vec4(a_pos, 1.0); v_nrm = mat3(u_mvp) * a_nrm; }`, `#version 130
in vec3 v_nrm; out vec4 o; void main() { o = vec4(normalize(v_nrm) * 0.5 + 0.5, 1.0); }`)
	sp, err := shaderdev.NewProgram("bench.mesh", p.IR)
	if err != nil {
		b.Fatal(err)
	}
	var mvp []uint32
	for i := range 16 {
		v := float32(0)
		if i%5 == 0 {
			v = 0.9
		}
		mvp = append(mvp, math.Float32bits(v))
	}
	if err := p.SetUniform("u_mvp", p.IR.Uniforms[0].Type, mvp); err != nil {
		b.Fatal(err)
	}
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	nrm, _ := p.Attribute("a_nrm")
	raw := make([]byte, 4*(N+1)*(N+1)*words)
	put := func(v, w int, x float32) { binary.LittleEndian.PutUint32(raw[4*(v*words+w):], math.Float32bits(x)) }
	for y := 0; y <= N; y++ {
		for x := 0; x <= N; x++ {
			v := y*(N+1) + x
			put(v, pos.Word, float32(x)/N*2-1)
			put(v, pos.Word+1, float32(y)/N*2-1)
			put(v, pos.Word+2, 0.5*float32((x+y)%7)/7)
			put(v, nrm.Word, float32(x)/N)
			put(v, nrm.Word+1, float32(y)/N)
			put(v, nrm.Word+2, 1)
		}
	}
	var idx []uint32
	for y := 0; y < N; y++ {
		for x := 0; x < N; x++ {
			a := uint32(y*(N+1) + x)
			idx = append(idx, a, a+1, a+N+2, a, a+N+2, a+N+1)
		}
	}
	ib := make([]byte, 4*len(idx))
	for i, x := range idx {
		binary.LittleEndian.PutUint32(ib[4*i:], x)
	}
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
	}
	dev, err := shaderdev.Open(config.Default(), W, H, []*shaderdev.Program{sp})
	if err != nil {
		b.Fatal(err)
	}
	defer dev.Close()
	rt := dev.Runtime()
	ibuf, err := rt.AllocWith(uint64(len(ib)), runtime.AllocOptions{Physical: true})
	if err != nil {
		b.Fatal(err)
	}
	if err := rt.DefaultQueue().NewBatch().Write(ibuf, 0, ib).Submit().Wait(); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		host []uint32
	}{{"reuse", idx}, {"per-index", nil}} {
		b.Run(c.name, func(b *testing.B) {
			dr := &shaderdev.Draw{Program: sp, Attribs: attrs, Indices: c.host, IndexBuffer: ibuf, Count: len(idx),
				Uniforms: p.Uniforms, Merge: omAll()}
			if _, err := dev.Draw(dr); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := dev.Draw(dr); err != nil {
					b.Fatal(err)
				}
			}
			nt := len(idx) / 3
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nt), "ns/tri")
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N*nt), "cpu-ns/tri")
		})
	}
}
