package swtex

import (
	"fmt"
	"math/bits"

	"vortexgfx/abi"
	"vortexgfx/ref/sampler"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// execScratch is the per-Sampler storage one exec request is converted in: the
// active lanes packed densely into one reference request. It grows to the widest
// warp once and is reused.
type execScratch struct {
	lane   []int
	req    sampler.Request
	coord  [][4]float32
	icoord [][4]int32
	ref    []float32
	lod    []float32
	dpdx   [][3]float32
	dpdy   [][3]float32
	out    [][4]uint32
	rect   sampler.Sampler // the unit's state with texel coordinates (RECT kinds)
}

func (x *execScratch) grow(n int) {
	if len(x.lane) >= n {
		return
	}
	x.lane = make([]int, n)
	x.coord, x.icoord = make([][4]float32, n), make([][4]int32, n)
	x.ref, x.lod = make([]float32, n), make([]float32, n)
	x.dpdx, x.dpdy = make([][3]float32, n), make([][3]float32, n)
	x.out = make([][4]uint32, n)
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
	case ir.Sampler2DRect, ir.Sampler2DRectShadow, ir.Sampler2DMS:
		// A rectangle texture is a 2D descriptor sampled with texel
		// coordinates; a multisample one a 2D descriptor of 4 samples.
		return abi.SWTex2D, true
	}
	return 0, false
}

// Texture implements exec.Sampler: one texture instruction of a whole warp on
// descriptor req.Sampler of the bound table (the program's sampler binding index).
// The active lanes are packed into one reference request (no per-lane interface
// call or allocation), sampled by ref/sampler over the device-memory views, and
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
	req := &x.req
	*req = sampler.Request{N: n, Coord: x.coord[:n], IntCoord: x.icoord[:n], Offset: r.Offset, GatherComp: r.Comp}
	if r.HasOffsets {
		req.GatherOffsets, req.UseGatherOffsets = r.Offsets, true
	}
	nc := min(r.NCoord, 4)
	for i, l := range lanes {
		c := &x.coord[i]
		*c = [4]float32{}
		for k := 0; k < nc; k++ {
			if r.Coord[k] != nil {
				c[k] = r.Coord[k][l]
			}
		}
	}
	if r.HasRef && r.Compare != nil {
		for i, l := range lanes {
			x.ref[i] = r.Compare[l]
		}
		req.Ref = x.ref[:n]
		if kind == ir.Sampler1DShadow { // (s, unused, ref): only s is a coordinate
			for i := range lanes {
				x.coord[i][1] = 0
			}
		}
	}
	switch r.Op {
	case ir.TexSample, ir.TexSampleLod, ir.TexSampleGrad, ir.TexQueryLod:
		req.Op = sampler.OpSample
		if r.Op == ir.TexQueryLod {
			req.Op = sampler.OpQueryLod
		}
		switch {
		case r.Op == ir.TexSampleLod && r.HasLod:
			req.LOD = sampler.LODExplicit
			for i, l := range lanes {
				x.lod[i] = r.Lod[l]
			}
			req.LODValue = x.lod[:n]
		case r.Grads > 0:
			req.LOD = sampler.LODGrad
			g := min(r.Grads, 3)
			for i, l := range lanes {
				x.dpdx[i], x.dpdy[i] = [3]float32{}, [3]float32{}
				for k := 0; k < g; k++ {
					x.dpdx[i][k] = r.DPdx[k][l]
					x.dpdy[i][k] = r.DPdy[k][l]
				}
			}
			req.DPdx, req.DPdy = x.dpdx[:n], x.dpdy[:n]
		default:
			req.LOD = sampler.LODNone
		}
		if r.HasBias && r.Bias != nil && req.LOD != sampler.LODExplicit {
			for i, l := range lanes {
				x.lod[i] = r.Bias[l]
			}
			req.LODValue = x.lod[:n]
		}
	case ir.TexFetch:
		// texelFetch: (x, y, z/layer, level); on a multisample kind
		// (x, y, layer, sample), the lod operand holding the sample.
		req.Op = sampler.OpFetch
		if kind.Multisample() {
			req.Op = sampler.OpFetchSample
		}
		for i, l := range lanes {
			ic := &x.icoord[i]
			*ic = [4]int32{}
			for k := 0; k < nc && k < 3; k++ {
				if r.ICoord[k] != nil {
					ic[k] = r.ICoord[k][l]
				}
			}
			if r.HasLod && r.ILod != nil {
				ic[3] = r.ILod[l]
			}
		}
	case ir.TexSize, ir.TexQueryLevels:
		req.Op = sampler.OpSize
		for i, l := range lanes {
			x.icoord[i] = [4]int32{}
			if r.HasLod && r.ILod != nil {
				x.icoord[i][3] = r.ILod[l]
			}
		}
	case ir.TexGather:
		req.Op = sampler.OpGather
	default:
		return fmt.Errorf("%w: sampler %d: texture op %v", ErrSampler, r.Sampler, r.Op)
	}
	out := x.out[:n]
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
	if r.Op == ir.TexQueryLevels {
		for i := range out {
			out[i][0] = out[i][3]
		}
	}
	for k := 0; k < 4; k++ {
		o := r.Out[k]
		if o == nil {
			continue
		}
		for i, l := range lanes {
			o[l] = out[i][k]
		}
	}
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
