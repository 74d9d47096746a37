// Package sampler is the GL texture sampler: textures of every
// dimensionality, the complete GL/Vulkan sampler state and a batch sampling
// entry point the shader side calls once per quad or batch of lanes. The
// reference renderer (ref/program) and the device's software sampler
// (device/swtex, over views of device memory) both run it, so the two sample
// exactly alike; its tests check it against the GL rules on their own. Its
// wrap, filter, mip-filter and swizzle enums are the only ones (the driver's
// sampler state uses them too), each with explicit mappings onto the TEX
// encodings (Wrap.TEX, and SWTex for the software sampler's descriptor).
//
// It is independent of the device's fixed-function TEX unit and of the
// software sampler the spec describes (spec: software-shader-backend "CPU texture sampling": a
// nearest/clamp sampler; none of those limits apply here) and follows the GL
// 4.6 sampling rules (§8.13-§8.14, §8.23) in plain float64 maths:
//
//   - wrap modes act on integer texel indices: repeat, mirrored repeat, clamp
//     to edge, clamp to border (the border colour is read like a texel),
//     mirror-clamp-to-edge, and legacy GL_CLAMP (coordinate clamped to
//     [0,1] first) with its EXT_texture_mirror_clamp forms MIRROR_CLAMP
//     (|s| then GL_CLAMP) and MIRROR_CLAMP_TO_BORDER (|s| clamped to
//     1 + 1/2N, the border outside) acting on the coordinate, as Mesa's
//     softpipe does;
//   - nearest takes floor(u), linear the 2x2 (2x2x2 for 3D) footprint at
//     floor(u-1/2) with weights frac(u-1/2); texels are converted to float
//     (sRGB decoded) before filtering;
//   - the level of detail is log2 of the larger derivative length in texels
//     of the base level, plus the sampler and shader biases, clamped to
//     [MinLOD, MaxLOD]; the magnification switch point c is 0.5 for a LINEAR
//     mag filter with a NEAREST_MIPMAP_* min filter and 0 otherwise;
//   - mip levels are chosen as GL specifies (nearest: ceil(lambda+1/2)-1;
//     linear: floor(lambda) and the next, blended by frac(lambda)), clamped to
//     the levels present;
//   - anisotropic filtering follows the EXT_texture_filter_anisotropic model:
//     with Px, Py the derivative lengths in texels, N = min(ceil(Pmax/Pmin),
//     MaxAnisotropy) samples at lambda = log2(Pmax/N) are taken at evenly
//     spaced points ((i+1/2)/N - 1/2) along the major derivative vector and
//     averaged with equal weights (1D, 2D and 2D-array textures; cube and 3D
//     textures filter isotropically);
//   - cube maps select the face by the largest-magnitude coordinate (ties
//     prefer x, then y) with GL's table 8.19; with CubeSeamless a filter
//     footprint crossing an edge reads the adjacent face (see seamless),
//     otherwise the face's wrap modes apply; array layers are
//     clamp(floor(layer+1/2));
//   - integer and stencil textures always filter NEAREST; depth textures
//     read (d,0,0,1), and with compare enabled (r,0,0,1) where r is the
//     compare result, linear filtering averaging the results;
//   - the view swizzle applies to the final value, border included;
//   - texelFetch outside the level or a missing level returns zero;
//   - Sampler.Unnormalized takes texel coordinates at the base level
//     (rectangle textures);
//   - OpQueryLod (textureQueryLod) reports the level a sample would access and
//     the clamped level of detail, both relative to the base level;
//   - multisample textures (Texture.Samples > 1) store a pixel's samples
//     next to each other (vortexpipe-driver §3.4.1) and are read by
//     OpFetchSample (txf_ms) only;
//   - levels may carry row and slice pitches and view any memory, so the
//     device's software sampler (device/swtex) runs this same code over views
//     of device memory.
package sampler

import (
	"errors"
	"fmt"

	"vortexgfx/gl/format"
)

// Dim is a texture's dimensionality.
type Dim uint8

