// Package raster is the RASTER engine: the grid-less frame kick, the bin
// header/pid/primitive fetch, static striping across engines, edge evaluation and
// extents, the tile-engine descent, block/quad evaluation with the fill rule
// (FillRule: top-left by default, or the RTL's inclusive test) and the exclusive
// scissor, early-Z, the fragment packer and owner affinity.
// Its output is fragment waves handed to a launch callback.
//
// # Shared-edge cracks (the polybump 1024² specks)
//
// Some pixels on or within a few thousandths of a pixel of a shared edge are
// covered by neither triangle. This is the setup arithmetic of grxgpu
// (gfx_setup.h, facts §3.2), not the QE: setup divides each triangle's nine
// edge coefficients by that triangle's own max |A|, |B| and truncates them to
// Q15.16, so the two copies of a shared edge stop being exact negatives of one
// another, and the top-left rule's once-only guarantee (rasterizer §7.4) fails
// within the truncation error of about (|x| + |y| + 1) LSB.
//
// Vortex does the same: its scene_ref_128.png golden leaves pixel (55, 84)
// (PNG row 43) at the clear colour. There the shared edge of setup pids 572
// and 573 evaluates to −43 and −16, both outside, while the pixel centre is
// about 0.002 px from the true edge; TestSetupCrack pins it.
//
// At 1024² the error band grows with the coordinates, so more pixel centres
// fall in it: polybump at --size 1024 --planes v1 shows 62 isolated dark
// pixels. At (627, 987) (PNG (627, 36)) the shared edge of triangles 26 and 27
// (vertices 28, 29) is {12708, −47167, 38585604} in one (normalised by
// |A| = 65536 of its edge 2) and {−16538, 61379, −50212296} in the other
// (normalised by the |B| of its edge 1, which truncates to 65535):
// 12708·627 − 47167·987 + 38585604 = −309 and
// −16538·627 + 61379·987 − 50212296 = −549, both outside, though the centre
// (627.5, 987.5) is 0.003 px from the true edge. No Q15.16 wrap (|E| < 2^27)
// and no double blend is involved. Matching Vortex bit for bit means keeping
// the cracks; a watertight setup needs a shared-edge-exact conversion
// (vortexpipe §3.8).
//
// Where one copy of the shared edge is exactly 0 at a pixel centre (its
// triangle's normalisation is exact there) and the other a few LSB negative,
// the fill rule decides: top-left leaves the pixel to neither triangle when the
// zero edge is not top-left, the RTL's inclusive test gives it to that
// triangle (FillRule; TestFillRuleSharedEdge: a quad whose w varies across it
// loses its 218 diagonal pixels under top-left and none under inclusive).
//
// spec: rasterizer §4–§10; vortex-hardware-facts §3.3, §9 items 1, 2, 5–7.
package raster

import (
	"vortexgfx/abi"
)

// Memory is the device memory the engine reads: views per buffer and per bin.
type Memory interface {
	View(addr uint64, n int) ([]byte, error)
}

// State is the engine's DCR state: its own registers plus what it snoops off the
// broadcast DCR bus (the KMU startup PC and the OM depth state for early-Z).
// DCRs are not reset; a draw must program every register it depends on.
// spec: rasterizer §4
type State struct {
	TBufAddr    uint32 // 64-byte block address
	TileCount   uint32
	PBufAddr    uint32 // 64-byte block address
	PBufStride  uint32
	ScissorX    uint32 // (xmax << 16) | xmin, max exclusive
	ScissorY    uint32
	FragEntryLo uint32
	FragEntryHi uint32
	FragParamLo uint32
	FragParamHi uint32
	// Snooped.
	StartupAddr0 uint32
	StartupAddr1 uint32
	ZBufAddr     uint32
	ZBufPitch    uint32
	DepthFunc    uint32
	EarlyZSafe   uint32
}

// Write latches a DCR write seen on the bus. It reports whether the engine took it
// (its own register or a snooped one).
func (s *State) Write(addr abi.DCR, v uint32) bool {
	switch addr {
	case abi.DCRRasterTBufAddr:
		s.TBufAddr = v
	case abi.DCRRasterTileCount:
		s.TileCount = v
	case abi.DCRRasterPBufAddr:
		s.PBufAddr = v
	case abi.DCRRasterPBufStride:
		s.PBufStride = v
	case abi.DCRRasterScissorX:
		s.ScissorX = v
	case abi.DCRRasterScissorY:
		s.ScissorY = v
	case abi.DCRRasterFragEntryLo:
		s.FragEntryLo = v
	case abi.DCRRasterFragEntryHi:
		s.FragEntryHi = v
	case abi.DCRRasterFragParamLo:
		s.FragParamLo = v
	case abi.DCRRasterFragParamHi:
		s.FragParamHi = v
	case abi.DCRStartupAddr0:
		s.StartupAddr0 = v
	case abi.DCRStartupAddr1:
		s.StartupAddr1 = v
	case abi.DCROMZBufAddr:
		s.ZBufAddr = v
	case abi.DCROMZBufPitch:
		s.ZBufPitch = v
	case abi.DCROMDepthFunc:
		s.DepthFunc = v
	case abi.DCROMEarlyZSafe:
		s.EarlyZSafe = v
	default:
		return false
	}
	return true
}

// FragEntry is the fragment shader's function address (the launch's entry).
func (s *State) FragEntry() uint64 { return uint64(s.FragEntryHi)<<32 | uint64(s.FragEntryLo) }

// FragParam is the fragment kernel's argument pointer.
func (s *State) FragParam() uint64 { return uint64(s.FragParamHi)<<32 | uint64(s.FragParamLo) }

// StartupPC is the snooped KMU startup address where fragment warps begin.
func (s *State) StartupPC() uint64 { return uint64(s.StartupAddr1)<<32 | uint64(s.StartupAddr0) }

// Read returns the latched value of one of the engine's own registers
// (0x060–0x069); snooped registers belong to their units and report false.
// spec: rasterizer §4
func (s *State) Read(addr abi.DCR) (uint32, bool) {
	switch addr {
	case abi.DCRRasterTBufAddr:
		return s.TBufAddr, true
	case abi.DCRRasterTileCount:
		return s.TileCount, true
	case abi.DCRRasterPBufAddr:
		return s.PBufAddr, true
	case abi.DCRRasterPBufStride:
		return s.PBufStride, true
	case abi.DCRRasterScissorX:
		return s.ScissorX, true
	case abi.DCRRasterScissorY:
		return s.ScissorY, true
	case abi.DCRRasterFragEntryLo:
		return s.FragEntryLo, true
	case abi.DCRRasterFragEntryHi:
		return s.FragEntryHi, true
	case abi.DCRRasterFragParamLo:
		return s.FragParamLo, true
	case abi.DCRRasterFragParamHi:
		return s.FragParamHi, true
	}
	return 0, false
}
