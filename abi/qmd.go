package abi

import (
	"encoding/binary"
	"fmt"
)

// DCRPair is one (address, value) DCR write.
type DCRPair struct {
	Addr  DCR
	Value uint32
}

// QMD (CMD_LAUNCH_QMD) descriptor: {u32 count, count × (u32 dcr_addr, u32 value)}.
// The CP clamps count to QMDMaxPairs and masks each address to 12 bits.
// spec: command-processor §2.3; vortex-hardware-facts §1.3
const (
	QMDMaxPairs  = 64
	QMDPairBytes = 8
)

// EncodeQMD builds a QMD descriptor. It refuses more than QMDMaxPairs pairs rather
// than letting the CP's backstop truncate them.
func EncodeQMD(pairs []DCRPair) ([]byte, error) {
	if len(pairs) > QMDMaxPairs {
		return nil, fmt.Errorf("abi: QMD with %d pairs exceeds the %d-pair limit", len(pairs), QMDMaxPairs)
	}
	b := make([]byte, 4+QMDPairBytes*len(pairs))
	binary.LittleEndian.PutUint32(b, uint32(len(pairs)))
	for i, p := range pairs {
		binary.LittleEndian.PutUint32(b[4+8*i:], uint32(p.Addr))
		binary.LittleEndian.PutUint32(b[8+8*i:], p.Value)
	}
	return b, nil
}

// QMDCount returns the number of pairs the CP replays for a descriptor whose count
// word is raw: the count clamped to the 64-pair backstop.
func QMDCount(raw uint32) int {
	if raw > QMDMaxPairs {
		return QMDMaxPairs
	}
	return int(raw)
}

// DecodeQMDPair decodes pair i of a descriptor body (the bytes after the count),
// masking the address to 12 bits as the CP does.
func DecodeQMDPair(body []byte, i int) DCRPair {
	return DCRPair{
		Addr:  DCR(binary.LittleEndian.Uint32(body[8*i:]) & DCRAddrMask),
		Value: binary.LittleEndian.Uint32(body[8*i+4:]),
	}
}

// Draw (CMD_DRAW) descriptor: {u32 num_steps, steps[num_steps]}, each step the
// 28-byte prefix of a command record at addr + 4 + 28·i. num_steps is clamped to 256.
// Inside a bundle LAUNCH/LAUNCH_QMD launch and drain; DCR_WRITE, DCR_READ and
// CACHE_FLUSH execute inline; other opcodes are skipped.
// spec: command-processor §8.1; vortex-hardware-facts §1.3
const (
	DrawStepBytes = 28
	DrawMaxSteps  = 256
)

// DrawStepCount clamps a raw num_steps word to the backstop.
func DrawStepCount(raw uint32) int {
	if raw > DrawMaxSteps {
		return DrawMaxSteps
	}
	return int(raw)
}

// DrawStepExecutes reports whether the CP acts on a step with this opcode inside a
// draw bundle (the others are ignored). spec: vortex-hardware-facts §1.3
func DrawStepExecutes(op Opcode) bool {
	switch op {
	case OpLaunch, OpLaunchQMD, OpDCRWrite, OpDCRRead, OpCacheFlush:
		return true
	}
	return false
}

// EncodeDraw builds a draw descriptor from commands. It refuses more than
// DrawMaxSteps steps and steps the CP would ignore (so nothing is dropped silently).
func EncodeDraw(steps []Command) ([]byte, error) {
	if len(steps) > DrawMaxSteps {
		return nil, fmt.Errorf("abi: draw descriptor with %d steps exceeds the %d-step limit", len(steps), DrawMaxSteps)
	}
	b := make([]byte, 4+DrawStepBytes*len(steps))
	binary.LittleEndian.PutUint32(b, uint32(len(steps)))
	for i, c := range steps {
		if !DrawStepExecutes(c.Op) {
			return nil, fmt.Errorf("abi: draw step %d: %v is ignored inside a draw bundle", i, c.Op)
		}
		s := c.Step28()
		copy(b[4+DrawStepBytes*i:], s[:])
	}
	return b, nil
}

