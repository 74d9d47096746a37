package swom

import (
	"encoding/binary"
	"fmt"
	"math"

	"vortexgfx/abi"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/logicop"
	"vortexgfx/gl/stencil"
)

// DescBytes is the size of the merger descriptor the FS wrapper reads from FS
// arg slot abi.ArgFSSWMerger (gfx_sw_omcolor_t[] and the shared state, as one
// little-endian record); its layout is abi.SWOM* (abi/swom.go).
// spec: vortexpipe §2.5, §3.7
const DescBytes = abi.SWOMDescBytes

// Marshal encodes the state as the device descriptor (DescBytes bytes).
func (s *State) Marshal() ([]byte, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	var e omEncoder
	b := make([]byte, DescBytes)
	w := func(i int, v uint32) { binary.LittleEndian.PutUint32(b[4*i:], v) }
	f := func(i int, v float32) { w(i, math.Float32bits(v)) }
	w(abi.SWOMWordMagic, abi.SWOMMagic)
	w(abi.SWOMWordSize, uint32(s.Width)|uint32(s.Height)<<16)
	w(abi.SWOMWordLayout, uint32(s.Samples)|uint32(s.NumTargets)<<8|uint32(s.DepthFormat)<<16)
	var fl uint32
	for _, f := range []struct {
		on  bool
		bit uint32
	}{{s.HasDS, abi.SWOMFlagHasDS}, {s.DepthTest, abi.SWOMFlagDepthTest}, {s.DepthWrite, abi.SWOMFlagDepthWrite},
		{s.StencilTest, abi.SWOMFlagStencilTest}, {s.DepthBounds, abi.SWOMFlagDepthBounds}, {s.DepthClamp, abi.SWOMFlagDepthClamp},
		{s.AlphaTest, abi.SWOMFlagAlphaTest}, {s.AlphaToCoverage, abi.SWOMFlagAlphaToCoverage}, {s.AlphaToOne, abi.SWOMFlagAlphaToOne},
		{s.LogicOpEnable, abi.SWOMFlagLogicOp}, {s.DualSource, abi.SWOMFlagDualSource}} {
		if f.on {
			fl |= f.bit
		}
	}
	w(abi.SWOMWordFlags, fl)
	w(abi.SWOMWordFuncs, e.compare(s.DepthFunc)|e.compare(s.AlphaFunc)<<8|e.logicOp(s.LogicOp)<<16)
	for k, fc := range []*Face{&s.Front, &s.Back} {
		w(abi.SWOMWordFrontStencil+2*k, e.compare(fc.Func)|e.stencilOp(fc.Fail)<<8|e.stencilOp(fc.ZFail)<<16|e.stencilOp(fc.ZPass)<<24)
		w(abi.SWOMWordFrontStencil+2*k+1, uint32(fc.Ref)|uint32(fc.ReadMask)<<8|uint32(fc.WriteMask)<<16)
	}
	f(abi.SWOMWordBoundsMin, s.BoundsMin)
	f(abi.SWOMWordBoundsMax, s.BoundsMax)
	f(abi.SWOMWordClampMin, s.ClampMin)
	f(abi.SWOMWordClampMax, s.ClampMax)
	f(abi.SWOMWordAlphaRef, s.AlphaRef)
	for c := range 4 {
		f(abi.SWOMWordConstant+c, s.Constant[c])
	}
	binary.LittleEndian.PutUint64(b[4*abi.SWOMWordDSAddr:], s.DSAddr)
	for i := 0; i < s.NumTargets; i++ {
		t := &s.Targets[i]
		bl := &t.Blend
		o := abi.SWOMTargetWord(i, 0)
		en := uint32(0)
		if bl.Enable {
			en = 1
		}
		w(o, uint32(t.Format)|uint32(bl.WriteMask&0xF)<<8|en<<12|e.equation(bl.EqRGB)<<16|e.equation(bl.EqA)<<24)
		w(o+1, e.swomFactor(bl.SrcRGB)|e.swomFactor(bl.SrcA)<<8|e.swomFactor(bl.DstRGB)<<16|e.swomFactor(bl.DstA)<<24)
		binary.LittleEndian.PutUint64(b[4*(o+2):], t.Addr)
	}
	if e.err != nil {
		return nil, e.err
	}
	return b, nil
}

