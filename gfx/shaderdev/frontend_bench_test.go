package shaderdev_test

import (
	"encoding/binary"
	"math"
	"math/rand"
	"syscall"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/shaderdev"
)

// BenchmarkFrontEndDraw draws 16384 tiny triangles (most cover no pixel
// centre) on a 128×128 target per op, so the vertex stage, expand_k, setup_k
// and binning_k dominate; it reports wall and CPU time per triangle (on a
// loaded machine the CPU time measures the front end better).
func BenchmarkFrontEndDraw(b *testing.B) {
	const W, H, N = 128, 128, 2 * shaderdev.PassTriangles
	p := link(b, `#version 130
in vec3 a_pos; in vec3 a_col; out vec3 v_col;
void main() { gl_Position = vec4(a_pos, 1.0); v_col = a_col; }`, `#version 130
in vec3 v_col; out vec4 o; void main() { o = vec4(v_col, 1.0); }`)
	sp, err := shaderdev.NewProgram("bench.fe", p.IR)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewSource(4))
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	raw := make([]byte, 4*3*N*words)
	put := func(v, w int, x float32) { binary.LittleEndian.PutUint32(raw[4*(v*words+w):], math.Float32bits(x)) }
	for t := range N {
		cx, cy := r.Float32()*2-1, r.Float32()*2-1
		for k := range 3 {
			v := 3*t + k
			put(v, pos.Word, cx+r.Float32()*0.01)
			put(v, pos.Word+1, cy+r.Float32()*0.01)
			put(v, pos.Word+2, r.Float32())
			for j := range 3 {
				put(v, col.Word+j, r.Float32())
			}
		}
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
	dr := &shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3 * N, Uniforms: p.Uniforms, Merge: omAll()}
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
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*N), "ns/tri")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N*N), "cpu-ns/tri")
}

// cpuTime is the process's user and system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