// Texture dimensionalities.
const (
	Dim1D Dim = iota + 1
	Dim2D
	Dim3D
	DimCube
	Dim1DArray
	Dim2DArray
	DimCubeArray
	// DimBuffer is a buffer texture (GL 4.6 §8.9, GLSL 1.40 samplerBuffer): one
	// level of W texels in a buffer object's bytes, read only by texelFetch
	// and textureSize (OpFetch, OpSize).
	DimBuffer
)

// MaxBufferTexels is the texel count limit of a buffer texture
// (GL_MAX_TEXTURE_BUFFER_SIZE; GL asks for at least 65536, llvmpipe reports
// 2^27). Other dimensionalities stay within 1<<15 texels per axis.
const MaxBufferTexels = 1 << 27

// String names the dimensionality.
func (d Dim) String() string {
	switch d {
	case Dim1D:
		return "1D"
	case Dim2D:
		return "2D"
	case Dim3D:
		return "3D"
	case DimCube:
		return "cube"
	case Dim1DArray:
		return "1D-array"
	case Dim2DArray:
		return "2D-array"
	case DimCubeArray:
		return "cube-array"
	case DimBuffer:
		return "buffer"
	}
	return fmt.Sprintf("dim(%d)", uint8(d))
}

// Swizzle selects the source of one component of the texel a view returns.
type Swizzle uint8

// Swizzle sources.
const (
	SwizzleR Swizzle = iota
	SwizzleG
	SwizzleB
	SwizzleA
	SwizzleZero
	SwizzleOne
)

// IdentitySwizzle is the default view swizzle.
var IdentitySwizzle = [4]Swizzle{SwizzleR, SwizzleG, SwizzleB, SwizzleA}

// Level is one mip level: W x H texels per slice and D slices. D is the depth
// of a 3D texture, the layer count of an array, 6 x layers for cube maps
// (face = slice % 6) and 1 otherwise. Texel (x, y, z) starts at byte
// z*SlicePitch + y*RowPitch + x*format bytes; a zero RowPitch means W*format
// bytes and a zero SlicePitch H*RowPitch (tightly packed). Data may be a view
// of any memory (the device's software sampler views device memory).
// A multisample texture's rows hold W*Samples texels, sample k of pixel x at
// column x*Samples+k (vortexpipe-driver §3.4.1: sample-major within a pixel).
type Level struct {
	W, H, D int
	Data    []byte
	// RowPitch and SlicePitch are byte strides; 0 means tightly packed.
	RowPitch, SlicePitch int
}

// Texture is an image with its mip chain and view state.
// spec: vortexpipe-driver §3.6 (1D/2D/3D/cube/array textures, NPOT, mips).
type Texture struct {
	Dim     Dim
	Format  format.Format
	Levels  []Level
	Swizzle [4]Swizzle
	// Samples > 1 makes a multisample texture (2D or 2D array, one level),
	// read only by OpFetchSample and OpSize; 0 and 1 mean single-sample.
	Samples int
	// BaseLevel and MaxLevel restrict the levels sampling uses
	// (GL TEXTURE_BASE_LEVEL / TEXTURE_MAX_LEVEL), clamped to those present.
	BaseLevel, MaxLevel int
}

// ErrBadTexture reports an invalid texture description.
var ErrBadTexture = errors.New("sampler: bad texture")

