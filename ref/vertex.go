package ref

import (
	"fmt"
	"sync"
)

// vertexStage shades a draw's distinct vertices, once per instance, in
// batches of vertexBatch into the drawer's post-VS arrays. With more than
// one shader (the draw's and its clones, see VertexCloner) the vertices are
// split into contiguous runs of whole batches, one per shader, shaded
// concurrently: every batch holds the vertices it holds serially, so the
// results are the same.
type vertexStage struct {
	shaders []VertexShader
	batches []*VertexBatch
}

// newVertexStage returns the vertex stage of d: one shader, or up to
// workers when the draw has at least two batches per extra shader and its
// shader clones.
func newVertexStage(d *drawer, in VertexInput, n, workers int) *vertexStage {
	vs := &vertexStage{shaders: []VertexShader{d.s.Vertex}}
	if cl, ok := d.s.Vertex.(VertexCloner); ok {
		for len(vs.shaders) < min(workers, n/(2*vertexBatch)) {
			c := cl.CloneVertex()
			if c == nil {
				break
			}
			vs.shaders = append(vs.shaders, c)
		}
	}
	aw := in.Words + in.InstanceWords
	for range vs.shaders {
		vs.batches = append(vs.batches, &VertexBatch{
			VertexID: make([]int32, vertexBatch), InstanceID: make([]int32, vertexBatch),
			AttribWords: aw, Attribs: make([]uint32, vertexBatch*aw), Layout: d.layout,
			Position: make([][4]float32, vertexBatch), Varyings: make([]uint32, vertexBatch*d.vw),
			PointSize: make([]float32, vertexBatch), ClipDist: make([]float32, vertexBatch*d.layout.ClipDistances),
		})
	}
	return vs
}

// shade shades the vertices ids for instance inst (attribute row ii) and,
// when the drawer caches window positions, computes them. The error is the
// first a serial run would meet.
func (vs *vertexStage) shade(d *drawer, in VertexInput, ids []int64, inst, ii int) error {
	n := len(ids)
	k := len(vs.shaders)
	if k == 1 {
		if err := d.shadeVertices(vs.shaders[0], vs.batches[0], in, ids, inst, ii, 0, n); err != nil {
			return err
		}
		if d.wv != nil {
			d.windowVerts(0, n)
		}
		return nil
	}
	nb := (n + vertexBatch - 1) / vertexBatch
	per := (nb + k - 1) / k * vertexBatch // whole batches per shader
	errs := make([]error, k)
	var wg sync.WaitGroup
	for j := range k {
		lo, hi := min(j*per, n), min((j+1)*per, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[j] = d.shadeVertices(vs.shaders[j], vs.batches[j], in, ids, inst, ii, lo, hi); errs[j] == nil && d.wv != nil {
				d.windowVertsWith(&d.clipScratch[j], lo, hi)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// shadeVertices shades vertices ids[lo:hi] (lo a multiple of vertexBatch)
// for instance inst with shader v and batch b.
func (d *drawer) shadeVertices(v VertexShader, b *VertexBatch, in VertexInput, ids []int64, inst, ii, lo, hi int) error {
	aw := b.AttribWords
	for start := lo; start < hi; start += vertexBatch {
		if err := d.ctx.Err(); err != nil {
			return err
		}
		cnt := min(vertexBatch, hi-start)
		b.N = cnt
		clear(b.Varyings)
		clear(b.ClipDist)
		for v := range cnt {
			id := ids[start+v]
			b.VertexID[v], b.InstanceID[v] = int32(id), int32(inst)
			a := b.Attribs[v*aw : (v+1)*aw]
			copy(a, in.Data[id*int64(in.Words):(id+1)*int64(in.Words)])
			copy(a[in.Words:], in.InstanceData[ii*in.InstanceWords:(ii+1)*in.InstanceWords])
			b.Position[v] = [4]float32{0, 0, 0, 1}
			b.PointSize[v] = d.s.PointSize
		}
		if err := v.ShadeVertices(b, d.tex); err != nil {
			return fmt.Errorf("ref: vertex shader, instance %d: %w", inst, err)
		}
		copy(d.pos[start:], b.Position[:cnt])
		copy(d.vary[start*d.vw:], b.Varyings[:cnt*d.vw])
		copy(d.psize[start:], b.PointSize[:cnt])
		cd := d.layout.ClipDistances
		copy(d.cdist[start*cd:], b.ClipDist[:cnt*cd])
		if !d.layout.PointSize {
			for v := range cnt {
				d.psize[start+v] = d.s.PointSize
			}
		}
	}
	return nil
}
