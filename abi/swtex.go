package abi

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Software texture descriptor (gfx_sw_texstate_t): one entry of the resident
// descriptor table the software sampler reads from device memory (the FS arg block's
// slot 1, or a compute/vertex kernel's own slot). One fixed-size entry per sampled
// texture: a 64-byte header (image shape, view and sampler words) followed by 16
// level records. spec: vortexpipe-driver §2.5 (arg slot 1 "the resident SW-sampler
// descriptors"), §3.6 (gfx_sw_texstate_t)
//
//	off   size  field
//	0x00  u8    target (SWTexTarget)
//	0x01  u8    format (SWTexFormat)
//	0x02  u8    levels present, 1..16
//	0x03  u8    samples per texel, 1 or 4 (4: sample-major, texel (y·w+x)·4+k)
//	0x04  u32   width of level 0 (texels, 1..32768; a buffer texture 1..2^27)
//	0x08  u32   height of level 0
//	0x0C  u32   slices of level 0: 3D depth, array layers, 6·cubes, else 1
//	0x10  u32   view: base level [3:0], max level [7:4], swizzle R/G/B/A [10:8] [13:11] [16:14] [19:17]
//	0x14  u32   filter: min [0], mag [1], mip [3:2], compare enable [4], compare func [7:5]
//	            (CompareFunc), cube seamless [8], unnormalized (RECT) [9]
//	0x18  u32   wrap: S [3:0], T [7:4], R [11:8] (TexWrap codes 0..7: the FF modes, mirror-clamp-to-edge 4 and the SW-only 5..7)
//	0x1C  f32   LOD bias
//	0x20  f32   min LOD
//	0x24  f32   max LOD
//	0x28  f32   max anisotropy (≤ 1: isotropic)
//	0x2C  u32   reserved, 0
//	0x30  u32×4 border colour: float bits for float/unorm/depth formats, integers for integer formats
//	0x40  16 × {u64 address, u32 row pitch, u32 slice pitch} per level (only `levels` used)
//
// Level n's size is level 0's halved n times (at least 1; the height of 1D
// targets and the slices of non-3D targets do not shrink); texel (x, y, z) of a
// level, sample k, starts at address + z·slice pitch + y·row pitch + (x·samples+k)·bytes.
// A zero pitch means tightly packed. Bits and bytes not listed are reserved and must
// be zero.
const (
	SWTexDescBytes   = 0x140
	SWTexHeaderBytes = 0x40
	SWTexLevelBytes  = 16
	SWTexMaxLevels   = 16
	SWTexMaxDim      = 1 << 15
	// SWTexMaxBufferTexels is a buffer texture's width limit
	// (GL_MAX_TEXTURE_BUFFER_SIZE; gl/sampler.MaxBufferTexels).
	SWTexMaxBufferTexels = 1 << 27
)

// SWTexTarget is the dimensionality of a software-sampled texture.
// spec: vortexpipe-driver §3.6 (1D, 2D/RECT, 3D, cube, arrays rows)
type SWTexTarget uint8

// Targets. A rectangle texture is SWTex2D with the unnormalized filter bit.
const (
	SWTex1D SWTexTarget = iota + 1
	SWTex2D
	SWTex3D
	SWTexCube
	SWTex1DArray
	SWTex2DArray
	SWTexCubeArray
	// SWTexBuffer is a buffer texture: one level of width texels, height,
	// slices and samples 1, read by texelFetch and textureSize only (GL 4.6
	// §8.9).
	SWTexBuffer
)

var swTexTargetNames = [...]string{"", "1D", "2D", "3D", "cube", "1D-array", "2D-array", "cube-array", "buffer"}

// Valid reports whether t is a defined target.
func (t SWTexTarget) Valid() bool { return t >= SWTex1D && t <= SWTexBuffer }

// String names the target.
func (t SWTexTarget) String() string {
	if !t.Valid() {
		return fmt.Sprintf("target(%d)", uint8(t))
	}
	return swTexTargetNames[t]
}

// SWTexFormat is the texel format code of a software-sampled texture. It is its
// own code space (the TEX_FORMAT codes have no integer, stencil or snorm formats).
// spec: vortexpipe-driver §3.6 (integer, float, depth and other colour format rows)
type SWTexFormat uint8