// NewTexture creates a zero-filled texture. w, h, d follow Level (for a cube
// map pass d = 6 x layers); levels = 0 creates the full mip chain.
func NewTexture(dim Dim, f format.Format, w, h, d, levels int) (*Texture, error) {
	if !f.Valid() {
		return nil, fmt.Errorf("%w: format %v", ErrBadTexture, f)
	}
	maxW := 1 << 15
	if dim == DimBuffer {
		maxW = MaxBufferTexels
	}
	if w < 1 || h < 1 || d < 1 || w > maxW || h > 1<<15 || d > 1<<15 {
		return nil, fmt.Errorf("%w: size %dx%dx%d", ErrBadTexture, w, h, d)
	}
	switch dim {
	case DimBuffer:
		if h != 1 || d != 1 {
			return nil, fmt.Errorf("%w: buffer texture with h=%d d=%d", ErrBadTexture, h, d)
		}
		levels = 1
	case Dim1D:
		if h != 1 || d != 1 {
			return nil, fmt.Errorf("%w: 1D texture with h=%d d=%d", ErrBadTexture, h, d)
		}
	case Dim2D:
		if d != 1 {
			return nil, fmt.Errorf("%w: 2D texture with d=%d", ErrBadTexture, d)
		}
	case Dim1DArray:
		if h != 1 {
			return nil, fmt.Errorf("%w: 1D array with h=%d", ErrBadTexture, h)
		}
	case DimCube, DimCubeArray:
		if w != h || d%6 != 0 || (dim == DimCube && d != 6) {
			return nil, fmt.Errorf("%w: cube %dx%dx%d", ErrBadTexture, w, h, d)
		}
	case Dim3D, Dim2DArray:
	default:
		return nil, fmt.Errorf("%w: dimensionality %v", ErrBadTexture, dim)
	}
	if int64(w)*int64(h)*int64(d)*int64(f.Info().Bytes) > 1<<30 {
		return nil, fmt.Errorf("%w: %dx%dx%d too large", ErrBadTexture, w, h, d)
	}
	full := 1
	for m := max(w, h, d3(dim, d)); m > 1; m >>= 1 {
		full++
	}
	if levels <= 0 || levels > full {
		levels = full
	}
	t := &Texture{Dim: dim, Format: f, Swizzle: IdentitySwizzle, MaxLevel: levels - 1}
	for range levels {
		t.Levels = append(t.Levels, Level{W: w, H: h, D: d, Data: make([]byte, w*h*d*f.Info().Bytes)})
		w, h = max(w/2, 1), max(h/2, 1)
		if dim == Dim1D || dim == Dim1DArray {
			h = 1
		}
		if dim == Dim3D {
			d = max(d/2, 1)
		}
	}
	return t, nil
}

// Validate checks that a texture's description and storage agree, so that
// sampling cannot read outside a level: a valid dimensionality and format,
// 1..16 levels of positive size, each level's Data long enough.
func (t *Texture) Validate() error {
	if t == nil {
		return fmt.Errorf("%w: nil texture", ErrBadTexture)
	}
	if t.Dim < Dim1D || t.Dim > DimBuffer || !t.Format.Valid() {
		return fmt.Errorf("%w: %v texture of format %v", ErrBadTexture, t.Dim, t.Format)
	}
	if len(t.Levels) == 0 || len(t.Levels) > 16 {
		return fmt.Errorf("%w: %d levels", ErrBadTexture, len(t.Levels))
	}
	if t.Dim == DimBuffer && (len(t.Levels) != 1 || t.samples() > 1) {
		return fmt.Errorf("%w: buffer texture with %d levels, %d samples", ErrBadTexture, len(t.Levels), t.samples())
	}
	spp := t.samples()
	if spp > 1 && (spp > 64 || len(t.Levels) != 1 || t.Dim != Dim2D && t.Dim != Dim2DArray) {
		return fmt.Errorf("%w: %d samples on a %d-level %v texture", ErrBadTexture, spp, len(t.Levels), t.Dim)
	}
	for i := range t.Levels {
		l := &t.Levels[i]
		if l.RowPitch < 0 || l.SlicePitch < 0 {
			return fmt.Errorf("%w: level %d pitches %d/%d", ErrBadTexture, i, l.RowPitch, l.SlicePitch)
		}
		maxW := 1 << 15
		if t.Dim == DimBuffer {
			maxW = MaxBufferTexels
		}
		if l.W < 1 || l.H < 1 || l.D < 1 || l.W > maxW || l.H > 1<<15 || l.D > 1<<15 || t.Dim == DimBuffer && (l.H != 1 || l.D != 1) {
			return fmt.Errorf("%w: level %d size %dx%dx%d", ErrBadTexture, i, l.W, l.H, l.D)
		}
		if (t.Dim == DimCube || t.Dim == DimCubeArray) && (l.D%6 != 0 || l.W != l.H) {
			return fmt.Errorf("%w: cube level %d size %dx%dx%d", ErrBadTexture, i, l.W, l.H, l.D)
		}
		bytes := int64(t.Format.Info().Bytes)
		row, slice := int64(l.RowPitch), int64(l.SlicePitch)
		if row == 0 {
			row = int64(l.W) * int64(spp) * bytes
		}
		if slice == 0 {
			slice = row * int64(l.H)
		}
		if row < int64(l.W)*int64(spp)*bytes || slice < row*int64(l.H) {
			return fmt.Errorf("%w: level %d pitches %d/%d below the %dx%d level", ErrBadTexture, i, l.RowPitch, l.SlicePitch, l.W, l.H)
		}
		if row > 1<<40 || slice > 1<<40 {
			return fmt.Errorf("%w: level %d pitches %d/%d too large", ErrBadTexture, i, l.RowPitch, l.SlicePitch)
		}
		if need := int64(l.D-1)*slice + int64(l.H-1)*row + int64(l.W)*int64(spp)*bytes; int64(len(l.Data)) < need {
			return fmt.Errorf("%w: level %d holds %d bytes, needs %d", ErrBadTexture, i, len(l.Data), need)
		}
	}
	return nil
}

