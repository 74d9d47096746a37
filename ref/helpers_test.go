package ref

import (
	"context"
	"math"
	"testing"

	"vortexgfx/gl/format"
)

// passVS is a vertex shader that reads x, y, z, w and then `vary` varying
// words per vertex and passes them through.
func passVS(vary int) VertexFunc {
	return VertexFunc{Out: VertexLayout{Varyings: vary}, Fn: func(b *VertexBatch, _ Textures) error {
		for v := range b.N {
			a := b.Attribs[v*b.AttribWords:]
			for i := range 4 {
				b.Position[v][i] = math.Float32frombits(a[i])
			}
			copy(b.Varyings[v*vary:(v+1)*vary], a[4:4+vary])
		}
		return nil
	}}
}

// colorFS writes varyings 0..3 as the colour of render target 0.
var colorFS = FragmentFunc(func(qs []Quad, _ Textures) error {
	for i := range qs {
		q := &qs[i]
		n := len(q.Varyings) / 4
		for l := range 4 {
			var c [4]float32
			for k := 0; k < 4 && k < n; k++ {
				c[k] = q.Varying(l, n, k)
			}
			q.SetColor(0, l, c)
		}
	}
	return nil
})

// constFS writes one colour to every render target.
func constFS(c [4]float32) FragmentFunc {
	return func(qs []Quad, _ Textures) error {
		for i := range qs {
			for rt := range MaxRenderTargets {
				for l := range 4 {
					qs[i].SetColor(rt, l, c)
				}
			}
		}
		return nil
	}
}

// verts packs vertices given as float rows into vertex input.
func verts(rows ...[]float32) VertexInput {
	in := VertexInput{Words: len(rows[0])}
	for _, r := range rows {
		for _, v := range r {
			in.Data = append(in.Data, math.Float32bits(v))
		}
	}
	return in
}

func newTarget(t testing.TB, w, h int, colors []format.Format, ds format.Format) *Target {
	t.Helper()
	tg, err := NewTarget(w, h, colors, ds)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func draw(t testing.TB, tg *Target, s *State, in VertexInput, p DrawParams) {
	t.Helper()
	if err := Draw(context.Background(), tg, s, in, p); err != nil {
		t.Fatal(err)
	}
}

// quadVerts returns a two-triangle (triangle list) rectangle in NDC at depth
// z with a constant colour.
func quadVerts(x0, y0, x1, y1, z float32, c [4]float32) VertexInput {
	v := func(x, y float32) []float32 { return []float32{x, y, z, 1, c[0], c[1], c[2], c[3]} }
	return verts(v(x0, y0), v(x1, y0), v(x1, y1), v(x0, y0), v(x1, y1), v(x0, y1))
}

// count returns the number of pixels of attachment 0 whose red byte is
// nonzero.
func count(s *Surface) int {
	n := 0
	for y := 0; y < s.H; y++ {
		for x := 0; x < s.W; x++ {
			if s.Raw(x, y)[0] != 0 {
				n++
			}
		}
	}
	return n
}
