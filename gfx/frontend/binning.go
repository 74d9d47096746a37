package frontend

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"vortexgfx/abi"
)

// ErrTooManyPrims is returned when a draw has more visible primitives than the
// RASTER pid field can address (the PID_BITS guard: refused, never aliased).
// spec: rasterizer §3.2, vortexpipe §3.8
var ErrTooManyPrims = errors.New("frontend: more visible primitives than VX_RASTER_PID_BITS can address")

// Binned is one draw's bin-sorted buffers, laid out exactly as RASTER reads them.
type Binned struct {
	Prims     []Prim // set-up primitives, indexed by pid
	BBoxes    []BBox // their clamped screen bboxes
	TileBuf   []byte // headers (12 B each) then the sorted pid array (u32 each)
	PrimBuf   []byte // len(Prims) records of abi.PrimBytes
	TileCount int    // header count, programmed as RASTER_TILE_COUNT
	Pairs     int    // (bin, pid) pairs
}

// binRange is the bins a bbox overlaps: [x0, x1) × [y0, y1) in bin units.
func binRange(bb BBox, binLog uint) (x0, x1, y0, y1 uint32) {
	size := uint32(1) << binLog
	return bb.L >> binLog, (bb.R + size - 1) >> binLog, bb.T >> binLog, (bb.B + size - 1) >> binLog
}

// Binning is the host coverage oracle, graphics::Binning(): setup with CULL_NONE
// and no near clip on each triangle, the bbox → overlapped-bin loop, and headers
// for touched bins only, sorted by bin_x then bin_y, each pid list ascending.
// spec: rasterizer §3.2; vortex-hardware-facts §3.2, §9 item 2
func Binning(verts []Vertex, tris [][3]uint32, width, height int, near, far float32, binLog uint, planes Planes) (*Binned, error) {
	if width <= 0 || height <= 0 || width > abi.RasterScissorMaxCoord || height > 0x7FFF {
		return nil, fmt.Errorf("frontend: binning: target %dx%d outside the 16-bit scissor / 15-bit FRAG_POS range", width, height)
	}
	out := &Binned{}
	type key struct{ x, y uint16 }
	bins := map[key][]uint32{}
	for i, t := range tris {
		for _, vi := range t {
			if int(vi) >= len(verts) {
				return nil, fmt.Errorf("frontend: binning: triangle %d: vertex %d out of range (%d vertices)", i, vi, len(verts))
			}
		}
		var p Prim
		var bb BBox
		if !SetupTriangle(&verts[t[0]], &verts[t[1]], &verts[t[2]], width, height, near, far, CullNone, nil, planes, &p, &bb) {
			continue
		}
		pid := uint32(len(out.Prims))
		out.Prims = append(out.Prims, p)
		out.BBoxes = append(out.BBoxes, bb)
		x0, x1, y0, y1 := binRange(bb, binLog)
		for ty := y0; ty < y1; ty++ {
			for tx := x0; tx < x1; tx++ {
				k := key{uint16(tx), uint16(ty)}
				bins[k] = append(bins[k], pid)
				out.Pairs++
			}
		}
	}
	if len(out.Prims) > abi.MaxPrimsPerPass {
		return nil, fmt.Errorf("%w: %d visible, max %d", ErrTooManyPrims, len(out.Prims), abi.MaxPrimsPerPass)
	}
	keys := make([]key, 0, len(bins))
	for k := range bins {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].x != keys[j].x {
			return keys[i].x < keys[j].x
		}
		return keys[i].y < keys[j].y
	})
	out.TileCount = len(keys)
	out.TileBuf = make([]byte, len(keys)*abi.BinHeaderBytes+out.Pairs*4)
	pids := out.TileBuf[len(keys)*abi.BinHeaderBytes:]
	cursor := uint32(0)
	for i, k := range keys {
		list := bins[k]
		abi.BinHeader{BinX: k.x, BinY: k.y, PidsOffset: cursor, PidsCount: uint32(len(list))}.Put(out.TileBuf[i*abi.BinHeaderBytes:])
		for _, pid := range list {
			binary.LittleEndian.PutUint32(pids[4*cursor:], pid)
			cursor++
		}
	}
	out.PrimBuf = make([]byte, len(out.Prims)*abi.PrimBytes)
	for i := range out.Prims {
		out.Prims[i].Put(out.PrimBuf[i*abi.PrimBytes:])
	}
	return out, nil
}
