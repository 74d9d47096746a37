package abi

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The graphics front end's launch ABI: the stage numbers of the setup_k/binning_k
// launches, the setup_vertex_t record, the argument block every stage launch reads,
// the counters the front end writes, and the argument block of draw3d's fragment
// kernel. The public Vortex sources keep these in gfx_frontend_abi.h with a different
// pipe_arg_t; ours carries what our kernels need and is fixed here.
// spec: rasterizer §3.1; vortexpipe §3.2; vortex-hardware-facts §3.2

// Front-end stages in launch order (the PIPE_STAGE_* numbers of facts §3.2).
const (
	FEStageSetup uint64 = iota
	FEStageScan
	FEStageEmit
	FEStageBCount
	FEStageBScan
	FEStageBEmit
	FEStageBHist
	FEStageBBase
	FEStageBScatter
	FENumStages
)

// SetupVertexBytes is one setup_vertex_t record: clip-space position xyzw, colour
// rgba and texcoord uv, all f32 (40 B). spec: vortex-hardware-facts §3.2
const SetupVertexBytes = 40

// FrontEndArgSlots is the size of the front-end argument block in 64-bit slots.
const FrontEndArgSlots = 31

// FrontEndArgs is the argument block both front-end kernels read: every buffer the
// nine stage launches share, as FrontEndArgSlots little-endian u64 slots (the stage
// first). Pairs of 32-bit fields share a slot, low half first.
type FrontEndArgs struct {
	Stage      uint64 // slot 0
	Verts      uint64 // 1: setup_vertex_t[NumVerts] (or expand_k records when NVar > 0)
	NumVerts   uint32 // 2
	Tris       uint64 // 3: u32[3·NumTris] vertex indices
	NumTris    uint32 // 4
	Width      uint32 // 5 low
	Height     uint32 // 5 high
	Near, Far  float32
	Cull       uint32 // 7 low: the setup cull mode
	Planes     uint32 // 7 high: the attribute-plane convention and clip mask (PackFEPlanes)
	Slots      uint64 // 8: scratch rast_prim_t[NumTris·slots per triangle]
	SlotBoxes  uint64 // 9: scratch bbox (4 × u32) per slot
	Keep       uint64 // 10: u32[NumTris] survivors per triangle
	Offsets    uint64 // 11: u32[NumTris+1] (SCAN), then u32[prims+1] (BSCAN)
	Prims      uint64 // 12: the dense rast_prim_t array (PBUF)
	Boxes      uint64 // 13: the dense bbox array
	Counters   uint64 // 14: u32[FECounterWords]
	FragArgs   uint64 // 15: the fragment argument block whose prim count SCAN fills in
	Cols, Rows uint32 // 16: the dense bin grid
	BinLog     uint32 // 17 low
	// DepthClipDisable (slot 17 high, bit 0) turns setup_k's near-plane clip off
	// (GL depth clamp / Vulkan depthClipEnable = false): the depth the merger
	// sees is clamped to the depth range instead. spec: vortexpipe-driver §3.7
	// (depth-clamp / depth-clip-disable row)
	DepthClipDisable bool
	Counts           uint64 // 18: u32[prims] bins per primitive
	Keys             uint64 // 19: u32[keys] (bin_id << PipePrimBits) | pid
	Hist             uint64 // 20: u32[bins]
	Base             uint64 // 21: u32[bins]
	TBuf             uint64 // 22: bin headers then sorted pids
	// NVar is 0 for setup_vertex_t records, else the number of packed varyings per
	// expand_k record; NFlat is the number of flat words SETUP copies from each
	// triangle's provoking vertex into FlatSlots and EMIT compacts into Flat, the
	// per-primitive side array (FlatSideWords per primitive). Slot 23 packs both.
	NVar, NFlat uint32
	FlatSlots   uint64 // 24
	Flat        uint64 // 25
	// ViewSX, ViewTX, ViewSY, ViewTY (slots 26, 27: S | T<<32, f32 each) are
	// the draw's viewport transform, window = ndc·S + T (L = tx − sx, R = tx
	// + sx, T = ty − sy, B = ty + sy; a negative sy flips), which rides the
	// argument block to setup_k with the depth range. All zero: the default
	// mapping onto the whole target. spec: vortexpipe-driver §3.8 (viewport /
	// depth range row); vortex-hardware-facts §3.2 (viewport)
	ViewSX, ViewTX, ViewSY, ViewTY float32
	// ScissorX, ScissorY (slot 28, low then high) are the pixel rectangle the
	// draw may cover (its scissor ∩ its viewport's pixels, within the target)
	// packed as RASTER_SCISSOR_X/Y ({max[31:16], min[15:0]}, max exclusive):
	// setup_k clamps each primitive's bounding box to it, so the software tile
	// walk (which covers exactly the box) and the binning honour it as
	// RASTER's destination window does. Both zero: the whole target.
	// spec: rasterizer.md §4 (RASTER_SCISSOR_X/Y); vortex-hardware-facts §2
	ScissorX, ScissorY uint32
	// Polygon offset (GL POLYGON_OFFSET_FILL): setup_k adds
	// o = OffsetFactor·m + OffsetUnits·r, bounded by a nonzero OffsetClamp,
	// to each primitive's depth plane, r following OffsetDepth (bit 0: the
	// offset is on; bits 8–15: the depth attachment's depth bits, 0 for
	// none). Slot 29 holds factor and units, slot 30 the clamp and
	// OffsetDepth. spec: GL 4.6 §14.6.5; rasterizer §2.3 (depth plane)
	OffsetFactor, OffsetUnits float32
	OffsetClamp               float32
	OffsetDepth               uint32
}

