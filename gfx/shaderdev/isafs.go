package shaderdev

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/runtime"
	"vortexgfx/shader/codegen"
	"vortexgfx/shader/ir"
)

// The fragment stage as machine code ([device] cores = "isa"). A program's FS
// module then carries, beside the Go wrapper's "main", an entry "main_isa": the
// §3.4 wrapper and the fragment program compiled by shader/codegen
// (CompileFragment) as an abi.KernelCode stub. A draw whose fragments RASTER
// launches and the FF OM merges (no software raster or merger, and no software
// sampler unless every texture op is a texelFetch or textureSize, which the
// machine code answers from the software sampler's descriptors: docs/ABI.md
// row 49) points RASTER's fragment entry at it: every wave then runs on a modelled SIMT core,
// reading FRAG_POS/FRAG_PID, the primitive and side array and the uniforms from
// device memory exactly as the Go wrapper does (fs.go, fsinterp.go) and exporting
// through vx_om_export at the OM aperture, whose geometry the draw latches
// (APERTURE_XBITS/YBITS/RECORD_SHIFT, the same as FS arg slot 11). Any other draw,
// a draw sampling a mipmapped texture with a bias (the biased level of detail is
// the Go wrapper's float64; without a bias codegen's lod is its bits), and a
// program codegen refuses (a texture op other than texture, textureLod,
// textureGrad, texelFetch or textureSize of a float 2D sampler, an op it
// lacks, frames beyond the core's LMEM), runs the Go wrapper, with the reason
// in Route.Why ("fs: IR executor: …"), or fails under Draw.StrictISA. The contract is docs/ABI.md row 41.
// spec: vortexpipe-driver.md §3.4; vortex-hardware-facts.md §5, §6

// FragmentInputs is where the §3.4 wrapper finds each of p's fragment input
// words and the colour outputs (codegen's contract): the Go wrapper's tables,
// a flat word read on both faces merged into one entry.
func (p *Program) FragmentInputs() codegen.FragmentInputs {
	in := codegen.FragmentInputs{Coord: p.coord, Facing: p.facing, Helper: p.helper, SampleID: p.sampleID,
		SamplePos: p.samplePos, SampleMaskIn: p.sampleIn, FlatWords: abi.SideFlatWords(p.NFlat()),
		SideStride: uint32(sideBytes(p)), Colors: p.colorWord[:p.colorN], FragDepth: p.fragDepth, SampleMask: p.sampleMask}
	for _, iw := range p.fsInterp {
		in.Interp = append(in.Interp, codegen.FragmentInterp{Word: iw.w, Front: iw.front, Back: iw.back, FrontNP: iw.frontNP, BackNP: iw.backNP})
	}
	at := map[int]int{}
	for _, f := range p.fsFlatIn {
		at[f[0]] = len(in.Flat)
		in.Flat = append(in.Flat, codegen.FragmentFlat{Word: f[0], Front: f[1], Back: -1})
	}
	for _, f := range p.fsFlatInBack {
		if i, ok := at[f[0]]; ok {
			in.Flat[i].Back = f[1]
			continue
		}
		in.Flat = append(in.Flat, codegen.FragmentFlat{Word: f[0], Front: -1, Back: f[1]})
	}
	return in
}

// FragmentKernel compiles p's fragment stage for waves of up to wave lanes on
// cores of lmem bytes of local memory: the machine code RASTER's waves run for
// it under cores = "isa", or codegen's reason it cannot.
func (p *Program) FragmentKernel(wave, lmem uint32) (*codegen.Kernel, error) {
	k, err := codegen.CompileFragment(p.prog.FS, p.FragmentInputs(), codegen.FragmentOptions{WaveThreads: wave, LMemBytes: lmem})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.fsName(), err)
	}
	return k, nil
}

// fragOf returns p's compiled fragment stage, compiling it at first use.
func (v *isaVS) fragOf(p *Program) *vsCode {
	v.mu.Lock()
	defer v.mu.Unlock()
	if c := v.frag[p]; c != nil {
		return c
	}
	c := &vsCode{}
	c.kernel, c.err = p.FragmentKernel(v.wave, v.lmem)
	c.fill()
	v.frag[p] = c
	return c
}

// fsISAEntry is the FS module's machine-code entry.
const fsISAEntry = "main_isa"

// fsImage is the FS module image of p: lib (the Go wrapper) as "main", and on a
// cores = "isa" device the machine code as "main_isa" when codegen takes it.
func (d *Device) fsImage(p *Program, lib abi.KernelImageEntry) ([]byte, error) {
	entries := []abi.KernelImageEntry{lib}
	if d.isa != nil {
		if c := d.isa.fragOf(p); c.err == nil {
			entries = append(entries, abi.KernelImageEntry{Name: fsISAEntry, Kind: abi.KernelCode, Payload: c.payload})
		}
	}
	return abi.EncodeKernelImage(entries)
}

