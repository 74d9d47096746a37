package ref_test

import (
	"context"
	"fmt"
	"math"

	"vortexgfx/gl/format"
	"vortexgfx/ref"
)

// Draw one triangle with a Go-function vertex and fragment shader into an
// RGBA8 target with a depth buffer, then read a pixel back.
func Example() {
	tg, err := ref.NewTarget(8, 8, []format.Format{format.RGBA8}, format.D24S8)
	if err != nil {
		panic(err)
	}
	_ = tg.ClearColor(0, [4]float32{0, 0, 0, 1})
	_ = tg.ClearDepth(1)

	st := ref.DefaultState(8, 8)
	st.Depth.Test = true
	// Attributes: x, y per vertex; no varyings.
	st.Vertex = ref.VertexFunc{Fn: func(b *ref.VertexBatch, _ ref.Textures) error {
		for v := range b.N {
			a := b.Attribs[v*b.AttribWords:]
			b.Position[v] = [4]float32{math.Float32frombits(a[0]), math.Float32frombits(a[1]), 0, 1}
		}
		return nil
	}}
	// Every lane of every quad (helpers included) writes orange.
	st.Fragment = ref.FragmentFunc(func(qs []ref.Quad, _ ref.Textures) error {
		for i := range qs {
			for l := range 4 {
				qs[i].SetColor(0, l, [4]float32{1, 0.5, 0, 1})
			}
		}
		return nil
	})
	in := ref.VertexInput{Words: 2}
	for _, v := range []float32{-1, -1, 3, -1, -1, 3} {
		in.Data = append(in.Data, math.Float32bits(v))
	}
	if err := ref.Draw(context.Background(), tg, &st, in, ref.DrawParams{Topology: ref.Triangles, Count: 3}); err != nil {
		panic(err)
	}
	fmt.Println(tg.Color[0].NRGBA(true).NRGBAAt(3, 4), tg.DepthStencil.Depth(3, 4))
	// Output: {255 128 0 255} 0.50000006
}
