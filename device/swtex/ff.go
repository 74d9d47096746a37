package swtex

import (
	"fmt"
	"math"

	"vortexgfx/abi"
	fftex "vortexgfx/device/tex"
)

// FFDescriptor returns a software descriptor that samples the mip chain an FF TEX
// stage is programmed with, in place (its levels are the chain's levels at
// ADDR<<6 + MIPOFF[l]; nothing is re-uploaded), with the stage's filter, wraps and
// border colour. It is how VORTEX_FORCE_SW=tex moves an FF-capable texture to the
// software sampler for A/B testing. mipmapped says whether the draw uses the chain
// beyond level 0 (the FF unit has no mip-enable bit: the shader's lod operand
// decides); MIP_LINEAR selects linear mip filtering. Only A8R8G8B8 (BGRA8 bytes)
// stages are accepted: the other FF formats are host-decoded to it (vortexpipe
// §3.6 "Other colour formats"). Within the FF unit's fixed-point precision the
// results agree (see TestFFAgreement) except where its MIRROR and BORDER bilinear
// filtering is not the GL filter (TestFFLinearEdgeDivergence).
// spec: vortexpipe-driver §2.3.3 (VORTEXPIPE_FORCE_SW=tex), §3.3 step 3 (TEX DCRs)
func FFDescriptor(st fftex.Stage, mipmapped bool) (abi.SWTexDesc, error) {
	if abi.TexFormat(st.Format) != abi.TexA8R8G8B8 {
		return abi.SWTexDesc{}, fmt.Errorf("%w: FF stage format %v (only A8R8G8B8 samples in place)", ErrLayout, abi.TexFormat(st.Format))
	}
	logW, logH := abi.UnpackTexLogDim(st.LogDim)
	if logW > 15 || logH > 15 {
		return abi.SWTexDesc{}, fmt.Errorf("%w: FF stage LOGDIM 0x%x", ErrLayout, st.LogDim)
	}
	wu, wv := abi.UnpackTexWrap(st.Wrap)
	if wu > abi.WrapBorder || wv > abi.WrapBorder {
		return abi.SWTexDesc{}, fmt.Errorf("%w: FF stage wrap 0x%x", ErrLayout, st.Wrap)
	}
	levels := max(logW, logH) + 1
	d := abi.SWTexDesc{Target: abi.SWTex2D, Format: abi.SWTexBGRA8, Levels: uint8(levels), Samples: 1,
		Width: 1 << logW, Height: 1 << logH, Depth: 1, MaxLevel: uint8(levels - 1),
		Swizzle: [4]abi.SWTexSwizzle{abi.SWSwizzleR, abi.SWSwizzleG, abi.SWSwizzleB, abi.SWSwizzleA},
		Compare: abi.CmpLEqual, Wrap: [3]abi.TexWrap{wu, wv, wu}, MinLOD: -1000, MaxLOD: 1000, MaxAnisotropy: 1}
	if st.Filter&abi.TexFilterBilinear != 0 {
		d.MinFilter, d.MagFilter = abi.SWFilterLinear, abi.SWFilterLinear
	}
	switch {
	case !mipmapped:
		d.MaxLOD = 0
	case st.Filter&abi.TexFilterMipLinear != 0:
		d.MipFilter = abi.SWMipLinear
	default:
		d.MipFilter = abi.SWMipNearest
	}
	b := st.Border
	for i, sh := range [4]uint{16, 8, 0, 24} { // A8R8G8B8 → R, G, B, A
		d.Border[i] = math.Float32bits(float32(b>>sh&0xFF) / 255)
	}
	base := abi.ByteAddr(st.Addr)
	for l := range levels {
		d.Level[l].Addr = base + uint64(st.MipOff[l])
	}
	return d, nil
}
