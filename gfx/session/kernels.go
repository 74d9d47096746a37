package session

import (
	"maps"
	"sync"
)

// KernelStats are one front-end kernel's launches on a cores = "isa" device:
// how many ran as machine code (gfx/fecode) and the instructions they
// retired, and how many ran the Go kernel instead, by reason. It is the one
// stats path of every front-end kernel the machine code covers; kernels it
// does not cover yet (setup_k, binning_k) are not counted here.
// spec: vortex-hardware-facts.md §7 (MINSTRET); docs/ABI.md row 47
type KernelStats struct {
	Launches    uint64 `json:"launches"`
	MachineCode uint64 `json:"machine_code"` // launches that ran the machine code
	// WarpInstructions and ThreadInstructions are the machine-code launches'
	// warp-instructions (minstret summed over warps) and lane-instructions.
	WarpInstructions   uint64 `json:"warp_instructions"`
	ThreadInstructions uint64 `json:"thread_instructions"`
	// GoKernel counts the launches that ran the Go kernel, by reason.
	GoKernel map[string]uint64 `json:"go_kernel,omitempty"`
}

// Add is s + o, counter by counter.
func (s KernelStats) Add(o KernelStats) KernelStats {
	r := KernelStats{Launches: s.Launches + o.Launches, MachineCode: s.MachineCode + o.MachineCode,
		WarpInstructions: s.WarpInstructions + o.WarpInstructions, ThreadInstructions: s.ThreadInstructions + o.ThreadInstructions}
	for _, m := range []map[string]uint64{s.GoKernel, o.GoKernel} {
		for k, v := range m {
			if r.GoKernel == nil {
				r.GoKernel = map[string]uint64{}
			}
			r.GoKernel[k] += v
		}
	}
	return r
}

// AddKernels is a + b, kernel by kernel (nil when both are empty).
func AddKernels(a, b map[string]KernelStats) map[string]KernelStats {
	if len(a) == 0 && len(b) == 0 {
		return nil
	}
	r := maps.Clone(a)
	if r == nil {
		r = map[string]KernelStats{}
	}
	for k, v := range b {
		r[k] = r[k].Add(v)
	}
	return r
}

// kernelTally is a device's KernelStats by kernel name.
type kernelTally struct {
	mu sync.Mutex
	by map[string]KernelStats
}

// CountKernel records one launch of front-end kernel name: as machine code
// retiring warp and thread instructions when why is "", else on the Go
// kernel for reason why.
func (ds *Device) CountKernel(name, why string, warp, thread uint64) {
	t := &ds.kernels
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.by == nil {
		t.by = map[string]KernelStats{}
	}
	s := t.by[name]
	s.Launches++
	if why == "" {
		s.MachineCode++
		s.WarpInstructions += warp
		s.ThreadInstructions += thread
	} else {
		s.GoKernel = maps.Clone(s.GoKernel)
		if s.GoKernel == nil {
			s.GoKernel = map[string]uint64{}
		}
		s.GoKernel[why]++
	}
	t.by[name] = s
}

// Kernels returns the device's front-end kernel counters so far (nil when
// none was counted).
func (ds *Device) Kernels() map[string]KernelStats {
	t := &ds.kernels
	t.mu.Lock()
	defer t.mu.Unlock()
	return AddKernels(nil, t.by)
}
