package pipe

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/sampler"
)

// SamplerState is the sampler CSO description (pipe_sampler_state).
type SamplerState struct {
	WrapS, WrapT, WrapR sampler.Wrap
	MinFilter           sampler.Filter
	MagFilter           sampler.Filter
	MipFilter           sampler.MipFilter
	MinLod, MaxLod      float32
	LodBias             float32
	CompareMode         bool // shadow compare against the reference coordinate
	CompareFunc         compare.Func
	BorderColor         [4]float32 // RGBA
	MaxAnisotropy       uint8      // 0 or 1: off
}

// Sampler is a sampler CSO captured as TEX words at creation: TEX_FILTER, TEX_WRAP
// and TEX_BORDER for the unit, the LOD clamp and bias in fixed point for the
// shader's LOD computation, and the compare function in OM order for the software
// sampler's shadow path. Routes lists what sends the sampling to the software
// sampler (the draw stays on the device); Flags what gates the draw.
// spec: vortexpipe §1.4, §3.3 step 3, §3.6; vortex-hardware-facts §4
type Sampler struct {
	State SamplerState

	Filter uint32 // TEX_FILTER: bit0 bilinear, bit1 MIP_LINEAR
	Wrap   uint32 // TEX_WRAP: (wrap_t << 16) | wrap_s
	WrapR  abi.TexWrap
	Border uint32 // TEX_BORDER, A8R8G8B8

	MipEnable bool
	LodMin    int32 // fixed point, abi.TexLodFracBits fraction bits
	LodMax    int32
	LodBias   int32

	Compare abi.CompareFunc // meaningful with State.CompareMode

	Routes []Reason
	Flags  []Reason
}

// NewSampler captures s. It fails on an undefined enum value.
// spec: vortexpipe §1.4 (the sampler capture)
func NewSampler(s SamplerState) (*Sampler, error) {
	if s.MinFilter > sampler.Linear || s.MagFilter > sampler.Linear || s.MipFilter > sampler.MipLinear {
		return nil, fmt.Errorf("pipe: sampler: filter %d/%d/%d undefined", s.MinFilter, s.MagFilter, s.MipFilter)
	}
	sm := &Sampler{State: s}
	var codes [3]abi.TexWrap
	for i, w := range [3]sampler.Wrap{s.WrapS, s.WrapT, s.WrapR} {
		if !w.Valid() {
			return nil, fmt.Errorf("pipe: sampler: wrap %d undefined", w)
		}
		code, ff, ok := w.TEX()
		axis := "str"[i : i+1]
		switch {
		case !ok || !ff:
			// Legacy CLAMP and the mirror-clamps: the software sampler's.
			sm.Routes = append(sm.Routes, Reason{RouteTexWrap, "wrap_" + axis + " " + w.String()})
		case i < 2 && (w == sampler.MirroredRepeat || w == sampler.ClampToBorder) && (s.MinFilter == sampler.Linear || s.MagFilter == sampler.Linear):
			// The FF unit's bilinear taps are not GL's filter here: it
			// swaps the two weights in every mirrored period, and within
			// half a texel of a BORDER edge returns mostly the border
			// colour (measured against the reference sampler in
			// device/swtex's FF agreement tests). Nearest taps agree.
			sm.Routes = append(sm.Routes, Reason{RouteTexWrap, "bilinear wrap_" + axis + " " + w.String() + " (the FF filter differs from GL's)"})
		}
		codes[i] = code
	}
	sm.Wrap = abi.PackTexWrap(codes[0], codes[1])
	sm.WrapR = codes[2]
	if s.MagFilter == sampler.Linear {
		sm.Filter |= abi.TexFilterBilinear
	}
	if s.MinFilter != s.MagFilter {
		sm.Routes = append(sm.Routes, Reason{RouteTexFilter, fmt.Sprintf("min %d mag %d", s.MinFilter, s.MagFilter)})
	}
	if s.MipFilter == sampler.MipLinear {
		sm.Filter |= abi.TexFilterMipLinear
	}
	sm.MipEnable = s.MipFilter != sampler.MipNone
	sm.LodMin, sm.LodMax, sm.LodBias = LodFixed(s.MinLod), LodFixed(s.MaxLod), LodFixed(s.LodBias)
	sm.Border = PackColor(s.BorderColor, true)
	if s.CompareMode {
		f, ok := s.CompareFunc.OM()
		if !ok {
			return nil, fmt.Errorf("pipe: sampler: compare func %d undefined", s.CompareFunc)
		}
		sm.Compare = f
		sm.Routes = append(sm.Routes, Reason{RouteTexShadow, "func " + s.CompareFunc.String()})
	}
	if s.MaxAnisotropy > 1 {
		sm.Routes = append(sm.Routes, Reason{RouteTexAniso, fmt.Sprintf("max %d", s.MaxAnisotropy)})
	}
	return sm, nil
}

// lodState says what of the sampler's LOD state changes which level a
// mipmapped sample of a levels-deep texture reads ("" when nothing does): a
// LOD bias, a minimum LOD above 0, or a maximum LOD below the last level (both
// clamps 0 is the unclamped default, as refSampler reads it). The FF TEX path
// forms the level from the quad derivatives and the shader's own bias,
// clamped to the chain, so it has no form of these and the software sampler
// samples instead. Without a mip filter the level is the base whatever the
// LOD, and with one filter the LOD picks nothing else, so such a sampler keeps
// the FF unit. spec: vortexpipe §3.6 ("LOD from quad derivatives + sampler
// bias, clamped to min/max LOD"), §1.5.1 (never a silent collapse)
func (sm *Sampler) lodState(levels int) string {
	s := &sm.State
	if s.MipFilter == sampler.MipNone {
		return ""
	}
	clamped := s.MinLod != 0 || s.MaxLod != 0
	switch {
	case s.LodBias != 0:
		return fmt.Sprintf("bias %g", s.LodBias)
	case clamped && s.MinLod > 0:
		return fmt.Sprintf("min LOD %g", s.MinLod)
	case clamped && s.MaxLod < float32(levels-1):
		return fmt.Sprintf("max LOD %g of %d levels", s.MaxLod, levels)
	}
	return ""
}
