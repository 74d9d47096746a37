package device

import (
	"vortexgfx/abi"
	"vortexgfx/device/om"
	"vortexgfx/device/raster"
	"vortexgfx/device/tex"
)

// The DCR state the bus latches. The fixed-function units' registers are latched
// straight into the units' own state types (one state, not a copy), so the frame
// kick and the TEX/OM CTA methods read exactly what the bus wrote. DCRs are never
// reset, so state persists across launches and draws.
// spec: vortex-hardware-facts §1.5, §2, §9 item 7

// KMUState is the 20 launch registers (0x010–0x023), indexed by addr − 0x010.
type KMUState struct {
	Regs [abi.DCRKMUEnd - abi.DCRStartupAddr0]uint32
}

// Reg returns the latched value of KMU DCR d.
func (k KMUState) Reg(d abi.DCR) uint32 { return k.Regs[d-abi.DCRStartupAddr0] }

func (k KMUState) pair(lo abi.DCR) uint64 {
	return uint64(k.Reg(lo)) | uint64(k.Reg(lo+1))<<32
}

// StartupAddr is STARTUP_ADDR0/1: the module image base (the fragment PC too).
func (k KMUState) StartupAddr() uint64 { return k.pair(abi.DCRStartupAddr0) }

// KernelEntry is KERNEL_ENTRY0/1: the kernel's PC.
func (k KMUState) KernelEntry() uint64 { return k.pair(abi.DCRKernelEntry0) }

// StartupArg is STARTUP_ARG0/1: the argument block address.
func (k KMUState) StartupArg() uint64 { return k.pair(abi.DCRStartupArg0) }

func (k KMUState) dim3(first abi.DCR) [3]uint32 {
	return [3]uint32{k.Reg(first), k.Reg(first + 1), k.Reg(first + 2)}
}

// BlockDim is BLOCK_DIM_X/Y/Z.
func (k KMUState) BlockDim() [3]uint32 { return k.dim3(abi.DCRBlockDimX) }

// GridDim is GRID_DIM_X/Y/Z.
func (k KMUState) GridDim() [3]uint32 { return k.dim3(abi.DCRGridDimX) }

// WarpStep is WARP_STEP_X/Y/Z.
func (k KMUState) WarpStep() [3]uint32 { return k.dim3(abi.DCRWarpStepX) }

// ClusterDim is CLUSTER_DIM_X/Y/Z.
func (k KMUState) ClusterDim() [3]uint32 { return k.dim3(abi.DCRClusterDimX) }

// TexState is the TEX unit's DCR state, latched straight into the unit's own
// register file (tex.DCRs): STAGE selects the bank the per-stage registers
// (0x041..0x056) land in. spec: vortex-hardware-facts §2, §4
type TexState struct{ tex.DCRs }

// Reg returns per-stage register d of stage.
func (t TexState) Reg(stage int, d abi.DCR) uint32 {
	v, _ := t.Read(stage, d)
	return v
}

// RasterState is the RASTER unit's DCR state (0x060–0x069) plus what it snoops off
// the same bus (KMU STARTUP_ADDR0/1 and the OM depth registers), latched into the
// engine's own raster.State. spec: rasterizer §4, vortex-hardware-facts §2
type RasterState struct{ raster.State }

// Reg returns RASTER DCR d.
func (r RasterState) Reg(d abi.DCR) uint32 {
	v, _ := r.Read(d)
	return v
}

// TBufAddr is the tile-buffer byte address.
func (r RasterState) TBufAddr() uint64 { return abi.ByteAddr(r.State.TBufAddr) }

// PBufAddr is the primitive-buffer byte address.
func (r RasterState) PBufAddr() uint64 { return abi.ByteAddr(r.State.PBufAddr) }

// OMState is the OM unit's DCR state, latched into the unit's own om.State: the
// per-RT registers go to the bank RT_SELECT names, the rest are shared.
// spec: vortex-hardware-facts §2
type OMState struct{ om.State }

// Reg returns OM DCR d as render target rt sees it.
func (o OMState) Reg(d abi.DCR, rt int) uint32 {
	v, _ := o.Read(d, rt)
	return v
}

// RTUState is the RTU's DCR state (0x0A0–0x0A6).
type RTUState struct {
	Regs [abi.DCRRTUEnd - abi.DCRRTUFirst]uint32
}

// DXAState is the DXA descriptors' DCR state (0x100–0x27F).
type DXAState struct {
	Regs [abi.DCRDXAEnd - abi.DCRDXAFirst]uint32
}

// UnitState is a copy of every unit's DCR state.
type UnitState struct {
	KMU    KMUState
	Tex    TexState
	Raster RasterState
	OM     OMState
	RTU    RTUState
	DXA    DXAState
}
