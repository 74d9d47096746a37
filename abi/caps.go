package abi

import "fmt"

// GPUDevCaps is the device-configuration capability word at GPU_DEV_CAPS_LO/HI.
// Each count is stored as its log2. spec: command-processor §6 (GPU_DEV_CAPS table)
type GPUDevCaps struct {
	ImplID           uint8 // [7:0]   VX_ISA_IMPL_ID
	LogThreads       uint8 // [10:8]  log2 threads per warp
	LogWarps         uint8 // [13:11] log2 warps per core
	LogSocketSize    uint8 // [16:14] log2 cores per socket
	LogClusterSize   uint8 // [19:17] log2 sockets per cluster
	LogClusters      uint8 // [22:20] log2 clusters
	LogIssueWidth    uint8 // [25:23] log2 issue width
	LogLocalMem      uint8 // [33:26] log2 local memory bytes (0 = no LMEM)
	LogMemBanks      uint8 // [36:34] log2 memory banks
	MemBankAddrWidth uint8 // [41:37] stored biased by 20: bank address width in bits
}

// GPU_DEV_CAPS field positions and widths. spec: command-processor §6
var devCapsFields = [...]struct {
	name  string
	shift uint
	width uint
}{
	{"impl_id", 0, 8}, {"log_threads", 8, 3}, {"log_warps", 11, 3},
	{"log_socket_size", 14, 3}, {"log_cluster_size", 17, 3}, {"log_clusters", 20, 3},
	{"log_issue_width", 23, 3}, {"log_local_mem", 26, 8}, {"log_mem_banks", 34, 3},
	{"mem_bank_size", 37, 5},
}

// MemBankSizeBias is subtracted from the bank address width before it is stored.
const MemBankSizeBias = 20

func (c GPUDevCaps) values() [10]uint64 {
	return [10]uint64{uint64(c.ImplID), uint64(c.LogThreads), uint64(c.LogWarps),
		uint64(c.LogSocketSize), uint64(c.LogClusterSize), uint64(c.LogClusters),
		uint64(c.LogIssueWidth), uint64(c.LogLocalMem), uint64(c.LogMemBanks),
		uint64(c.MemBankAddrWidth) - MemBankSizeBias}
}

// Encode packs the word. It fails when a field does not fit its width or the bank
// address width is below the bias.
func (c GPUDevCaps) Encode() (uint64, error) {
	if c.MemBankAddrWidth < MemBankSizeBias {
		return 0, fmt.Errorf("abi: GPU_DEV_CAPS mem bank address width %d < %d", c.MemBankAddrWidth, MemBankSizeBias)
	}
	var w uint64
	for i, v := range c.values() {
		f := devCapsFields[i]
		if v >= 1<<f.width {
			return 0, fmt.Errorf("abi: GPU_DEV_CAPS field %s = %d does not fit %d bits", f.name, v, f.width)
		}
		w |= v << f.shift
	}
	return w, nil
}

// DecodeGPUDevCaps unpacks a GPU_DEV_CAPS word (bits [63:42] are reserved and ignored).
func DecodeGPUDevCaps(w uint64) GPUDevCaps {
	get := func(i int) uint8 {
		f := devCapsFields[i]
		return uint8(w >> f.shift & (1<<f.width - 1))
	}
	return GPUDevCaps{
		ImplID: get(0), LogThreads: get(1), LogWarps: get(2), LogSocketSize: get(3),
		LogClusterSize: get(4), LogClusters: get(5), LogIssueWidth: get(6),
		LogLocalMem: get(7), LogMemBanks: get(8), MemBankAddrWidth: get(9) + MemBankSizeBias,
	}
}

// NumThreads is threads per warp.
func (c GPUDevCaps) NumThreads() int { return 1 << c.LogThreads }

// NumWarps is warps per core.
func (c GPUDevCaps) NumWarps() int { return 1 << c.LogWarps }

// NumClusters is the cluster count.
func (c GPUDevCaps) NumClusters() int { return 1 << c.LogClusters }

// SocketSize is cores per socket.
func (c GPUDevCaps) SocketSize() int { return 1 << c.LogSocketSize }

// NumCores is derived, not a field: clusters × cluster size × socket size.
// spec: command-processor §6
func (c GPUDevCaps) NumCores() int {
	return 1 << (c.LogClusters + c.LogClusterSize + c.LogSocketSize)
}