// Unmarshal decodes a descriptor into s; a malformed one returns an error
// naming the word at fault (never a panic).
func (s *State) Unmarshal(b []byte) error {
	if len(b) < DescBytes {
		return fmt.Errorf("swom: descriptor of %d bytes, want %d", len(b), DescBytes)
	}
	r := func(i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	rf := func(i int) float32 { return math.Float32frombits(r(i)) }
	if m := r(abi.SWOMWordMagic); m != abi.SWOMMagic {
		return fmt.Errorf("swom: descriptor word %d: magic 0x%08x", abi.SWOMWordMagic, m)
	}
	*s = State{}
	s.Width, s.Height = int(r(abi.SWOMWordSize)&0xFFFF), int(r(abi.SWOMWordSize)>>16)
	w2 := r(abi.SWOMWordLayout)
	s.Samples, s.NumTargets, s.DepthFormat = int(w2&0xFF), int(w2>>8&0xFF), abi.OMDepthFormat(w2>>16)
	fl := r(abi.SWOMWordFlags)
	if fl&^abi.SWOMFlagsAll != 0 {
		return fmt.Errorf("swom: descriptor word %d: unknown flags 0x%x", abi.SWOMWordFlags, fl&^abi.SWOMFlagsAll)
	}
	on := func(bit uint32) bool { return fl&bit != 0 }
	s.HasDS, s.DepthTest, s.DepthWrite, s.StencilTest = on(abi.SWOMFlagHasDS), on(abi.SWOMFlagDepthTest), on(abi.SWOMFlagDepthWrite), on(abi.SWOMFlagStencilTest)
	s.DepthBounds, s.DepthClamp, s.AlphaTest = on(abi.SWOMFlagDepthBounds), on(abi.SWOMFlagDepthClamp), on(abi.SWOMFlagAlphaTest)
	s.AlphaToCoverage, s.AlphaToOne, s.LogicOpEnable, s.DualSource = on(abi.SWOMFlagAlphaToCoverage), on(abi.SWOMFlagAlphaToOne), on(abi.SWOMFlagLogicOp), on(abi.SWOMFlagDualSource)
	var d omDecoder
	d.word = abi.SWOMWordFuncs
	w4 := r(abi.SWOMWordFuncs)
	s.DepthFunc, s.AlphaFunc, s.LogicOp = d.compare(w4&0xFF), d.compare(w4>>8&0xFF), d.logicOp(w4>>16&0xFF)
	for k, fc := range []*Face{&s.Front, &s.Back} {
		d.word = abi.SWOMWordFrontStencil + 2*k
		a, c := r(abi.SWOMWordFrontStencil+2*k), r(abi.SWOMWordFrontStencil+2*k+1)
		fc.Func, fc.Fail, fc.ZFail, fc.ZPass = d.compare(a&0xFF), d.stencilOp(a>>8&0xFF), d.stencilOp(a>>16&0xFF), d.stencilOp(a>>24)
		fc.Ref, fc.ReadMask, fc.WriteMask = uint8(c), uint8(c>>8), uint8(c>>16)
	}
	s.BoundsMin, s.BoundsMax, s.ClampMin, s.ClampMax, s.AlphaRef = rf(abi.SWOMWordBoundsMin), rf(abi.SWOMWordBoundsMax), rf(abi.SWOMWordClampMin), rf(abi.SWOMWordClampMax), rf(abi.SWOMWordAlphaRef)
	for c := range 4 {
		s.Constant[c] = rf(abi.SWOMWordConstant + c)
	}
	s.DSAddr = binary.LittleEndian.Uint64(b[4*abi.SWOMWordDSAddr:])
	if s.NumTargets > MaxTargets {
		return fmt.Errorf("swom: descriptor word %d: %d colour targets (at most %d)", abi.SWOMWordLayout, s.NumTargets, MaxTargets)
	}
	for i := 0; i < s.NumTargets; i++ {
		o := abi.SWOMTargetWord(i, 0)
		a, c := r(o), r(o+1)
		t := &s.Targets[i]
		t.Format = format.Format(a & 0xFF)
		d.word = o
		t.Blend = Blend{Enable: a>>12&1 != 0, WriteMask: uint8(a >> 8 & 0xF), EqRGB: d.equation(a >> 16 & 0xFF), EqA: d.equation(a >> 24),
			SrcRGB: d.factor(c & 0xFF), SrcA: d.factor(c >> 8 & 0xFF), DstRGB: d.factor(c >> 16 & 0xFF), DstA: d.factor(c >> 24)}
		t.Addr = binary.LittleEndian.Uint64(b[4*(o+2):])
	}
	if d.err != nil {
		return d.err
	}
	if err := s.Check(); err != nil {
		return fmt.Errorf("swom: descriptor: %w", err)
	}
	return nil
}

// swomFactor is f's descriptor code (abi.SWOMFactor*).
func (e *omEncoder) swomFactor(f blend.Factor) uint32 {
	c, ok := f.SWOM()
	if !ok {
		e.fail("blend factor", f)
	}
	return uint32(c)
}

// omDecoder reads the OM codes of a descriptor back as GL enums, keeping
// the first undefined one (and the word it is in) as the error.
type omDecoder struct {
	word int
	err  error
}

func (d *omDecoder) fail(what string, c uint32) {
	if d.err == nil {
		d.err = fmt.Errorf("swom: descriptor word %d: %s code %d undefined", d.word, what, c)
	}
}

func (d *omDecoder) compare(c uint32) compare.Func {
	f, ok := compare.FromOM(abi.CompareFunc(c))
	if !ok {
		d.fail("compare function", c)
	}
	return f
}

func (d *omDecoder) stencilOp(c uint32) stencil.Op {
	op, ok := stencil.FromOM(abi.StencilOp(c))
	if !ok {
		d.fail("stencil op", c)
	}
	return op
}

func (d *omDecoder) logicOp(c uint32) logicop.Op {
	op, ok := logicop.FromOM(abi.LogicOp(c))
	if !ok {
		d.fail("logic op", c)
	}
	return op
}

func (d *omDecoder) equation(c uint32) blend.Equation {
	q, ok := blend.EquationFromOM(abi.BlendMode(c))
	if !ok {
		d.fail("blend equation", c)
	}
	return q
}

func (d *omDecoder) factor(c uint32) blend.Factor {
	f, ok := blend.FactorFromSWOM(abi.BlendFactor(c))
	if !ok {
		d.fail("blend factor", c)
	}
	return f
}
