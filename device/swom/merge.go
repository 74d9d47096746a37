package swom

import (
	"encoding/binary"
	"math"

	"vortexgfx/abi"
	"vortexgfx/gl/format"
	"vortexgfx/gl/stencil"
)

// Written flags returned by Merge: which texels the sample changed, so the
// caller stores only those back to device memory.
const (
	WroteDS    = 1 << 0
	wroteColor = 1 // target i is bit 1+i
)

// WroteTarget is the Merge result bit of colour target i.
func WroteTarget(i int) uint16 { return wroteColor << (1 + i) }

// Merge runs one covered sample of f through the per-sample operations in GL
// order — depth bounds, stencil, depth, then blending or the logic op and
// the write mask of every target — on the sample's texels: ds is its
// depth/stencil texel (ignored without HasDS), color[i] target i's texel. z is
// the sample's depth. It updates the texels in place and returns the Wrote*
// bits of what changed and whether the sample passed.
// spec: vortexpipe §3.4 (gfx_om_fragment_sw / _mrt_sw / _msaa_sw), §3.7
func (s *State) Merge(f *Fragment, z Depth, ds []byte, color *[MaxTargets][]byte) (wrote uint16, pass bool) {
	if s.HasDS {
		var ok bool
		wrote, ok = s.depthStencil(f.Back, z, ds)
		if !ok {
			return wrote, false
		}
	}
	for i := 0; i < s.NumTargets; i++ {
		t := &s.Targets[i]
		if t.Blend.WriteMask&0xF == 0 || color[i] == nil {
			continue
		}
		s.writeColor(i, t, f, color[i])
		wrote |= WroteTarget(i)
	}
	return wrote, true
}

// depthStencil is the depth-bounds, stencil and depth stage on one texel.
func (s *State) depthStencil(back bool, z Depth, ds []byte) (uint16, bool) {
	f := s.DepthFormat
	hasDepth, hasStencil := f != abi.OMDepthS8, f == abi.OMDepthD24S8 || f == abi.OMDepthS8
	if s.DepthClamp {
		if c := min(max(z.F, s.ClampMin), s.ClampMax); c != z.F {
			z = FloatDepth(c)
		}
	}
	var word uint32 // D24S8
	var stored float32
	var sv uint8
	switch f {
	case abi.OMDepthD24S8:
		word = binary.LittleEndian.Uint32(ds)
		stored, sv = float32(float64(word&abi.DepthMask)/(1<<24)), uint8(word>>abi.StencilShift)
	case abi.OMDepthD16:
		stored = float32(float64(binary.LittleEndian.Uint16(ds)) / 0xFFFF)
	case abi.OMDepthD32F:
		stored = math.Float32frombits(binary.LittleEndian.Uint32(ds))
	default:
		sv = ds[0]
	}
	if s.DepthBounds && hasDepth && (stored < s.BoundsMin || stored > s.BoundsMax) {
		return 0, false
	}
	face := &s.Front
	if back {
		face = &s.Back
	}
	doStencil := s.StencilTest && hasStencil
	var wrote uint16
	setStencil := func(op stencil.Op) {
		nv := op.Apply(face.Ref, sv)
		nv = sv&^face.WriteMask | nv&face.WriteMask
		if nv == sv {
			return
		}
		sv = nv
		if f == abi.OMDepthS8 {
			ds[0] = nv
		} else {
			word = word&abi.DepthMask | uint32(nv)<<abi.StencilShift
			binary.LittleEndian.PutUint32(ds, word)
		}
		wrote = WroteDS
	}
	if doStencil && !face.Func.TestUint(uint32(face.Ref&face.ReadMask), uint32(sv&face.ReadMask)) {
		setStencil(face.Fail)
		return wrote, false
	}
	pass := true
	if s.DepthTest && hasDepth {
		switch f {
		case abi.OMDepthD24S8:
			pass = s.DepthFunc.TestUint(z.Z24, word&abi.DepthMask)
		case abi.OMDepthD16:
			pass = s.DepthFunc.TestUint(format.UNorm(z.F, 16), uint32(binary.LittleEndian.Uint16(ds)))
		default:
			pass = s.DepthFunc.Test(z.F, stored)
		}
	}
	if doStencil {
		if pass {
			setStencil(face.ZPass)
		} else {
			setStencil(face.ZFail)
		}
	}
	if !pass {
		return wrote, false
	}
	if s.DepthTest && s.DepthWrite && hasDepth {
		switch f {
		case abi.OMDepthD24S8:
			word = word&^abi.DepthMask | z.Z24
			binary.LittleEndian.PutUint32(ds, word)
		case abi.OMDepthD16:
			binary.LittleEndian.PutUint16(ds, uint16(format.UNorm(z.F, 16)))
		default:
			binary.LittleEndian.PutUint32(ds, math.Float32bits(z.F))
		}
		wrote = WroteDS
	}
	return wrote, true
}

