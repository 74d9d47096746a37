package shaderdev

import (
	"encoding/binary"
	"fmt"
	"slices"

	"vortexgfx/gfx/fecode"
	"vortexgfx/gfx/frontend"
	"vortexgfx/runtime"
)

// expand_k as machine code ([device] cores = "isa"): the front-end module's
// expand_k (gfx/fecode, one kernel for every program) copies each record word
// by a table of VS-record offsets, which expandTable builds from the same
// expand ops as the Go kernel (expandKernel). A launch whose record needs
// arithmetic — noperspective varyings (a multiply, whose NaN results RV32F
// canonicalises) or legacy clip planes (a float64 dot product) — or whose
// block the Go kernel would refuse runs the program's Go expand_k, with the
// reason counted (session.KernelStats) and in the route, or fails the draw
// under Draw.StrictISA. spec: vortexpipe-driver.md §3.2 step 1; docs/ABI.md row 47

// expandTable returns the word table of expand records for a launch over
// count vertices of two-sided enables twoMask over VS records of ow words clipping against
// mask, or why the machine code cannot write them.
func (sp *Program) expandTable(count int, twoMask uint64, ow int, mask uint8) ([]uint32, error) {
	if (ow != sp.prog.VS.OutputWords && (sp.pointCoord < 0 || ow != sp.prog.VS.OutputWords+pointCoordWords)) ||
		twoMask>>len(sp.twoSide) != 0 || mask != sp.ClipMask(mask) || ow < 4 || sp.clipVert+4 > ow || count > frontend.MaxItems {
		return nil, fmt.Errorf("expand_k: machine code: the block is one the Go kernel refuses")
	}
	if sp.clipN == 0 && mask != 0 {
		return nil, fmt.Errorf("expand_k: machine code: legacy clip planes (a float64 dot product)")
	}
	t := make([]uint32, sp.recordBytesClip(mask)/4)
	for k := range t {
		t[k] = fecode.ExpandZero
	}
	for k := range 4 { // gl_Position
		t[k] = uint32(4 * k)
	}
	for _, op := range sp.expandOps(twoMask, ow) {
		switch {
		case op.noPersp:
			return nil, fmt.Errorf("expand_k: machine code: noperspective varyings (a multiply)")
		case op.dst%4 != 0 || op.dst/4 >= len(t):
			return nil, fmt.Errorf("expand_k: machine code: an op at byte %d of a %d-word record", op.dst, len(t))
		case op.src < 0:
			t[op.dst/4] = fecode.ExpandZero
		default:
			t[op.dst/4] = uint32(op.src)
		}
	}
	o := sp.recordBytes() / 4
	for d := 0; d < frontend.MaxClipDistances && mask>>d != 0; d++ {
		if mask>>d&1 != 0 {
			t[o] = uint32(4 * (sp.clipWord + d))
			o++
		}
	}
	return t, nil
}

// expandStep is the draw's expand_k launch over the Go kernel's block args
// (VS records of ow words): the front-end module's machine code with the
// word table appended on a cores = "isa" device when expandTable takes the
// launch, else the program's Go expand_k, the reason counted and in the
// route (an error under Draw.StrictISA, recorded in s.expandErr).
func (s *drawState) expandStep(args []byte, ow int) (*runtime.Kernel, runtime.LaunchParams) {
	ds := s.d.ds
	lp := runtime.LaunchParams{NDim: 1, Grid: [3]uint32{ds.Grid, 1, 1}, Block: [3]uint32{ds.Block, 1, 1}, Args: args}
	if ds.Expand == nil {
		return s.mods.expandK, lp
	}
	count := int(binary.LittleEndian.Uint64(args[8*2:]))
	t, err := s.p.expandTable(count, s.twoMask, ow, s.clipMask)
	if err == nil {
		lp.Args = fecode.ExpandArgs(args, t)
		return ds.Expand, lp
	}
	if s.dr.StrictISA && s.expandErr == nil {
		s.expandErr = fmt.Errorf("%w: %v", ErrISARefused, err)
	}
	why := err.Error()
	if !slices.Contains(s.route.Why, why) {
		s.route.Why = append(s.route.Why, why)
		s.st.Route = s.route
	}
	ds.CountKernel(kernelExpand, why, 0, 0)
	return s.mods.expandK, lp
}
