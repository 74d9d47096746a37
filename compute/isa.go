package compute

import (
	"errors"
	"fmt"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/device"
	"vortexgfx/runtime"
	"vortexgfx/shader/codegen"
	"vortexgfx/shader/ir"
)

// Machine-code kernels ([device] cores = "isa"; spec: vortexpipe-driver.md §2.1-2.5).
// Load compiles each program with shader/codegen into RV32IMAF + Vortex code, and
// the program's module entry is that code (an abi.KernelCode stub): the KMU
// launches it at its PC and every warp of every CTA fetches its instructions from
// device memory on a modelled SIMT core (device/simt), reading the arg block,
// descriptor blob and uniform words a dispatch writes exactly as the IR kernel
// does, its shared variables and spill frames in the CTA's local memory (LMEM_SIZE
// is the kernel's codegen.Layout.LMemBytes) — or, when the frames do not fit beside
// the shared variables, the frames in a device buffer the program keeps (arg slot
// abi.ArgCSFrames, NUM_CORES × invocations frames).
//
// A program codegen refuses (a texture sampler, more shared variables than the
// core's local memory) is a Load error when
// Options.Strict is set; otherwise it falls back to the IR executor, counted in
// Stats.ISAFallbacks with the reason on Program.Fallback — never silently. The
// fallback is the default because the IR executor computes the same results, so a
// test suite still measures everything else; Strict shows what machine code alone
// covers. An indirect dispatch of a machine-code program runs the program's IR
// kernel (codegen reads no indirect record), counted in Stats.ISAIndirectIR; under
// Options.Strict it is refused (ErrISARefused) when recorded.
//
// Each launch's instruction counts (device.LaunchStats) are attributed to the
// program through the device's launch observer (Program.ISAStats).

// Options are the compute device's run-time choices beside the configuration.
// spec: vortexpipe-driver.md §2.5 (the compute path)
type Options struct {
	// Strict makes a program the machine-code path cannot run an error at Load
	// instead of a counted fallback to the IR executor (cores = "isa" only).
	Strict bool
}

// ErrISARefused wraps the error of a program codegen refuses under Options.Strict
// (at Load), and of an indirect dispatch of a machine-code program (which would
// run its IR kernel) under Options.Strict.
var ErrISARefused = errors.New("compute: STRICT: the program does not compile to machine code")

// ISAStats are a machine-code program's counters, summed over its launches: what
// the program's kernel cost on the SIMT core model. spec: vortex-hardware-facts.md
// §6 (minstret, mcycle)
type ISAStats struct {
	Launches           uint64
	CTAs               uint64
	Instructions       uint64 // warp instructions retired (minstret summed over warps)
	ThreadInstructions uint64 // lane-instructions
	Cycles             uint64 // the launches' device cycles (KMU launch + busiest core's issue cycles)
}

// isaProgram is a program's machine code and counters.
type isaProgram struct {
	kernel *codegen.Kernel
	code   []byte          // the KernelCode payload
	frames *runtime.Buffer // the spill frames when they are not in LMEM (abi.ArgCSFrames)
	mu     sync.Mutex
	stats  ISAStats
}

// compileISA compiles p for the machine-code path; the error says why it cannot.
func (d *Device) compileISA(p *ir.Program) (*isaProgram, error) {
	// Frames that do not fit LMEM beside the shared variables go to device memory.
	k, err := codegen.CompileWith(p, codegen.Options{LMemBytes: uint32(min(uint64(d.lmem), device.ISALocalMemMax))})
	if err != nil {
		return nil, err
	}
	if need := uint64(k.Layout.LMemBytes()); need > uint64(d.lmem) || need > device.ISALocalMemMax {
		return nil, fmt.Errorf("codegen: the kernel needs %d bytes of local memory for its shared variables, the core has %d", need, d.lmem)
	}
	ip := &isaProgram{kernel: k, code: make([]byte, 4*len(k.Code))}
	for i, w := range k.Code {
		ip.code[4*i], ip.code[4*i+1], ip.code[4*i+2], ip.code[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
	}
	if n := k.Layout.FrameMemBytes(d.sim.GPU.NumCores()); n > 0 {
		if ip.frames, err = d.rt.Alloc(n); err != nil {
			return nil, fmt.Errorf("compute: %d bytes of spill frames: %w", n, err)
		}
		if ip.frames.Addr()+n > 1<<32 {
			ip.frames.Free()
			return nil, fmt.Errorf("codegen: the spill frames at 0x%x are beyond 32-bit addresses", ip.frames.Addr())
		}
	}
	return ip, nil
}

// observeLaunch is the device's launch observer: it credits a launch of a
// machine-code entry to its program.
func (d *Device) observeLaunch(entry uint64, s device.LaunchStats) {
	d.launchMu.Lock()
	p := d.launching[entry]
	d.launchMu.Unlock()
	if p == nil || p.isa == nil {
		return
	}
	p.isa.mu.Lock()
	st := &p.isa.stats
	st.Launches++
	st.CTAs += s.CTAs
	st.Instructions += s.Instructions
	st.ThreadInstructions += s.ThreadInstructions
	st.Cycles += s.Cycles
	p.isa.mu.Unlock()
}

// ISA reports whether p runs as machine code (cores = "isa" and codegen took it).
// spec: vortexpipe-driver.md §2.1-2.4 (a shader becomes a Vortex kernel)
func (p *Program) ISA() bool { return p.isa != nil }

// Fallback is why a program of a cores = "isa" device runs on the IR executor
// ("" when it runs as machine code, or on an IR device).
func (p *Program) Fallback() string { return p.fallback }

// ISAStats returns the program's machine-code counters (zero on the IR path).
func (p *Program) ISAStats() ISAStats {
	if p.isa == nil {
		return ISAStats{}
	}
	p.isa.mu.Lock()
	defer p.isa.mu.Unlock()
	return p.isa.stats
}

// Kernel returns the program's machine code (nil on the IR path): its code, base
// and launch layout, for disassembly or a .vxbin. spec: vortexpipe-driver.md §2.4
func (p *Program) Kernel() *codegen.Kernel {
	if p.isa == nil {
		return nil
	}
	return p.isa.kernel
}

// lmemSize is the LMEM_SIZE a launch of p asks for.
func (p *Program) lmemSize() uint32 {
	if p.isa != nil {
		return max(uint32(p.sharedBytes), p.isa.kernel.Layout.LMemBytes())
	}
	return uint32(p.sharedBytes)
}

// moduleEntries are p's module entries: its IR kernel (a blob) under its entry
// name, or on the machine-code path its code under the entry name and the IR
// kernel under irEntry for indirect dispatches.
func (p *Program) moduleEntries() []abi.KernelImageEntry {
	if p.isa == nil {
		return []abi.KernelImageEntry{{Name: p.entry, Kind: abi.KernelBlob, Payload: progBlob(p.id)}}
	}
	return []abi.KernelImageEntry{{Name: p.entry, Kind: abi.KernelCode, Payload: p.isa.code},
		{Name: p.irEntry(), Kind: abi.KernelBlob, Payload: progBlob(p.id)}}
}

func (p *Program) irEntry() string { return p.entry + "_ir" }
