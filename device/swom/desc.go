package swom

import (
	"encoding/binary"
	"fmt"
	"math"

	"vortexgfx/abi"
	"vortexgfx/ref/format"
)

// DescBytes is the size of the merger descriptor the FS wrapper reads from FS
// arg slot abi.ArgFSSWMerger (gfx_sw_omcolor_t[] and the shared state, as one
// little-endian record):
//
//	word 0      magic "SWOM" (0x4D4F5753)
//	word 1      width | height<<16
//	word 2      samples | targets<<8 | depth format<<16
//	word 3      flags (descFlag*)
//	word 4      depth func | alpha func<<8 | logic op<<16
//	words 5-6   front stencil {func, fail, zfail, zpass} bytes, {ref, read mask, write mask} bytes
//	words 7-8   back stencil, the same
//	words 9-14  bounds min, bounds max, clamp min, clamp max, alpha ref (f32), reserved 0
//	words 15-18 blend constant RGBA (f32)
//	words 19-20 depth/stencil plane address (u64)
//	then per target (MaxTargets of them, 4 words each):
//	            format | write mask<<8 | blend enable<<12 | eq rgb<<16 | eq alpha<<24,
//	            src rgb | src alpha<<8 | dst rgb<<16 | dst alpha<<24,
//	            plane address (u64)
const DescBytes = 4 * (descTargets + 4*MaxTargets)

const (
	descMagic   = 0x4D4F5753
	descTargets = 21
)

// The flag bits of descriptor word 3.
const (
	descHasDS = 1 << iota
	descDepthTest
	descDepthWrite
	descStencilTest
	descDepthBounds
	descDepthClamp
	descAlphaTest
	descA2C
	descA2One
	descLogicOp
	descDualSource
	descAllFlags = 1<<iota - 1
)

// Marshal encodes the state as the device descriptor (DescBytes bytes).
func (s *State) Marshal() ([]byte, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	b := make([]byte, DescBytes)
	w := func(i int, v uint32) { binary.LittleEndian.PutUint32(b[4*i:], v) }
	f := func(i int, v float32) { w(i, math.Float32bits(v)) }
	w(0, descMagic)
	w(1, uint32(s.Width)|uint32(s.Height)<<16)
	w(2, uint32(s.Samples)|uint32(s.NumTargets)<<8|uint32(s.DepthFormat)<<16)
	var fl uint32
	for i, on := range []bool{s.HasDS, s.DepthTest, s.DepthWrite, s.StencilTest, s.DepthBounds, s.DepthClamp,
		s.AlphaTest, s.AlphaToCoverage, s.AlphaToOne, s.LogicOpEnable, s.DualSource} {
		if on {
			fl |= 1 << i
		}
	}
	w(3, fl)
	w(4, uint32(s.DepthFunc)|uint32(s.AlphaFunc)<<8|uint32(s.LogicOp)<<16)
	for k, fc := range []*Face{&s.Front, &s.Back} {
		w(5+2*k, uint32(fc.Func)|uint32(fc.Fail)<<8|uint32(fc.ZFail)<<16|uint32(fc.ZPass)<<24)
		w(6+2*k, uint32(fc.Ref)|uint32(fc.ReadMask)<<8|uint32(fc.WriteMask)<<16)
	}
	f(9, s.BoundsMin)
	f(10, s.BoundsMax)
	f(11, s.ClampMin)
	f(12, s.ClampMax)
	f(13, s.AlphaRef)
	for c := range 4 {
		f(15+c, s.Constant[c])
	}
	binary.LittleEndian.PutUint64(b[4*19:], s.DSAddr)
	for i := 0; i < s.NumTargets; i++ {
		t := &s.Targets[i]
		bl := &t.Blend
		o := descTargets + 4*i
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
	if m := r(0); m != descMagic {
		return fmt.Errorf("swom: descriptor word 0: magic 0x%08x", m)
	}
	*s = State{}
	s.Width, s.Height = int(r(1)&0xFFFF), int(r(1)>>16)
	w2 := r(2)
	s.Samples, s.NumTargets, s.DepthFormat = int(w2&0xFF), int(w2>>8&0xFF), abi.OMDepthFormat(w2>>16)
	fl := r(3)
	if fl&^descAllFlags != 0 {
		return fmt.Errorf("swom: descriptor word 3: unknown flags 0x%x", fl&^descAllFlags)
	}
	on := func(bit uint32) bool { return fl&bit != 0 }
	s.HasDS, s.DepthTest, s.DepthWrite, s.StencilTest = on(descHasDS), on(descDepthTest), on(descDepthWrite), on(descStencilTest)
	s.DepthBounds, s.DepthClamp, s.AlphaTest = on(descDepthBounds), on(descDepthClamp), on(descAlphaTest)
	s.AlphaToCoverage, s.AlphaToOne, s.LogicOpEnable, s.DualSource = on(descA2C), on(descA2One), on(descLogicOp), on(descDualSource)
	w4 := r(4)
	s.DepthFunc, s.AlphaFunc, s.LogicOp = abi.CompareFunc(w4&0xFF), abi.CompareFunc(w4>>8&0xFF), abi.LogicOp(w4>>16&0xFF)
	for k, fc := range []*Face{&s.Front, &s.Back} {
		a, c := r(5+2*k), r(6+2*k)
		fc.Func, fc.Fail, fc.ZFail, fc.ZPass = abi.CompareFunc(a&0xFF), abi.StencilOp(a>>8&0xFF), abi.StencilOp(a>>16&0xFF), abi.StencilOp(a>>24)
		fc.Ref, fc.ReadMask, fc.WriteMask = uint8(c), uint8(c>>8), uint8(c>>16)
	}
	s.BoundsMin, s.BoundsMax, s.ClampMin, s.ClampMax, s.AlphaRef = rf(9), rf(10), rf(11), rf(12), rf(13)
	for c := range 4 {
		s.Constant[c] = rf(15 + c)
	}
	s.DSAddr = binary.LittleEndian.Uint64(b[4*19:])
	if s.NumTargets > MaxTargets {
		return fmt.Errorf("swom: descriptor word 2: %d colour targets (at most %d)", s.NumTargets, MaxTargets)
	}
	for i := 0; i < s.NumTargets; i++ {
		o := descTargets + 4*i
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
