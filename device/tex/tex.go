// Package tex is the fixed-function texture unit: the seven FF texel formats,
// point/bilinear/trilinear filtering, the four wrap modes and mip chains, with the
// exact fixed-point arithmetic of the grxgpu generation.
//
// spec: vortex-hardware-facts §4; gfx_frag_tex.h (tex_compute_request,
// TexFilterLinear, TexLodLerp).
package tex

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
)

// Memory is the device memory the unit reads: one view per bound texture.
type Memory interface {
	View(addr uint64, n int) ([]byte, error)
}

// Stage is one texture stage's raw DCR state. spec: facts §2 (TEX 0x041–0x056)
type Stage struct {
	Addr   uint32 // 64-byte block address of the mip chain base
	LogDim uint32 // (log2 h << 16) | log2 w
	Format uint32 // abi.TexFormat
	Filter uint32 // bit0 bilinear, bit1 MIP_LINEAR
	Wrap   uint32 // (wrap_v << 16) | wrap_u
	MipOff [abi.TexMaxLevels]uint32
	Border uint32 // A8R8G8B8
}

// DCRs is the TEX unit's register file: the STAGE selector and both banks.
type DCRs struct {
	Select uint32
	Stages [abi.TexNumStages]Stage
}

// Write latches one DCR write into the bank STAGE selects. It reports whether the
// address belongs to the TEX unit.
func (d *DCRs) Write(addr abi.DCR, v uint32) bool {
	if addr == abi.DCRTexStage {
		d.Select = v
		return true
	}
	if abi.UnitOf(addr) != abi.UnitTEX {
		return false
	}
	s := &d.Stages[d.Select%abi.TexNumStages]
	switch {
	case addr == abi.DCRTexAddr:
		s.Addr = v
	case addr == abi.DCRTexLogDim:
		s.LogDim = v
	case addr == abi.DCRTexFormat:
		s.Format = v
	case addr == abi.DCRTexFilter:
		s.Filter = v
	case addr == abi.DCRTexWrap:
		s.Wrap = v
	case addr >= abi.DCRTexMipOff0 && addr < abi.DCRTexMipOff0+abi.TexMaxLevels:
		s.MipOff[addr-abi.DCRTexMipOff0] = v
	case addr == abi.DCRTexBorder:
		s.Border = v
	}
	return true
}

// Sampler is a stage bound to memory: the texture's bytes are viewed once at
// bind time, never per texel.
type Sampler struct {
	st      Stage
	format  abi.TexFormat
	stride  uint32
	logW    uint32
	logH    uint32
	levels  uint32 // mip levels in the chain: max(logW, logH) + 1
	wrapU   abi.TexWrap
	wrapV   abi.TexWrap
	data    []byte // view of [base, base+extent)
	maxByte uint64
	base    uint64 // device byte address of data[0]
}

// Bind validates a stage and views its whole mip chain.
func Bind(mem Memory, st Stage) (*Sampler, error) {
	f := abi.TexFormat(st.Format)
	if !f.FixedFunction() {
		return nil, fmt.Errorf("tex: format %d is not a fixed-function format (max %d)", st.Format, abi.TexFormatFFMax)
	}
	logW, logH := abi.UnpackTexLogDim(st.LogDim)
	if logW > 15 || logH > 15 {
		return nil, fmt.Errorf("tex: LOGDIM 0x%x exceeds 15 bits per axis", st.LogDim)
	}
	wu, wv := abi.UnpackTexWrap(st.Wrap)
	if wu > abi.WrapBorder || wv > abi.WrapBorder {
		return nil, fmt.Errorf("tex: wrap 0x%x is not an FF wrap mode", st.Wrap)
	}
	s := &Sampler{st: st, format: f, stride: uint32(f.Stride()), logW: logW, logH: logH,
		wrapU: wu, wrapV: wv}
	s.levels = max(logW, logH) + 1
	if s.levels > abi.TexMaxLevels {
		s.levels = abi.TexMaxLevels
	}
	var extent uint64
	for l := uint32(0); l < s.levels; l++ {
		lw, lh := sat(logW, l), sat(logH, l)
		end := uint64(st.MipOff[l]) + (uint64(1)<<(lw+lh))*uint64(s.stride)
		extent = max(extent, end)
	}
	data, err := mem.View(abi.ByteAddr(st.Addr), int(extent))
	if err != nil {
		return nil, fmt.Errorf("tex: view of mip chain at 0x%x (+%d): %w", abi.ByteAddr(st.Addr), extent, err)
	}
	s.data, s.maxByte, s.base = data, extent, abi.ByteAddr(st.Addr)
	return s, nil
}

func sat(log, lod uint32) uint32 {
	if lod >= log {
		return 0
	}
	return log - lod
}

// Sample returns the filtered A8R8G8B8 texel at S.23 coordinates (u, v). lod is
// an integer level, or with MIP_LINEAR a level with 8 fraction bits. Levels past
// the chain clamp to its last level. spec: facts §4
func (s *Sampler) Sample(u, v int32, lod uint32) uint32 {
	return s.sample(u, v, lod, nil)
}

