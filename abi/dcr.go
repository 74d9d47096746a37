package abi

import "fmt"

// DCR is a 12-bit device-control-register address; data is 32 bits.
// spec: vortex-hardware-facts §1.5, §2
type DCR uint16

// DCRAddrMask masks a DCR address to its 12 bits (CMD_DCR_WRITE arg0 & 0xFFF).
const DCRAddrMask = 0xFFF

// Base DCRs. spec: vortex-hardware-facts §2
const (
	DCRCacheFlush DCR = 0x000 // read with tag = core id
	DCRMPMValue   DCR = 0x001 // perf-counter read; see MPMTag
)

// KMU launch DCRs (0x010–0x023). spec: vortex-hardware-facts §1.4, §2
const (
	DCRStartupAddr0 DCR = 0x010 // module image base (__vx_cta_entry), low
	DCRStartupAddr1 DCR = 0x011
	DCRKernelEntry0 DCR = 0x012 // kernel function PC, low
	DCRKernelEntry1 DCR = 0x013
	DCRStartupArg0  DCR = 0x014 // argument block address, low
	DCRStartupArg1  DCR = 0x015
	DCRBlockDimX    DCR = 0x016
	DCRBlockDimY    DCR = 0x017
	DCRBlockDimZ    DCR = 0x018
	DCRGridDimX     DCR = 0x019 // 0 in any grid dim = grid-less raster frame kick
	DCRGridDimY     DCR = 0x01A
	DCRGridDimZ     DCR = 0x01B
	DCRLMemSize     DCR = 0x01C
	DCRBlockSize    DCR = 0x01D
	DCRWarpStepX    DCR = 0x01E
	DCRWarpStepY    DCR = 0x01F
	DCRWarpStepZ    DCR = 0x020
	DCRClusterDimX  DCR = 0x021
	DCRClusterDimY  DCR = 0x022
	DCRClusterDimZ  DCR = 0x023
	DCRKMUEnd       DCR = 0x024
)

// TEX DCRs (0x040–0x05F). Per-stage registers are written to the bank STAGE selects.
// spec: vortex-hardware-facts §2, §4
const (
	DCRTexStage   DCR = 0x040 // bank select, not stored per stage
	DCRTexAddr    DCR = 0x041 // 64-byte block address of level 0
	DCRTexLogDim  DCR = 0x042 // (log2 h << 16) | log2 w
	DCRTexFormat  DCR = 0x043 // TexFormat
	DCRTexFilter  DCR = 0x044 // bit0 bilinear, bit1 MIP_LINEAR
	DCRTexWrap    DCR = 0x045 // (wrap_v << 16) | wrap_u
	DCRTexMipOff0 DCR = 0x046 // MIPOFF(lod) = 0x046 + lod, byte offset from the base
	DCRTexBorder  DCR = 0x056 // border colour, A8R8G8B8
	DCRTexEnd     DCR = 0x060
	TexMaxLevels      = 16
	TexNumStages      = 2
	TexStageDCRs      = int(DCRTexBorder-DCRTexAddr) + 1 // per-stage state words
)

// DCRTexMipOff returns the MIPOFF register of level lod (0..15).
func DCRTexMipOff(lod int) DCR { return DCRTexMipOff0 + DCR(lod) }

// RASTER DCRs (0x060–0x069). spec: rasterizer §4
const (
	DCRRasterTBufAddr     DCR = 0x060 // tile buffer, 64-byte block address
	DCRRasterTileCount    DCR = 0x061 // bin headers in the tile buffer
	DCRRasterPBufAddr     DCR = 0x062 // primitive buffer, 64-byte block address
	DCRRasterPBufStride   DCR = 0x063 // rast_prim_t byte stride, multiple of 4
	DCRRasterScissorX     DCR = 0x064 // (xmax << 16) | xmin, max exclusive
	DCRRasterScissorY     DCR = 0x065 // (ymax << 16) | ymin, max exclusive
	DCRRasterFragEntryLo  DCR = 0x066
	DCRRasterFragEntryHi  DCR = 0x067
	DCRRasterFragParamLo  DCR = 0x068
	DCRRasterFragParamHi  DCR = 0x069
	DCRRasterEnd          DCR = 0x06A
	DCRRasterFirst        DCR = DCRRasterTBufAddr
	RasterScissorMaxCoord     = 0xFFFF // coordinates live in 16 bits
)

