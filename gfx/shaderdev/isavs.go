package shaderdev

import (
	"fmt"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/shader/codegen"
)

// The vertex stage as machine code ([device] cores = "isa"). A program's VS
// module entry "main" is then its vertex stage compiled by shader/codegen
// (CompileVertex) as an abi.KernelCode stub: the KMU launches it at its PC and
// every warp fetches its instructions from device memory on the modelled SIMT
// cores, reading the same vertex arg block, attribute table, index buffer and
// uniform words and writing the same records as the Go vertex kernel
// (vsKernelOn; the contract is docs/ABI.md row 39). expand_k runs as machine
// code too (isaexpand.go); prim_k stays a Go kernel. A vertex stage codegen
// refuses (textures, an op it lacks, frames beyond the core's LMEM) runs the
// IR kernel, with the reason in the draw's Route.Why, or fails the draw under
// Draw.StrictISA.
// spec: vortexpipe-driver.md §2.3.2, §2.4, §2.5

// ErrISARefused is wrapped by a draw's error under Draw.StrictISA when its
// vertex stage does not compile to machine code.
var ErrISARefused = fmt.Errorf("shaderdev: STRICT: a shader stage does not run as machine code")

// isaVS is a cores = "isa" device's vertex-stage and fragment-stage
// (isafs.go) machine code, per program.
type isaVS struct {
	threads, lmem uint32 // the VS launch's CTA threads and the core's LMEM
	wave          uint32 // a fragment wave's most lanes (the warp width)
	mu            sync.Mutex
	code          map[*Program]*vsCode
	frag          map[*Program]*vsCode
}

// vsCode is one program's compiled vertex stage, or why codegen refused it.
type vsCode struct {
	kernel  *codegen.Kernel
	payload []byte
	err     error
}

// newISAVS returns the machine-code state of a cores = "isa" configuration
// (nil for "ir").
func newISAVS(cfg config.Config) *isaVS {
	if !cfg.Device.ISA() {
		return nil
	}
	lmem := min(cfg.Device.LocalMemBytes, device.ISALocalMemMax)
	return &isaVS{threads: uint32(cfg.Device.Threads * cfg.Device.Warps), lmem: uint32(lmem), wave: uint32(cfg.Device.Threads),
		code: map[*Program]*vsCode{}, frag: map[*Program]*vsCode{}}
}

// VertexKernel compiles p's vertex stage for a launch of ctaThreads threads a
// CTA on cores of lmem bytes of local memory: the machine code the device runs
// for it under cores = "isa", or codegen's reason it cannot.
func (p *Program) VertexKernel(ctaThreads, lmem uint32) (*codegen.Kernel, error) {
	in := codegen.VertexInputs{VertexID: p.vid, InstanceID: p.iid, Attribs: p.attrs}
	k, err := codegen.CompileVertex(p.prog.VS, in, codegen.VertexOptions{CTAThreads: ctaThreads, LMemBytes: lmem})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.vsName(), err)
	}
	return k, nil
}

// of returns p's compiled vertex stage, compiling it at first use.
func (v *isaVS) of(p *Program) *vsCode {
	v.mu.Lock()
	defer v.mu.Unlock()
	if c := v.code[p]; c != nil {
		return c
	}
	c := &vsCode{}
	c.kernel, c.err = p.VertexKernel(v.threads, v.lmem)
	c.fill()
	v.code[p] = c
	return c
}

// fill lays a compiled kernel's code out as its KernelCode payload.
func (c *vsCode) fill() {
	if c.err != nil {
		return
	}
	c.payload = make([]byte, 4*len(c.kernel.Code))
	for i, w := range c.kernel.Code {
		c.payload[4*i], c.payload[4*i+1], c.payload[4*i+2], c.payload[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
	}
}

// vsMain is the VS module's "main" entry for p: its machine code on a
// cores = "isa" device when codegen takes it, else lib (the Go vertex kernel).
func (d *Device) vsMain(p *Program, lib abi.KernelImageEntry) abi.KernelImageEntry {
	if d.isa == nil {
		return lib
	}
	if c := d.isa.of(p); c.err == nil {
		return abi.KernelImageEntry{Name: lib.Name, Kind: abi.KernelCode, Payload: c.payload}
	}
	return lib
}

// vsLMem is the LMEM_SIZE p's vertex launch asks for: its machine code's
// frames (0 for the Go kernel).
func (d *Device) vsLMem(p *Program) uint32 {
	if d.isa == nil {
		return 0
	}
	if c := d.isa.of(p); c.err == nil {
		return c.kernel.Layout.LMemBytes()
	}
	return 0
}

// vertexRoute records where the draw's vertex stage runs (Route.VSISA, or the
// reason it is on the IR kernel in Route.Why) and refuses a fallback under
// Draw.StrictISA.
func (s *drawState) vertexRoute() error {
	d := s.d
	if d.isa == nil {
		return nil
	}
	c := d.isa.of(s.p)
	if c.err != nil {
		if s.dr.StrictISA {
			return fmt.Errorf("%w: %v", ErrISARefused, c.err)
		}
		s.route.Why = append(s.route.Why, "vs: IR executor: "+c.err.Error())
	} else {
		s.route.VSISA = true
	}
	s.st.Route = s.route
	return nil
}