// The software-sampled formats. Multi-byte components are little-endian; RGBA
// order is the lowest address first except BGRA8; D24S8 is one word with depth in
// [31:8] and stencil in [7:0].
const (
	SWTexRGBA8 SWTexFormat = iota + 1
	SWTexBGRA8
	SWTexSRGB8A8
	SWTexR8
	SWTexRG8
	SWTexRGBA16F
	SWTexR32F
	SWTexRG32F
	SWTexRGBA32F
	SWTexRGBA8I
	SWTexRGBA8UI
	SWTexR32I
	SWTexR32UI
	SWTexD16
	SWTexD24S8
	SWTexD32F
	SWTexS8
	SWTexRGBA8SNorm
	SWTexRGBA16
	SWTexR16F
	SWTexRG16F
	SWTexRGBA16I
	SWTexRGBA16UI
	SWTexRG32I
	SWTexRG32UI
	SWTexRGBA32I
	SWTexRGBA32UI
	numSWTexFormats
)

var swTexFormatInfo = [numSWTexFormats]struct {
	name  string
	bytes int
}{
	{"", 0}, {"RGBA8", 4}, {"BGRA8", 4}, {"SRGB8_A8", 4}, {"R8", 1}, {"RG8", 2},
	{"RGBA16F", 8}, {"R32F", 4}, {"RG32F", 8}, {"RGBA32F", 16}, {"RGBA8I", 4},
	{"RGBA8UI", 4}, {"R32I", 4}, {"R32UI", 4}, {"D16", 2}, {"D24S8", 4}, {"D32F", 4},
	{"S8", 1}, {"RGBA8_SNORM", 4}, {"RGBA16", 8}, {"R16F", 2}, {"RG16F", 4},
	{"RGBA16I", 8}, {"RGBA16UI", 8}, {"RG32I", 8}, {"RG32UI", 8}, {"RGBA32I", 16},
	{"RGBA32UI", 16},
}

// Valid reports whether f is a defined format.
func (f SWTexFormat) Valid() bool { return f > 0 && f < numSWTexFormats }

// Bytes is the texel size (0 for an undefined format).
func (f SWTexFormat) Bytes() int {
	if !f.Valid() {
		return 0
	}
	return swTexFormatInfo[f].bytes
}

// String names the format.
func (f SWTexFormat) String() string {
	if !f.Valid() {
		return fmt.Sprintf("format(%d)", uint8(f))
	}
	return swTexFormatInfo[f].name
}

// SWTexSwizzle is the source of one component of a view: R, G, B, A, 0 or 1.
// spec: vortexpipe-driver §3.6 (View component swizzle row)
type SWTexSwizzle uint8

// Swizzle sources.
const (
	SWSwizzleR SWTexSwizzle = iota
	SWSwizzleG
	SWSwizzleB
	SWSwizzleA
	SWSwizzleZero
	SWSwizzleOne
)

// Wrap codes past the FF modes, decoded only by the software sampler (like
// WrapMirrorClamp, which is MIRROR_CLAMP_TO_EDGE): legacy GL_CLAMP (coordinate
// clamped to [0,1], linear blends the edge with the border) and the two
// EXT_texture_mirror_clamp modes, MIRROR_CLAMP (|s| then GL_CLAMP) and
// MIRROR_CLAMP_TO_BORDER.
// spec: vortexpipe-driver §3.6 (Mirror-clamp wraps row); docs/ABI.md row 10
const (
	WrapClampLegacy       TexWrap = 5
	WrapMirrorClampLegacy TexWrap = 6
	WrapMirrorClampBorder TexWrap = 7
)

// SWTexFilterMode is a min/mag filter bit: nearest or linear.
// spec: vortexpipe-driver §3.6 (Mipmap filter row)
type SWTexFilterMode uint8

// Min/mag filters.
const (
	SWFilterNearest SWTexFilterMode = 0
	SWFilterLinear  SWTexFilterMode = 1
)

// SWTexMipMode is the mip filter field.
// spec: vortexpipe-driver §3.6 (Mipmap filter row)
type SWTexMipMode uint8

// Mip filters: base level only, nearest level, linear between levels.
const (
	SWMipNone    SWTexMipMode = 0
	SWMipNearest SWTexMipMode = 1
	SWMipLinear  SWTexMipMode = 2
)

