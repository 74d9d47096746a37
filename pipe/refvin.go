package pipe

import (
	"slices"

	"vortexgfx/ref"
	"vortexgfx/shader/ir"
)

// refVinCache is the reference renderer's vertex input a context keeps from
// its last reference draw: a frame that draws the same static mesh again
// (its buffers unwritten, the same program, elements and vertex range) reuses
// the laid-out attribute words instead of converting every vertex again. The
// key is everything refVertexInput reads: the linked program and its
// attribute slots, the vertex elements, the bound vertex buffers with their
// offsets and strides, each buffer's identity (serial) and version (every
// host write bumps it, see refTargetCache), and the vertex and instance
// range. Only shader programs are kept: the fixed-function path's input also
// holds the current legacy attributes.
type refVinCache struct {
	ok                      bool
	l                       *linked
	attrs                   []ir.Slot
	elems                   []VertexElement
	vbufs                   []VertexBuffer
	serials, versions       []uint64
	nverts, baseInst, ninst int
	in                      ref.VertexInput
}

// refVertexInputKept is refVertexInput through the context's cache: the kept
// input when the key matches, else a new one (kept for the next draw). ref
// only reads a draw's vertex input, so the kept words stay as laid out.
func (c *Context) refVertexInputKept(st *BoundState, l *linked, nverts, baseInst, ninst int) (ref.VertexInput, error) {
	k := &c.refVin
	ve := st.VElems
	if l.vs == nil || ve == nil {
		k.ok = false
		return refVertexInput(st, ve, l, nverts, baseInst, ninst)
	}
	attrs := l.vertexAttrs(ve)
	if k.ok && k.l == l && k.nverts == nverts && k.baseInst == baseInst && k.ninst == ninst &&
		slices.Equal(k.attrs, attrs) && slices.Equal(k.elems, ve.Elements) && slices.Equal(k.vbufs, st.VBufs) && k.buffersCurrent() {
		return k.in, nil
	}
	k.ok = false
	// The versions are taken before the buffers are read: a write racing
	// with the read leaves a newer version, so the next draw reloads.
	serials, versions := bufferVersions(st.VBufs)
	in, err := refVertexInput(st, ve, l, nverts, baseInst, ninst)
	if err != nil {
		return in, err
	}
	*k = refVinCache{ok: true, l: l, attrs: slices.Clone(attrs), elems: slices.Clone(ve.Elements), vbufs: slices.Clone(st.VBufs),
		serials: serials, versions: versions, nverts: nverts, baseInst: baseInst, ninst: ninst, in: in}
	return in, nil
}

// bufferVersions returns the serial and version of every bound vertex
// buffer (0, 0 for an empty binding).
func bufferVersions(vbs []VertexBuffer) (serials, versions []uint64) {
	serials, versions = make([]uint64, len(vbs)), make([]uint64, len(vbs))
	for i, vb := range vbs {
		if vb.Buffer != nil {
			serials[i], versions[i] = vb.Buffer.serial, vb.Buffer.versionNow()
		}
	}
	return serials, versions
}

// buffersCurrent reports whether every kept buffer is alive with its serial
// and version.
func (k *refVinCache) buffersCurrent() bool {
	for i, vb := range k.vbufs {
		if vb.Buffer == nil {
			continue
		}
		r := vb.Buffer
		r.mu.RLock()
		same := !r.destroyed && r.serial == k.serials[i] && r.version == k.versions[i]
		r.mu.RUnlock()
		if !same {
			return false // a destroyed buffer makes refVertexInput's error again
		}
	}
	return true
}
