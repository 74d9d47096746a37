package abi

import (
	"encoding/binary"
	"fmt"
)

// BinHeaderBytes is sizeof(rast_bin_header_t). spec: rasterizer §2.2
const BinHeaderBytes = 12

// BinHeader is rast_bin_header_t: word 0 {bin_y[31:16], bin_x[15:0]} in bin units,
// word 1 pids_offset (absolute u32 index into sorted_pids), word 2 pids_count.
// spec: rasterizer §2.2
type BinHeader struct {
	BinX, BinY uint16
	PidsOffset uint32
	PidsCount  uint32
}

// Put writes h into b[0:12].
func (h BinHeader) Put(b []byte) {
	binary.LittleEndian.PutUint32(b[0:], uint32(h.BinY)<<16|uint32(h.BinX))
	binary.LittleEndian.PutUint32(b[4:], h.PidsOffset)
	binary.LittleEndian.PutUint32(b[8:], h.PidsCount)
}

// DecodeBinHeader reads a header from b[0:12].
func DecodeBinHeader(b []byte) BinHeader {
	w0 := binary.LittleEndian.Uint32(b)
	return BinHeader{BinX: uint16(w0), BinY: uint16(w0 >> 16),
		PidsOffset: binary.LittleEndian.Uint32(b[4:]), PidsCount: binary.LittleEndian.Uint32(b[8:])}
}

// PidsBase is where the sorted pid array starts: tbuf + num_bins·12.
// spec: rasterizer §2.2
func PidsBase(tbuf uint64, numBins int) uint64 { return tbuf + uint64(numBins)*BinHeaderBytes }

// PidBits is VX_RASTER_PID_BITS: the stamp carries the low 16 bits of a pid, so a
// draw may address at most 1<<16 primitives per RASTER pass. spec: facts §3.1
const PidBits = 16

// MaxPrimsPerPass is the number of pids the RASTER stamp can address.
const MaxPrimsPerPass = 1 << PidBits

// PipePrimBits is the pid field of the front end's bin-sort key (bin_id << 20 | pid).
// spec: vortexpipe §3.8, vortex-hardware-facts §3.2
const PipePrimBits = 20

// Primitive record (rast_prim_t), 212 bytes. Word offsets. spec: rasterizer §2.3
const (
	PrimBytes      = 212
	PrimWords      = PrimBytes / 4
	PrimEdgesWord  = 0  // edges[3] {A, B, C}, Q15.16, words 0–8
	PrimZWord      = 9  // screen-space depth plane {A′, B′, C′}, Q7.24, words 9–11
	PrimPlanesWord = 12 // 13 barycentric-delta planes {r,g,b,a,u,v,rhw,w0..w5}, Q7.24
	PrimFacingWord = 51 // u32 source winding (1 = back-facing as recorded by setup)
	PrimRHWScaleW  = 52 // f32 rhw premultiply factor
	// RasterVisibleWords is the slice the rasterizer fetches: edges (9 words), or
	// edges and the depth plane (12) with early-Z.
	RasterVisibleWords       = 9
	RasterVisibleWordsEarlyZ = 12
)

// PrimPlane names an attribute plane of rast_prim_t. Each plane is three Q7.24 words.
type PrimPlane int

// The attribute planes in record order (rasterizer §2.3: z, then r,g,b,a,u,v,rhw,w0–w5).
const (
	PlaneZ PrimPlane = iota
	PlaneR
	PlaneG
	PlaneB
	PlaneA
	PlaneU
	PlaneV
	PlaneRHW
	PlaneW0
	PlaneW1
	PlaneW2
	PlaneW3
	PlaneW4
	PlaneW5
	NumPrimPlanes
)

// Word returns the first word offset of the plane in rast_prim_t.
func (p PrimPlane) Word() int { return PrimZWord + 3*int(p) }

// String names the plane.
func (p PrimPlane) String() string {
	return [...]string{"z", "r", "g", "b", "a", "u", "v", "rhw", "w0", "w1", "w2", "w3", "w4", "w5"}[p]
}

// NumVaryingPlanes is the number of generic varying planes (three vec4s).
const NumVaryingPlanes = 12