// SWTexLevel is one level record: where the level's texel 0 is and its pitches.
// spec: vortexpipe-driver §3.6 (NPOT, arrays: address and pitch per level)
type SWTexLevel struct {
	Addr       uint64
	RowPitch   uint32
	SlicePitch uint32
}

// SWTexDesc is a decoded software texture descriptor (see SWTexDescBytes).
// spec: vortexpipe-driver §3.6 (gfx_sw_texstate_t)
type SWTexDesc struct {
	Target               SWTexTarget
	Format               SWTexFormat
	Levels               uint8
	Samples              uint8
	Width, Height, Depth uint32
	BaseLevel, MaxLevel  uint8
	Swizzle              [4]SWTexSwizzle
	MinFilter, MagFilter SWTexFilterMode
	MipFilter            SWTexMipMode
	CompareEnable        bool
	Compare              CompareFunc
	CubeSeamless         bool
	Unnormalized         bool
	Wrap                 [3]TexWrap // S, T, R
	LODBias              float32
	MinLOD, MaxLOD       float32
	MaxAnisotropy        float32
	Border               [4]uint32
	Level                [SWTexMaxLevels]SWTexLevel
}

// ErrSWTexDesc is wrapped by every descriptor decode error.
var ErrSWTexDesc = errors.New("bad software texture descriptor")

// LevelSize returns the size of level n (width, height, slices) by the halving rule
// of the descriptor comment.
// spec: vortexpipe-driver §3.6 (NPOT mip chains)
func (d *SWTexDesc) LevelSize(n int) (w, h, slices uint32) {
	w, h, slices = max(d.Width>>n, 1), max(d.Height>>n, 1), d.Depth
	if d.Target == SWTex1D || d.Target == SWTex1DArray || d.Target == SWTexBuffer {
		h = d.Height
	}
	if d.Target == SWTex3D {
		slices = max(d.Depth>>n, 1)
	}
	return w, h, slices
}

// Put encodes d into b[0:SWTexDescBytes], zeroing the reserved bytes and the unused
// level records. It does not validate d (DecodeSWTexDesc does).
// spec: vortexpipe-driver §2.5 (the host writes the resident table)
func (d *SWTexDesc) Put(b []byte) {
	b = b[:SWTexDescBytes]
	clear(b)
	le := binary.LittleEndian
	b[0], b[1], b[2], b[3] = byte(d.Target), byte(d.Format), d.Levels, d.Samples
	le.PutUint32(b[0x04:], d.Width)
	le.PutUint32(b[0x08:], d.Height)
	le.PutUint32(b[0x0C:], d.Depth)
	view := uint32(d.BaseLevel&15) | uint32(d.MaxLevel&15)<<4
	for i, s := range d.Swizzle {
		view |= uint32(s&7) << (8 + 3*i)
	}
	le.PutUint32(b[0x10:], view)
	f := uint32(d.MinFilter&1) | uint32(d.MagFilter&1)<<1 | uint32(d.MipFilter&3)<<2 | uint32(d.Compare&7)<<5
	if d.CompareEnable {
		f |= 1 << 4
	}
	if d.CubeSeamless {
		f |= 1 << 8
	}
	if d.Unnormalized {
		f |= 1 << 9
	}
	le.PutUint32(b[0x14:], f)
	le.PutUint32(b[0x18:], uint32(d.Wrap[0]&15)|uint32(d.Wrap[1]&15)<<4|uint32(d.Wrap[2]&15)<<8)
	le.PutUint32(b[0x1C:], math.Float32bits(d.LODBias))
	le.PutUint32(b[0x20:], math.Float32bits(d.MinLOD))
	le.PutUint32(b[0x24:], math.Float32bits(d.MaxLOD))
	le.PutUint32(b[0x28:], math.Float32bits(d.MaxAnisotropy))
	for i, c := range d.Border {
		le.PutUint32(b[0x30+4*i:], c)
	}
	for i := 0; i < int(d.Levels) && i < SWTexMaxLevels; i++ {
		o := SWTexHeaderBytes + i*SWTexLevelBytes
		le.PutUint64(b[o:], d.Level[i].Addr)
		le.PutUint32(b[o+8:], d.Level[i].RowPitch)
		le.PutUint32(b[o+12:], d.Level[i].SlicePitch)
	}
}

