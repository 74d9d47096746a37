package gfx

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
)

// SetupMaxSub is SETUP_MAX_SUB: a near-clipped triangle yields at most two.
const SetupMaxSub = 2

func nearDist(v *SetupVertex) float32 { return v.Pos[2] + v.Pos[3] }

func lerpVertex(a, b *SetupVertex, t float32) SetupVertex {
	var r SetupVertex
	for i := range r.Pos {
		r.Pos[i] = a.Pos[i] + float32(t*float32(b.Pos[i]-a.Pos[i]))
	}
	for i := range r.Color {
		r.Color[i] = a.Color[i] + float32(t*float32(b.Color[i]-a.Color[i]))
	}
	for i := range r.TexCoord {
		r.TexCoord[i] = a.TexCoord[i] + float32(t*float32(b.TexCoord[i]-a.TexCoord[i]))
	}
	return r
}

// ClipNear clips a triangle against the near plane z + w ≥ 0 (Sutherland–Hodgman)
// and fan-splits the result into out, returning the count (0, 1 or 2). Attributes
// interpolate linearly in clip space; winding is preserved.
// spec: vortex-hardware-facts §3.2 (near clip)
func ClipNear(a, b, c *SetupVertex, out *[SetupMaxSub][3]SetupVertex) int {
	in := [3]*SetupVertex{a, b, c}
	var poly [4]SetupVertex
	n := 0
	for i := 0; i < 3; i++ {
		cur, nxt := in[i], in[(i+1)%3]
		fc, fn := nearDist(cur), nearDist(nxt)
		cin, nin := fc >= 0, fn >= 0
		if cin {
			poly[n] = *cur
			n++
		}
		if cin != nin {
			poly[n] = lerpVertex(cur, nxt, fc/float32(fc-fn))
			n++
		}
	}
	k := 0
	for i := 1; i+1 < n; i++ {
		out[k] = [3]SetupVertex{poly[0], poly[i], poly[i+1]}
		k++
	}
	return k
}

// FrontEnd is the device front end's setup_k (SETUP, SCAN, EMIT): near clip,
// setup with the draw's cull mode, survivors compacted in submission order (a
// triangle's sub-triangles stay adjacent). It returns the dense primitives and
// their bboxes. spec: rasterizer §3.1; vortex-hardware-facts §3.2
func FrontEnd(verts []SetupVertex, tris [][3]uint32, width, height int, near, far float32,
	cull CullMode, vp *Viewport, planes Planes) ([]Prim, []BBox, error) {
	// SETUP: per triangle, count survivors (slot-local results).
	keep := make([]uint32, len(tris))
	slots := make([][SetupMaxSub]Prim, len(tris))
	boxes := make([][SetupMaxSub]BBox, len(tris))
	for i, t := range tris {
		for _, vi := range t {
			if int(vi) >= len(verts) {
				return nil, nil, fmt.Errorf("gfx: front end: triangle %d: vertex %d out of range (%d vertices)", i, vi, len(verts))
			}
		}
		var sub [SetupMaxSub][3]SetupVertex
		ns := ClipNear(&verts[t[0]], &verts[t[1]], &verts[t[2]], &sub)
		for s := 0; s < ns; s++ {
			if SetupTriangle(&sub[s][0], &sub[s][1], &sub[s][2], width, height, near, far, cull, vp, planes,
				&slots[i][keep[i]], &boxes[i][keep[i]]) {
				keep[i]++
			}
		}
	}
	// SCAN: exclusive prefix of the survivor counts.
	offset := make([]uint32, len(tris)+1)
	for i, k := range keep {
		offset[i+1] = offset[i] + k
	}
	total := offset[len(tris)]
	if total > abi.MaxPrimsPerPass {
		return nil, nil, fmt.Errorf("%w: %d visible, max %d", ErrTooManyPrims, total, abi.MaxPrimsPerPass)
	}
	// EMIT: dense, order-preserving.
	prims := make([]Prim, total)
	bbs := make([]BBox, total)
	for i := range tris {
		for s := uint32(0); s < keep[i]; s++ {
			prims[offset[i]+s] = slots[i][s]
			bbs[offset[i]+s] = boxes[i][s]
		}
	}
	return prims, bbs, nil
}

// BinGrid is the dense row-major bin grid of the device front end.
type BinGrid struct {
	Cols, Rows int
	BinLog     uint
}