// d3 is the extent along the third axis that shrinks with the mip level.
func d3(dim Dim, d int) int {
	if dim == Dim3D {
		return d
	}
	return 1
}

// Offset returns the byte offset of texel (x, y, z) of a level (x counts
// samples in a multisample level).
func (l *Level) Offset(f format.Format, x, y, z int) int {
	b := f.Info().Bytes
	if l.RowPitch == 0 && l.SlicePitch == 0 {
		return ((z*l.H+y)*l.W + x) * b
	}
	row, slice := l.RowPitch, l.SlicePitch
	if row == 0 {
		row = l.W * b
	}
	if slice == 0 {
		slice = row * l.H
	}
	return z*slice + y*row + x*b
}

// samples is the sample count per texel (1 for single-sample textures).
func (t *Texture) samples() int { return max(t.Samples, 1) }

// NewMultisampleTexture creates a zero-filled single-level multisample 2D
// (layers = 1) or 2D-array texture with samples samples per texel, stored
// sample-major within a pixel. spec: vortexpipe-driver §3.4.1, §3.6 (txf_ms)
func NewMultisampleTexture(dim Dim, f format.Format, w, h, layers, samples int) (*Texture, error) {
	if dim != Dim2D && dim != Dim2DArray || samples < 2 || samples > 64 {
		return nil, fmt.Errorf("%w: %d-sample %v texture", ErrBadTexture, samples, dim)
	}
	t, err := NewTexture(dim, f, w*samples, h, layers, 1)
	if err != nil {
		return nil, err
	}
	l := &t.Levels[0]
	l.RowPitch, l.SlicePitch = l.W*f.Info().Bytes, l.W*f.Info().Bytes*h
	l.W = w
	t.Samples = samples
	return t, t.Validate()
}

// SetFloat stores a float texel (unorm/float formats; depth uses c[0]).
func (t *Texture) SetFloat(level, x, y, z int, c [4]float32) error {
	l, off, err := t.texel(level, x, y, z)
	if err != nil {
		return err
	}
	switch {
	case t.Format.IsDepth():
		format.PackDepth(t.Format, l.Data[off:], c[0])
	case t.Format == format.S8:
		format.PackStencil(t.Format, l.Data[off:], uint8(c[0]))
	default:
		format.Pack(t.Format, l.Data[off:], format.FromFloat(t.Format, c))
	}
	return nil
}

