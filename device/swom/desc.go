package swom

import (
	"encoding/binary"
	"fmt"
	"math"

	"vortexgfx/abi"
	"vortexgfx/gl/format"
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
	w(abi.SWOMWordFuncs, uint32(s.DepthFunc)|uint32(s.AlphaFunc)<<8|uint32(s.LogicOp)<<16)
	for k, fc := range []*Face{&s.Front, &s.Back} {
		w(abi.SWOMWordFrontStencil+2*k, uint32(fc.Func)|uint32(fc.Fail)<<8|uint32(fc.ZFail)<<16|uint32(fc.ZPass)<<24)
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
		w(o, uint32(t.Format)|uint32(bl.WriteMask&0xF)<<8|en<<12|uint32(bl.EqRGB)<<16|uint32(bl.EqA)<<24)
		w(o+1, uint32(bl.SrcRGB)|uint32(bl.SrcA)<<8|uint32(bl.DstRGB)<<16|uint32(bl.DstA)<<24)
		binary.LittleEndian.PutUint64(b[4*(o+2):], t.Addr)
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
	w4 := r(abi.SWOMWordFuncs)
	s.DepthFunc, s.AlphaFunc, s.LogicOp = abi.CompareFunc(w4&0xFF), abi.CompareFunc(w4>>8&0xFF), abi.LogicOp(w4>>16&0xFF)
	for k, fc := range []*Face{&s.Front, &s.Back} {
		a, c := r(abi.SWOMWordFrontStencil+2*k), r(abi.SWOMWordFrontStencil+2*k+1)
		fc.Func, fc.Fail, fc.ZFail, fc.ZPass = abi.CompareFunc(a&0xFF), abi.StencilOp(a>>8&0xFF), abi.StencilOp(a>>16&0xFF), abi.StencilOp(a>>24)
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
		t.Blend = Blend{Enable: a>>12&1 != 0, WriteMask: uint8(a >> 8 & 0xF), EqRGB: abi.BlendMode(a >> 16 & 0xFF), EqA: abi.BlendMode(a >> 24),
			SrcRGB: Factor(c), SrcA: Factor(c >> 8), DstRGB: Factor(c >> 16), DstA: Factor(c >> 24)}
		t.Addr = binary.LittleEndian.Uint64(b[4*(o+2):])
	}
	if err := s.Check(); err != nil {
		return fmt.Errorf("swom: descriptor: %w", err)
	}
	return nil
}
