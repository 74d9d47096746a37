package ref

import (
	"bytes"
	"math"
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// TestVertexTermsPerInstance: the per-vertex interpolation terms of an
// instanced draw belong to their instance: one draw of three instances of an
// indexed mesh (every vertex a corner of several triangles) gives the bytes of
// three draws of one instance each, with one worker and with three.
func TestVertexTermsPerInstance(t *testing.T) {
	// A 6x6 grid of quads over most of the target; instance words: an x
	// offset and a colour scale.
	const g = 6
	var rows [][]float32
	for y := 0; y <= g; y++ {
		for x := 0; x <= g; x++ {
			fx, fy := float32(x)/g*1.6-0.8, float32(y)/g*1.6-0.8
			w := 1 + 0.3*float32(x+y)/g // perspective-correct terms differ per vertex
			rows = append(rows, []float32{fx * w, fy * w, (0.5 - float32(x)/(2*g)) * w, w, float32(x) / g, float32(y) / g, 0.5, 1})
		}
	}
	in := verts(rows...)
	var idx []uint32
	for y := range g {
		for x := range g {
			i := uint32(y*(g+1) + x)
			idx = append(idx, i, i+1, i+g+1, i+g+1, i+1, i+g+2)
		}
	}
	ib := make([]byte, 4*len(idx))
	for i, v := range idx {
		ib[4*i], ib[4*i+1], ib[4*i+2], ib[4*i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	for _, inst := range [][2]float32{{-0.1, 1}, {0, 0.6}, {0.12, 0.3}} {
		in.InstanceData = append(in.InstanceData, math.Float32bits(inst[0]), math.Float32bits(inst[1]))
	}
	in.InstanceWords = 2
	vs := VertexFunc{Out: VertexLayout{Varyings: 4}, Fn: func(b *VertexBatch, _ Textures) error {
		for v := range b.N {
			a := b.Attribs[v*b.AttribWords:]
			f := func(i int) float32 { return math.Float32frombits(a[i]) }
			b.Position[v] = [4]float32{f(0) + f(8)*f(3), f(1), f(2), f(3)}
			for k := range 4 {
				b.Varyings[v*4+k] = math.Float32bits(f(4+k) * f(9))
			}
		}
		return nil
	}}
	render := func(workers int, split bool) ([]byte, []byte) {
		tg := newTarget(t, 40, 40, []format.Format{format.RGBA8}, format.D24S8)
		if err := tg.ClearDepth(1); err != nil {
			t.Fatal(err)
		}
		s := DefaultState(40, 40)
		s.Vertex, s.Fragment, s.Workers = vs, colorFS, workers
		s.Interp = []Interp{Smooth, Smooth, NoPerspective, Smooth}
		s.Depth.Test, s.Depth.Write, s.Depth.Func = true, true, compare.Less
		p := DrawParams{Topology: Triangles, Count: len(idx), IndexType: Index32, Indices: ib, Instances: 3}
		if !split {
			draw(t, tg, &s, in, p)
		} else {
			for k := range 3 {
				p.Instances, p.BaseInstance = 1, k
				draw(t, tg, &s, in, p)
			}
		}
		return tg.Color[0].Data, tg.DepthStencil.Data
	}
	for _, workers := range []int{1, 3} {
		c1, z1 := render(workers, false)
		c3, z3 := render(workers, true)
		if !bytes.Equal(c1, c3) || !bytes.Equal(z1, z3) {
			t.Errorf("%d workers: three instances in one draw differ from three draws", workers)
		}
		if bytes.Count(c1, []byte{0}) > len(c1)*3/4 {
			t.Errorf("%d workers: almost nothing drawn", workers)
		}
	}
}