// OM DCRs (0x080–0x097). Registers marked per-RT are latched into the bank that
// RT_SELECT names; the rest are shared. spec: vortex-hardware-facts §2
const (
	DCROMCBufAddr            DCR = 0x080 // per-RT; 64-byte block address
	DCROMCBufPitch           DCR = 0x081 // per-RT; bytes per row
	DCROMCBufWriteMask       DCR = 0x082 // per-RT; bit0 B, bit1 G, bit2 R, bit3 A
	DCROMZBufAddr            DCR = 0x083 // 64-byte block address
	DCROMZBufPitch           DCR = 0x084
	DCROMDepthFunc           DCR = 0x085 // CompareFunc
	DCROMDepthWriteMask      DCR = 0x086
	DCROMStencilFunc         DCR = 0x087 // front [15:0], back [31:16]
	DCROMStencilZPass        DCR = 0x088 // front [15:0], back [31:16]
	DCROMStencilZFail        DCR = 0x089
	DCROMStencilFail         DCR = 0x08A
	DCROMStencilRef          DCR = 0x08B
	DCROMStencilMask         DCR = 0x08C
	DCROMStencilWriteMask    DCR = 0x08D
	DCROMBlendMode           DCR = 0x08E // per-RT; rgb [15:0], alpha [31:16]
	DCROMBlendFunc           DCR = 0x08F // per-RT; src_rgb, src_a, dst_rgb, dst_a bytes
	DCROMBlendConst          DCR = 0x090 // per-RT; A8R8G8B8
	DCROMLogicOp             DCR = 0x091 // per-RT
	DCROMEarlyZSafe          DCR = 0x092 // per-draw early-Z gate
	DCROMApertureXBits       DCR = 0x093
	DCROMApertureYBits       DCR = 0x094
	DCROMApertureRecordShift DCR = 0x095 // 3: colour at +0, depth at +4; 2: one word
	DCROMApertureDepthOnly   DCR = 0x096 // with record shift 2: the word is depth
	DCROMRTSelect            DCR = 0x097 // bank for the per-RT registers
	DCROMEnd                 DCR = 0x098
	OMMaxRT                      = 4
)

// OMPerRT reports whether an OM DCR is latched per render target under RT_SELECT.
func OMPerRT(d DCR) bool {
	switch d {
	case DCROMCBufAddr, DCROMCBufPitch, DCROMCBufWriteMask, DCROMBlendMode,
		DCROMBlendFunc, DCROMBlendConst, DCROMLogicOp:
		return true
	}
	return false
}

// RTU and DXA ranges, named so the DCR bus can route them. spec: vortex-hardware-facts §2
const (
	DCRRTUFirst DCR = 0x0A0
	DCRRTUEnd   DCR = 0x0A7
	DCRDXAFirst DCR = 0x100
	DCRDXAEnd   DCR = 0x280
)

// DCRUnit names the unit that owns a DCR address.
type DCRUnit uint8

// The DCR-owning units.
const (
	UnitNone DCRUnit = iota
	UnitBase
	UnitKMU
	UnitTEX
	UnitRASTER
	UnitOM
	UnitRTU
	UnitDXA
)

// String names the unit.
func (u DCRUnit) String() string {
	return [...]string{"none", "base", "kmu", "tex", "raster", "om", "rtu", "dxa"}[u]
}

// UnitOf returns the unit that decodes d, UnitNone for an unmapped address.
func UnitOf(d DCR) DCRUnit {
	switch {
	case d <= DCRMPMValue:
		return UnitBase
	case d >= DCRStartupAddr0 && d < DCRKMUEnd:
		return UnitKMU
	case d >= DCRTexStage && d <= DCRTexBorder:
		return UnitTEX
	case d >= DCRRasterFirst && d < DCRRasterEnd:
		return UnitRASTER
	case d >= DCROMCBufAddr && d < DCROMEnd:
		return UnitOM
	case d >= DCRRTUFirst && d < DCRRTUEnd:
		return UnitRTU
	case d >= DCRDXAFirst && d < DCRDXAEnd:
		return UnitDXA
	}
	return UnitNone
}

