package abi

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

func swDesc2D() SWTexDesc {
	d := SWTexDesc{Target: SWTex2D, Format: SWTexRGBA8, Levels: 2, Samples: 1, Width: 5, Height: 3, Depth: 1,
		BaseLevel: 0, MaxLevel: 1, Swizzle: [4]SWTexSwizzle{SWSwizzleB, SWSwizzleG, SWSwizzleR, SWSwizzleOne},
		MinFilter: SWFilterLinear, MagFilter: SWFilterNearest, MipFilter: SWMipLinear,
		CompareEnable: true, Compare: CmpGEqual, CubeSeamless: true, Unnormalized: true,
		Wrap:    [3]TexWrap{WrapMirrorClamp, WrapBorder, WrapClampLegacy},
		LODBias: -0.5, MinLOD: -2, MaxLOD: 7.25, MaxAnisotropy: 16,
		Border: [4]uint32{math.Float32bits(0.25), 2, 3, 4}}
	d.Level[0] = SWTexLevel{Addr: 0x1_0000_0040, RowPitch: 32, SlicePitch: 0}
	d.Level[1] = SWTexLevel{Addr: 0x2000, RowPitch: 0, SlicePitch: 64}
	return d
}

// spec: vortexpipe-driver §2.5 (slot 1 SW-sampler descriptors), §3.6 (gfx_sw_texstate_t);
// the layout is the one on SWTexDescBytes.
func TestSWTexDescLayout(t *testing.T) {
	d := swDesc2D()
	b := make([]byte, SWTexDescBytes)
	for i := range b {
		b[i] = 0xEE // Put must zero reserved bytes
	}
	d.Put(b)
	le := binary.LittleEndian
	for _, tc := range []struct {
		name string
		off  int
		size int
		want uint64
	}{
		{"target", 0x00, 1, uint64(SWTex2D)},
		{"format", 0x01, 1, uint64(SWTexRGBA8)},
		{"levels", 0x02, 1, 2},
		{"samples", 0x03, 1, 1},
		{"width", 0x04, 4, 5},
		{"height", 0x08, 4, 3},
		{"depth", 0x0C, 4, 1},
		{"view: base 0, max 1, swizzle B G R 1", 0x10, 4, 0<<0 | 1<<4 | 2<<8 | 1<<11 | 0<<14 | 5<<17},
		{"filter: min lin, mag near, mip lin, cmp GEQUAL, seamless, unnorm", 0x14, 4, 1 | 0<<1 | 2<<2 | 1<<4 | 5<<5 | 1<<8 | 1<<9},
		{"wrap: mirror-clamp, border, legacy clamp", 0x18, 4, 4 | 3<<4 | 5<<8},
		{"lod bias", 0x1C, 4, uint64(math.Float32bits(-0.5))},
		{"min lod", 0x20, 4, uint64(math.Float32bits(-2))},
		{"max lod", 0x24, 4, uint64(math.Float32bits(7.25))},
		{"max anisotropy", 0x28, 4, uint64(math.Float32bits(16))},
		{"reserved", 0x2C, 4, 0},
		{"border r", 0x30, 4, uint64(math.Float32bits(0.25))},
		{"border a", 0x3C, 4, 4},
		{"level 0 address", 0x40, 8, 0x1_0000_0040},
		{"level 0 row pitch", 0x48, 4, 32},
		{"level 1 address", 0x50, 8, 0x2000},
		{"level 1 slice pitch", 0x5C, 4, 64},
		{"level 2 (unused) address", 0x60, 8, 0},
		{"last level record", SWTexDescBytes - 8, 8, 0},
	} {
		var got uint64
		switch tc.size {
		case 1:
			got = uint64(b[tc.off])
		case 4:
			got = uint64(le.Uint32(b[tc.off:]))
		case 8:
			got = le.Uint64(b[tc.off:])
		}
		if got != tc.want {
			t.Errorf("%s at 0x%X = 0x%X, want 0x%X", tc.name, tc.off, got, tc.want)
		}
	}
	back, err := DecodeSWTexDesc(b)
	if err != nil {
		t.Fatal(err)
	}
	if back != d {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, d)
	}
	if SWTexHeaderBytes+SWTexMaxLevels*SWTexLevelBytes != SWTexDescBytes {
		t.Error("descriptor size does not hold the header and 16 level records")
	}
}