// DecodeSWTexDesc decodes and validates one descriptor from b. A malformed
// descriptor returns an error wrapping ErrSWTexDesc that names the field; nothing
// it accepts can make a sampler index outside the extents the level records give
// (those extents are checked against memory by the sampler when it views them).
// spec: vortexpipe-driver §3.6; docs/CONVENTIONS.md (bad input is an error)
func DecodeSWTexDesc(b []byte) (SWTexDesc, error) {
	var d SWTexDesc
	bad := func(field string, v any) (SWTexDesc, error) {
		return SWTexDesc{}, fmt.Errorf("%w: %s = %v", ErrSWTexDesc, field, v)
	}
	if len(b) < SWTexDescBytes {
		return bad("length", len(b))
	}
	le := binary.LittleEndian
	d.Target, d.Format, d.Levels, d.Samples = SWTexTarget(b[0]), SWTexFormat(b[1]), b[2], b[3]
	d.Width, d.Height, d.Depth = le.Uint32(b[0x04:]), le.Uint32(b[0x08:]), le.Uint32(b[0x0C:])
	view, f, wrap := le.Uint32(b[0x10:]), le.Uint32(b[0x14:]), le.Uint32(b[0x18:])
	d.LODBias = math.Float32frombits(le.Uint32(b[0x1C:]))
	d.MinLOD = math.Float32frombits(le.Uint32(b[0x20:]))
	d.MaxLOD = math.Float32frombits(le.Uint32(b[0x24:]))
	d.MaxAnisotropy = math.Float32frombits(le.Uint32(b[0x28:]))
	for i := range d.Border {
		d.Border[i] = le.Uint32(b[0x30+4*i:])
	}
	switch {
	case !d.Target.Valid():
		return bad("target", b[0])
	case !d.Format.Valid():
		return bad("format", b[1])
	case d.Levels < 1 || d.Levels > SWTexMaxLevels:
		return bad("levels", d.Levels)
	case d.Samples == 0 || d.Samples > 16 || d.Samples&(d.Samples-1) != 0:
		// 1, 2, 4, 8 or 16: the standard counts (docs/ABI.md row 37).
		return bad("samples", d.Samples)
	case d.Samples > 1 && (d.Levels != 1 || d.Target != SWTex2D && d.Target != SWTex2DArray):
		return bad("samples (multisample needs a single-level 2D or 2D-array texture)", d.Samples)
	case d.Width < 1 || d.Width > SWTexMaxDim && (d.Target != SWTexBuffer || d.Width > SWTexMaxBufferTexels):
		return bad("width", d.Width)
	case d.Height < 1 || d.Height > SWTexMaxDim:
		return bad("height", d.Height)
	case d.Depth < 1 || d.Depth > SWTexMaxDim:
		return bad("depth", d.Depth)
	case view>>20 != 0:
		return bad("view reserved bits", fmt.Sprintf("0x%x", view))
	case f>>10 != 0 || f>>2&3 > uint32(SWMipLinear):
		return bad("filter", fmt.Sprintf("0x%x", f))
	case wrap>>12 != 0:
		return bad("wrap", fmt.Sprintf("0x%x", wrap))
	case le.Uint32(b[0x2C:]) != 0:
		return bad("reserved word 0x2C", le.Uint32(b[0x2C:]))
	}
	switch d.Target {
	case SWTex1D:
		if d.Height != 1 || d.Depth != 1 {
			return bad("height/depth of a 1D texture", fmt.Sprintf("%d/%d", d.Height, d.Depth))
		}
	case SWTexBuffer:
		if d.Height != 1 || d.Depth != 1 || d.Levels != 1 || d.Samples != 1 {
			return bad("height/depth/levels/samples of a buffer texture", fmt.Sprintf("%d/%d/%d/%d", d.Height, d.Depth, d.Levels, d.Samples))
		}
	case SWTex2D:
		if d.Depth != 1 {
			return bad("depth of a 2D texture", d.Depth)
		}
	case SWTex1DArray:
		if d.Height != 1 {
			return bad("height of a 1D array", d.Height)
		}
	case SWTexCube, SWTexCubeArray:
		if d.Width != d.Height || d.Depth%6 != 0 || d.Target == SWTexCube && d.Depth != 6 {
			return bad("size of a cube texture", fmt.Sprintf("%dx%dx%d", d.Width, d.Height, d.Depth))
		}
	}
	full := 1
	for m := max(d.Width, d.Height); m > 1; m >>= 1 {
		full++
	}
	if d.Target == SWTex3D {
		full = 1
		for m := max(d.Width, d.Height, d.Depth); m > 1; m >>= 1 {
			full++
		}
	}
	if int(d.Levels) > full {
		return bad("levels (more than the full chain)", d.Levels)
	}
	d.BaseLevel, d.MaxLevel = uint8(view&15), uint8(view>>4&15)
	for i := range d.Swizzle {
		s := SWTexSwizzle(view >> (8 + 3*i) & 7)
		if s > SWSwizzleOne {
			return bad(fmt.Sprintf("swizzle[%d]", i), s)
		}
		d.Swizzle[i] = s
	}
	d.MinFilter, d.MagFilter = SWTexFilterMode(f&1), SWTexFilterMode(f>>1&1)
	d.MipFilter = SWTexMipMode(f >> 2 & 3)
	d.CompareEnable, d.Compare = f>>4&1 != 0, CompareFunc(f>>5&7)
	d.CubeSeamless, d.Unnormalized = f>>8&1 != 0, f>>9&1 != 0
	for i := range d.Wrap {
		w := TexWrap(wrap >> (4 * i) & 15)
		if w > WrapMirrorClampBorder {
			return bad(fmt.Sprintf("wrap[%d]", i), w)
		}
		d.Wrap[i] = w
	}
	for _, v := range [...]struct {
		name string
		f    float32
	}{{"lod bias", d.LODBias}, {"min lod", d.MinLOD}, {"max lod", d.MaxLOD}, {"max anisotropy", d.MaxAnisotropy}} {
		if v.f != v.f {
			return bad(v.name, "NaN")
		}
	}
	for i := 0; i < SWTexMaxLevels; i++ {
		o := SWTexHeaderBytes + i*SWTexLevelBytes
		l := SWTexLevel{Addr: le.Uint64(b[o:]), RowPitch: le.Uint32(b[o+8:]), SlicePitch: le.Uint32(b[o+12:])}
		if i >= int(d.Levels) {
			if l != (SWTexLevel{}) {
				return bad(fmt.Sprintf("level[%d] (unused record not zero)", i), fmt.Sprintf("%+v", l))
			}
			continue
		}
		w, h, _ := d.LevelSize(i)
		row := uint64(w) * uint64(d.Samples) * uint64(d.Format.Bytes())
		if l.RowPitch != 0 && uint64(l.RowPitch) < row {
			return bad(fmt.Sprintf("level[%d] row pitch (below %d)", i, row), l.RowPitch)
		}
		if l.RowPitch != 0 {
			row = uint64(l.RowPitch)
		}
		if l.SlicePitch != 0 && uint64(l.SlicePitch) < row*uint64(h) {
			return bad(fmt.Sprintf("level[%d] slice pitch (below %d)", i, row*uint64(h)), l.SlicePitch)
		}
		d.Level[i] = l
	}
	return d, nil
}

// LevelExtent returns the bytes level n spans from its address: the end of its
// last texel under its pitches.
// spec: vortexpipe-driver §3.6
func (d *SWTexDesc) LevelExtent(n int) uint64 {
	w, h, s := d.LevelSize(n)
	texel := uint64(d.Samples) * uint64(d.Format.Bytes())
	row, slice := d.LevelPitches(n)
	return uint64(s-1)*slice + uint64(h-1)*row + uint64(w)*texel
}

// LevelPitches returns level n's row and slice pitch with zero pitches resolved to
// the tightly packed ones.
// spec: vortexpipe-driver §3.6
func (d *SWTexDesc) LevelPitches(n int) (row, slice uint64) {
	w, h, _ := d.LevelSize(n)
	row, slice = uint64(d.Level[n].RowPitch), uint64(d.Level[n].SlicePitch)
	if row == 0 {
		row = uint64(w) * uint64(d.Samples) * uint64(d.Format.Bytes())
	}
	if slice == 0 {
		slice = row * uint64(h)
	}
	return row, slice
}
