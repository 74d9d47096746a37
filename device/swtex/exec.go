package swtex

import (
	"fmt"
	"math/bits"

	"vortexgfx/abi"
	"vortexgfx/gl/sampler"
	"vortexgfx/gl/texunit"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// execScratch is the per-Sampler storage one exec request is converted in: the
// active lanes' indices and the shared exec → reference request mapping
// (gl/texunit, the reference renderer's own). It grows to the widest warp once
// and is reused.
type execScratch struct {
	lane []int
	unit texunit.Unit
	rect sampler.Sampler // the unit's state with texel coordinates (RECT kinds)
}

func (x *execScratch) grow(n int) {
	if len(x.lane) < n {
		x.lane = make([]int, n)
	}
}

// kindTarget is the descriptor target each executor sampler kind samples.
func kindTarget(k ir.SamplerKind) (abi.SWTexTarget, bool) {
	switch k {
	case ir.Sampler1D, ir.Sampler1DShadow:
		return abi.SWTex1D, true
	case ir.Sampler2D, ir.Sampler2DShadow:
		return abi.SWTex2D, true
	case ir.Sampler3D:
		return abi.SWTex3D, true
	case ir.SamplerCube, ir.SamplerCubeShadow:
		return abi.SWTexCube, true
	case ir.Sampler2DArray, ir.Sampler2DArrayShadow, ir.Sampler2DMSArray:
		return abi.SWTex2DArray, true
	case ir.Sampler1DArray, ir.Sampler1DArrayShadow:
		return abi.SWTex1DArray, true
	case ir.SamplerCubeArray, ir.SamplerCubeArrayShadow:
		return abi.SWTexCubeArray, true
	case ir.SamplerBuffer:
		return abi.SWTexBuffer, true
	case ir.Sampler2DRect, ir.Sampler2DRectShadow, ir.Sampler2DMS:
		// A rectangle texture is a 2D descriptor sampled with texel
		// coordinates; a multisample one a 2D descriptor of its samples.
		return abi.SWTex2D, true
	}
	return 0, false
}

// Texture implements exec.Sampler: one texture instruction of a whole warp on
// descriptor req.Sampler of the bound table (the program's sampler binding index).
// The active lanes are packed into one reference request (no per-lane interface
// call or allocation), sampled by gl/sampler over the device-memory views, and
// their four result words scattered back. Ops map as the reference renderer maps
// them: sample/samplelod/samplegrad (implicit LOD from the quad gradients, explicit
// LOD, or bias), fetch (level in the lod operand), size and query-levels, gather.
// A sampler kind that does not match the descriptor's target is an error.
// spec: vortexpipe-driver §2.3.2 (emit_tex's SW dispatch), §3.6
func (s *Sampler) Texture(r *exec.TexRequest) error {
	u, err := s.unit(r.Sampler)
	if err != nil {
		return err
	}
	kind := r.Binding.Kind
	want, ok := kindTarget(kind)
	if !ok {
		return fmt.Errorf("%w: sampler %d: sampler kind %v has no software target", ErrSampler, r.Sampler, kind)
	}
	if want != u.desc.Target {
		return fmt.Errorf("%w: sampler %d: a %v sampler on a %v texture descriptor", ErrSampler, r.Sampler, kind, u.desc.Target)
	}
	if err := checkLengths(r); err != nil {
		return fmt.Errorf("%w: sampler %d: %w", ErrSampler, r.Sampler, err)
	}
	x := &s.x
	x.grow(r.Width)
	n := 0
	for m := r.Mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		if l >= r.Width {
			return fmt.Errorf("%w: sampler %d: lane %d outside a %d-lane warp", ErrSampler, r.Sampler, l, r.Width)
		}
		x.lane[n] = l
		n++
	}
	if n == 0 {
		return nil
	}
	lanes := x.lane[:n]
	req, out, err := x.unit.Request(r, lanes)
	if err != nil {
		return fmt.Errorf("%w: sampler %d: %w", ErrSampler, r.Sampler, err)
	}
	smp := &u.smp
	if kind == ir.Sampler2DRect || kind == ir.Sampler2DRectShadow {
		// Rectangle samplers take texel coordinates whatever the
		// descriptor's unnormalized bit says (GLSL 1.40 §8.7).
		x.rect = u.smp
		x.rect.Unnormalized = true
		smp = &x.rect
	}
	if err := sampler.Sample(&u.tex, smp, req, out); err != nil {
		return fmt.Errorf("%w: sampler %d: %v: %w", ErrSampler, r.Sampler, r.Op, err)
	}
	s.stats.Instructions++
	s.stats.Lanes += uint64(n)
	x.unit.Scatter(r, lanes)
	return nil
}

// checkLengths verifies once per request that every lane array the op reads or
// writes holds Width entries, so the per-lane loops cannot index past one.
func checkLengths(r *exec.TexRequest) error {
	w := r.Width
	if w < 0 || w > 64 {
		return fmt.Errorf("warp width %d", w)
	}
	short := func(name string, n int) error { return fmt.Errorf("%s holds %d lanes of %d", name, n, w) }
	for k := 0; k < min(r.NCoord, 4); k++ {
		if r.Coord[k] != nil && len(r.Coord[k]) < w {
			return short("coordinate", len(r.Coord[k]))
		}
		if r.ICoord[k] != nil && len(r.ICoord[k]) < w {
			return short("integer coordinate", len(r.ICoord[k]))
		}
	}
	for k := 0; k < min(r.Grads, 3); k++ {
		if len(r.DPdx[k]) < w || len(r.DPdy[k]) < w {
			return short("gradient", min(len(r.DPdx[k]), len(r.DPdy[k])))
		}
	}
	for _, c := range [...]struct {
		name string
		on   bool
		n    int
	}{
		{"lod", r.HasLod && r.Lod != nil, len(r.Lod)}, {"bias", r.HasBias && r.Bias != nil, len(r.Bias)},
		{"compare", r.HasRef && r.Compare != nil, len(r.Compare)}, {"integer lod", r.ILod != nil, len(r.ILod)},
	} {
		if c.on && c.n < w {
			return short(c.name, c.n)
		}
	}
	for k := range r.Out {
		if r.Out[k] != nil && len(r.Out[k]) < w {
			return short("result", len(r.Out[k]))
		}
	}
	if r.Op == ir.TexSampleLod && r.HasLod && r.Lod == nil {
		return fmt.Errorf("explicit lod without values")
	}
	return nil
}
