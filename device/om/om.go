// Package om is the fixed-function output merger: D24S8 depth/stencil and
// A8R8G8B8 colour, the depth and two-sided stencil tests, blending with every
// factor and mode (incl. ALPHA_SAT and the logic ops), the write masks and the
// enable rules, in the exact arithmetic of the grxgpu generation.
//
// What the unit computes is GL's, so it decodes its DCR codes into the gl
// enums and runs the shared maths: compare functions (gl/compare), stencil
// ops (gl/stencil), logic ops (gl/logicop) and the unorm8 blend
// (gl/blend's Unorm8, whose Div255 rounding is the OM's own). What is the
// hardware's own stays here: the D24S8 word and its test sequence, the
// enable rules (decided on the raw codes), LOGICOP as a blend mode over the
// whole ARGB word, an undefined mode passing the source through and an
// undefined factor reading as zero.
//
// spec: vortex-hardware-facts §5; gfx_sw.h (om_sample_rmw, DoBlendFunc,
// DoBlendMode), gfx_ff_model.cpp (DepthTencil, Blender).
package om

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/logicop"
	"vortexgfx/gl/stencil"
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
	fn                compare.Func
	zpass, zfail, fai stencil.Op
	ref, mask, wmask  uint32
	enabled           bool
}

// half is how one half of the blend (RGB or alpha) is computed.
type half uint8

const (
	halfEquation half = iota // the blend function's equation and factors
	halfLogicOp              // LOGICOP: the logic op's result word
	halfSource               // an undefined mode: the source unchanged
)

