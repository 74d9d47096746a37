package shaderdev

import (
	"fmt"
	"math"
	"math/bits"

	"vortexgfx/abi"
	"vortexgfx/gfx/mipmap"
	"vortexgfx/gl/sampler"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// MipFilter selects how a compiled draw's texture picks mip levels on the TEX
// unit.
type MipFilter uint8

// The mip filters: level 0 only, the nearest level, or a blend of the two
// nearest (MIP_LINEAR, the lod operand carrying abi.TexLodFracBits fraction
// bits).
const (
	MipNone MipFilter = iota
	MipNearest
	MipLinear
)

// Texture is a 2D texture bound to one sampler of a compiled draw, in
// the form the FF TEX unit samples: power-of-two A8R8G8B8, level 0 given
// (the chain is built with mipmap.Generate), row 0 at t = 0.
// spec: vortexpipe §3.6 (TEX coverage), vortex-hardware-facts §4
type Texture struct {
	Width, Height uint32
	// Pixels is level 0 as little-endian A8R8G8B8 words.
	Pixels       []byte
	Bilinear     bool
	Mip          MipFilter
	WrapU, WrapV abi.TexWrap
	// Resident, when set, is the chain already in device memory
	// (UploadTexture); Pixels is then not read.
	Resident *ResidentTexture
	// Ref, when set, is the texture the software sampler reads (any
	// gl/sampler target, format and level count: NPOT, 3D, cube, arrays,
	// depth, integer, float, swizzles) with RefSampler's state (GL's default
	// sampler when nil); it routes the draw's TEX to software.
	// spec: vortexpipe §3.6
	Ref        *sampler.Texture
	RefSampler *sampler.Sampler
}

// texCheck reports why t cannot be sampled by the FF unit ("" when it can).
func (t *Texture) texCheck() string {
	switch {
	case t.Width == 0 || t.Height == 0 || t.Width&(t.Width-1) != 0 || t.Height&(t.Height-1) != 0:
		return fmt.Sprintf("a %dx%d texture is not power-of-two", t.Width, t.Height)
	case t.Width > 1<<15 || t.Height > 1<<15:
		return fmt.Sprintf("a %dx%d texture exceeds the TEX unit", t.Width, t.Height)
	case len(t.Pixels) != int(4*t.Width*t.Height):
		return fmt.Sprintf("%d bytes for a %dx%d A8R8G8B8 texture", len(t.Pixels), t.Width, t.Height)
	}
	return ""
}

// texRoute says why a program's texture instructions cannot all run on the FF
// TEX unit ("" when they can): samples of float 2D samplers without a texel
// offset or shadow compare — implicit LOD (texture), explicit LOD
// (textureLod) and explicit gradients (textureGrad), whose level of detail the
// wrapper forms for the unit's lod operand (fsTexState.lod) — at most
// abi.TexNumStages samplers. Such a program routes TEX to the software
// sampler.
// spec: vortexpipe §2.3.3 (a texture op the FF sampler has no form of routes
// to the software sampler), §3.6; vortex-hardware-facts §4 (the lod operand)
func texRoute(fs *ir.Program) string {
	if len(fs.Samplers) > abi.TexNumStages {
		return fmt.Sprintf("%d samplers exceed the %d TEX stages", len(fs.Samplers), abi.TexNumStages)
	}
	for _, t := range fs.Tex {
		if why := ffTexWhy(&t); why != "" {
			return why
		}
		if t.Sampler < 0 || t.Sampler >= len(fs.Samplers) {
			return fmt.Sprintf("texture instruction names sampler %d of %d", t.Sampler, len(fs.Samplers))
		}
		if b := fs.Samplers[t.Sampler]; b.Kind != ir.Sampler2D || b.Result != ir.F32 {
			return fmt.Sprintf("sampler %s (%v) is not a float 2D sampler", b.Name, b.Kind)
		}
	}
	return ""
}

// ffTexWhy says why the FF route's wrapper cannot answer t with vx_tex (""
// when it can): only texture(), textureLod and textureGrad, without a texel
// offset or a shadow compare, which the unit has no form of (vx_tex takes u,
// v and lod only: an offset sample on it would silently read the unshifted
// texel).
func ffTexWhy(t *ir.TexInfo) string {
	switch {
	case t.Op != ir.TexSample && t.Op != ir.TexSampleLod && t.Op != ir.TexSampleGrad:
		return fmt.Sprintf("texture op %v (only texture, textureLod and textureGrad run on vx_tex)", t.Op)
	case t.HasOffset || t.HasOffsets || t.HasDynOffset:
		return fmt.Sprintf("texture op %v with a texel offset (vx_tex has none)", t.Op)
	case t.Compare != ir.NoReg:
		return fmt.Sprintf("texture op %v with a shadow compare (vx_tex has none)", t.Op)
	}
	return ""
}

// texDCRs returns the TEX DCR writes of stage: the resident chain at addr with
// the level offsets offs. spec: vortexpipe §3.3 step 3
func texDCRs(stage int, t *Texture, addr uint64, offs []uint32) []abi.DCRPair {
	out := []abi.DCRPair{{Addr: abi.DCRTexStage, Value: uint32(stage)}}
	dcr := func(a abi.DCR, v uint32) { out = append(out, abi.DCRPair{Addr: a, Value: v}) }
	filter := uint32(0)
	if t.Bilinear {
		filter |= abi.TexFilterBilinear
	}
	if t.Mip == MipLinear {
		filter |= abi.TexFilterMipLinear
	}
	dcr(abi.DCRTexLogDim, abi.PackTexLogDim(mipmap.Log2Ceil(t.Width), mipmap.Log2Ceil(t.Height)))
	dcr(abi.DCRTexFormat, uint32(abi.TexA8R8G8B8))
	dcr(abi.DCRTexWrap, abi.PackTexWrap(t.WrapU, t.WrapV))
	dcr(abi.DCRTexFilter, filter)
	dcr(abi.DCRTexAddr, uint32(addr>>6))
	levels := 1
	if t.Mip != MipNone {
		levels = len(offs)
	}
	for l := 0; l < levels; l++ {
		dcr(abi.DCRTexMipOff(l), offs[l])
	}
	return out
}

// fsTexState is the wrapper's view of one TEX stage: its level-0 size and mip
// mode (read from the FS arg block's texture table).
type fsTexState struct {
	w, h   float32
	levels uint32
	mip    MipFilter
}

// s23 converts a float texture coordinate to the S.23 operand of vx_tex,
// saturating (NaN to 0).
func s23(f float32) int32 {
	r, ok := abi.FixedFromFloat(f, abi.FracTex)
	switch {
	case ok:
		return r
	case f != f:
		return 0
	case f > 0:
		return math.MaxInt32
	}
	return math.MinInt32
}

// Texture is the wrapper's vx_tex path for a whole warp (exec.Sampler): the
// level of detail from the quad derivatives (log2 of the larger texel-space
// gradient length, clamped to the chain; integer for MipNearest, with
// abi.TexLodFracBits fraction bits for MipLinear), the coordinates to S.23,
// then one vx_tex per lane whose A8R8G8B8 texel is returned as normalised
// floats. spec: vortexpipe §2.2 (emit_vx_tex: the shader derives the mip
// level from its quad's UV derivatives), §3.4
func (s *fsScratch) Texture(req *exec.TexRequest) error {
	if s.swTex {
		return s.sw.Texture(req)
	}
	if s.batch != nil {
		return s.batch.texture(s, req) // a batched run (fsbatch.go)
	}
	c := s.c
	if !ffTexReq(req) || req.Sampler < 0 || req.Sampler >= len(s.tex) {
		return fmt.Errorf("vx_tex: texture op %v on sampler %d", req.Op, req.Sampler)
	}
	ts := &s.tex[req.Sampler]
	for l := 0; l < req.Width; l++ {
		if req.Mask>>l&1 == 0 {
			continue
		}
		texelOut(req, l, c.Tex(req.Sampler, s23(req.Coord[0][l]), s23(req.Coord[1][l]), ts.lod(req, l)))
	}
	return c.Err()
}

// ffTexReq reports whether the FF route's wrapper answers req with vx_tex
// (ffTexOp: texture, textureLod, textureGrad).
func ffTexReq(req *exec.TexRequest) bool {
	return req.Op == ir.TexSample || req.Op == ir.TexSampleLod || req.Op == ir.TexSampleGrad
}

// lod is lane l's vx_tex level of detail on the stage: textureLod's lod, or
// log2 of the larger texel-space gradient length (the quad's, or
// textureGrad's explicit ones) plus the bias, clamped to the chain;
// integer for MipNearest, with abi.TexLodFracBits fraction bits for
// MipLinear; 0 without mips or gradients.
// spec: vortex-hardware-facts.md §4 (software LOD); docs/ABI.md row 44
func (ts *fsTexState) lod(req *exec.TexRequest, l int) uint32 {
	if ts.mip == MipNone {
		return 0
	}
	var lf float64
	switch {
	case req.Op == ir.TexSampleLod:
		lf = float64(req.Lod[l])
	case req.Grads < 2:
		return 0
	default:
		dux, dvx := float64(req.DPdx[0][l]*ts.w), float64(req.DPdx[1][l]*ts.h)
		duy, dvy := float64(req.DPdy[0][l]*ts.w), float64(req.DPdy[1][l]*ts.h)
		rho := math.Max(math.Sqrt(dux*dux+dvx*dvx), math.Sqrt(duy*duy+dvy*dvy))
		lf = math.Log2(rho)
		if req.HasBias {
			lf += float64(req.Bias[l])
		}
	}
	lf = math.Min(math.Max(lf, 0), float64(ts.levels-1))
	if lf != lf {
		lf = 0
	}
	switch {
	case ts.mip == MipLinear:
		return uint32(lf * (1 << abi.TexLodFracBits))
	case req.Op == ir.TexSampleLod:
		// GL's nearest level, ceil(λ + 1/2) − 1 (0 for λ ≤ 1/2), as the
		// software sampler picks it: a shader's explicit lod is often an
		// exact half, where floor(λ + 1/2) would take the level above.
		// spec: GL 4.6 §8.14.3
		return uint32(math.Ceil(lf+0.5) - 1)
	}
	return uint32(math.Floor(lf + 0.5))
}

// texelOut writes A8R8G8B8 texel t to lane l's four result words as
// normalised floats (r, g, b, a).
func texelOut(req *exec.TexRequest, l int, t uint32) {
	req.Out[0][l] = math.Float32bits(float32(t>>16&0xFF) / 255)
	req.Out[1][l] = math.Float32bits(float32(t>>8&0xFF) / 255)
	req.Out[2][l] = math.Float32bits(float32(t&0xFF) / 255)
	req.Out[3][l] = math.Float32bits(float32(t>>24) / 255)
}

// texLevels is the number of mip levels of a w×h chain.
func texLevels(w, h uint32) uint32 { return uint32(bits.Len32(max(w, h))) }
