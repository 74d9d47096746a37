package pipe

import (
	"encoding/binary"
	"fmt"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/shader/ir"
)

// Vertex attributes of a device draw: each program attribute straight from
// its resident vertex buffer or as host-converted words. spec: vortexpipe §3.2

// attrPlan is how one program attribute reaches the device: straight from the
// resident vertex buffer when its element layout is the attribute's words, or
// as host-converted words otherwise.
type attrPlan struct {
	direct  bool
	vb      VertexBuffer
	el      VertexElement
	convert []VertexElement // columns, when converted
	slot    ir.Slot
}

// attribPlans matches the device program's attributes with the bound vertex
// elements: an attribute with layout(location = L) reads element L, one without
// reads the element at its index among the program's attributes.
func (c *Context) attribPlans(st *BoundState, l *linked, sp *shaderdev.Program) ([]attrPlan, error) {
	ve := st.VElems
	var out []attrPlan
	for _, s := range sp.Attributes() {
		loc := s.Location
		if loc < 0 {
			for i, a := range l.attrs {
				if a.Name == s.Name {
					// A generated vertex stage's built-in attributes
					// carry the fixed-function elements (ffLink).
					loc = i
					if a.Location >= 0 {
						loc = a.Location
					}
				}
			}
		}
		cols := (s.Words + 3) / 4
		if loc < 0 || ve == nil || loc+cols > len(ve.Elements) {
			return nil, fmt.Errorf("attribute %s: no vertex element at location %d", s.Name, loc)
		}
		els := ve.Elements[loc : loc+cols]
		ap := attrPlan{slot: s, el: els[0], direct: true}
		for c, e := range els {
			if e.BufferIndex >= len(st.VBufs) || st.VBufs[e.BufferIndex].Buffer == nil {
				return nil, fmt.Errorf("attribute %s reads unbound vertex buffer %d", s.Name, e.BufferIndex)
			}
			cw := min(4, s.Words-4*c)
			is32 := e.Format != VertexUNorm8x4
			if !is32 || elementComponents(e.Format) != cw || e.BufferIndex != els[0].BufferIndex ||
				e.InstanceDivisor != els[0].InstanceDivisor || e.SrcOffset != els[0].SrcOffset+uint32(16*c) {
				ap.direct = false
			}
		}
		ap.vb = st.VBufs[els[0].BufferIndex]
		if !ap.direct {
			ap.convert = els
		}
		out = append(out, ap)
	}
	return out, nil
}

// attribBinding binds one attribute: the resident vertex buffer, or converted
// words for [0, nverts) vertices (per-vertex) or [0, ninst) instance elements.
func (c *Context) attribBinding(a attrPlan, nverts, ninst int) (shaderdev.AttribBinding, error) {
	vb := a.vb
	if a.direct {
		buf, at, err := c.screen.res.ResolveBuffer(vb.Buffer, 0, uint64(vb.Buffer.Size()))
		if err != nil {
			return shaderdev.AttribBinding{}, err
		}
		return shaderdev.AttribBinding{Buffer: buf, Offset: at + uint64(vb.Offset) + uint64(a.el.SrcOffset),
			Stride: uint64(vb.Stride), Divisor: uint64(a.el.InstanceDivisor)}, nil
	}
	n := nverts
	if a.el.InstanceDivisor != 0 {
		// The device reads element base instance + instance / divisor, below
		// base instance + instances.
		n = ninst
	}
	words := a.slot.Words
	out := make([]byte, 4*words*max(n, 1))
	var raw [16]byte
	for col, e := range a.convert {
		vb := c.vbufOf(e)
		size := elementBytes(e.Format)
		cw := min(4, words-4*col)
		for v := 0; v < n; v++ {
			off := int64(vb.Offset) + int64(e.SrcOffset) + int64(v)*int64(vb.Stride)
			clear(raw[:])
			readRaw(vb.Buffer, off, raw[:size])
			vals := elementWords(e.Format, raw[:size], a.slot.Type)
			for k := 0; k < cw; k++ {
				binary.LittleEndian.PutUint32(out[4*(v*words+4*col+k):], vals[k])
			}
		}
	}
	return shaderdev.AttribBinding{Data: out, Stride: uint64(4 * words), Divisor: uint64(a.el.InstanceDivisor)}, nil
}

// vbufOf returns the vertex buffer an element reads.
func (c *Context) vbufOf(e VertexElement) VertexBuffer {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.BufferIndex < len(c.vbufs) {
		return c.vbufs[e.BufferIndex]
	}
	return VertexBuffer{}
}

// readRaw copies r's bytes at off into p without synchronising with the device
// (vertex data is never a device target); bytes outside r read as zero.
func readRaw(r *Resource, off int64, p []byte) {
	if r == nil || off < 0 {
		return
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.destroyed || off >= int64(len(r.data)) {
		return
	}
	copy(p, r.data[off:])
}
