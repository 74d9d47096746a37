package om

import (
	"encoding/binary"
	"fmt"
	"testing"

	"vortexgfx/abi"
)

type mem []byte

func (m mem) View(addr uint64, n int) ([]byte, error) {
	if n < 0 || addr > uint64(len(m)) || uint64(n) > uint64(len(m))-addr {
		return nil, fmt.Errorf("view [0x%x, +%d) outside %d bytes", addr, n, len(m))
	}
	return m[addr : addr+uint64(n)], nil
}

const (
	cAt = 0x400
	zAt = 0x800
)

func bind(t *testing.T, m mem, writes map[abi.DCR]uint32) *Unit {
	t.Helper()
	s := &State{}
	base := map[abi.DCR]uint32{
		abi.DCROMCBufAddr: cAt >> 6, abi.DCROMCBufPitch: 16, abi.DCROMCBufWriteMask: 0xF,
		abi.DCROMZBufAddr: zAt >> 6, abi.DCROMZBufPitch: 16,
		abi.DCROMBlendFunc: abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendZero, abi.BlendZero),
	}
	for a, v := range writes {
		base[a] = v
	}
	for a, v := range base {
		if !s.Write(a, v) {
			t.Fatalf("DCR 0x%x not an OM register", a)
		}
	}
	u, err := Bind(m, s, 0, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func word(m mem, at int) uint32 { return binary.LittleEndian.Uint32(m[at:]) }

// TestDepthStencil walks the test sequence. spec: vortex-hardware-facts §5
func TestDepthStencil(t *testing.T) {
	for _, c := range []struct {
		name        string
		w           map[abi.DCR]uint32
		face        uint32
		stored      uint32
		depth       uint32
		pass        bool
		wantZ       uint32
		wantColored bool
	}{
		{"less passes", map[abi.DCR]uint32{abi.DCROMDepthFunc: uint32(abi.CmpLess), abi.DCROMDepthWriteMask: 1}, 0, 0x00000100, 0x80, true, 0x00000080, true},
		{"less fails", map[abi.DCR]uint32{abi.DCROMDepthFunc: uint32(abi.CmpLess), abi.DCROMDepthWriteMask: 1}, 0, 0x00000100, 0x100, false, 0x00000100, false},
		{"no depth write", map[abi.DCR]uint32{abi.DCROMDepthFunc: uint32(abi.CmpLess)}, 0, 0x00000100, 0x80, true, 0x00000100, true},
		{"always+no write disables", map[abi.DCR]uint32{}, 0, 0x11000100, 0x80, true, 0x11000100, true},
		{"stencil replace on zpass", map[abi.DCR]uint32{
			abi.DCROMStencilFunc: uint32(abi.CmpAlways), abi.DCROMStencilZPass: uint32(abi.StencilReplace),
			abi.DCROMStencilRef: 0x42, abi.DCROMStencilMask: 0xFF, abi.DCROMStencilWriteMask: 0xFF}, 0, 0x00000100, 0x80, true, 0x42000100, true},
		{"back face uses the high half", map[abi.DCR]uint32{
			abi.DCROMStencilFunc: uint32(abi.CmpNever) << 16, abi.DCROMStencilFail: uint32(abi.StencilIncr) << 16,
			abi.DCROMStencilMask: 0xFF << 16, abi.DCROMStencilWriteMask: 0xFF << 16}, 1, 0x05000100, 0x80, false, 0x06000100, false},
		{"stencil equal fails then zero", map[abi.DCR]uint32{
			abi.DCROMStencilFunc: uint32(abi.CmpEqual), abi.DCROMStencilFail: uint32(abi.StencilZero), abi.DCROMStencilZPass: uint32(abi.StencilKeep),
			abi.DCROMStencilZFail: uint32(abi.StencilInvert), abi.DCROMStencilRef: 3, abi.DCROMStencilMask: 0xFF, abi.DCROMStencilWriteMask: 0x0F}, 0, 0xF5000100, 0x80, false, 0xF0000100, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := make(mem, 4096)
			binary.LittleEndian.PutUint32(m[zAt+16+4:], c.stored)
			binary.LittleEndian.PutUint32(m[cAt+16+4:], 0xFF000000)
			u := bind(t, m, c.w)
			if got := u.Export(1, 1, c.face, 0xFFABCDEF, c.depth); got != c.pass {
				t.Errorf("pass %v, want %v", got, c.pass)
			}
			if z := word(m, zAt+16+4); z != c.wantZ {
				t.Errorf("depth word %08x, want %08x", z, c.wantZ)
			}
			if col := word(m, cAt+16+4) == 0xFFABCDEF; col != c.wantColored {
				t.Errorf("colour written %v, want %v", col, c.wantColored)
			}
		})
	}
}

