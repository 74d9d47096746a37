package pipe

import (
	"fmt"
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

// indexCache is the index buffer snapshot a context keeps from its last draw
// and the vertex range it last found in it, so that redrawing a static
// indexed mesh neither copies its indices nor scans them again: the snapshot
// is current while the buffer is alive with the serial and version it had
// (every host write bumps the version), the range while the snapshot and the
// draw's index parameters are the same.
type indexCache struct {
	ok              bool
	r               *Resource
	serial, version uint64
	idx             []byte
	// the last vertexRange on idx and its parameters
	rangeOK      bool
	size         int
	restart      bool
	restartIndex uint32
	start, count uint32
	base         int32
	nverts       int
}

// indexBytesKept is indexBytes through the context's index cache: an index
// buffer's kept snapshot when current, else a new one (kept). User index
// arrays are the caller's and returned as they are.
func (c *Context) indexBytesKept(info *DrawInfo) ([]byte, error) {
	r := info.Index
	if info.IndexSize == 0 || r == nil {
		return indexBytes(info)
	}
	k := &c.idxKept
	if err := r.screen.syncHost(r); err != nil {
		return nil, fmt.Errorf("index buffer: %w", err)
	}
	r.mu.RLock()
	dead, serial, version := r.destroyed, r.serial, r.version
	r.mu.RUnlock()
	if k.ok && !dead && k.r == r && k.serial == serial && k.version == version {
		return k.idx, nil
	}
	*k = indexCache{}
	// The version was taken before the read: a write racing with it leaves
	// a newer version, so the next draw reads again.
	idx, err := indexBytes(info)
	if err != nil {
		return nil, err
	}
	*k = indexCache{ok: true, r: r, serial: serial, version: version, idx: idx}
	return idx, nil
}

// vertexRangeKept is vertexRange, answered from the index cache when idx is
// its snapshot and the draw's index parameters are those of the last answer.
func (c *Context) vertexRangeKept(info *DrawInfo, d DirectDraw, idx []byte) (int, error) {
	k := &c.idxKept
	kept := k.ok && info.IndexSize != 0 && info.Index != nil && len(idx) > 0 && len(idx) == len(k.idx) && &idx[0] == &k.idx[0]
	if kept && k.rangeOK && k.size == info.IndexSize && k.restart == info.PrimitiveRestart && k.restartIndex == info.RestartIndex &&
		k.start == d.Start && k.count == d.Count && k.base == d.BaseVertex {
		return k.nverts, nil
	}
	n, err := vertexRange(info, d, idx)
	if err == nil && kept {
		k.rangeOK, k.size, k.restart, k.restartIndex = true, info.IndexSize, info.PrimitiveRestart, info.RestartIndex
		k.start, k.count, k.base, k.nverts = d.Start, d.Count, d.BaseVertex, n
	}
	return n, err
}