// OffsetDepth words (FrontEndArgs.OffsetDepth).
const (
	FEOffsetOn        = 1      // polygon offset enabled
	FEOffsetBitsShift = 8      // the depth attachment's depth bits, 0 without one
	feOffsetDefined   = 0xFF01 // every defined bit
)

// Pack lays the block out as FrontEndArgSlots little-endian u64 slots.
func (a *FrontEndArgs) Pack() []byte {
	s := [FrontEndArgSlots]uint64{
		a.Stage, a.Verts, uint64(a.NumVerts), a.Tris, uint64(a.NumTris),
		uint64(a.Width) | uint64(a.Height)<<32,
		uint64(math.Float32bits(a.Near)) | uint64(math.Float32bits(a.Far))<<32,
		uint64(a.Cull) | uint64(a.Planes)<<32,
		a.Slots, a.SlotBoxes, a.Keep, a.Offsets, a.Prims, a.Boxes, a.Counters, a.FragArgs,
		uint64(a.Cols) | uint64(a.Rows)<<32, uint64(a.BinLog) | uint64(b2u(a.DepthClipDisable))<<32,
		a.Counts, a.Keys, a.Hist, a.Base, a.TBuf, uint64(a.NVar) | uint64(a.NFlat)<<32, a.FlatSlots, a.Flat,
		uint64(math.Float32bits(a.ViewSX)) | uint64(math.Float32bits(a.ViewTX))<<32,
		uint64(math.Float32bits(a.ViewSY)) | uint64(math.Float32bits(a.ViewTY))<<32,
		uint64(a.ScissorX) | uint64(a.ScissorY)<<32,
		uint64(math.Float32bits(a.OffsetFactor)) | uint64(math.Float32bits(a.OffsetUnits))<<32,
		uint64(math.Float32bits(a.OffsetClamp)) | uint64(a.OffsetDepth)<<32,
	}
	b := make([]byte, 8*FrontEndArgSlots)
	for i, v := range s {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	return b
}

// UnpackFrontEndArgs reads a block written by Pack. It checks only the length; the
// kernels validate the values.
func UnpackFrontEndArgs(b []byte) (FrontEndArgs, error) {
	if len(b) < 8*FrontEndArgSlots {
		return FrontEndArgs{}, fmt.Errorf("abi: front-end args: %d bytes, want %d", len(b), 8*FrontEndArgSlots)
	}
	s := func(i int) uint64 { return binary.LittleEndian.Uint64(b[8*i:]) }
	if f := s(17) >> 32; f > 1 {
		return FrontEndArgs{}, fmt.Errorf("abi: front-end args: slot 17 flags 0x%x (only bit 0, depth clip disable, is defined)", f)
	}
	if f := uint32(s(30) >> 32); f&^feOffsetDefined != 0 {
		return FrontEndArgs{}, fmt.Errorf("abi: front-end args: slot 27 offset word 0x%x has undefined bits", f)
	}
	return FrontEndArgs{
		Stage: s(0), Verts: s(1), NumVerts: uint32(s(2)), Tris: s(3), NumTris: uint32(s(4)),
		Width: uint32(s(5)), Height: uint32(s(5) >> 32),
		Near: math.Float32frombits(uint32(s(6))), Far: math.Float32frombits(uint32(s(6) >> 32)),
		Cull: uint32(s(7)), Planes: uint32(s(7) >> 32),
		Slots: s(8), SlotBoxes: s(9), Keep: s(10), Offsets: s(11), Prims: s(12), Boxes: s(13),
		Counters: s(14), FragArgs: s(15), Cols: uint32(s(16)), Rows: uint32(s(16) >> 32), BinLog: uint32(s(17)), DepthClipDisable: s(17)>>32 != 0,
		Counts: s(18), Keys: s(19), Hist: s(20), Base: s(21), TBuf: s(22),
		NVar: uint32(s(23)), NFlat: uint32(s(23) >> 32), FlatSlots: s(24), Flat: s(25),
		ViewSX: math.Float32frombits(uint32(s(26))), ViewTX: math.Float32frombits(uint32(s(26) >> 32)),
		ViewSY: math.Float32frombits(uint32(s(27))), ViewTY: math.Float32frombits(uint32(s(27) >> 32)),
		ScissorX: uint32(s(28)), ScissorY: uint32(s(28) >> 32),
		OffsetFactor: math.Float32frombits(uint32(s(29))), OffsetUnits: math.Float32frombits(uint32(s(29) >> 32)),
		OffsetClamp: math.Float32frombits(uint32(s(30))), OffsetDepth: uint32(s(30) >> 32),
	}, nil
}

// Counter words the front end writes (u32 each) at FrontEndArgs.Counters.
const (
	FECounterPrims         = iota // primitives after clip/cull (SCAN)
	FECounterKeys                 // (bin, pid) pairs (BSCAN)
	FECounterNearClipped          // triangles split by the near plane
	FECounterGuardClipped         // triangles clipped at the guard band
	FECounterCulled               // triangles culled (facing, zero area, off screen)
	FECounterPrecisionLoss        // triangles refused for sub-pixel precision loss
	FECounterFarClipped           // compiled draws' triangles clipped by the far plane
	FECounterWords
)

// Draw3DFragArgsBytes is the size of draw3d's fragment-kernel argument block.
const Draw3DFragArgsBytes = 32

// Draw3DFragArgs is the argument block FRAG_PARAM points at for the draw3d fragment
// kernel: u64 prim_addr, u32 num_prims, then depth_enabled, color_enabled,
// tex_enabled and tex_modulate as u32 flags. spec: vortex-hardware-facts §3.3, §8
type Draw3DFragArgs struct {
	PrimAddr                                            uint64
	NumPrims                                            int
	DepthEnabled, ColorEnabled, TexEnabled, TexModulate bool
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// Pack lays the block out in device-memory order.
func (a Draw3DFragArgs) Pack() []byte {
	b := make([]byte, Draw3DFragArgsBytes)
	binary.LittleEndian.PutUint64(b, a.PrimAddr)
	binary.LittleEndian.PutUint32(b[8:], uint32(a.NumPrims))
	for i, f := range []bool{a.DepthEnabled, a.ColorEnabled, a.TexEnabled, a.TexModulate} {
		binary.LittleEndian.PutUint32(b[12+4*i:], b2u(f))
	}
	return b
}

// UnpackDraw3DFragArgs reads a block written by Pack, as the kernel launched with
// FRAG_PARAM does. A prim count beyond the pid field or a flag other than 0/1 is
// refused.
func UnpackDraw3DFragArgs(b []byte) (Draw3DFragArgs, error) {
	if len(b) < Draw3DFragArgsBytes {
		return Draw3DFragArgs{}, fmt.Errorf("abi: fragment args: %d bytes, want %d", len(b), Draw3DFragArgsBytes)
	}
	a := Draw3DFragArgs{PrimAddr: binary.LittleEndian.Uint64(b), NumPrims: int(binary.LittleEndian.Uint32(b[8:]))}
	if a.NumPrims > MaxPrimsPerPass {
		return Draw3DFragArgs{}, fmt.Errorf("abi: fragment args: %d primitives exceed the pid field", a.NumPrims)
	}
	for i, dst := range []*bool{&a.DepthEnabled, &a.ColorEnabled, &a.TexEnabled, &a.TexModulate} {
		switch binary.LittleEndian.Uint32(b[12+4*i:]) {
		case 0:
		case 1:
			*dst = true
		default:
			return Draw3DFragArgs{}, fmt.Errorf("abi: fragment args: flag %d is not 0 or 1", i)
		}
	}
	return a, nil
}

// The fragment arg block's software-unit slots 3–8 ("the SW-raster tile-walk
// geometry", vortexpipe §2.5), written by the draw and read by the FS wrapper: the
// bin headers the software walk reads, their count, the dense per-primitive
// bounding boxes, the packed target geometry (PackFSGeometry), the software
// counters (u32[FSCounterWords]) and the routing flags (FSFlag*).
// spec: vortexpipe-driver §2.5, §2.3.3, §3.4.1
const (
	ArgFSTiles     = ArgFSSWRasterBase
	ArgFSTileCount = ArgFSSWRasterBase + 1
	ArgFSBoxes     = ArgFSSWRasterBase + 2
	ArgFSGeometry  = ArgFSSWRasterBase + 3
	ArgFSCounters  = ArgFSSWRasterBase + 4
	ArgFSFlags     = ArgFSSWRasterBase + 5
)

// Bits of the FS routing-flags slot (ArgFSFlags): the units routed to software,
// then per colour target i the BGRA byte order at bit FSFlagBGRAShift+i (the
// variant key's bgra mask), the number of bound colour targets at
// FSFlagTargetsShift (4 bits). FSFlagPerSample asks the software walk of a
// multisampled pass to shade each covered sample on its own (sample shading:
// the program reads gl_SampleID or gl_SamplePosition or has sample-qualified
// inputs, or the draw asks for more than one shading per pixel).
// spec: vortexpipe-driver §2.3.1 (variant key), §2.3.3; GL 4.6 §14.3.1.1
const (
	FSFlagSWRaster     uint64 = 1 << 0
	FSFlagSWOM         uint64 = 1 << 1
	FSFlagSWTex        uint64 = 1 << 2
	FSFlagPerSample    uint64 = 1 << 3
	FSFlagBGRAShift           = 8
	FSFlagTargetsShift        = 16
	FSFlagTargetsMask  uint64 = 0xF
)

// FSFlagSampleDropShift is the FS flags' field [47:32]: the samples the draw's
// GL_SAMPLE_MASK state clears (bit k: sample k, the complement of
// SAMPLE_MASK_VALUE over the pass's samples; 0 when the mask is disabled or
// keeps them all, so a draw without one writes the word it always did). The
// wrapper ANDs each fragment's coverage with the rest, on the FF export of a
// single-sample pass as on the software merger. docs/ABI.md row 40.
// spec: GL 4.6 §14.9.3 (multisample fragment operations)
const (
	FSFlagSampleDropShift        = 32
	FSFlagSampleDropMask  uint64 = 0xFFFF
)

// FSGeometry is the packed target geometry of ArgFSGeometry: width [15:0],
// height [31:16], samples [39:32], bin log [47:40].
// spec: vortexpipe-driver §2.5, §3.4.1
type FSGeometry struct {
	Width, Height int
	Samples       int
	BinLog        uint
}

// Pack packs the geometry into the slot's word.
func (g FSGeometry) Pack() uint64 {
	return uint64(g.Width&0xFFFF) | uint64(g.Height&0xFFFF)<<16 | uint64(g.Samples&0xFF)<<32 | uint64(g.BinLog&0xFF)<<40
}

// UnpackFSGeometry is the inverse of FSGeometry.Pack (the kernel validates).
func UnpackFSGeometry(w uint64) FSGeometry {
	return FSGeometry{Width: int(w & 0xFFFF), Height: int(w >> 16 & 0xFFFF), Samples: int(w >> 32 & 0xFF), BinLog: uint(w >> 40 & 0xFF)}
}

// The software counter words (u32 each at ArgFSCounters), summed with one atomic
// add per word per CTA: fragments exported (shaded, covered, live), samples the
// software merger merged, samples that passed it, quads and waves the software
// tile walk produced. spec: vortexpipe-driver §3.4, §3.4.1; facts §7 (counters)
const (
	FSCounterFragments = iota
	FSCounterMerged
	FSCounterPassed
	FSCounterQuads
	FSCounterWaves
	FSCounterWords
)

// ArgVSSWSampler is the vertex arg block's slot 7 (free in vortexpipe §2.5's
// table): the resident software-sampler descriptor table (SWTexDescBytes
// entries indexed by sampler binding) a vertex shader samples through, 0 when
// the VS samples nothing. spec: vortexpipe-driver §2.5, §3.6
const ArgVSSWSampler = 7

// MaxExtraVaryings is how many varying words a compiled program may have beyond
// the NumVaryingPlanes interpolation planes (64 in all). The extra words ride the
// per-primitive side array after its flat region (SideFlatWords): for extra word k,
// three f32 words — its value at the primitive's vertices 0, 1 and 2 (after
// clipping) — which the FS wrapper interpolates with the primitive's
// barycentrics exactly as a plane (a2 + b0·(a0−a2) + b1·(a1−a2)), in float.
// FrontEndArgs.NVar counts planes and extra words together.
// spec: vortexpipe-driver §3.2 step 1 (the 12 planes), §3.4 (flat side array)
const MaxExtraVaryings = 52

// MaxFlatWords is how many flat varying words a compiled program may have: the
// side array's flat region grows past FlatSideWords when a program has more
// (FrontEndArgs.NFlat says how many), and so does the flat region of an expand_k
// record. spec: vortexpipe-driver §3.4 (flat words ride the side array)
const MaxFlatWords = 64

// SideFlatWords is the flat region of the side array (and of an expand_k record)
// for nflat flat words: FlatSideWords, or nflat when larger.
// spec: vortexpipe-driver §3.4
func SideFlatWords(nflat int) int { return max(nflat, FlatSideWords) }

// SideArrayWords is the per-primitive side-array stride in words for a program
// of nvar interpolated and nflat flat varying words: the flat region, then three
// words per varying beyond the planes. spec: vortexpipe-driver §3.4
func SideArrayWords(nvar, nflat int) int {
	return SideFlatWords(nflat) + 3*max(nvar-NumVaryingPlanes, 0)
}

// FrontEndArgs.Planes packing (slot 7, high word): the attribute-plane convention
// in bits 0..7 and, for compiled-program draws, the user clip-distance enable mask
// in bits 8..15 — setup_k clips each triangle against every enabled plane, whose
// distances the expand_k records carry (one per enabled plane, in plane order,
// after the varying words beyond the planes). Bits 16..31 are reserved and zero.
// docs/ABI.md row 30. spec: vortexpipe §3.2 (setup_k), GL 4.6 §13.5 (user clipping)
const (
	FEPlanesClipShift = 8
	FEPlanesMaxClip   = 8 // enable bits, GL_MAX_CLIP_DISTANCES
)

// PackFEPlanes packs a plane convention and a clip-distance enable mask into
// FrontEndArgs.Planes.
func PackFEPlanes(convention, clipMask uint8) uint32 {
	return uint32(convention) | uint32(clipMask)<<FEPlanesClipShift
}

// SplitFEPlanes is PackFEPlanes' inverse; ok is false when reserved bits are set.
func SplitFEPlanes(w uint32) (convention, clipMask uint8, ok bool) {
	return uint8(w), uint8(w >> FEPlanesClipShift), w>>(FEPlanesClipShift+FEPlanesMaxClip) == 0
}