// fsISAKernel is p's machine-code entry in its loaded FS module (nil when
// it has none: cores = "ir", or codegen refused the program).
func (d *Device) fsISAKernel(p *Program, fs *runtime.Module) (*runtime.Kernel, error) {
	if d.isa == nil || d.isa.fragOf(p).err != nil {
		return nil, nil
	}
	return fs.Kernel(fsISAEntry)
}

// fragmentRoute records where the draw's fragment stage runs (Route.FSISA,
// or the reason it is on the Go wrapper in Route.Why) and refuses a fallback
// under Draw.StrictISA.
func (s *drawState) fragmentRoute() error {
	d := s.d
	if d.isa == nil {
		return nil
	}
	why := ""
	switch c := d.isa.fragOf(s.p); {
	case c.err != nil:
		why = c.err.Error()
	case s.route.SWRaster:
		why = "the software raster walks the bins in the Go wrapper"
	case s.route.SWOM:
		why = "the software merger is the Go wrapper's"
	case s.route.SWTex && !descriptorTex(s.p.prog.FS):
		why = "the software sampler is the Go wrapper's"
	case !s.route.SWTex && descriptorTex(s.p.prog.FS):
		why = "texelFetch/textureSize read the software sampler's descriptors, which the FF TEX route has none of"
	case biasedMip(s.p.prog.FS, s.dr.Textures) >= 0:
		// The Go wrapper adds the bias to its float64 log2 (tex.go); the
		// machine code's exact level of detail has no bias term (codegen
		// lod.go).
		why = fmt.Sprintf("sampler %d is mipmapped and sampled with a bias: the biased level of detail is the Go wrapper's (float64)", biasedMip(s.p.prog.FS, s.dr.Textures))
	case s.mods.fsISAK == nil:
		why = "the FS module has no machine-code entry"
	case s.dr.SampleMaskEnable && s.dr.SampleMask&0xffff != 0xffff:
		// The machine-code wrapper does not read the FS flags' sample-drop
		// field (docs/ABI.md row 40); the Go wrapper does.
		why = "GL_SAMPLE_MASK drops samples in the Go wrapper"
	}
	if why != "" {
		if s.dr.StrictISA {
			return fmt.Errorf("%w: the fragment stage: %s", ErrISARefused, why)
		}
		s.route.Why = append(s.route.Why, "fs: IR executor: "+why)
	} else {
		s.route.FSISA = true
	}
	s.st.Route = s.route
	return nil
}

// descriptorTex reports whether every texture op of fs is one the machine
// code answers from the software sampler's descriptors (texelFetch,
// textureSize: codegen.TexOnDescriptors), with at least one: such a program
// runs as machine code on the software TEX route (docs/ABI.md row 49).
func descriptorTex(fs *ir.Program) bool {
	for i := range fs.Tex {
		if !codegen.TexOnDescriptors(fs.Tex[i].Op) {
			return false
		}
	}
	return len(fs.Tex) > 0
}

// fetchRoute keeps the machine-code fragment stage only when every software
// sampler descriptor of the draw (desc[i] for binding i) is one its
// texelFetch/textureSize decode (codegen.FetchDescriptorRefusal); otherwise
// the Go wrapper runs with the reason, or the draw fails under
// Draw.StrictISA.
func (s *drawState) fetchRoute(desc []abi.SWTexDesc) error {
	if !s.route.FSISA {
		return nil
	}
	for i := range desc {
		why := codegen.FetchDescriptorRefusal(&desc[i])
		if why == "" {
			continue
		}
		why = fmt.Sprintf("sampler %d: %s (the machine code's texelFetch/textureSize decode single-sample 2D RGBA8/BGRA8/RGBA32F descriptors only)", i, why)
		if s.dr.StrictISA {
			return fmt.Errorf("%w: the fragment stage: %s", ErrISARefused, why)
		}
		s.route.FSISA = false
		s.route.Why = append(s.route.Why, "fs: IR executor: "+why)
		s.st.Route = s.route
		return nil
	}
	return nil
}

// biasedMip returns the first binding with a mip filter that fs samples with
// a bias (texture(s, p, bias)), or -1: the machine code's level of detail is
// the Go wrapper's without a bias (docs/ABI.md row 44).
func biasedMip(fs *ir.Program, texs []Texture) int {
	for i := range fs.Tex {
		t := &fs.Tex[i]
		if t.Bias != ir.NoReg && t.Sampler >= 0 && t.Sampler < len(texs) && texs[t.Sampler].Mip != MipNone {
			return t.Sampler
		}
	}
	return -1
}

// apertureDCRs latches the OM aperture geometry the machine-code wrapper's
// vx_om_export addresses use (the FS arg block's slot 11).
func (s *drawState) apertureDCRs() ([]abi.DCRPair, error) {
	ap, err := abi.NewAperture(s.d.w, s.d.h, 1, abi.RecordShiftColorZ)
	if err != nil {
		return nil, err
	}
	return []abi.DCRPair{{Addr: abi.DCROMApertureXBits, Value: uint32(ap.XBits)}, {Addr: abi.DCROMApertureYBits, Value: uint32(ap.YBits)},
		{Addr: abi.DCROMApertureRecordShift, Value: uint32(ap.RecordShift)}}, nil
}
