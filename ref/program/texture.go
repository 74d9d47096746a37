package program

import (
	"fmt"

	"vortexgfx/ref"
	"vortexgfx/ref/sampler"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// texUnit is the executor's texture unit on top of ref.Textures: it turns one
// exec.TexRequest (a whole warp) into one sampler.Request with N = the warp
// width, so there is one interface call per texture instruction, never per
// lane. spec: vortexpipe-driver §2.2 (vx_tex per warp), §3.6.
type texUnit struct {
	p   *Program
	tex ref.Textures

	req    sampler.Request
	coord  [][4]float32
	icoord [][4]int32
	refv   []float32
	lod    []float32
	dpdx   [][3]float32
	dpdy   [][3]float32
	out    [][4]uint32
}

func newTexUnit(p *Program, width int) *texUnit {
	return &texUnit{p: p, coord: make([][4]float32, width), icoord: make([][4]int32, width),
		refv: make([]float32, width), lod: make([]float32, width), dpdx: make([][3]float32, width),
		dpdy: make([][3]float32, width), out: make([][4]uint32, width)}
}

// Texture implements exec.Sampler.
func (t *texUnit) Texture(r *exec.TexRequest) error {
	if t.tex == nil {
		return fmt.Errorf("program: texture instruction without textures")
	}
	n := r.Width
	if n > len(t.out) {
		return fmt.Errorf("program: texture request of %d lanes on a %d-lane unit", n, len(t.out))
	}
	if r.Sampler < 0 || r.Sampler >= len(t.p.Units) {
		return fmt.Errorf("program: sampler %d out of range", r.Sampler)
	}
	req := &t.req
	*req = sampler.Request{N: n, Coord: t.coord[:n], IntCoord: t.icoord[:n], Offset: r.Offset, GatherComp: r.Comp}
	if r.HasOffsets {
		req.GatherOffsets, req.UseGatherOffsets = r.Offsets, true
	}
	kind := r.Binding.Kind
	nc := min(r.NCoord, 4)
	for l := 0; l < n; l++ {
		c := &t.coord[l]
		*c = [4]float32{}
		for k := 0; k < nc; k++ {
			if r.Coord[k] != nil {
				c[k] = r.Coord[k][l]
			}
		}
	}
	if r.HasRef && r.Compare != nil {
		copy(t.refv[:n], r.Compare[:n])
		req.Ref = t.refv[:n]
		// The 1D shadow samplers address (s, unused, ref): only s is a
		// coordinate.
		if kind == ir.Sampler1DShadow {
			for l := 0; l < n; l++ {
				t.coord[l][1] = 0
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
			copy(t.lod[:n], r.Lod[:n])
			req.LODValue = t.lod[:n]
		case r.Grads > 0:
			req.LOD = sampler.LODGrad
			for l := 0; l < n; l++ {
				t.dpdx[l], t.dpdy[l] = [3]float32{}, [3]float32{}
				for k := 0; k < r.Grads && k < 3; k++ {
					t.dpdx[l][k] = r.DPdx[k][l]
					t.dpdy[l][k] = r.DPdy[k][l]
				}
			}
			req.DPdx, req.DPdy = t.dpdx[:n], t.dpdy[:n]
		default:
			req.LOD = sampler.LODNone
		}
		if r.HasBias && r.Bias != nil && req.LOD != sampler.LODExplicit {
			copy(t.lod[:n], r.Bias[:n])
			req.LODValue = t.lod[:n]
		}
	case ir.TexFetch:
		// texelFetch: (x, y, z/layer, level); on a multisample kind
		// (x, y, layer, sample), ILod holding the sample (txf_ms).
		req.Op = sampler.OpFetch
		if kind.Multisample() {
			req.Op = sampler.OpFetchSample
		}
		for l := 0; l < n; l++ {
			ic := &t.icoord[l]
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
		for l := 0; l < n; l++ {
			t.icoord[l] = [4]int32{}
			if r.HasLod && r.ILod != nil {
				t.icoord[l][3] = r.ILod[l]
			}
		}
	case ir.TexGather:
		req.Op = sampler.OpGather
	default:
		return fmt.Errorf("program: texture op %v not supported", r.Op)
	}
	// The binding slot is KindTarget's, the one the renderers bind by (pipe's
	// reference path binds the unit's view there whatever its dimensionality).
	unit := TextureIndex(t.p.Units[r.Sampler], KindTarget(kind))
	if err := t.tex.Sample(unit, req, t.out[:n]); err != nil {
		return err
	}
	if r.Op == ir.TexQueryLevels {
		for l := 0; l < n; l++ {
			t.out[l][0] = t.out[l][3]
		}
	}
	for k := 0; k < 4; k++ {
		o := r.Out[k]
		if o == nil {
			continue
		}
		for l := 0; l < n; l++ {
			o[l] = t.out[l][k]
		}
	}
	return nil
}
