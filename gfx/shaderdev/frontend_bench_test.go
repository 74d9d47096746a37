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

// BenchmarkVertexStageDraw draws 2·PassTriangles degenerate triangles
// (each one's three vertices coincide) through a vertex shader with a
// matrix transform and three varyings: setup_k culls every triangle at its
// first test and nothing is binned or shaded, so the vertex stage (attribute
// fetch, the program, the output records) and expand_k dominate. It reports
// wall and CPU time per vertex.
func BenchmarkVertexStageDraw(b *testing.B) {
	const W, H, N = 128, 128, 2 * shaderdev.PassTriangles
	p := link(b, `#version 130
uniform mat4 u_mvp;
in vec3 a_pos; in vec3 a_nrm; in vec2 a_uv; out vec3 v_nrm; out vec2 v_uv;
void main() { gl_Position = u_mvp * vec4(a_pos, 1.0); v_nrm = mat3(u_mvp) * a_nrm; v_uv = a_uv; }`, `#version 130
in vec3 v_nrm; in vec2 v_uv; out vec4 o; void main() { o = vec4(v_nrm, v_uv.x); }`)
	sp, err := shaderdev.NewProgram("bench.vs", p.IR)
	if err != nil {
		b.Fatal(err)
	}
	mvp := []uint32{}
	for i := range 16 {
		v := float32(0)
		if i%5 == 0 {
			v = 0.5
		}
		mvp = append(mvp, math.Float32bits(v))
	}
	if err := p.SetUniform("u_mvp", p.IR.Uniforms[0].Type, mvp); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewSource(6))
	words := p.AttribWords()
	raw := make([]byte, 4*3*N*words)
	for t := range N {
		var f [8]float32
		for j := range f {
			f[j] = r.Float32()*2 - 1
		}
		for k := range 3 {
			v := 3*t + k
			for _, name := range []string{"a_pos", "a_nrm", "a_uv"} {
				s, _ := p.Attribute(name)
				for j := range s.Words {
					binary.LittleEndian.PutUint32(raw[4*(v*words+s.Word+j):], math.Float32bits(f[j]))
				}
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
	st, err := dev.Draw(dr)
	if err != nil {
		b.Fatal(err)
	}
	if st.Primitives != 0 {
		b.Fatalf("%d primitives survived setup, want every degenerate triangle culled", st.Primitives)
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := dev.Draw(dr); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*3*N), "ns/vertex")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N*3*N), "cpu-ns/vertex")
}