// Taps are the device byte addresses of the texels one request read, in
// filter order (up to 4 per level, 8 with MIP_LINEAR); border taps read none.
// spec: vortex-hardware-facts §4, §7 (TEX READS)
type Taps struct {
	N    int
	Addr [8]uint64
}

// SampleTaps is Sample that also reports the texel addresses it read, for the
// performance model (CostModel). spec: vortex-hardware-facts §4, §7
func (s *Sampler) SampleTaps(u, v int32, lod uint32, t *Taps) uint32 {
	t.N = 0
	return s.sample(u, v, lod, t)
}

func (s *Sampler) sample(u, v int32, lod uint32, tp *Taps) uint32 {
	if s.st.Filter&abi.TexFilterMipLinear != 0 {
		li := lod >> abi.TexLodFracBits
		lj := min(li+1, abi.TexMaxLevels-1)
		frac := lod & (1<<abi.TexLodFracBits - 1)
		return LodLerp(s.sampleLevel(u, v, li, tp), s.sampleLevel(u, v, lj, tp), frac)
	}
	return s.sampleLevel(u, v, lod, tp)
}

func (s *Sampler) sampleLevel(u, v int32, lod uint32, tp *Taps) uint32 {
	if lod >= s.levels {
		lod = s.levels - 1
	}
	lw, lh := sat(s.logW, lod), sat(s.logH, lod)
	base := uint64(s.st.MipOff[lod])
	if s.st.Filter&abi.TexFilterBilinear == 0 {
		x := wrap(u, s.wrapU) >> (abi.FracTex - lw)
		y := wrap(v, s.wrapV) >> (abi.FracTex - lh)
		if s.borderTap(u, s.wrapU) || s.borderTap(v, s.wrapV) {
			return s.st.Border
		}
		return Decode(s.format, s.texel(base, x+(y<<lw), tp))
	}
	const half = 1 << (abi.FracTex - 1)
	dx, dy := int32(half>>lw), int32(half>>lh)
	u0, u1 := wrap(u-dx, s.wrapU), wrap(u+dx, s.wrapU)
	v0, v1 := wrap(v-dy, s.wrapV), wrap(v+dy, s.wrapV)
	shU, shV := abi.FracTex-lw, abi.FracTex-lh
	x0s, y0s := (u0<<8)>>shU, (v0<<8)>>shV
	x0, y0 := x0s>>8, y0s>>8
	x1, y1 := u1>>shU, v1>>shV
	alpha, beta := x0s&0xFF, y0s&0xFF
	var t [4]uint32
	idx := [4]uint32{x0 + y0<<lw, x1 + y0<<lw, x0 + y1<<lw, x1 + y1<<lw}
	bu := [4]bool{s.borderTap(u-dx, s.wrapU), s.borderTap(u+dx, s.wrapU), s.borderTap(u-dx, s.wrapU), s.borderTap(u+dx, s.wrapU)}
	bv := [4]bool{s.borderTap(v-dy, s.wrapV), s.borderTap(v-dy, s.wrapV), s.borderTap(v+dy, s.wrapV), s.borderTap(v+dy, s.wrapV)}
	for i := range t {
		if bu[i] || bv[i] {
			t[i] = s.st.Border
		} else {
			t[i] = Decode(s.format, s.texel(base, idx[i], tp))
		}
	}
	return FilterLinear(t, alpha, beta)
}

// borderTap reports whether a pre-wrap coordinate of a BORDER axis leaves [0, 1).
func (s *Sampler) borderTap(c int32, w abi.TexWrap) bool {
	return w == abi.WrapBorder && (c < 0 || c >= 1<<abi.FracTex)
}

// texel reads raw texel idx of the level at byte offset base. An address outside
// the bound chain (a corrupt MIPOFF) reads as 0 and makes no memory request.
// A non-nil tp records the texel's device address.
func (s *Sampler) texel(base uint64, idx uint32, tp *Taps) uint32 {
	off := base + uint64(idx)*uint64(s.stride)
	if off+uint64(s.stride) > s.maxByte {
		return 0
	}
	if tp != nil && tp.N < len(tp.Addr) {
		tp.Addr[tp.N] = s.base + off
		tp.N++
	}
	b := s.data[off:]
	switch s.stride {
	case 4:
		return binary.LittleEndian.Uint32(b)
	case 2:
		return uint32(binary.LittleEndian.Uint16(b))
	}
	return uint32(b[0])
}