// spec: the format and target code tables on SWTexFormat / SWTexTarget (docs/ABI.md)
func TestSWTexCodes(t *testing.T) {
	for _, tc := range []struct {
		f     SWTexFormat
		name  string
		bytes int
	}{
		{SWTexRGBA8, "RGBA8", 4}, {SWTexBGRA8, "BGRA8", 4}, {SWTexSRGB8A8, "SRGB8_A8", 4},
		{SWTexR8, "R8", 1}, {SWTexRG8, "RG8", 2}, {SWTexRGBA16F, "RGBA16F", 8}, {SWTexR32F, "R32F", 4},
		{SWTexRG32F, "RG32F", 8}, {SWTexRGBA32F, "RGBA32F", 16}, {SWTexRGBA8I, "RGBA8I", 4},
		{SWTexRGBA8UI, "RGBA8UI", 4}, {SWTexR32I, "R32I", 4}, {SWTexR32UI, "R32UI", 4},
		{SWTexD16, "D16", 2}, {SWTexD24S8, "D24S8", 4}, {SWTexD32F, "D32F", 4}, {SWTexS8, "S8", 1},
		{SWTexRGBA8SNorm, "RGBA8_SNORM", 4}, {SWTexRGBA16, "RGBA16", 8}, {SWTexR16F, "R16F", 2},
		{SWTexRG16F, "RG16F", 4}, {SWTexRGBA16I, "RGBA16I", 8}, {SWTexRGBA16UI, "RGBA16UI", 8},
		{SWTexRG32I, "RG32I", 8}, {SWTexRG32UI, "RG32UI", 8}, {SWTexRGBA32I, "RGBA32I", 16},
		{SWTexRGBA32UI, "RGBA32UI", 16},
	} {
		if !tc.f.Valid() || tc.f.String() != tc.name || tc.f.Bytes() != tc.bytes {
			t.Errorf("format %d = %v (%d bytes), want %s (%d)", tc.f, tc.f, tc.f.Bytes(), tc.name, tc.bytes)
		}
	}
	if SWTexRGBA8 != 1 || SWTexRGBA32UI != 27 || SWTexFormat(0).Valid() || SWTexFormat(28).Valid() {
		t.Error("format code range is 1..27")
	}
	if SWTex1D != 1 || SWTexCubeArray != 7 || SWTexBuffer != 8 || SWTexTarget(9).Valid() {
		t.Error("target code range is 1..8 (8: buffer)")
	}
	if WrapMirrorClamp != 4 || WrapClampLegacy != 5 || WrapMirrorClampLegacy != 6 || WrapMirrorClampBorder != 7 {
		t.Error("SW wrap codes extend TEX_WRAP with 4 mirror-clamp-to-edge, 5 legacy clamp, 6 mirror clamp, 7 mirror-clamp-to-border")
	}
}

// spec: a bad descriptor is an error naming the field (docs/CONVENTIONS.md).
func TestSWTexDescDecodeErrors(t *testing.T) {
	good := swDesc2D()
	for _, tc := range []struct {
		field string
		edit  func(b []byte)
	}{
		{"length", nil},
		{"target", func(b []byte) { b[0] = 9 }},
		{"format", func(b []byte) { b[1] = 0 }},
		{"levels", func(b []byte) { b[2] = 0 }},
		{"levels (more than the full chain)", func(b []byte) { b[2] = 4 }},
		{"samples", func(b []byte) { b[3] = 3 }},
		{"samples", func(b []byte) { b[3] = 32 }},
		{"samples (multisample", func(b []byte) { b[3] = 4 }},
		{"samples (multisample", func(b []byte) { b[3] = 16 }},
		{"width", func(b []byte) { binary.LittleEndian.PutUint32(b[4:], 0) }},
		{"height", func(b []byte) { binary.LittleEndian.PutUint32(b[8:], 1<<16) }},
		{"depth of a 2D texture", func(b []byte) { binary.LittleEndian.PutUint32(b[12:], 2) }},
		{"view reserved bits", func(b []byte) { b[0x12] |= 0x10 }},
		{"swizzle[1]", func(b []byte) { b[0x11] |= 7 << 3 }},
		{"filter", func(b []byte) { b[0x14] = 3 << 2 }},
		{"wrap[1]", func(b []byte) { b[0x18] = 0x80 }},
		{"reserved word 0x2C", func(b []byte) { b[0x2C] = 1 }},
		{"max lod", func(b []byte) { binary.LittleEndian.PutUint32(b[0x24:], 0x7FC00000) }},
		{"level[0] row pitch", func(b []byte) { binary.LittleEndian.PutUint32(b[0x48:], 19) }},
		{"level[1] slice pitch", func(b []byte) { binary.LittleEndian.PutUint32(b[0x5C:], 7) }},
		{"level[2] (unused record not zero)", func(b []byte) { b[0x60] = 1 }},
	} {
		b := make([]byte, SWTexDescBytes)
		good.Put(b)
		if tc.edit == nil {
			b = b[:SWTexDescBytes-1]
		} else {
			tc.edit(b)
		}
		_, err := DecodeSWTexDesc(b)
		if !errors.Is(err, ErrSWTexDesc) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: error %v", tc.field, err)
		}
	}
}