// unorm8 reports whether f blends in the FF OM's 8-bit integer arithmetic.
func unorm8(in format.Info) bool { return in.Kind == format.KindUNorm && in.Bits == 8 && !in.SRGB }

// writeColor merges f's colour i into one texel of target t.
func (s *State) writeColor(i int, t *Target, f *Fragment, texel []byte) {
	fm := t.Format
	in := fm.Info()
	dst := format.Unpack(fm, texel)
	out := &f.Color[i]
	b := &t.Blend
	var res format.Raw
	switch {
	case fm.IsInteger():
		res = format.FromInt(fm, *out)
		if s.LogicOpEnable {
			m := format.ComponentMask(fm)
			for c := range 4 {
				res[c] = s.LogicOp.Apply(res[c], dst[c]) & m
			}
		}
	case unorm8(in):
		var src [4]uint32
		for c := range 4 {
			src[c] = format.UNorm(math.Float32frombits(out[c]), 8)
		}
		switch {
		case s.LogicOpEnable:
			for c := range 4 {
				res[c] = s.LogicOp.Apply(src[c], dst[c]) & 0xFF
			}
		case b.Enable:
			d := dst
			if in.Components < 4 {
				d[3] = 0xFF // a missing alpha reads as one
			}
			res = s.blend8(i, b, f, src, d)
		default:
			res = src
		}
	case s.LogicOpEnable && in.Kind == format.KindUNorm && !in.SRGB:
		res = format.FromFloat(fm, floats(out))
		m := format.ComponentMask(fm)
		for c := range 4 {
			res[c] = s.LogicOp.Apply(res[c], dst[c]) & m
		}
	case b.Enable:
		res = format.FromFloat(fm, s.blendFloat(i, b, floats(out), f.Src1, format.ToFloat(fm, dst), in.Kind))
	default:
		res = format.FromFloat(fm, floats(out))
	}
	for c := range 4 {
		if b.WriteMask>>c&1 == 0 || c >= in.Components {
			res[c] = dst[c]
		}
	}
	format.Pack(fm, texel, res)
}

func floats(w *[4]uint32) [4]float32 {
	return [4]float32{math.Float32frombits(w[0]), math.Float32frombits(w[1]), math.Float32frombits(w[2]), math.Float32frombits(w[3])}
}

// blend8 is the unorm8 blend the FF OM computes (package blend's Unorm8) in
// RGBA order, with the dual-source factors added (the second source of
// target 0 only).
func (s *State) blend8(i int, b *Blend, f *Fragment, src, dst [4]uint32) format.Raw {
	var sv, dv, k, s1 [4]uint8
	for c := range 4 {
		sv[c], dv[c] = uint8(src[c]), uint8(dst[c])
		k[c] = uint8(format.UNorm(s.Constant[c], 8))
		if s.DualSource && i == 0 {
			s1[c] = uint8(format.UNorm(f.Src1[c], 8))
		}
	}
	o := b.fn().Unorm8(sv, s1, dv, k)
	return format.Raw{uint32(o[0]), uint32(o[1]), uint32(o[2]), uint32(o[3])}
}

// blendFloat is the float blend of GL 4.6 §17.3.6 (package blend's Float);
// only target 0 of a dual-source draw has a second source.
func (s *State) blendFloat(i int, b *Blend, src, src1, dst [4]float32, kind format.Kind) [4]float32 {
	if !s.DualSource || i != 0 {
		src1 = [4]float32{}
	}
	return b.fn().Float(kind, src, src1, dst, s.Constant)
}

// Resolve box-filters the S samples of one pixel (S consecutive texels of
// format f in samples) into dst: decoded to float (sRGB to linear), averaged
// and re-encoded, so R8, RG8 and sRGB attachments resolve correctly; an
// integer format takes sample 0 (GL: integer resolves are not averaged).
// spec: vortexpipe §3.4.1 (msaa_resolve_k)
func Resolve(f format.Format, samples []byte, n int, dst []byte) {
	bpp := f.Info().Bytes
	if n <= 1 || f.IsInteger() {
		copy(dst[:bpp], samples[:bpp])
		return
	}
	var sum [4]float64
	for k := 0; k < n; k++ {
		c := format.ToFloat(f, format.Unpack(f, samples[k*bpp:]))
		for i := range sum {
			sum[i] += float64(c[i])
		}
	}
	var avg [4]float32
	for i := range avg {
		avg[i] = float32(sum[i] / float64(n))
	}
	format.Pack(f, dst, format.FromFloat(f, avg))
}