// TestBlend pins factors and modes. spec: vortex-hardware-facts §5
func TestBlend(t *testing.T) {
	for _, c := range []struct {
		name     string
		mode     uint32
		fn       uint32
		cst, lop uint32
		src, dst uint32
		want     uint32
	}{
		{"src alpha over", 0, abi.PackBlendFunc(abi.BlendSrcA, abi.BlendSrcA, abi.BlendOneMinusSrcA, abi.BlendOneMinusSrcA), 0, 0, 0xF3EBEBEB, 0xFF000000, 0xF4E0E0E0},
		{"additive saturates", 0, abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendOne, abi.BlendOne), 0, 0, 0x80C0C0C0, 0x80808080, 0xFFFFFFFF},
		{"subtract clamps", abi.PackHalves(uint32(abi.BlendSub), uint32(abi.BlendSub)), abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendOne, abi.BlendOne), 0, 0, 0x10102030, 0x20201010, 0x00001020},
		{"reverse subtract", abi.PackHalves(uint32(abi.BlendRevSub), uint32(abi.BlendRevSub)), abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendOne, abi.BlendOne), 0, 0, 0x10102030, 0x20201010, 0x10100000},
		{"min/max per half", abi.PackHalves(uint32(abi.BlendMin), uint32(abi.BlendMax)), 0, 0, 0, 0x10402030, 0x20301040, 0x20301030},
		{"logic xor", abi.PackHalves(uint32(abi.BlendLogicOp), uint32(abi.BlendLogicOp)), 0, 0, uint32(abi.LogicXor), 0xFF00FF00, 0x0F0F0F0F, 0xF00FF00F},
		{"alpha saturate", 0, abi.PackBlendFunc(abi.BlendAlphaSat, abi.BlendAlphaSat, abi.BlendZero, abi.BlendZero), 0, 0, 0x80FFFFFF, 0xC0000000, 0x803F3F3F},
		{"constant colour", 0, abi.PackBlendFunc(abi.BlendConstRGB, abi.BlendConstA, abi.BlendZero, abi.BlendZero), 0x80FF0000, 0, 0xFFFFFFFF, 0, 0x80FF0000},
		{"dst colour", 0, abi.PackBlendFunc(abi.BlendDstRGB, abi.BlendDstA, abi.BlendZero, abi.BlendZero), 0, 0, 0xFFFFFFFF, 0x40102030, 0x40102030},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := make(mem, 4096)
			binary.LittleEndian.PutUint32(m[cAt:], c.dst)
			u := bind(t, m, map[abi.DCR]uint32{abi.DCROMBlendMode: c.mode, abi.DCROMBlendFunc: c.fn,
				abi.DCROMBlendConst: c.cst, abi.DCROMLogicOp: c.lop})
			u.Export(0, 0, 0, c.src, 0)
			if got := word(m, cAt); got != c.want {
				t.Errorf("got %08x, want %08x", got, c.want)
			}
		})
	}
}

// TestWriteMask merges colour under the expanded 4-bit mask (bit0 = B … bit3 = A).
func TestWriteMask(t *testing.T) {
	m := make(mem, 4096)
	binary.LittleEndian.PutUint32(m[cAt:], 0x11223344)
	u := bind(t, m, map[abi.DCR]uint32{abi.DCROMCBufWriteMask: 0b0101})
	u.Export(0, 0, 0, 0xAABBCCDD, 0)
	if got := word(m, cAt); got != 0x11BB33DD {
		t.Errorf("masked write %08x", got)
	}
	u = bind(t, m, map[abi.DCR]uint32{abi.DCROMCBufWriteMask: 0})
	if u.cbuf != nil {
		t.Error("colour view taken with a zero write mask")
	}
	if u.Export(9, 0, 0, 0, 0) {
		t.Error("out-of-framebuffer fragment passed")
	}
	s := &State{}
	s.Write(abi.DCROMRTSelect, 2)
	s.Write(abi.DCROMCBufPitch, 64)
	s.Write(abi.DCROMZBufPitch, 32)
	if s.RT[2].CBufPitch != 64 || s.RT[0].CBufPitch != 0 || s.ZBufPitch != 32 {
		t.Errorf("per-RT banking %+v", s)
	}
	if _, err := Bind(m, &State{RT: [abi.OMMaxRT]RT{{CBufAddr: 1 << 20, CBufPitch: 16, CBufWriteMask: 0xF}}}, 0, 4, 4); err == nil {
		t.Error("colour buffer outside memory bound")
	}
}
