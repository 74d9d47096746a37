// Package texunit turns one texture instruction of a warp (shader/exec's
// TexRequest) into a sampler request (package gl/sampler) and the results
// back into the instruction's result words. It is the single mapping shared by
// the reference renderer's texture unit (ref/program) and the device's
// software sampler (device/swtex), so both sample exactly alike: the ops map
// as sample/samplelod/samplegrad (implicit LOD from the quad gradients,
// explicit LOD, or bias), query-LOD, fetch (level in the lod operand; the
// sample on multisample kinds), size and query-levels, gather (with one offset
// or four). spec: vortexpipe-driver §2.3.2 (emit_tex: one contract for the
// hardware and software samplers), §3.6
package texunit

import (
	"fmt"

	"vortexgfx/gl/sampler"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// Unit is the storage one request is converted in: the chosen lanes packed
// densely into one reference request. It grows to the widest warp once and is
// reused; a Unit is not safe for concurrent use.
type Unit struct {
	req    sampler.Request
	coord  [][4]float32
	icoord [][4]int32
	ref    []float32
	lod    []float32
	dpdx   [][3]float32
	dpdy   [][3]float32
	off    [][2]int32
	out    [][4]uint32
}

func (u *Unit) grow(n int) {
	if len(u.coord) >= n {
		return
	}
	u.coord, u.icoord = make([][4]float32, n), make([][4]int32, n)
	u.ref, u.lod = make([]float32, n), make([]float32, n)
	u.dpdx, u.dpdy = make([][3]float32, n), make([][3]float32, n)
	u.off = make([][2]int32, n)
	u.out = make([][4]uint32, n)
}

// Request converts r for the lanes in lanes (lane indices into r's arrays,
// packed in that order) into a reference request and the result storage
// Scatter reads. r's arrays must hold every lane listed.
func (u *Unit) Request(r *exec.TexRequest, lanes []int) (*sampler.Request, [][4]uint32, error) {
	n := len(lanes)
	u.grow(n)
	req := &u.req
	*req = sampler.Request{N: n, Coord: u.coord[:n], IntCoord: u.icoord[:n], Offset: r.Offset, GatherComp: r.Comp}
	if r.HasOffsets {
		req.GatherOffsets, req.UseGatherOffsets = r.Offsets, true
	}
	kind := r.Binding.Kind
	nc := min(r.NCoord, 4)
	for i, l := range lanes {
		c := &u.coord[i]
		*c = [4]float32{}
		for k := 0; k < nc; k++ {
			if r.Coord[k] != nil {
				c[k] = r.Coord[k][l]
			}
		}
	}
	if r.HasRef && r.Compare != nil {
		for i, l := range lanes {
			u.ref[i] = r.Compare[l]
		}
		req.Ref = u.ref[:n]
		// The 1D shadow samplers address (s, unused, ref): only s is a
		// coordinate.
		if kind == ir.Sampler1DShadow {
			for i := range lanes {
				u.coord[i][1] = 0
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
				u.lod[i] = r.Lod[l]
			}
			req.LODValue = u.lod[:n]
		case r.Grads > 0:
			req.LOD = sampler.LODGrad
			g := min(r.Grads, 3)
			for i, l := range lanes {
				u.dpdx[i], u.dpdy[i] = [3]float32{}, [3]float32{}
				for k := 0; k < g; k++ {
					u.dpdx[i][k] = r.DPdx[k][l]
					u.dpdy[i][k] = r.DPdy[k][l]
				}
			}
			req.DPdx, req.DPdy = u.dpdx[:n], u.dpdy[:n]
		default:
			req.LOD = sampler.LODNone
		}
		if r.HasBias && r.Bias != nil && req.LOD != sampler.LODExplicit {
			for i, l := range lanes {
				u.lod[i] = r.Bias[l]
			}
			req.LODValue = u.lod[:n]
		}
	case ir.TexFetch:
		// texelFetch: (x, y, z/layer, level); on a multisample kind
		// (x, y, layer, sample), the lod operand holding the sample (txf_ms).
		req.Op = sampler.OpFetch
		if kind.Multisample() {
			req.Op = sampler.OpFetchSample
		}
		for i, l := range lanes {
			ic := &u.icoord[i]
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
			u.icoord[i] = [4]int32{}
			if r.HasLod && r.ILod != nil {
				u.icoord[i][3] = r.ILod[l]
			}
		}
	case ir.TexGather:
		req.Op = sampler.OpGather
		if r.HasDynOffset && r.DynOffset[0] != nil && r.DynOffset[1] != nil {
			for i, l := range lanes {
				u.off[i] = [2]int32{r.DynOffset[0][l], r.DynOffset[1][l]}
			}
			req.LaneOffset = u.off[:n]
		}
	default:
		return nil, nil, fmt.Errorf("texture op %v not supported", r.Op)
	}
	return req, u.out[:n], nil
}

// Scatter writes the packed results back into r's result words for the same
// lanes (textureQueryLevels' count moves from the size query's fourth word
// to the first).
func (u *Unit) Scatter(r *exec.TexRequest, lanes []int) {
	out := u.out[:len(lanes)]
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
}