// VaryingPlane returns the plane that carries scalar varying component i (0..11):
// the front end packs varyings in declaration order into [u, v, r, g, b, a, w0..w5].
// spec: vortex-hardware-facts §3.1
func VaryingPlane(i int) PrimPlane {
	order := [NumVaryingPlanes]PrimPlane{PlaneU, PlaneV, PlaneR, PlaneG, PlaneB, PlaneA,
		PlaneW0, PlaneW1, PlaneW2, PlaneW3, PlaneW4, PlaneW5}
	return order[i]
}

// FlatSideWords is the per-primitive size of the flat-varying side array: the
// provoking vertex's 12 varying words, copied verbatim. spec: vortexpipe §2.5, §3.4
const FlatSideWords = 12

// Stamp is one quad of RASTER output (raster_stamp_t): position in quads (pixel/2),
// 2×2 coverage mask (bit 2j+i; TL=0, TR=1, BL=2, BR=3) and pid.
// spec: rasterizer §2.4; vortex-hardware-facts §3.1
type Stamp struct {
	QX, QY uint16 // 14 bits each (VX_RASTER_DIM_BITS − 1)
	Mask   uint8  // 4 bits
	PID    uint16
}

// StampBits is the packed stamp width: {pos_x[13:0], pos_y[13:0], mask[3:0], pid[15:0]}.
const (
	StampBits     = 48
	StampPosBits  = 14
	StampMaskBits = 4
)

// Pack packs the stamp MSB-first: pos_x in [47:34], pos_y [33:20], mask [19:16], pid [15:0].
func (s Stamp) Pack() uint64 {
	return uint64(s.QX&0x3FFF)<<34 | uint64(s.QY&0x3FFF)<<20 | uint64(s.Mask&0xF)<<16 | uint64(s.PID)
}

// UnpackStamp is the inverse of Stamp.Pack.
func UnpackStamp(w uint64) Stamp {
	return Stamp{QX: uint16(w >> 34 & 0x3FFF), QY: uint16(w >> 20 & 0x3FFF),
		Mask: uint8(w >> 16 & 0xF), PID: uint16(w)}
}

// QuadLanes is FRAG_QUAD_LANES: a quad owns four adjacent lanes.
const QuadLanes = 4

// LanePixel returns the pixel of lane l of a quad at (qx, qy): sub-pixel s = l & 3 at
// (2qx + (s & 1), 2qy + (s >> 1)). spec: rasterizer §11
func LanePixel(qx, qy, lane int) (x, y int) {
	s := lane & 3
	return 2*qx + s&1, 2*qy + s>>1
}

// Fragment CSRs. spec: rasterizer §11; vortex-hardware-facts §6
const (
	CSRFragPos  = 0xCE2 // {covered[31], y[30:16], x[15:0]}
	CSRFragPID  = 0xCE3
	CSRCTAFirst = 0xCD0
	CSRCTAEntry = 0xCE1
)

// PackFragPos packs VX_CSR_FRAG_POS. It fails when x or y does not fit (16 and 15 bits).
func PackFragPos(x, y int, covered bool) (uint32, error) {
	if x < 0 || x > 0xFFFF || y < 0 || y > 0x7FFF {
		return 0, fmt.Errorf("abi: fragment position (%d, %d) does not fit FRAG_POS", x, y)
	}
	w := uint32(y)<<16 | uint32(x)
	if covered {
		w |= 1 << 31
	}
	return w, nil
}

// UnpackFragPos is the inverse of PackFragPos.
func UnpackFragPos(w uint32) (x, y int, covered bool) {
	return int(w & 0xFFFF), int(w >> 16 & 0x7FFF), w>>31 != 0
}

// Raster configuration defaults. spec: rasterizer §12
const (
	DefaultBinLogSize   = 7 // 128-pixel bins; the TE's top level
	DefaultBlockLogSize = 2 // 4-pixel blocks
	PackerIdleFlush     = 32
)

// RasterOwner returns the core (within the cluster) that owns quad (qx, qy):
// ((qx >> (binLog−1)) + (qy >> (binLog−1))) mod cores. spec: rasterizer §9.1
func RasterOwner(qx, qy, binLog, cores int) int {
	return ((qx >> (binLog - 1)) + (qy >> (binLog - 1))) % cores
}

// EngineBinCount is my_bin_count for engine i of n (n a power of two):
// (tile_count + n − 1 − i) >> log2(n). spec: rasterizer §6.2
func EngineBinCount(tileCount, i, n int) int {
	log := 0
	for 1<<log < n {
		log++
	}
	return (tileCount + n - 1 - i) >> log
}
