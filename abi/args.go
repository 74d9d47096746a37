package abi

import (
	"fmt"
	"math/bits"
)

// Link bases of the resident modules: each stage links at a fixed base so the modules
// co-reside. spec: vortexpipe §2.4; vortex-hardware-facts §6
const (
	LinkBaseFS       = 0x8000_0000 // fragment shaders and compute kernels (shared slot)
	LinkBaseFrontEnd = 0x8020_0000 // the graphics front-end module
	LinkBaseVS       = 0x8040_0000 // vertex shaders
	DefaultStartup32 = 0x8000_0000
	DefaultStartup64 = 0x1_8000_0000
)

// ArgSlotBytes is the size of one arg-block slot (an i64 device address).
const ArgSlotBytes = 8

// Vertex/compute arg block: VP_ARG_SLOTS = 9 i64 slots. spec: vortexpipe §2.5
const (
	ArgSlots = 9

	// Compute meanings.
	ArgCSPushConstants = 0
	ArgCSDescSet0      = 1
	ArgCSBaseXY        = 2 // base_group_x | base_group_y << 32
	ArgCSBaseZ         = 3
	ArgCSSSBOBase      = 4 // 4–7 raw shader-buffer slots

	// Vertex meanings.
	ArgVSOutput         = 0 // output vertex-record buffer
	ArgVSAttribTable    = 1 // {base, stride, divisor}[8] attribute table
	ArgVSIndexBuffer    = 2 // 0 = non-indexed
	ArgVSVertsPerInst   = 3 // 0 = plain draw
	ArgVSBaseInstance   = 4
	ArgVSBaseVertex     = 5
	ArgVSCount          = 6  // real vertex count (launches are warp-padded)
	ArgVSDescTable      = 8  // i64[FSDescSlots] constant-buffer table
	VSAttribTableLocs   = 8  // the entries vortexpipe §2.5 gives the table
	VSMaxAttribs        = 16 // GL_MAX_VERTEX_ATTRIBS: the table grows to this many entries
	VSAttribEntryBytes  = 24 // {u64 base, u64 stride, u64 divisor}
	FSDescSlots         = 8  // push constants at 0, descriptor set N at N+1
	MaxDescriptorsPerSh = 16 // VP_MAX_DESCS
)

// Fragment arg block. spec: vortexpipe §2.5
const (
	ArgFSPrimBuffer   = 0
	ArgFSSWSampler    = 1
	ArgFSSWMerger     = 2
	ArgFSSWRasterBase = 3 // 3–8 the SW-raster tile-walk geometry
	ArgFSDesc         = 9
	ArgFSMRT          = 10
	ArgFSAperture     = 11 // packed {xbits, ybits, record_shift}: see PackAperture
	ArgFSFlat         = 12
	// ArgFSLineCover is the software raster's exact line coverage: per pid
	// one LineCoverBytes record (0: none). Not in vortexpipe §2.5, whose
	// device draws no lines: the compiled-program device's line draws
	// (gfx/shaderdev prim_k) rasterise with the reference renderer's
	// 1/256-pixel rule, which RASTER's Q15.16 edges cannot reproduce.
	ArgFSLineCover = 13
	ArgFSSlots     = 14
)

// LineCoverBytes is one ArgFSLineCover record: u32 flags (LineCoverExact:
// the pid is one triangle of a line's parallelogram, tested with the
// record's corners; else its Q15.16 edges are) and the triangle's three
// corners as i32 {x, y} window coordinates in 1/256 pixel, wound with
// positive area (x right, y down the rows). A pixel centre is covered when
// every edge function E = (y_p − y_q)·x + (x_q − x_p)·y + c of edge p→q is
// positive, or zero on an edge whose inside lies towards +x or, horizontal,
// towards +y (the top-left rule in row order). spec: GL 4.6 §14.5
const (
	LineCoverBytes           = 28
	LineCoverExact    uint32 = 1
	LineCoverSubPixel        = 256 // corner units per pixel
)

// OM aperture: the FS exports a fragment as a store to
// ApertureBase + ((((rt << 1) | face) << (XB + YB)) | (y << XB) | x) << RS,
// XB and YB being ceil(log2) of the framebuffer width and height.
// spec: vortexpipe §2.2; vortex-hardware-facts §5
const (
	ApertureBase        = 0xE000_0000
	ApertureSize        = 0x2000_0000 // the aperture ends at 4 GiB
	RecordShiftColorZ   = 3           // colour at +0, depth at +4
	RecordShiftOneWord  = 2           // one word; APERTURE_DEPTH_ONLY says which
	ApertureDepthOffset = 4
)

