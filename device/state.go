package device

import "vortexgfx/abi"

// Plain state structs latched from DCR writes. The fixed-function units read them;
// DCRs are never reset, so state persists across launches and draws.
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

// TexState is the TEX unit's DCR state: STAGE selects the bank that the per-stage
// registers (0x041..0x056) are latched into. spec: vortex-hardware-facts §2, §4
type TexState struct {
	Stage  uint32
	Stages [abi.TexNumStages][abi.TexStageDCRs]uint32
}

// Reg returns per-stage register d of stage.
func (t TexState) Reg(stage int, d abi.DCR) uint32 { return t.Stages[stage][d-abi.DCRTexAddr] }

// RasterState is the RASTER unit's DCR state (0x060–0x069). spec: rasterizer §4
type RasterState struct {
	Regs [abi.DCRRasterEnd - abi.DCRRasterFirst]uint32
}

// Reg returns RASTER DCR d.
func (r RasterState) Reg(d abi.DCR) uint32 { return r.Regs[d-abi.DCRRasterFirst] }

// TBufAddr is the tile-buffer byte address.
func (r RasterState) TBufAddr() uint64 { return abi.ByteAddr(r.Reg(abi.DCRRasterTBufAddr)) }

// PBufAddr is the primitive-buffer byte address.
func (r RasterState) PBufAddr() uint64 { return abi.ByteAddr(r.Reg(abi.DCRRasterPBufAddr)) }

// FragEntry is FRAG_ENTRY_LO/HI, the fragment kernel's PC (0 = no fragment shader).
func (r RasterState) FragEntry() uint64 {
	return uint64(r.Reg(abi.DCRRasterFragEntryLo)) | uint64(r.Reg(abi.DCRRasterFragEntryHi))<<32
}

// FragParam is FRAG_PARAM_LO/HI, the fragment kernel's argument block.
func (r RasterState) FragParam() uint64 {
	return uint64(r.Reg(abi.DCRRasterFragParamLo)) | uint64(r.Reg(abi.DCRRasterFragParamHi))<<32
}

const omRegs = int(abi.DCROMEnd - abi.DCROMCBufAddr)

// OMState is the OM unit's DCR state: per-RT registers are latched into the bank
// RT_SELECT names, the rest are shared. spec: vortex-hardware-facts §2
type OMState struct {
	RTSelect uint32
	Shared   [omRegs]uint32
	RT       [abi.OMMaxRT][omRegs]uint32
}

// Reg returns OM DCR d as render target rt sees it.
func (o OMState) Reg(d abi.DCR, rt int) uint32 {
	if abi.OMPerRT(d) {
		return o.RT[rt][d-abi.DCROMCBufAddr]
	}
	return o.Shared[d-abi.DCROMCBufAddr]
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