// Unit is the OM bound to a framebuffer: resolved state plus one view of the
// colour buffer and (when depth or stencil is enabled) one of the depth buffer.
// Export is safe to call concurrently for different pixels.
type Unit struct {
	depthFunc    compare.Func
	depthEnabled bool
	depthWrite   bool
	faces        [2]face
	blendEnabled bool
	fn           blend.Func // the halves whose mode is an equation
	rgbHalf      half
	alphaHalf    half
	blendConst   uint32
	logicOp      logicop.Op
	wmask        uint32 // expanded byte mask
	colorRead    bool
	colorWrite   bool
	cbuf, zbuf   []byte
	cbase, zbase uint64 // device byte addresses of cbuf and zbuf
	cpitch       uint32
	zpitch       uint32
	width        int
	height       int
	// depthColor selects ExportAccess's specialised path for the commonest
	// state: a depth test, no stencil on either face, no blending and every
	// colour channel written (ExportDepthColor); depthPass is the depth
	// compare as a table (depthcolor.go).
	depthColor bool
	depthPass  uint8
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
	dfn := abi.CompareFunc(s.DepthFunc & 0xFFFF)
	u := &Unit{depthFunc: decodeCompare(dfn), width: width, height: height}
	u.depthWrite = s.DepthWriteMask&1 != 0
	u.depthEnabled = !(dfn == abi.CmpAlways && !u.depthWrite)
	for f := 0; f < 2; f++ {
		sh := uint(16 * f)
		fn := abi.CompareFunc(s.StencilFunc >> sh & 0xFFFF)
		zpass, zfail := abi.StencilOp(s.StencilZPass>>sh&0xFFFF), abi.StencilOp(s.StencilZFail>>sh&0xFFFF)
		fc := face{
			fn:    decodeCompare(fn),
			zpass: decodeStencilOp(zpass),
			zfail: decodeStencilOp(zfail),
			fai:   decodeStencilOp(abi.StencilOp(s.StencilFail >> sh & 0xFFFF)),
			ref:   s.StencilRef >> sh & 0xFFFF,
			mask:  s.StencilMask >> sh & 0xFFFF,
			wmask: s.StencilWriteMask >> sh & 0xFFFF,
		}
		fc.enabled = !(fn == abi.CmpAlways && zpass == abi.StencilKeep && zfail == abi.StencilKeep)
		u.faces[f] = fc
	}
	mr, ma := abi.UnpackHalves(r.BlendMode)
	modeRGB, modeA := abi.BlendMode(mr), abi.BlendMode(ma)
	srcRGB, srcA, dstRGB, dstA := abi.UnpackBlendFunc(r.BlendFunc)
	srcRGB, srcA, dstRGB, dstA = srcRGB&0xFF, srcA&0xFF, dstRGB&0xFF, dstA&0xFF
	u.blendEnabled = !(modeRGB == abi.BlendAdd && modeA == abi.BlendAdd &&
		srcRGB == abi.BlendOne && srcA == abi.BlendOne && dstRGB == abi.BlendZero && dstA == abi.BlendZero)
	u.fn.EqRGB, u.rgbHalf = decodeMode(modeRGB)
	u.fn.EqAlpha, u.alphaHalf = decodeMode(modeA)
	u.fn.SrcRGB, u.fn.SrcAlpha = decodeFactor(srcRGB), decodeFactor(srcA)
	u.fn.DstRGB, u.fn.DstAlpha = decodeFactor(dstRGB), decodeFactor(dstA)
	u.blendConst, u.logicOp = r.BlendConst, decodeLogicOp(abi.LogicOp(r.LogicOp))
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
	u.depthColor = u.depthEnabled && !u.faces[0].enabled && !u.faces[1].enabled && !u.blendEnabled &&
		u.colorWrite && !u.colorRead
	u.depthPass = passTable(u.depthFunc)
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
	if x < 0 || y < 0 || x >= u.width || y >= u.height {
		*a = Access{}
		return false
	}
	if u.depthColor {
		f, za, ca := u.ExportDepthColor(x, y, color, depth)
		*a = Access{ZRead: true, ZWrite: f&TrafficZWrite != 0, CWrite: f&TrafficCWrite != 0, ZAddr: za, CAddr: ca}
		return f&TrafficCWrite != 0
	}
	*a = Access{}
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
		var op stencil.Op
		pass = f.fn.TestUint(f.ref&f.mask, sval&f.mask)
		if pass {
			pass = u.depthFunc.TestUint(depthRef, dst&abi.DepthMask)
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
	s, d := rgba(src), rgba(dst)
	var eq, lop [4]uint8
	if u.rgbHalf == halfEquation || u.alphaHalf == halfEquation {
		eq = u.fn.Unorm8(s, [4]uint8{}, d, rgba(u.blendConst))
	}
	if u.rgbHalf == halfLogicOp || u.alphaHalf == halfLogicOp {
		lop = rgba(u.logicOp.Apply(src, dst))
	}
	pick := func(h half, c int) uint32 {
		switch h {
		case halfLogicOp:
			return uint32(lop[c])
		case halfSource:
			return uint32(s[c])
		}
		return uint32(eq[c])
	}
	return pick(u.alphaHalf, 3)<<24 | pick(u.rgbHalf, 0)<<16 | pick(u.rgbHalf, 1)<<8 | pick(u.rgbHalf, 2)
}

// rgba splits an A8R8G8B8 word into channels in R, G, B, A order.
func rgba(c uint32) [4]uint8 {
	return [4]uint8{uint8(c >> 16), uint8(c >> 8), uint8(c), uint8(c >> 24)}
}

// The decoders read a DCR code as the gl enum it encodes. The unit looks
// only at the bits that select one of the eight compare functions or
// stencil ops (sixteen logic ops); the enable rules are decided on the raw
// codes before decoding.

func decodeCompare(c abi.CompareFunc) compare.Func {
	f, _ := compare.FromOM(c & 7) // always defined
	return f
}

func decodeStencilOp(c abi.StencilOp) stencil.Op {
	op, _ := stencil.FromOM(c & 7) // always defined
	return op
}

func decodeLogicOp(c abi.LogicOp) logicop.Op {
	op, _ := logicop.FromOM(c & 15) // always defined
	return op
}

// decodeFactor reads an undefined factor code (15..255) as ZERO: the unit's
// factor is zero for it.
func decodeFactor(c abi.BlendFactor) blend.Factor {
	f, ok := blend.FactorFromOM(c)
	if !ok {
		return blend.Zero
	}
	return f
}

// decodeMode reads one half's BLEND_MODE: an equation, LOGICOP, or an
// undefined mode, which passes the source through.
func decodeMode(m abi.BlendMode) (blend.Equation, half) {
	if e, ok := blend.EquationFromOM(m); ok {
		return e, halfEquation
	}
	if m == abi.BlendLogicOp {
		return blend.Add, halfLogicOp
	}
	return blend.Add, halfSource
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