// NewBinGrid sizes the grid for a width×height target. It fails when a sort key
// (bin_id << 20 | pid) could not hold every bin id.
func NewBinGrid(width, height int, binLog uint) (BinGrid, error) {
	size := 1 << binLog
	g := BinGrid{Cols: (width + size - 1) / size, Rows: (height + size - 1) / size, BinLog: binLog}
	if g.Cols <= 0 || g.Rows <= 0 || g.Cols > 0xFFFF || g.Rows > 0xFFFF || g.Bins() > 1<<(32-abi.PipePrimBits) {
		return g, fmt.Errorf("gfx: bin grid %dx%d does not fit the 32-bit bin-sort key", g.Cols, g.Rows)
	}
	return g, nil
}

// Bins is the number of bins (headers) in the dense grid.
func (g BinGrid) Bins() int { return g.Cols * g.Rows }

func (g BinGrid) span(bb BBox) (x0, x1, y0, y1 uint32) {
	x0, x1, y0, y1 = binRange(bb, g.BinLog)
	x1, y1 = min(x1, uint32(g.Cols)), min(y1, uint32(g.Rows))
	return
}

// BCount writes each primitive's overlapped-bin count. spec: rasterizer §3.1
func BCount(g BinGrid, bbs []BBox, counts []uint32) {
	for i, bb := range bbs {
		x0, x1, y0, y1 := g.span(bb)
		counts[i] = (x1 - x0) * (y1 - y0)
	}
}

// BScan is an exclusive prefix scan: offsets[i] = Σ counts[:i], offsets[n] = total.
func BScan(counts, offsets []uint32) uint32 {
	var s uint32
	for i, c := range counts {
		offsets[i] = s
		s += c
	}
	offsets[len(counts)] = s
	return s
}

// BEmit expands each primitive's bbox into (bin_id << PIPE_PRIM_BITS) | pid keys
// at its scanned offset, bins in row-major order.
func BEmit(g BinGrid, bbs []BBox, offsets, keys []uint32) error {
	for pid, bb := range bbs {
		if pid >= 1<<abi.PipePrimBits {
			return fmt.Errorf("gfx: BEMIT: pid %d does not fit the %d-bit key field", pid, abi.PipePrimBits)
		}
		x0, x1, y0, y1 := g.span(bb)
		k := offsets[pid]
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				keys[k] = (y*uint32(g.Cols)+x)<<abi.PipePrimBits | uint32(pid)
				k++
			}
		}
	}
	return nil
}

// BHist counts keys per bin.
func BHist(keys, hist []uint32) {
	clear(hist)
	for _, k := range keys {
		hist[k>>abi.PipePrimBits]++
	}
}

// BBase scans the bin histogram into absolute pid offsets and writes every
// header of the dense grid (empty bins included) into tbuf.
func BBase(g BinGrid, hist, base []uint32, tbuf []byte) {
	var s uint32
	for b := range hist {
		base[b] = s
		abi.BinHeader{BinX: uint16(b % g.Cols), BinY: uint16(b / g.Cols), PidsOffset: s, PidsCount: hist[b]}.Put(tbuf[b*abi.BinHeaderBytes:])
		s += hist[b]
	}
}

// BScatter is the counting-sort scatter of pids into the sorted array; it walks
// the keys in order, so each bin's pids keep submission order.
func BScatter(keys, base []uint32, pids []byte) {
	cursor := append([]uint32(nil), base...)
	for _, k := range keys {
		b := k >> abi.PipePrimBits
		binary.LittleEndian.PutUint32(pids[4*cursor[b]:], k&(1<<abi.PipePrimBits-1))
		cursor[b]++
	}
}

// DeviceBinning runs the six binning_k stages over buffers and returns the dense
// tile buffer (headers for every bin, then the sorted pids) and its header count.
// spec: rasterizer §3.1
func DeviceBinning(g BinGrid, bbs []BBox) ([]byte, int, error) {
	counts := make([]uint32, len(bbs))
	offsets := make([]uint32, len(bbs)+1)
	BCount(g, bbs, counts)
	total := BScan(counts, offsets)
	keys := make([]uint32, total)
	if err := BEmit(g, bbs, offsets, keys); err != nil {
		return nil, 0, err
	}
	hist := make([]uint32, g.Bins())
	BHist(keys, hist)
	base := make([]uint32, g.Bins())
	tbuf := make([]byte, g.Bins()*abi.BinHeaderBytes+int(total)*4)
	BBase(g, hist, base, tbuf)
	BScatter(keys, base, tbuf[g.Bins()*abi.BinHeaderBytes:])
	return tbuf, g.Bins(), nil
}
