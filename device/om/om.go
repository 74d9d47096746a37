// Package om is the fixed-function output merger: D24S8 depth/stencil and
// A8R8G8B8 colour, the depth and two-sided stencil tests, blending with every
// factor and mode (incl. ALPHA_SAT and the logic ops), the write masks and the
// enable rules, in the exact arithmetic of the grxgpu generation.
//
// spec: vortex-hardware-facts §5; gfx_sw.h (om_sample_rmw, DoBlendFunc,
// DoBlendMode), gfx_ff_model.cpp (DepthTencil, Blender).
package om

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
)

// Memory is the device memory the unit reads and writes: one view per buffer.
type Memory interface {
	View(addr uint64, n int) ([]byte, error)
}

// RT is the per-render-target DCR bank (latched under RT_SELECT).
type RT struct {
	CBufAddr      uint32 // 64-byte block address
	CBufPitch     uint32 // bytes per row
	CBufWriteMask uint32 // bit0 B, bit1 G, bit2 R, bit3 A
	BlendMode     uint32 // rgb [15:0], alpha [31:16]
	BlendFunc     uint32 // src_rgb, src_a, dst_rgb, dst_a bytes
	BlendConst    uint32 // A8R8G8B8
	LogicOp       uint32
}

// State is the OM's raw DCR state. spec: facts §2 (OM 0x080–0x097)
type State struct {
	RT               [abi.OMMaxRT]RT
	RTSelect         uint32
	ZBufAddr         uint32
	ZBufPitch        uint32
	DepthFunc        uint32
	DepthWriteMask   uint32
	StencilFunc      uint32 // front [15:0], back [31:16]
	StencilZPass     uint32
	StencilZFail     uint32
	StencilFail      uint32
	StencilRef       uint32
	StencilMask      uint32
	StencilWriteMask uint32
	EarlyZSafe       uint32
	ApertureXBits    uint32
	ApertureYBits    uint32
	ApertureShift    uint32
	ApertureDepth    uint32
}

// Write latches one DCR write. It reports whether the address belongs to the OM.
func (s *State) Write(addr abi.DCR, v uint32) bool {
	if abi.UnitOf(addr) != abi.UnitOM {
		return false
	}
	rt := &s.RT[s.RTSelect%abi.OMMaxRT]
	switch addr {
	case abi.DCROMCBufAddr:
		rt.CBufAddr = v
	case abi.DCROMCBufPitch:
		rt.CBufPitch = v
	case abi.DCROMCBufWriteMask:
		rt.CBufWriteMask = v
	case abi.DCROMBlendMode:
		rt.BlendMode = v
	case abi.DCROMBlendFunc:
		rt.BlendFunc = v
	case abi.DCROMBlendConst:
		rt.BlendConst = v
	case abi.DCROMLogicOp:
		rt.LogicOp = v
	case abi.DCROMZBufAddr:
		s.ZBufAddr = v
	case abi.DCROMZBufPitch:
		s.ZBufPitch = v
	case abi.DCROMDepthFunc:
		s.DepthFunc = v
	case abi.DCROMDepthWriteMask:
		s.DepthWriteMask = v
	case abi.DCROMStencilFunc:
		s.StencilFunc = v
	case abi.DCROMStencilZPass:
		s.StencilZPass = v
	case abi.DCROMStencilZFail:
		s.StencilZFail = v
	case abi.DCROMStencilFail:
		s.StencilFail = v
	case abi.DCROMStencilRef:
		s.StencilRef = v
	case abi.DCROMStencilMask:
		s.StencilMask = v
	case abi.DCROMStencilWriteMask:
		s.StencilWriteMask = v
	case abi.DCROMEarlyZSafe:
		s.EarlyZSafe = v
	case abi.DCROMApertureXBits:
		s.ApertureXBits = v
	case abi.DCROMApertureYBits:
		s.ApertureYBits = v
	case abi.DCROMApertureRecordShift:
		s.ApertureShift = v
	case abi.DCROMApertureDepthOnly:
		s.ApertureDepth = v
	case abi.DCROMRTSelect:
		s.RTSelect = v
	}
	return true
}

// face is one face's resolved stencil state.
type face struct {
	fn                abi.CompareFunc
	zpass, zfail, fai abi.StencilOp
	ref, mask, wmask  uint32
	enabled           bool
}

// Unit is the OM bound to a framebuffer: resolved state plus one view of the
// colour buffer and (when depth or stencil is enabled) one of the depth buffer.
// Export is safe to call concurrently for different pixels.
type Unit struct {
	depthFunc    abi.CompareFunc
	depthEnabled bool
	depthWrite   bool
	faces        [2]face
	blendEnabled bool
	modeRGB      abi.BlendMode
	modeA        abi.BlendMode
	srcRGB, srcA abi.BlendFactor
	dstRGB, dstA abi.BlendFactor
	blendConst   uint32
	logicOp      abi.LogicOp
	wmask        uint32 // expanded byte mask
	colorRead    bool
	colorWrite   bool
	cbuf, zbuf   []byte
	cbase, zbase uint64 // device byte addresses of cbuf and zbuf
	cpitch       uint32
	zpitch       uint32
	width        int
	height       int
}