// wrap applies a wrap mode to an S.23 coordinate and returns the 23-bit fraction.
// BORDER addresses like CLAMP (the border colour replaces out-of-range taps).
// spec: facts §4 (TextureWrap)
func wrap(c int32, w abi.TexWrap) uint32 {
	const mask = 1<<abi.FracTex - 1
	var r int32
	switch w {
	case abi.WrapRepeat:
		r = c
	case abi.WrapMirror:
		r = c ^ ((c << (31 - abi.FracTex)) >> 31)
	default: // CLAMP, BORDER
		r = c
		if c < 0 {
			r = 0
		}
		r |= (mask - r) >> 31
	}
	return uint32(r) & mask
}

// Decode expands a raw texel of an FF format to A8R8G8B8.
// spec: facts §4 formats table (Unpack8888)
func Decode(f abi.TexFormat, t uint32) uint32 {
	var r, g, b, a uint32
	switch f {
	case abi.TexR5G6B5:
		r = (t>>8)&0xF8 | (t>>13)&0x07
		g = (t>>3)&0xFC | (t>>9)&0x03
		b = (t<<3)&0xF8 | (t>>2)&0x07
		a = 0xFF
	case abi.TexA1R5G5B5:
		r = (t>>7)&0xF8 | (t>>12)&0x07
		g = (t>>2)&0xF8 | (t>>7)&0x07
		b = (t<<3)&0xF8 | (t>>2)&0x07
		a = uint32((int32(t<<16))>>31) & 0xFF
	case abi.TexA4R4G4B4:
		r = (t>>4)&0xF0 | (t>>8)&0x0F
		g = t&0xF0 | (t>>4)&0x0F
		b = (t<<4)&0xF0 | t&0x0F
		a = (t>>8)&0xF0 | (t>>12)&0x0F
	case abi.TexA8L8:
		r = t & 0xFF
		g, b = r, r
		a = (t >> 8) & 0xFF
	case abi.TexL8:
		r = t & 0xFF
		g, b = r, r
		a = 0xFF
	case abi.TexA8:
		r, g, b = 0xFF, 0xFF, 0xFF
		a = t & 0xFF
	default: // A8R8G8B8
		return t
	}
	return a<<24 | r<<16 | g<<8 | b
}

// lerp8888 blends two pairs of 8-bit channels packed as 0x00AA00BB by f/255 with
// the exact rounding of Lerp8888. spec: facts §4 filter arithmetic
func lerp8888(a, b, f uint32) uint32 {
	p := a*(0xFF-f) + b*f + 0x00800080
	q := (p >> 8) & 0x00FF00FF
	return ((p + q) >> 8) & 0x00FF00FF
}

// FilterLinear blends four decoded A8R8G8B8 taps (x0y0, x1y0, x0y1, x1y1): along
// U by alpha, then along V by beta. spec: facts §4 (TexFilterLinear)
func FilterLinear(t [4]uint32, alpha, beta uint32) uint32 {
	lo := func(c uint32) uint32 { return c & 0x00FF00FF }        // R, B
	hi := func(c uint32) uint32 { return (c >> 8) & 0x00FF00FF } // A, G
	c01l, c01h := lerp8888(lo(t[0]), lo(t[1]), alpha), lerp8888(hi(t[0]), hi(t[1]), alpha)
	c23l, c23h := lerp8888(lo(t[2]), lo(t[3]), alpha), lerp8888(hi(t[2]), hi(t[3]), alpha)
	cl, ch := lerp8888(c01l, c23l, beta), lerp8888(c01h, c23h, beta)
	return ch<<8 | cl
}

// LodLerp blends two filtered texels per channel by frac/256 (trilinear).
// spec: facts §4 (TexLodLerp)
func LodLerp(c0, c1, frac uint32) uint32 {
	frac &= 0xFF
	inv := 256 - frac
	var out uint32
	for s := 0; s < 32; s += 8 {
		a, b := (c0>>s)&0xFF, (c1>>s)&0xFF
		out |= ((a*inv + b*frac) >> 8 & 0xFF) << s
	}
	return out
}

// Read returns register addr of stage (the per-stage registers 0x041..0x056) or
// the STAGE selector; it reports false for an address outside the TEX unit.
// spec: facts §2
func (d *DCRs) Read(stage int, addr abi.DCR) (uint32, bool) {
	if addr == abi.DCRTexStage {
		return d.Select, true
	}
	if abi.UnitOf(addr) != abi.UnitTEX || stage < 0 || stage >= abi.TexNumStages {
		return 0, false
	}
	s := &d.Stages[stage]
	switch {
	case addr == abi.DCRTexAddr:
		return s.Addr, true
	case addr == abi.DCRTexLogDim:
		return s.LogDim, true
	case addr == abi.DCRTexFormat:
		return s.Format, true
	case addr == abi.DCRTexFilter:
		return s.Filter, true
	case addr == abi.DCRTexWrap:
		return s.Wrap, true
	case addr >= abi.DCRTexMipOff0 && addr < abi.DCRTexMipOff0+abi.TexMaxLevels:
		return s.MipOff[addr-abi.DCRTexMipOff0], true
	case addr == abi.DCRTexBorder:
		return s.Border, true
	}
	return 0, true
}
