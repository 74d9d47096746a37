package tex

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

// TestDecode pins the FF format expansions. spec: vortex-hardware-facts §4
func TestDecode(t *testing.T) {
	for _, c := range []struct {
		f    abi.TexFormat
		in   uint32
		want uint32
	}{
		{abi.TexA8R8G8B8, 0x12345678, 0x12345678},
		{abi.TexR5G6B5, 0xF800, 0xFFFF0000},
		{abi.TexR5G6B5, 0x07E0, 0xFF00FF00},
		{abi.TexR5G6B5, 0x001F, 0xFF0000FF},
		{abi.TexR5G6B5, 0x8410, 0xFF848284},
		{abi.TexA1R5G5B5, 0x8000, 0xFF000000},
		{abi.TexA1R5G5B5, 0x7C00, 0x00FF0000},
		{abi.TexA4R4G4B4, 0x1234, 0x11223344},
		{abi.TexA8L8, 0x80C0, 0x80C0C0C0},
		{abi.TexL8, 0x5A, 0xFF5A5A5A},
		{abi.TexA8, 0x5A, 0x5AFFFFFF},
	} {
		if got := Decode(c.f, c.in); got != c.want {
			t.Errorf("%v 0x%x → %08x, want %08x", c.f, c.in, got, c.want)
		}
	}
}

// TestWrap pins the wrap modes on S.23 coordinates.
func TestWrap(t *testing.T) {
	const one = 1 << 23
	for _, c := range []struct {
		w    abi.TexWrap
		in   int32
		want uint32
	}{
		{abi.WrapClamp, -5, 0},
		{abi.WrapClamp, one / 2, one / 2},
		{abi.WrapClamp, one, one - 1},
		{abi.WrapClamp, 3 * one, one - 1},
		{abi.WrapRepeat, one + 7, 7},
		{abi.WrapRepeat, -1, one - 1},
		{abi.WrapMirror, one + 7, one - 1 - 7},
		{abi.WrapMirror, 7, 7},
		{abi.WrapBorder, -5, 0},
	} {
		if got := wrap(c.in, c.w); got != c.want {
			t.Errorf("wrap %d of %d = %d, want %d", c.w, c.in, got, c.want)
		}
	}
}

// TestFilters: bilinear lerps with the /255 form, trilinear with /256.
func TestFilters(t *testing.T) {
	if got := FilterLinear([4]uint32{0xFF000000, 0xFFFFFFFF, 0xFF000000, 0xFFFFFFFF}, 128, 0); got != 0xFF808080 {
		t.Errorf("half lerp %08x", got)
	}
	if got := FilterLinear([4]uint32{0x00000000, 0x00000000, 0xFFFFFFFF, 0xFFFFFFFF}, 0, 255); got != 0xFFFFFFFF {
		t.Errorf("full lerp %08x", got)
	}
	if got := LodLerp(0x00000000, 0xFFFFFFFF, 128); got != 0x7F7F7F7F {
		t.Errorf("lod lerp %08x", got)
	}
	if got := LodLerp(0x10203040, 0xFFFFFFFF, 0); got != 0x10203040 {
		t.Errorf("lod lerp frac 0 %08x", got)
	}
}

// TestSample samples a 4×2 A8R8G8B8 texture: point picks texels, bilinear at a
// texel centre returns it, BORDER replaces out-of-range taps, trilinear blends
// two levels.
func TestSample(t *testing.T) {
	m := make(mem, 4096)
	texels := []uint32{0xFF000000, 0xFF111111, 0xFF222222, 0xFF333333, 0xFF444444, 0xFF555555, 0xFF666666, 0xFF777777}
	for i, v := range texels {
		binary.LittleEndian.PutUint32(m[1024+4*i:], v)
	}
	// level 1 (2×1) at +32, level 2 (1×1) at +40
	binary.LittleEndian.PutUint32(m[1024+32:], 0xFFAAAAAA)
	binary.LittleEndian.PutUint32(m[1024+36:], 0xFFBBBBBB)
	binary.LittleEndian.PutUint32(m[1024+40:], 0xFFCCCCCC)
	st := Stage{Addr: 1024 >> 6, LogDim: abi.PackTexLogDim(2, 1), Format: uint32(abi.TexA8R8G8B8),
		Wrap: abi.PackTexWrap(abi.WrapRepeat, abi.WrapRepeat), Border: 0x12345678}
	st.MipOff[1], st.MipOff[2] = 32, 40
	const one = 1 << 23
	s, err := Bind(m, st)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Sample(one/8*3, one/4*3, 0); got != 0xFF555555 {
		t.Errorf("point (1,1) %08x", got)
	}
	st.Filter = abi.TexFilterBilinear
	s, _ = Bind(m, st)
	if got := s.Sample(one/8*3, one/4*3, 0); got != 0xFF555555 {
		t.Errorf("bilinear at a texel centre %08x", got)
	}
	// Level 1 is 2×1: u = 3/8 falls a quarter texel right of texel 0's centre.
	if got := s.Sample(one/8*3, one/4*3, 1); got != FilterLinear([4]uint32{0xFFAAAAAA, 0xFFBBBBBB, 0xFFAAAAAA, 0xFFBBBBBB}, 64, 0) {
		t.Errorf("bilinear lod 1 %08x", got)
	}
	st.Wrap = abi.PackTexWrap(abi.WrapBorder, abi.WrapBorder)
	st.Filter = 0
	s, _ = Bind(m, st)
	if got := s.Sample(-1, one/2, 0); got != 0x12345678 {
		t.Errorf("border %08x", got)
	}
	st.Wrap = 0
	st.Filter = abi.TexFilterMipLinear
	s, _ = Bind(m, st)
	if got := s.Sample(0, 0, 1<<abi.TexLodFracBits|128); got != LodLerp(0xFFAAAAAA, 0xFFCCCCCC, 128) {
		t.Errorf("trilinear %08x", got)
	}
	var d DCRs
	d.Write(abi.DCRTexStage, 1)
	d.Write(abi.DCRTexMipOff(3), 99)
	d.Write(abi.DCRTexBorder, 7)
	if d.Stages[1].MipOff[3] != 99 || d.Stages[1].Border != 7 || d.Stages[0].MipOff[3] != 0 {
		t.Errorf("stage banks %+v", d.Stages)
	}
	if _, err := Bind(m, Stage{Format: 9}); err == nil {
		t.Error("SW-only format bound to the FF unit")
	}
	if _, err := Bind(m, Stage{Addr: 1 << 20, LogDim: abi.PackTexLogDim(4, 4)}); err == nil {
		t.Error("texture outside memory bound")
	}
}