// Aperture is the packed aperture geometry of FS arg slot 11 and the OM's
// APERTURE_* DCRs.
type Aperture struct {
	XBits, YBits, RecordShift uint8
}

// CeilLog2 returns ceil(log2(n)) for n >= 1 (0 for n <= 1).
func CeilLog2(n int) uint8 {
	if n <= 1 {
		return 0
	}
	return uint8(bits.Len(uint(n - 1)))
}

// NewAperture returns the aperture geometry for a width×height framebuffer with up to
// rts render targets. It fails when the addresses would not fit the aperture (instead
// of aliasing; a framebuffer that large must use the software merger).
func NewAperture(width, height, rts int, recordShift uint8) (Aperture, error) {
	a := Aperture{XBits: CeilLog2(width), YBits: CeilLog2(height), RecordShift: recordShift}
	if width < 1 || height < 1 || rts < 1 || rts > OMMaxRT {
		return Aperture{}, fmt.Errorf("abi: aperture for %dx%d with %d render targets", width, height, rts)
	}
	top := uint64(rts-1)<<1 | 1
	span := (top + 1) << (uint(a.XBits) + uint(a.YBits) + uint(a.RecordShift))
	if span > ApertureSize {
		return Aperture{}, fmt.Errorf("abi: a %dx%d framebuffer with %d render targets needs %d bytes of OM aperture (max %d)",
			width, height, rts, span, ApertureSize)
	}
	return a, nil
}

// Addr returns the aperture address of a fragment.
func (a Aperture) Addr(rt, face, x, y int) uint64 {
	sel := uint64(rt)<<1 | uint64(face&1)
	off := (sel<<(a.XBits+a.YBits) | uint64(y)<<a.XBits | uint64(x)) << a.RecordShift
	return ApertureBase + off
}

// Decode splits an aperture address back into (rt, face, x, y); ok is false outside
// the aperture.
func (a Aperture) Decode(addr uint64) (rt, face, x, y int, ok bool) {
	if addr < ApertureBase || addr >= ApertureBase+ApertureSize {
		return 0, 0, 0, 0, false
	}
	off := (addr - ApertureBase) >> a.RecordShift
	x = int(off & (1<<a.XBits - 1))
	y = int(off >> a.XBits & (1<<a.YBits - 1))
	sel := off >> (a.XBits + a.YBits)
	return int(sel >> 1), int(sel & 1), x, y, true
}

// Pack packs the geometry for FS arg slot 11: xbits [7:0], ybits [15:8],
// record_shift [23:16] (our choice; the spec names the fields, not their bits).
func (a Aperture) Pack() uint64 {
	return uint64(a.XBits) | uint64(a.YBits)<<8 | uint64(a.RecordShift)<<16
}

// UnpackAperture is the inverse of Aperture.Pack.
func UnpackAperture(w uint64) Aperture {
	return Aperture{XBits: uint8(w), YBits: uint8(w >> 8), RecordShift: uint8(w >> 16)}
}

// OM same-pixel interlock: 64 buckets hashed by {y[2:0], x[2:0]}.
// spec: vortex-hardware-facts §5
func InterlockBucket(x, y int) int { return (y&7)<<3 | x&7 }

// ISA encodings of the graphics instructions. spec: vortexpipe §2.3.4; facts §6
const (
	OpcodeCustom0      = 0x0B
	OpcodeCustom1      = 0x2B
	Funct3Barrier      = 4 // custom-0
	Funct3QuadShuffle  = 6 // custom-0
	Funct3OMExport     = 3 // custom-1, R4, funct7[1:0] = {has_depth, has_colour}
	Funct3Tex          = 5 // custom-1, R4, funct2 = stage
	CSROMRTIdx         = 0x7CE
	CSROMSampleIdx     = 0x7CF
	OMExportHasColour  = 1 << 0
	OMExportHasDepth   = 1 << 1
	TexMaxStagesPerIns = 4
)

// VSAttribTableBytes is the size of the VS attribute table for a program with
// n attributes: vortexpipe §2.5's 8 entries, or one per attribute beyond them up
// to VSMaxAttribs (docs/ABI.md), so a program within the spec's table uploads
// exactly the spec's bytes.
func VSAttribTableBytes(n int) int { return max(n, VSAttribTableLocs) * VSAttribEntryBytes }