// BlockAddr converts a byte address to the 64-byte block address every *_ADDR DCR
// holds. It fails when the address is not 64-byte aligned or does not fit 32 bits as a
// block address. spec: rasterizer §4, vortex-hardware-facts §2
func BlockAddr(byteAddr uint64) (uint32, error) {
	if byteAddr&63 != 0 {
		return 0, fmt.Errorf("abi: address 0x%x is not 64-byte aligned", byteAddr)
	}
	if byteAddr>>6 > 0xFFFFFFFF {
		return 0, fmt.Errorf("abi: address 0x%x does not fit a 32-bit block address", byteAddr)
	}
	return uint32(byteAddr >> 6), nil
}

// ByteAddr converts a 64-byte block address back to a byte address.
func ByteAddr(block uint32) uint64 { return uint64(block) << 6 }

// PackScissor packs a [min, max) range into a SCISSOR_X/Y word. It fails when a
// coordinate does not fit 16 bits (no silent wrap; spec: vortexpipe §3.8).
func PackScissor(min, max int) (uint32, error) {
	if min < 0 || max < min || max > RasterScissorMaxCoord {
		return 0, fmt.Errorf("abi: scissor [%d, %d) does not fit 16-bit coordinates", min, max)
	}
	return uint32(max)<<16 | uint32(min), nil
}

// UnpackScissor unpacks a SCISSOR_X/Y word into [min, max).
func UnpackScissor(w uint32) (min, max int) { return int(w & 0xFFFF), int(w >> 16) }

// PackHalves packs a front-face value in [15:0] and a back-face value in [31:16], as
// the OM stencil registers and BLEND_MODE (rgb low, alpha high) hold them.
func PackHalves(lo, hi uint32) uint32 { return lo&0xFFFF | hi<<16 }

// UnpackHalves is the inverse of PackHalves.
func UnpackHalves(w uint32) (lo, hi uint32) { return w & 0xFFFF, w >> 16 }

// PackBlendFunc packs BLEND_FUNC: src_rgb [7:0], src_a [15:8], dst_rgb [23:16],
// dst_a [31:24]. spec: vortex-hardware-facts §2
func PackBlendFunc(srcRGB, srcA, dstRGB, dstA BlendFactor) uint32 {
	return uint32(srcRGB) | uint32(srcA)<<8 | uint32(dstRGB)<<16 | uint32(dstA)<<24
}

// UnpackBlendFunc is the inverse of PackBlendFunc.
func UnpackBlendFunc(w uint32) (srcRGB, srcA, dstRGB, dstA BlendFactor) {
	return BlendFactor(w), BlendFactor(w >> 8), BlendFactor(w >> 16), BlendFactor(w >> 24)
}

// PackTexLogDim packs TEX_LOGDIM = (log2 h << 16) | log2 w.
func PackTexLogDim(logW, logH uint32) uint32 { return logH<<16 | logW&0xFFFF }

// UnpackTexLogDim is the inverse of PackTexLogDim.
func UnpackTexLogDim(w uint32) (logW, logH uint32) { return w & 0xFFFF, w >> 16 }

// PackTexWrap packs TEX_WRAP = (wrap_v << 16) | wrap_u.
func PackTexWrap(u, v TexWrap) uint32 { return uint32(v)<<16 | uint32(u) }

// UnpackTexWrap is the inverse of PackTexWrap.
func UnpackTexWrap(w uint32) (u, v TexWrap) { return TexWrap(w & 0xFFFF), TexWrap(w >> 16) }

// ExpandWriteMask expands the 4-bit CBUF_WRITEMASK (bit0 = byte0/B, bit1 = G, bit2 = R,
// bit3 = A) to a 32-bit byte mask over an A8R8G8B8 word.
func ExpandWriteMask(m uint32) uint32 {
	var out uint32
	for i := 0; i < 4; i++ {
		if m>>i&1 != 0 {
			out |= 0xFF << (8 * i)
		}
	}
	return out
}