// LocalMemBytes is the local memory size, 0 without LMEM.
func (c GPUDevCaps) LocalMemBytes() uint64 {
	if c.LogLocalMem == 0 {
		return 0
	}
	return 1 << c.LogLocalMem
}

// NumMemBanks is the memory bank count.
func (c GPUDevCaps) NumMemBanks() int { return 1 << c.LogMemBanks }

// ISACaps is GPU_ISA_CAPS: RISC-V MISA bits, the XLEN code and Vortex extension bits.
// spec: command-processor §6; vortex-hardware-facts §1.1
type ISACaps uint64

// Field layout of GPU_ISA_CAPS.
const (
	ISAMisaMask     = 1<<30 - 1 // [29:0] RISC-V misa standard bits
	ISAXLenShift    = 30        // [31:30] log2(XLEN) − 4
	ISAExtShift     = 32        // [63:32] Vortex extension bits
	ISAXLenCodeMask = 3
)

// ISAExt is a Vortex ISA extension bit number within GPU_ISA_CAPS[63:32].
type ISAExt uint

// The Vortex extension bits (VX_ISA_EXT_*).
const (
	ExtICache ISAExt = 0
	ExtDCache ISAExt = 1
	ExtL2     ISAExt = 2
	ExtL3     ISAExt = 3
	ExtLMEM   ISAExt = 4
	ExtZicond ISAExt = 5
	ExtTEX    ISAExt = 6
	ExtRASTER ISAExt = 7
	ExtOM     ISAExt = 8
	ExtTCU    ISAExt = 9
	ExtDXA    ISAExt = 10
	ExtRTU    ISAExt = 11
	numISAExt        = 12
)

var isaExtNames = [numISAExt]string{"ICACHE", "DCACHE", "L2CACHE", "L3CACHE", "LMEM",
	"ZICOND", "TEX", "RASTER", "OM", "TCU", "DXA", "RTU"}

// String names the extension as vortex2.h does (VX_ISA_EXT_<name>).
func (e ISAExt) String() string {
	if e < numISAExt {
		return isaExtNames[e]
	}
	return fmt.Sprintf("EXT%d", uint(e))
}

// AllISAExts lists the defined extensions in bit order.
func AllISAExts() []ISAExt {
	out := make([]ISAExt, numISAExt)
	for i := range out {
		out[i] = ISAExt(i)
	}
	return out
}

// MisaBit returns the misa bit of an extension letter ('A'..'Z').
func MisaBit(letter byte) uint64 { return 1 << (letter - 'A') }

// NewISACaps builds the word from the misa letters, XLEN (32 or 64) and extensions.
func NewISACaps(misaLetters string, xlen int, exts ...ISAExt) (ISACaps, error) {
	var w uint64
	for i := 0; i < len(misaLetters); i++ {
		l := misaLetters[i]
		if l < 'A' || l > 'Z' {
			return 0, fmt.Errorf("abi: misa letter %q out of range", l)
		}
		w |= MisaBit(l)
	}
	switch xlen {
	case 32:
		w |= 1 << ISAXLenShift
	case 64:
		w |= 2 << ISAXLenShift
	default:
		return 0, fmt.Errorf("abi: XLEN %d (want 32 or 64)", xlen)
	}
	for _, e := range exts {
		w |= 1 << (ISAExtShift + uint(e))
	}
	return ISACaps(w), nil
}

// Misa returns the standard misa bits.
func (c ISACaps) Misa() uint32 { return uint32(c) & ISAMisaMask }

// MisaLetters returns the misa extension letters, in alphabetical order.
func (c ISACaps) MisaLetters() string {
	var s []byte
	for l := byte('A'); l <= 'Z'; l++ {
		if uint64(c)&MisaBit(l) != 0 {
			s = append(s, l)
		}
	}
	return string(s)
}

// XLen returns 1 << (code + 4): 32 for code 1, 64 for code 2.
func (c ISACaps) XLen() int { return 1 << (uint64(c)>>ISAXLenShift&ISAXLenCodeMask + 4) }

// Has reports whether extension e is present.
func (c ISACaps) Has(e ISAExt) bool { return uint64(c)>>(ISAExtShift+uint(e))&1 != 0 }

// Exts lists the extensions present.
func (c ISACaps) Exts() []ISAExt {
	var out []ISAExt
	for e := ISAExt(0); e < 32; e++ {
		if c.Has(e) {
			out = append(out, e)
		}
	}
	return out
}
