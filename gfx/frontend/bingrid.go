package frontend

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
)

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
		return g, fmt.Errorf("frontend: bin grid %dx%d does not fit the 32-bit bin-sort key", g.Cols, g.Rows)
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
			return fmt.Errorf("frontend: BEMIT: pid %d does not fit the %d-bit key field", pid, abi.PipePrimBits)
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
