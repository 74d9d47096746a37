package shaderdev_test

import (
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/shaderdev"
)

// BenchmarkPrimDraw draws 2048 segments of a star (width 1 and 3) and 2048
// points of size 4 over a 256×256 target per op: prim_k, the front end, and
// for lines the software raster walk with the exact line rule.
func BenchmarkPrimDraw(b *testing.B) {
	const W, H, N = 256, 256, 2048
	p := link(b, primVS, primFS)
	sp, err := shaderdev.NewProgram("bench.prim", p.IR)
	if err != nil {
		b.Fatal(err)
	}
	words := p.AttribWords()
	pos, _ := p.Attribute("a_pos")
	col, _ := p.Attribute("a_col")
	raw := make([]byte, 4*2*N*words)
	put := func(v, w int, x float32) { binary.LittleEndian.PutUint32(raw[4*(v*words+w):], math.Float32bits(x)) }
	for i := range N {
		a := 2 * math.Pi * float64(i) / N
		r := 0.2 + 0.75*float64(i%7)/7
		for k, q := range [2][2]float64{{0.1 * math.Cos(a), 0.1 * math.Sin(a)}, {r * math.Cos(a), r * math.Sin(a)}} {
			v := 2*i + k
			put(v, pos.Word, float32(q[0]))
			put(v, pos.Word+1, float32(q[1]))
			put(v, pos.Word+3, 1)
			put(v, col.Word, float32(k))
			put(v, col.Word+1, float32(i%5)/4)
			put(v, col.Word+3, 4)
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
	for _, c := range []struct {
		name  string
		prim  shaderdev.Prim
		count int
		width float32
	}{{"lines1", shaderdev.PrimLines, 2 * N, 1}, {"lines3", shaderdev.PrimLines, 2 * N, 3}, {"points4", shaderdev.PrimPoints, N, 1}} {
		b.Run(c.name, func(b *testing.B) {
			dr := &shaderdev.Draw{Program: sp, Attribs: attrs, Count: c.count, Prim: c.prim, LineWidth: c.width, PointSize: 4,
				ShaderPointSize: true, Merge: omAll()}
			var frags int64
			for b.Loop() {
				st, err := dev.Draw(dr)
				if err != nil {
					b.Fatal(err)
				}
				frags = st.Shaded
			}
			b.ReportMetric(float64(frags), "frags/op")
		})
	}
}
