package sampler

import (
	"errors"
	"fmt"
	"math"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// Filter is a texel filter.
type Filter uint8

// Texel filters.
const (
	Nearest Filter = iota
	Linear
)

// MipFilter selects how mip levels are used when minifying.
type MipFilter uint8

// Mip filters: MipNone samples the base level only (GL NEAREST / LINEAR min
// filters), MipNearest the nearest level, MipLinear blends two levels.
const (
	MipNone MipFilter = iota
	MipNearest
	MipLinear
)

// Wrap is a texture coordinate wrap mode.
type Wrap uint8

// Wrap modes.
const (
	Repeat Wrap = iota
	MirroredRepeat
	ClampToEdge
	ClampToBorder
	MirrorClampToEdge
	// Clamp is legacy GL_CLAMP: the coordinate is clamped to [0,1]; nearest
	// then reads the edge texel, linear blends the edge texels with the
	// border colour.
	Clamp
	// MirrorClamp is GL_MIRROR_CLAMP_EXT: the coordinate is mirrored once
	// (|s|) and then treated as GL_CLAMP.
	MirrorClamp
	// MirrorClampToBorder is GL_MIRROR_CLAMP_TO_BORDER_EXT: |s| clamped to
	// [0, 1 + 1/2N], texels outside the image read the border colour.
	MirrorClampToBorder
)

// Sampler is the complete sampler state (GL sampler object / VkSampler).
// spec: software-shader-backend "CPU texture sampling" (the nearest/clamp
// sampler this replaces); vortexpipe-driver §3.6 (the sampling surface).
type Sampler struct {
	MinFilter, MagFilter Filter
	MipFilter            MipFilter
	WrapS, WrapT, WrapR  Wrap
	// BorderColor is used by float/unorm/depth textures, BorderColorInt by
	// integer textures.
	BorderColor    [4]float32
	BorderColorInt [4]uint32
	LODBias        float32
	MinLOD, MaxLOD float32
	// MaxAnisotropy > 1 enables anisotropic filtering (see the package doc).
	MaxAnisotropy float32
	CompareEnable bool
	Compare       compare.Func // the shadow comparison, "reference OP texel"
	// CubeSeamless filters across cube faces (GL TEXTURE_CUBE_MAP_SEAMLESS;
	// always on in Vulkan); otherwise each face is sampled with the wrap
	// modes on its own.
	CubeSeamless bool
	// Unnormalized takes coordinates in texels of the base level (GL
	// rectangle textures, Vulkan unnormalizedCoordinates): no mipmapping,
	// the level of detail is 0 and the magnification filter applies.
	Unnormalized bool
}

// DefaultSampler returns GL's default sampler state: NEAREST_MIPMAP_LINEAR
// minification, LINEAR magnification, REPEAT, LOD range [-1000, 1000].
func DefaultSampler() Sampler {
	return Sampler{MinFilter: Nearest, MagFilter: Linear, MipFilter: MipLinear,
		MinLOD: -1000, MaxLOD: 1000, MaxAnisotropy: 1, Compare: compare.LessEqual}
}

// Op is a texture operation.
type Op uint8

// Texture operations.
const (
	OpSample Op = iota // filtered sample (texture, textureLod, textureGrad, ...)
	OpFetch            // texelFetch: IntCoord x, y, z/layer, level in [3]
	OpSize             // textureSize at level IntCoord[lane][3]; [3] of the result is the level count
	OpGather           // textureGather: component GatherComp (or compare) of the 2x2 footprint
	// OpFetchSample is texelFetch on a multisample texture (txf_ms):
	// IntCoord x, y, layer, sample in [3]; outside the image or the sample
	// count it returns zero.
	OpFetchSample
	// OpQueryLod is textureQueryLod: [0] the mip level a sample would access
	// relative to the base level (fractional between two levels with
	// MipLinear), [1] the computed level of detail relative to the base level
	// (bias and [MinLOD, MaxLOD] applied), both as float bits; [2], [3] zero.
	// The level of detail comes from the request's LOD mode like OpSample.
	OpQueryLod
)

// LODMode says where an OpSample's level of detail comes from.
type LODMode uint8

// LOD sources.
const (
	LODNone     LODMode = iota // no derivatives (vertex stage): lambda = 0 + biases
	LODGrad                    // from DPdx/DPdy, plus the biases
	LODExplicit                // LOD[lane] is the level of detail
)

// Request is one batched texture operation over N lanes (a quad is 4 lanes).
// The caller owns the slices and reuses them; Sample never allocates.
//
// Coord per dimensionality: 1D (s), 1D array (s, layer), 2D (s, t),
// 2D array (s, t, layer), 3D (s, t, r), cube (x, y, z), cube array (x, y, z,
// layer). Projective division is done by the caller.
type Request struct {
	Op    Op
	N     int
	Coord [][4]float32
	// IntCoord is used by OpFetch and OpSize.
	IntCoord [][4]int32
	// Ref holds the per-lane depth reference when the sampler compares.
	Ref []float32
	LOD LODMode
	// LODValue is the explicit level (LODExplicit) or, when non-nil, the
	// per-lane shader bias (LODNone, LODGrad). The sampler's LODBias always
	// adds (GL 4.6 §8.14.1).
	LODValue []float32
	// DPdx and DPdy are the per-lane derivatives of Coord (x, y, z).
	DPdx, DPdy [][3]float32
	// Offset is a constant texel offset (textureOffset, texelFetchOffset,
	// textureGatherOffset).
	Offset [3]int32
	// GatherComp selects the gathered component (0..3).
	GatherComp int
	// GatherOffsets, when UseGatherOffsets is set, gives each of the four
	// gathered texels its own offset (textureGatherOffsets).
	GatherOffsets    [4][2]int32
	UseGatherOffsets bool
	// LaneOffset, when not nil, is each lane's own (s, t) offset of a
	// gather, in place of Offset (ARB_gpu_shader5's textureGatherOffset with
	// a non-constant offset). spec: ARB_gpu_shader5 §8.7 (textureGatherOffset)
	LaneOffset [][2]int32
}

// ErrBadRequest reports a malformed request.
var ErrBadRequest = errors.New("sampler: bad request")

// Sample performs req on texture t with sampler state s and writes each
// lane's four result words (float bits, or integers for integer textures
// and OpSize) to out[0:req.N].
// spec: vortexpipe-driver §3.6.
func Sample(t *Texture, s *Sampler, req *Request, out [][4]uint32) error {
	if t == nil || s == nil || req == nil {
		return fmt.Errorf("%w: nil texture, sampler or request", ErrBadRequest)
	}
	if err := t.Validate(); err != nil {
		return err
	}
	n := req.N
	if n < 0 || len(out) < n {
		return fmt.Errorf("%w: %d lanes, %d outputs", ErrBadRequest, n, len(out))
	}
	switch req.Op {
	case OpFetch, OpSize, OpFetchSample:
		if len(req.IntCoord) < n {
			return fmt.Errorf("%w: op %d needs %d int coords, got %d", ErrBadRequest, req.Op, n, len(req.IntCoord))
		}
	case OpSample, OpGather, OpQueryLod:
		if len(req.Coord) < n {
			return fmt.Errorf("%w: op %d needs %d coords, got %d", ErrBadRequest, req.Op, n, len(req.Coord))
		}
		if s.CompareEnable && len(req.Ref) < n {
			return fmt.Errorf("%w: compare needs %d refs, got %d", ErrBadRequest, n, len(req.Ref))
		}
		if req.Op == OpSample || req.Op == OpQueryLod {
			switch req.LOD {
			case LODGrad:
				if len(req.DPdx) < n || len(req.DPdy) < n {
					return fmt.Errorf("%w: LODGrad needs %d derivatives", ErrBadRequest, n)
				}
			case LODExplicit:
				if len(req.LODValue) < n {
					return fmt.Errorf("%w: LODExplicit needs %d levels", ErrBadRequest, n)
				}
			case LODNone:
			default:
				return fmt.Errorf("%w: LOD mode %d", ErrBadRequest, req.LOD)
			}
		}
		if req.Op == OpGather && (req.GatherComp < 0 || req.GatherComp > 3) {
			return fmt.Errorf("%w: gather component %d", ErrBadRequest, req.GatherComp)
		}
		if req.LaneOffset != nil && (req.Op != OpGather || len(req.LaneOffset) < n) {
			return fmt.Errorf("%w: %d lane offsets for %d lanes of op %d (gather only)", ErrBadRequest, len(req.LaneOffset), n, req.Op)
		}
	default:
		return fmt.Errorf("%w: op %d", ErrBadRequest, req.Op)
	}
	if t.Dim == DimBuffer && req.Op != OpFetch && req.Op != OpSize {
		// spec: GL 4.6 §8.9: buffer textures are read by texelFetch only.
		return fmt.Errorf("%w: op %d on a buffer texture", ErrBadRequest, req.Op)
	}
	if t.samples() > 1 && req.Op != OpFetchSample && req.Op != OpSize {
		return fmt.Errorf("%w: op %d on a %d-sample texture", ErrBadRequest, req.Op, t.samples())
	}
	for l := 0; l < n; l++ {
		switch req.Op {
		case OpFetch:
			out[l] = t.fetch(req.IntCoord[l], req.Offset)
		case OpSize:
			out[l] = t.size(req.IntCoord[l][3])
		case OpSample:
			out[l] = t.sample(s, req, l)
		case OpGather:
			out[l] = t.gather(s, req, l)
		case OpFetchSample:
			out[l] = t.fetchSample(req.IntCoord[l], req.Offset)
		case OpQueryLod:
			out[l] = t.queryLod(s, req, l)
		}
	}
	return nil
}

// levelRange returns the usable base and maximum level.
func (t *Texture) levelRange() (base, q int) {
	last := len(t.Levels) - 1
	base = min(max(t.BaseLevel, 0), last)
	q = min(max(t.MaxLevel, base), last)
	return base, q
}

func (t *Texture) size(lod int32) [4]uint32 {
	base, q := t.levelRange()
	lv := int(lod) + base
	if lod < 0 || lv > q {
		return [4]uint32{0, 0, 0, uint32(q - base + 1)}
	}
	l := &t.Levels[lv]
	r := [4]uint32{uint32(l.W), uint32(l.H), uint32(l.D), uint32(q - base + 1)}
	switch t.Dim {
	case Dim1D, DimBuffer:
		r[1], r[2] = 0, 0
	case Dim1DArray:
		r[1], r[2] = uint32(l.D), 0
	case Dim2D, DimCube:
		r[2] = 0
	case DimCubeArray:
		r[2] = uint32(l.D / 6)
	}
	return r
}

func (t *Texture) fetch(c [4]int32, off [3]int32) [4]uint32 {
	if t.samples() > 1 {
		return [4]uint32{}
	}
	base, q := t.levelRange()
	lv := int(c[3]) + base
	if c[3] < 0 || lv > q {
		return [4]uint32{}
	}
	l := &t.Levels[lv]
	x, y, z := int(c[0])+int(off[0]), int(c[1])+int(off[1]), int(c[2])+int(off[2])
	switch t.Dim {
	case Dim1D, DimBuffer:
		y, z = 0, 0
	case Dim1DArray:
		y, z = 0, int(c[1])
	case Dim2D:
		z = 0
	case Dim2DArray:
		z = int(c[2])
	}
	if x < 0 || y < 0 || z < 0 || x >= l.W || y >= l.H || z >= l.D {
		return [4]uint32{}
	}
	return t.finish(t.read(l, x, y, z))
}

// fetchSample reads sample c[3] of texel (c[0], c[1]) of layer c[2] of a
// multisample texture; zero outside it or for a single-sample texture.
func (t *Texture) fetchSample(c [4]int32, off [3]int32) [4]uint32 {
	spp := t.samples()
	if spp < 2 {
		return [4]uint32{}
	}
	l := &t.Levels[0]
	x, y, z, k := int(c[0])+int(off[0]), int(c[1])+int(off[1]), int(c[2]), int(c[3])
	if t.Dim == Dim2D {
		z = 0
	}
	if x < 0 || y < 0 || z < 0 || k < 0 || x >= l.W || y >= l.H || z >= l.D || k >= spp {
		return [4]uint32{}
	}
	b := t.Format.Info().Bytes
	row, slice := l.RowPitch, l.SlicePitch
	if row == 0 {
		row = l.W * spp * b
	}
	if slice == 0 {
		slice = row * l.H
	}
	return t.finish(t.decode(l.Data[z*slice+y*row+(x*spp+k)*b:]))
}

// texel is a texel value before swizzling: floats for filterable formats,
// integers for integer and stencil formats.
type texel struct {
	f [4]float32
	i [4]uint32
}

func (t *Texture) isInt() bool {
	switch t.Format {
	case format.RGBA8, format.BGRA8: // the common formats skip Info
		return false
	}
	return t.Format.IsInteger() || t.Format == format.S8
}

func (t *Texture) read(l *Level, x, y, z int) texel {
	return t.decode(l.Data[l.Offset(t.Format, x, y, z):])
}

// decode converts the stored texel at src[0:].
func (t *Texture) decode(src []byte) texel {
	switch t.Format { // the common formats skip the format dispatch
	case format.RGBA8:
		return texel{f: format.ToFloatRGBA8(format.UnpackRGBA8(src))}
	case format.BGRA8:
		v := format.ToFloatRGBA8(format.UnpackRGBA8(src))
		v[0], v[2] = v[2], v[0]
		return texel{f: v}
	}
	switch {
	case t.Format == format.S8:
		return texel{i: [4]uint32{uint32(format.UnpackStencil(t.Format, src)), 0, 0, 1}}
	case t.Format.IsDepth():
		return texel{f: [4]float32{format.UnpackDepth(t.Format, src), 0, 0, 1}}
	case t.Format.IsInteger():
		return texel{i: format.ToInt(t.Format, format.Unpack(t.Format, src))}
	}
	return texel{f: format.ToFloat(t.Format, format.Unpack(t.Format, src))}
}

func (t *Texture) border(s *Sampler) texel {
	if t.isInt() {
		return texel{i: s.BorderColorInt}
	}
	return texel{f: s.BorderColor}
}

// finish applies the view swizzle and returns result words.
func (t *Texture) finish(v texel) [4]uint32 {
	var out [4]uint32
	isInt := t.isInt()
	for c, sw := range t.Swizzle {
		switch {
		case sw <= SwizzleA && isInt:
			out[c] = v.i[sw]
		case sw <= SwizzleA:
			out[c] = math.Float32bits(v.f[sw])
		case sw == SwizzleZero:
			out[c] = 0
		case isInt:
			out[c] = 1
		default:
			out[c] = math.Float32bits(1)
		}
	}
	return out
}

// wrap maps an integer texel index into [0, size) by the wrap mode and
// reports false when the index selects the border colour.
func wrap(i, size int, w Wrap) (int, bool) {
	switch w {
	case Repeat:
		return ((i % size) + size) % size, true
	case MirroredRepeat:
		m := ((i % (2 * size)) + 2*size) % (2 * size)
		if m >= size {
			m = 2*size - 1 - m
		}
		return m, true
	case ClampToBorder, Clamp, MirrorClamp, MirrorClampToBorder:
		return i, i >= 0 && i < size
	case MirrorClampToEdge:
		if i < 0 {
			i = -1 - i
		}
		return min(i, size-1), true
	}
	return min(max(i, 0), size-1), true
}

// ifloor is floor(v) as an int, saturating far outside any texture and
// mapping NaN to 0.
func ifloor(v float64) int {
	if v != v {
		return 0
	}
	return int(math.Floor(min(max(v, -(1<<30)), 1<<30)))
}

func frac(v float64) float64 {
	if v != v || math.IsInf(v, 0) {
		return 0
	}
	return v - math.Floor(v)
}