// LaunchInfo is what a kernel launch programs into the KMU.
// spec: vortex-hardware-facts §1.4 (the 20-register launch), §9 item 9
type LaunchInfo struct {
	StartupAddr uint64    // module image base (__vx_cta_entry); 0 skips the PCs
	KernelEntry uint64    // kernel function PC
	Args        uint64    // argument block device address; 0 skips ARG0/1
	NDim        int       // 0 skips the dims group
	Grid        [3]uint32 // grid dims; a 0 in a used dim is a grid-less raster kick
	Block       [3]uint32
	LMemSize    uint32
	Cluster     [3]uint32 // 0 becomes 1
}

// WarpSteps computes WARP_STEP_X/Y/Z for T threads per warp:
// X = T mod bx, Y = (T / bx) mod by, Z = (T / (bx·by)) mod bz, 0 for unused axes.
// spec: vortex-hardware-facts §1.4
func WarpSteps(threads uint32, block [3]uint32, ndim int) [3]uint32 {
	var s [3]uint32
	bx, by, bz := max(block[0], 1), max(block[1], 1), max(block[2], 1)
	if ndim >= 1 {
		s[0] = threads % bx
	}
	if ndim >= 2 {
		s[1] = (threads / bx) % by
	}
	if ndim >= 3 {
		s[2] = (threads / (bx * by)) % bz
	}
	return s
}

// LaunchDCRs returns the KMU DCR writes of a launch in the order the runtime writes
// them: STARTUP_ADDR0/1, KERNEL_ENTRY0/1, STARTUP_ARG0/1, BLOCK_DIM_X/Y/Z,
// GRID_DIM_X/Y/Z, LMEM_SIZE, BLOCK_SIZE, WARP_STEP_X/Y/Z, CLUSTER_DIM_X/Y/Z — 20
// writes, groups skipped as the legacy escape hatches say. threads is the warp width.
// spec: vortex-hardware-facts §1.4
func LaunchDCRs(l LaunchInfo, threads uint32) []DCRPair {
	out := make([]DCRPair, 0, 20)
	if l.StartupAddr != 0 || l.KernelEntry != 0 {
		out = append(out,
			DCRPair{DCRStartupAddr0, uint32(l.StartupAddr)}, DCRPair{DCRStartupAddr1, uint32(l.StartupAddr >> 32)},
			DCRPair{DCRKernelEntry0, uint32(l.KernelEntry)}, DCRPair{DCRKernelEntry1, uint32(l.KernelEntry >> 32)})
	}
	if l.Args != 0 {
		out = append(out, DCRPair{DCRStartupArg0, uint32(l.Args)}, DCRPair{DCRStartupArg1, uint32(l.Args >> 32)})
	}
	if l.NDim > 0 {
		grid := l.Grid
		if l.NDim < 2 {
			grid[1] = 1
		}
		if l.NDim < 3 {
			grid[2] = 1
		}
		block := l.Block
		for i := range block {
			if i >= l.NDim || block[i] == 0 {
				block[i] = 1
			}
		}
		steps := WarpSteps(threads, block, l.NDim)
		cl := l.Cluster
		for i := range cl {
			if cl[i] == 0 {
				cl[i] = 1
			}
		}
		out = append(out,
			DCRPair{DCRBlockDimX, block[0]}, DCRPair{DCRBlockDimY, block[1]}, DCRPair{DCRBlockDimZ, block[2]},
			DCRPair{DCRGridDimX, grid[0]}, DCRPair{DCRGridDimY, grid[1]}, DCRPair{DCRGridDimZ, grid[2]},
			DCRPair{DCRLMemSize, l.LMemSize},
			DCRPair{DCRBlockSize, block[0] * block[1] * block[2]},
			DCRPair{DCRWarpStepX, steps[0]}, DCRPair{DCRWarpStepY, steps[1]}, DCRPair{DCRWarpStepZ, steps[2]},
			DCRPair{DCRClusterDimX, cl[0]}, DCRPair{DCRClusterDimY, cl[1]}, DCRPair{DCRClusterDimZ, cl[2]})
	}
	return out
}
