package shaderdev_test

import (
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/shaderdev"
)

// BenchmarkFragmentISA draws a 256×256 target covered by a 16×16 grid of quads
// with an arithmetic-heavy fragment program (a 24-step loop per fragment), per
// op, on cores = "ir" (the Go wrapper round the IR executor) and cores = "isa"
// (the machine-code wrapper on device/simt). It reports ns per shaded
// fragment and, for machine code, the fragment waves' thread-instructions per
// second of wall time (DrawStats.ISA) — the SIMT model's throughput on FS work.
func BenchmarkFragmentISA(b *testing.B) {
	const W, H, G = 256, 256, 16
	p := link(b, `#version 130
in vec4 a_pos; in vec4 a_col; out vec4 v_col;
void main() { gl_Position = a_pos; v_col = a_col; }`, `#version 130
in vec4 v_col; out vec4 o;
void main() {
	vec4 a = v_col;
	for (int i = 0; i < 24; i++) { a = fract(a * 1.37 + vec4(0.11, 0.23, 0.31, 0.43)) * 0.9 + a.yzwx * 0.1; }
	o = a;
}`)
	sp, err := shaderdev.NewProgram("bench.isafs", p.IR)
	if err != nil {
		b.Fatal(err)
	}
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	raw := make([]byte, 4*6*G*G*words)
	put := func(v, w int, x float32) { binary.LittleEndian.PutUint32(raw[4*(v*words+w):], math.Float32bits(x)) }
	v := 0
	for gy := range G {
		for gx := range G {
			for _, c := range [6][2]int{{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {0, 1}} {
				x, y := gx+c[0], gy+c[1]
				put(v, pos.Word, float32(x)/G*2-1)
				put(v, pos.Word+1, float32(y)/G*2-1)
				put(v, pos.Word+2, 0.5)
				put(v, pos.Word+3, 1)
				for j := range 4 {
					put(v, col.Word+j, float32((x*7+y*3+j)%5)/4)
				}
				v++
			}
		}
	}
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * words)}
	}
	for _, mode := range []string{config.CoresIR, config.CoresISA} {
		b.Run(mode, func(b *testing.B) {
			cfg := config.Default()
			cfg.Device.Cores = mode
			dev, err := shaderdev.Open(cfg, W, H, []*shaderdev.Program{sp})
			if err != nil {
				b.Fatal(err)
			}
			defer dev.Close()
			dr := &shaderdev.Draw{Program: sp, Attribs: attrs, Count: v, Uniforms: p.Uniforms, Merge: omAll()}
			st, err := dev.Draw(dr)
			if err != nil {
				b.Fatal(err)
			}
			if st.Shaded < W*H || (mode == config.CoresISA) != st.Route.FSISA {
				b.Fatalf("%d fragments shaded, fs as machine code %v", st.Shaded, st.Route.FSISA)
			}
			var thr uint64
			for b.Loop() {
				st, err := dev.Draw(dr)
				if err != nil {
					b.Fatal(err)
				}
				if st.ISA != nil {
					thr += st.ISA.FSThreadInstructions
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*st.Shaded), "ns/frag")
			if thr > 0 {
				b.ReportMetric(float64(thr)/b.Elapsed().Seconds(), "thread-instr/s")
			}
		})
	}
}