// Bind resolves the enable rules of render target rt and views its buffers for a
// width×height framebuffer. spec: facts §5 (enable rules), §9 item 11
func Bind(mem Memory, s *State, rt int, width, height int) (*Unit, error) {
	if rt < 0 || rt >= abi.OMMaxRT {
		return nil, fmt.Errorf("om: render target %d out of range", rt)
	}
	if width <= 0 || height <= 0 {
		return nil, fmt.Errorf("om: framebuffer %dx%d is empty", width, height)
	}
	r := s.RT[rt]
	u := &Unit{depthFunc: abi.CompareFunc(s.DepthFunc & 0xFFFF), width: width, height: height}
	u.depthWrite = s.DepthWriteMask&1 != 0
	u.depthEnabled = !(u.depthFunc == abi.CmpAlways && !u.depthWrite)
	for f := 0; f < 2; f++ {
		sh := uint(16 * f)
		fc := face{
			fn:    abi.CompareFunc(s.StencilFunc >> sh & 0xFFFF),
			zpass: abi.StencilOp(s.StencilZPass >> sh & 0xFFFF),
			zfail: abi.StencilOp(s.StencilZFail >> sh & 0xFFFF),
			fai:   abi.StencilOp(s.StencilFail >> sh & 0xFFFF),
			ref:   s.StencilRef >> sh & 0xFFFF,
			mask:  s.StencilMask >> sh & 0xFFFF,
			wmask: s.StencilWriteMask >> sh & 0xFFFF,
		}
		fc.enabled = !(fc.fn == abi.CmpAlways && fc.zpass == abi.StencilKeep && fc.zfail == abi.StencilKeep)
		u.faces[f] = fc
	}
	mr, ma := abi.UnpackHalves(r.BlendMode)
	u.modeRGB, u.modeA = abi.BlendMode(mr), abi.BlendMode(ma)
	u.srcRGB, u.srcA, u.dstRGB, u.dstA = abi.UnpackBlendFunc(r.BlendFunc)
	u.srcRGB, u.srcA, u.dstRGB, u.dstA = u.srcRGB&0xFF, u.srcA&0xFF, u.dstRGB&0xFF, u.dstA&0xFF
	u.blendEnabled = !(u.modeRGB == abi.BlendAdd && u.modeA == abi.BlendAdd &&
		u.srcRGB == abi.BlendOne && u.srcA == abi.BlendOne && u.dstRGB == abi.BlendZero && u.dstA == abi.BlendZero)
	u.blendConst, u.logicOp = r.BlendConst, abi.LogicOp(r.LogicOp)
	m4 := r.CBufWriteMask & 0xF
	u.wmask = abi.ExpandWriteMask(m4)
	u.colorRead, u.colorWrite = m4 != 0xF, m4 != 0
	if u.colorWrite {
		if r.CBufPitch < uint32(width)*4 {
			return nil, fmt.Errorf("om: colour pitch %d is below %d pixels", r.CBufPitch, width)
		}
		u.cpitch = r.CBufPitch
		n := int(r.CBufPitch)*(height-1) + width*4
		v, err := mem.View(abi.ByteAddr(r.CBufAddr), n)
		if err != nil {
			return nil, fmt.Errorf("om: colour buffer view at 0x%x (+%d): %w", abi.ByteAddr(r.CBufAddr), n, err)
		}
		u.cbuf, u.cbase = v, abi.ByteAddr(r.CBufAddr)
	}
	if u.depthEnabled || u.faces[0].enabled || u.faces[1].enabled {
		if s.ZBufPitch < uint32(width)*4 {
			return nil, fmt.Errorf("om: depth pitch %d is below %d pixels", s.ZBufPitch, width)
		}
		u.zpitch = s.ZBufPitch
		n := int(s.ZBufPitch)*(height-1) + width*4
		v, err := mem.View(abi.ByteAddr(s.ZBufAddr), n)
		if err != nil {
			return nil, fmt.Errorf("om: depth buffer view at 0x%x (+%d): %w", abi.ByteAddr(s.ZBufAddr), n, err)
		}
		u.zbuf, u.zbase = v, abi.ByteAddr(s.ZBufAddr)
	}
	return u, nil
}