// SetInt stores an integer texel (integer formats; S8 uses v[0]).
func (t *Texture) SetInt(level, x, y, z int, v [4]uint32) error {
	l, off, err := t.texel(level, x, y, z)
	if err != nil {
		return err
	}
	if t.Format == format.S8 || t.Format == format.D24S8 {
		format.PackStencil(t.Format, l.Data[off:], uint8(v[0]))
		return nil
	}
	format.Pack(t.Format, l.Data[off:], format.FromInt(t.Format, v))
	return nil
}

func (t *Texture) texel(level, x, y, z int) (*Level, int, error) {
	if level < 0 || level >= len(t.Levels) {
		return nil, 0, fmt.Errorf("%w: level %d of %d", ErrBadTexture, level, len(t.Levels))
	}
	l := &t.Levels[level]
	if x < 0 || y < 0 || z < 0 || x >= l.W || y >= l.H || z >= l.D {
		return nil, 0, fmt.Errorf("%w: texel (%d,%d,%d) outside level %d (%dx%dx%d)", ErrBadTexture, x, y, z, level, l.W, l.H, l.D)
	}
	return l, l.Offset(t.Format, x, y, z), nil
}

// GenerateMipmaps fills levels 1..n from level 0 with a box filter: each
// texel of level n+1 is the mean of the 2x2 (2x2x2 for 3D) texels of level n
// it covers, an odd trailing row or column folding into the last texel's
// footprint (NPOT sizes). Filtering is done on float values (sRGB decoded)
// for unorm and float formats and on integers (mean rounded toward zero)
// for integer formats.
func (t *Texture) GenerateMipmaps() error {
	if err := t.Validate(); err != nil {
		return err
	}
	if t.Format.IsDepth() || t.Format == format.S8 {
		return fmt.Errorf("%w: mipmap generation for %v", ErrBadTexture, t.Format)
	}
	for n := 0; n+1 < len(t.Levels); n++ {
		src, dst := &t.Levels[n], &t.Levels[n+1]
		sx, sy := src.W/dst.W, src.H/dst.H
		sz := 1
		if t.Dim == Dim3D {
			sz = src.D / dst.D
		}
		for z := 0; z < dst.D; z++ {
			for y := 0; y < dst.H; y++ {
				for x := 0; x < dst.W; x++ {
					var acc [4]float64
					cnt := 0
					// The footprint extends to the source edge for the last texel.
					x1, y1, z1 := (x+1)*sx, (y+1)*sy, (z+1)*sz
					if x == dst.W-1 {
						x1 = src.W
					}
					if y == dst.H-1 {
						y1 = src.H
					}
					zs, ze := z*sz, z1
					if t.Dim != Dim3D {
						zs, ze = z, z+1
					} else if z == dst.D-1 {
						ze = src.D
					}
					for k := zs; k < ze; k++ {
						for j := y * sy; j < y1; j++ {
							for i := x * sx; i < x1; i++ {
								r := format.Unpack(t.Format, src.Data[src.Offset(t.Format, i, j, k):])
								if t.Format.IsInteger() {
									v := format.ToInt(t.Format, r)
									for c := range 4 {
										if t.Format.Info().Kind == format.KindSInt {
											acc[c] += float64(int32(v[c]))
										} else {
											acc[c] += float64(v[c])
										}
									}
								} else {
									v := format.ToFloat(t.Format, r)
									for c := range 4 {
										acc[c] += float64(v[c])
									}
								}
								cnt++
							}
						}
					}
					off := dst.Offset(t.Format, x, y, z)
					if t.Format.IsInteger() {
						var v [4]uint32
						for c := range 4 {
							if t.Format.Info().Kind == format.KindSInt {
								v[c] = uint32(int32(acc[c] / float64(cnt)))
							} else {
								v[c] = uint32(acc[c] / float64(cnt))
							}
						}
						format.Pack(t.Format, dst.Data[off:], format.FromInt(t.Format, v))
						continue
					}
					var v [4]float32
					for c := range 4 {
						v[c] = float32(acc[c] / float64(cnt))
					}
					format.Pack(t.Format, dst.Data[off:], format.FromFloat(t.Format, v))
				}
			}
		}
	}
	return nil
}