// spec: level sizes halve per level; 1D heights and array slices do not shrink.
func TestSWTexLevelGeometry(t *testing.T) {
	for _, tc := range []struct {
		name       string
		d          SWTexDesc
		level      int
		w, h, s    uint32
		row, slice uint64
		extent     uint64
	}{
		{"2D NPOT level 1", SWTexDesc{Target: SWTex2D, Format: SWTexRGBA8, Samples: 1, Width: 5, Height: 3, Depth: 1}, 1, 2, 1, 1, 8, 8, 8},
		{"3D level 1", SWTexDesc{Target: SWTex3D, Format: SWTexR8, Samples: 1, Width: 4, Height: 4, Depth: 8}, 1, 2, 2, 4, 2, 4, 16},
		{"2D array keeps layers", SWTexDesc{Target: SWTex2DArray, Format: SWTexRG8, Samples: 1, Width: 8, Height: 2, Depth: 3}, 2, 2, 1, 3, 4, 4, 12},
		{"1D array keeps height 1", SWTexDesc{Target: SWTex1DArray, Format: SWTexR32F, Samples: 1, Width: 8, Height: 1, Depth: 5}, 3, 1, 1, 5, 4, 4, 20},
		{"4x multisample row", SWTexDesc{Target: SWTex2D, Format: SWTexRGBA8, Samples: 4, Width: 3, Height: 2, Depth: 1}, 0, 3, 2, 1, 48, 96, 96},
		{"8x multisample row", SWTexDesc{Target: SWTex2D, Format: SWTexRGBA8, Samples: 8, Width: 3, Height: 2, Depth: 1}, 0, 3, 2, 1, 96, 192, 192},
	} {
		w, h, s := tc.d.LevelSize(tc.level)
		row, slice := tc.d.LevelPitches(tc.level)
		if w != tc.w || h != tc.h || s != tc.s || row != tc.row || slice != tc.slice || tc.d.LevelExtent(tc.level) != tc.extent {
			t.Errorf("%s: %dx%dx%d row %d slice %d extent %d", tc.name, w, h, s, row, slice, tc.d.LevelExtent(tc.level))
		}
	}
}

// FuzzSWTexDesc: any bytes decode without panicking, and an accepted descriptor
// re-encodes to bytes that decode to the same descriptor.
func FuzzSWTexDesc(f *testing.F) {
	d := swDesc2D()
	b := make([]byte, SWTexDescBytes)
	d.Put(b)
	f.Add(b)
	f.Add(make([]byte, SWTexDescBytes))
	f.Add(b[:10])
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := DecodeSWTexDesc(data)
		if err != nil {
			return
		}
		for i := 0; i < int(d.Levels); i++ {
			_ = d.LevelExtent(i)
		}
		out := make([]byte, SWTexDescBytes)
		d.Put(out)
		again, err := DecodeSWTexDesc(out)
		if err != nil || again != d {
			t.Fatalf("re-decode: %v\n%+v\n%+v", err, again, d)
		}
	})
}

// spec: a buffer texture's descriptor holds up to 2^27 texels in one level of
// height, slices and samples 1 (GL 4.6 §8.9); any other shape is refused.
func TestSWTexBufferDesc(t *testing.T) {
	d := SWTexDesc{Target: SWTexBuffer, Format: SWTexRGBA32F, Levels: 1, Samples: 1,
		Width: SWTexMaxBufferTexels, Height: 1, Depth: 1}
	d.Level[0] = SWTexLevel{Addr: 0x1000}
	b := make([]byte, SWTexDescBytes)
	d.Put(b)
	got, err := DecodeSWTexDesc(b)
	if err != nil || got.Width != SWTexMaxBufferTexels || got.Target != SWTexBuffer {
		t.Fatalf("decode: %+v, %v", got, err)
	}
	if w, h, s := got.LevelSize(0); w != SWTexMaxBufferTexels || h != 1 || s != 1 {
		t.Errorf("level 0 is %dx%dx%d", w, h, s)
	}
	for _, tc := range []struct {
		field string
		edit  func(d *SWTexDesc)
	}{
		{"width", func(d *SWTexDesc) { d.Width = SWTexMaxBufferTexels + 1 }},
		{"of a buffer texture", func(d *SWTexDesc) { d.Height = 2 }},
		{"of a buffer texture", func(d *SWTexDesc) { d.Levels = 2 }},
		{"width", func(d *SWTexDesc) { d.Target, d.Width = SWTex1D, SWTexMaxDim+1 }},
	} {
		e := d
		tc.edit(&e)
		e.Put(b)
		if _, err := DecodeSWTexDesc(b); !errors.Is(err, ErrSWTexDesc) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: error %v", tc.field, err)
		}
	}
}