// Export merges one fragment at (x, y): the stencil and depth tests, the stencil
// op, blending and the write masks. face is 1 for a back-facing fragment. It
// reports whether the fragment passed. Out-of-framebuffer fragments are dropped.
// spec: facts §5 (test sequence)
func (u *Unit) Export(x, y int, faceBack uint32, color, depth uint32) bool {
	var a Access
	return u.ExportAccess(x, y, faceBack, color, depth, &a)
}

// Access is the memory traffic of one exported fragment, for the performance
// model (CostModel): which of the depth/stencil and colour words were read and
// written, and their device byte addresses. spec: vortex-hardware-facts §5, §7
type Access struct {
	ZRead, CRead, ZWrite, CWrite bool
	ZAddr, CAddr                 uint64
}

// ExportAccess is Export that also reports the fragment's memory traffic in a
// (overwritten). spec: vortex-hardware-facts §5, §7
func (u *Unit) ExportAccess(x, y int, faceBack uint32, color, depth uint32, a *Access) bool {
	*a = Access{}
	if x < 0 || y < 0 || x >= u.width || y >= u.height {
		return false
	}
	f := &u.faces[faceBack&1]
	dsActive := u.depthEnabled || f.enabled
	var zoff, coff int
	var dst, dstColor uint32
	if dsActive {
		zoff = y*int(u.zpitch) + 4*x
		dst = binary.LittleEndian.Uint32(u.zbuf[zoff:])
		a.ZRead, a.ZAddr = true, u.zbase+uint64(zoff)
	}
	if u.colorWrite {
		coff = y*int(u.cpitch) + 4*x
		a.CAddr = u.cbase + uint64(coff)
		if u.colorRead || u.blendEnabled {
			dstColor = binary.LittleEndian.Uint32(u.cbuf[coff:])
			a.CRead = true
		}
	}
	pass := true
	var merged uint32
	if dsActive {
		depthRef := depth & abi.DepthMask
		sval := dst >> abi.StencilShift
		var op abi.StencilOp
		pass = f.fn.Test(f.ref&f.mask, sval&f.mask)
		if pass {
			pass = u.depthFunc.Test(depthRef, dst&abi.DepthMask)
			if pass {
				op = f.zpass
			} else {
				op = f.zfail
			}
		} else {
			op = f.fai
		}
		merged = uint32(op.Apply(uint8(f.ref), uint8(sval)))<<abi.StencilShift | depthRef
		var wm uint32
		if u.depthEnabled && pass && u.depthWrite {
			wm = abi.DepthMask
		}
		if f.enabled {
			wm |= f.wmask << abi.StencilShift
		}
		if wm != 0 {
			binary.LittleEndian.PutUint32(u.zbuf[zoff:], dst&^wm|merged&wm)
			a.ZWrite = true
		}
	}
	if u.colorWrite && pass {
		out := color
		if u.blendEnabled {
			out = u.Blend(color, dstColor)
		}
		binary.LittleEndian.PutUint32(u.cbuf[coff:], dstColor&^u.wmask|out&u.wmask)
		a.CWrite = true
	}
	return pass
}

// Blend combines a source and destination A8R8G8B8 colour with the bound factors
// and modes: RGB from the rgb mode and factors, alpha from the alpha ones.
// spec: facts §5 (blend factors and modes)
func (u *Unit) Blend(src, dst uint32) uint32 {
	s, d, c := unpack(src), unpack(dst), unpack(u.blendConst)
	rgb := blendMode(u.modeRGB, u.logicOp, src, dst, s, d, factor(u.srcRGB, s, d, c), factor(u.dstRGB, s, d, c))
	a := blendMode(u.modeA, u.logicOp, src, dst, s, d, factor(u.srcA, s, d, c), factor(u.dstA, s, d, c))
	return pack(argb{a[0], rgb[1], rgb[2], rgb[3]})
}

// argb is a colour as four channels in A, R, G, B order.
type argb [4]int32

func unpack(c uint32) argb {
	return argb{int32(c >> 24), int32(c >> 16 & 0xFF), int32(c >> 8 & 0xFF), int32(c & 0xFF)}
}

func pack(c argb) uint32 {
	return uint32(c[0]&0xFF)<<24 | uint32(c[1]&0xFF)<<16 | uint32(c[2]&0xFF)<<8 | uint32(c[3]&0xFF)
}

func splat(v int32) argb { return argb{v, v, v, v} }

func inv(c argb) argb { return argb{255 - c[0], 255 - c[1], 255 - c[2], 255 - c[3]} }

