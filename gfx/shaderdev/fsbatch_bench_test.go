package shaderdev

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"syscall"
	"testing"

	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gl/compare"
	"vortexgfx/ref/program"
)

// BenchmarkFragmentWaves draws n random triangles of one size (tiny: a few
// pixels, RASTER's waves a few lanes each; large: waves mostly full) over a
// 256×256 target with depth test, through a lane-free program with four
// varyings (and, on tiny ones, the bench scene's lambert program), wave by
// wave and batched (fsbatch.go). It reports ns per wave and per shaded
// fragment of the process's CPU time (a busy machine moves it far less than
// the wall time): two sizes give the per-wave and per-lane costs
// (t = a·waves + b·lanes).
func BenchmarkFragmentWaves(b *testing.B) {
	const W, H = 256, 256
	sp4, p4 := compileProgram(b, "bench.waves", `#version 130
in vec3 a_pos; in vec3 a_col; out vec3 v_col; out float v_k;
void main() { gl_Position = vec4(a_pos, 1.0); v_col = a_col; v_k = a_pos.x; }`, `#version 130
in vec3 v_col; in float v_k; out vec4 o;
void main() { vec3 n = normalize(v_col + vec3(v_k)); o = vec4(n * 0.5 + 0.5, 1.0); }`)
	// The benchmark scene's lambert shaders (../shared/data/bench): v_normal
	// interpolated, v_texcoord declared and unread.
	spL, pL := compileProgram(b, "bench.lambert", `#version 130
in vec3 a_pos; in vec3 a_col; out vec3 v_normal; out vec2 v_texcoord;
void main() { gl_Position = vec4(a_pos, 1.0); v_normal = a_col; v_texcoord = a_pos.xy; }`, `#version 130
uniform vec3 u_light_dir; uniform vec3 u_base_color; in vec3 v_normal; in vec2 v_texcoord; out vec4 frag_color;
void main() { vec3 n = normalize(v_normal); float d = max(dot(n, u_light_dir), 0.0);
frag_color = vec4(u_base_color * (0.15 + 0.85 * d), 1.0); }`)
	defer func() { fsBatching = true }()
	for _, size := range []struct {
		name string
		n    int
		s    float32 // half the triangle's extent, in NDC
		sp   *Program
		p    *program.Program
	}{{"tiny", 4000, 0.02, sp4, p4}, {"large", 100, 0.3, sp4, p4}, {"lambert-tiny", 4000, 0.02, spL, pL}} {
		sp, p := size.sp, size.p
		words := p.AttribWords()
		pos, _ := p.Attribute("a_pos")
		col, _ := p.Attribute("a_col")
		r := rand.New(rand.NewSource(5))
		raw := make([]byte, 4*3*size.n*words)
		put := func(v, w int, f float32) { binary.LittleEndian.PutUint32(raw[4*(v*words+w):], math.Float32bits(f)) }
		for tr := range size.n {
			cx, cy := r.Float32()*2-1, r.Float32()*2-1
			for k := range 3 {
				v := 3*tr + k
				put(v, pos.Word, cx+(r.Float32()*2-1)*size.s)
				put(v, pos.Word+1, cy+(r.Float32()*2-1)*size.s)
				put(v, pos.Word+2, r.Float32())
				for j := range 3 {
					put(v, col.Word+j, r.Float32())
				}
			}
		}
		attrs := make([]AttribBinding, len(sp.Attributes()))
		for i, s := range sp.Attributes() {
			attrs[i] = AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
		}
		var m swom.State
		m.Targets[0].Blend.WriteMask = 0xF
		m.DepthTest, m.DepthWrite, m.DepthFunc = true, true, compare.Always
		for _, batch := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/batched=%v", size.name, batch), func(b *testing.B) {
				fsBatching = batch
				dev, err := Open(config.Default(), W, H, []*Program{sp})
				if err != nil {
					b.Fatal(err)
				}
				defer dev.Close()
				dr := &Draw{Program: sp, Attribs: attrs, Count: 3 * size.n, Uniforms: p.Uniforms, Merge: m}
				st, err := dev.Draw(dr)
				if err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				cpu0 := processCPU()
				for b.Loop() {
					if _, err := dev.Draw(dr); err != nil {
						b.Fatal(err)
					}
				}
				cpu := float64(processCPU()-cpu0) / float64(b.N)
				b.ReportMetric(cpu/float64(st.Waves), "cpu-ns/wave")
				b.ReportMetric(cpu/float64(st.Shaded), "cpu-ns/frag")
				b.ReportMetric(float64(st.Shaded)/float64(st.Waves), "lanes/wave")
				if runs := sp.fsBatchRuns.Load(); runs > 0 {
					b.ReportMetric(float64(sp.fsBatchWaves.Load())/float64(runs), "waves/run")
				}
				sp.fsBatchRuns.Store(0)
				sp.fsBatchWaves.Store(0)
			})
		}
	}
}

// processCPU is the process's user and system CPU time in nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
