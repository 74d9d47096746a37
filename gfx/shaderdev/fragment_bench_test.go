package shaderdev_test

import (
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/shaderdev"
)

// BenchmarkFragmentDraw draws a 16×16 grid of quads (512 triangles) that
// covers a 256×256 target, with four perspective varyings, per op: the
// RASTER walk and the FS wrapper (interpolation, the fragment program,
// export through the FF OM) dominate. It reports wall and CPU time per
// shaded fragment.
func BenchmarkFragmentDraw(b *testing.B) {
	const W, H, G = 256, 256, 16
	p := link(b, `#version 130
in vec4 a_pos; in vec4 a_col; out vec4 v_col;
void main() { gl_Position = a_pos; v_col = a_col; }`, `#version 130
in vec4 v_col; out vec4 o; void main() { o = v_col * 0.5 + vec4(0.25); }`)
	sp, err := shaderdev.NewProgram("bench.fs", p.IR)
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
				w := 1 + float32(x+y)/G // perspective: 1/w varies over the target
				put(v, pos.Word, (float32(x)/G*2-1)*w)
				put(v, pos.Word+1, (float32(y)/G*2-1)*w)
				put(v, pos.Word+2, 0.5*w)
				put(v, pos.Word+3, w)
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
	dev, err := shaderdev.Open(config.Default(), W, H, []*shaderdev.Program{sp})
	if err != nil {
		b.Fatal(err)
	}
	defer dev.Close()
	dr := &shaderdev.Draw{Program: sp, Attribs: attrs, Count: v, Uniforms: p.Uniforms, Merge: omAll()}
	st, err := dev.Draw(dr)
	if err != nil {
		b.Fatal(err)
	}
	if st.Shaded < W*H {
		b.Fatalf("%d fragments shaded, want the whole %dx%d target", st.Shaded, W, H)
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := dev.Draw(dr); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*st.Shaded), "ns/frag")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(int64(b.N)*st.Shaded), "cpu-ns/frag")
}