func factor(f abi.BlendFactor, s, d, c argb) argb {
	switch f {
	case abi.BlendZero:
		return argb{}
	case abi.BlendOne:
		return splat(255)
	case abi.BlendSrcRGB:
		return s
	case abi.BlendOneMinusSrcRGB:
		return inv(s)
	case abi.BlendDstRGB:
		return d
	case abi.BlendOneMinusDstRGB:
		return inv(d)
	case abi.BlendSrcA:
		return splat(s[0])
	case abi.BlendOneMinusSrcA:
		return splat(255 - s[0])
	case abi.BlendDstA:
		return splat(d[0])
	case abi.BlendOneMinusDstA:
		return splat(255 - d[0])
	case abi.BlendConstRGB:
		return c
	case abi.BlendOneMinusConstRGB:
		return inv(c)
	case abi.BlendConstA:
		return splat(c[0])
	case abi.BlendOneMinusConstA:
		return splat(255 - c[0])
	case abi.BlendAlphaSat:
		f := min(s[0], 255-d[0])
		return argb{255, f, f, f}
	}
	return argb{}
}

// div255 is cocogfx Div255: (x + (x >> 8)) >> 8.
func div255(x int32) int32 { return (x + x>>8) >> 8 }

func blendMode(m abi.BlendMode, lop abi.LogicOp, srcW, dstW uint32, s, d, fs, fd argb) argb {
	var o argb
	switch m {
	case abi.BlendAdd:
		for i := range o {
			o[i] = div255(min(s[i]*fs[i]+d[i]*fd[i]+0x80, 0xFF00))
		}
	case abi.BlendSub:
		for i := range o {
			o[i] = div255(max(s[i]*fs[i]-d[i]*fd[i]+0x80, 0))
		}
	case abi.BlendRevSub:
		for i := range o {
			o[i] = div255(max(d[i]*fd[i]-s[i]*fs[i]+0x80, 0))
		}
	case abi.BlendMin:
		for i := range o {
			o[i] = min(s[i], d[i])
		}
	case abi.BlendMax:
		for i := range o {
			o[i] = max(s[i], d[i])
		}
	case abi.BlendLogicOp:
		return unpack(lop.Apply(srcW, dstW))
	default:
		return s
	}
	return o
}

// EarlyZ is the depth state RASTER snoops for early-Z. spec: rasterizer §4, §7.5
type EarlyZ struct {
	Armed bool            // EARLYZ_SAFE set
	Func  abi.CompareFunc // OM_DEPTH_FUNC
	ZBuf  uint64          // byte address
	Pitch uint32
}

// Snoop extracts the early-Z view of the OM state.
func (s *State) Snoop() EarlyZ {
	return EarlyZ{Armed: s.EarlyZSafe&1 != 0, Func: abi.CompareFunc(s.DepthFunc & 0xFFFF),
		ZBuf: abi.ByteAddr(s.ZBufAddr), Pitch: s.ZBufPitch}
}

// Read returns OM register addr as render target rt sees it (the per-RT bank for
// the per-RT registers, the shared value otherwise); it reports false for an
// address outside the OM. spec: facts §2
func (s *State) Read(addr abi.DCR, rt int) (uint32, bool) {
	if abi.UnitOf(addr) != abi.UnitOM || rt < 0 || rt >= abi.OMMaxRT {
		return 0, false
	}
	r := &s.RT[rt]
	switch addr {
	case abi.DCROMCBufAddr:
		return r.CBufAddr, true
	case abi.DCROMCBufPitch:
		return r.CBufPitch, true
	case abi.DCROMCBufWriteMask:
		return r.CBufWriteMask, true
	case abi.DCROMBlendMode:
		return r.BlendMode, true
	case abi.DCROMBlendFunc:
		return r.BlendFunc, true
	case abi.DCROMBlendConst:
		return r.BlendConst, true
	case abi.DCROMLogicOp:
		return r.LogicOp, true
	case abi.DCROMZBufAddr:
		return s.ZBufAddr, true
	case abi.DCROMZBufPitch:
		return s.ZBufPitch, true
	case abi.DCROMDepthFunc:
		return s.DepthFunc, true
	case abi.DCROMDepthWriteMask:
		return s.DepthWriteMask, true
	case abi.DCROMStencilFunc:
		return s.StencilFunc, true
	case abi.DCROMStencilZPass:
		return s.StencilZPass, true
	case abi.DCROMStencilZFail:
		return s.StencilZFail, true
	case abi.DCROMStencilFail:
		return s.StencilFail, true
	case abi.DCROMStencilRef:
		return s.StencilRef, true
	case abi.DCROMStencilMask:
		return s.StencilMask, true
	case abi.DCROMStencilWriteMask:
		return s.StencilWriteMask, true
	case abi.DCROMEarlyZSafe:
		return s.EarlyZSafe, true
	case abi.DCROMApertureXBits:
		return s.ApertureXBits, true
	case abi.DCROMApertureYBits:
		return s.ApertureYBits, true
	case abi.DCROMApertureRecordShift:
		return s.ApertureShift, true
	case abi.DCROMApertureDepthOnly:
		return s.ApertureDepth, true
	case abi.DCROMRTSelect:
		return s.RTSelect, true
	}
	return 0, true
}
