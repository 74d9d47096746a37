package ref

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"

	"vortexgfx/gl/format"
)

// ErrBadTarget reports an invalid target or attachment.
var ErrBadTarget = errors.New("ref: bad target")

// MaxTargetSize bounds a target's width and height; it keeps window
// coordinates well inside the rasterizer's fixed-point range.
const MaxTargetSize = 16384

// Surface is one attachment: W x H texels of Format, row y starting at byte
// y*W*bytes. Row 0 is window y = 0 (the bottom row in GL's convention).
// spec: software-shader-backend "Target lifecycle": surfaces are zeroed at
// creation, never uninitialised.
type Surface struct {
	Format format.Format
	W, H   int
	Data   []byte
}

// NewSurface creates a zero-filled surface.
func NewSurface(f format.Format, w, h int) (*Surface, error) {
	if !f.Valid() {
		return nil, fmt.Errorf("%w: format %v", ErrBadTarget, f)
	}
	if w < 1 || h < 1 || w > MaxTargetSize || h > MaxTargetSize {
		return nil, fmt.Errorf("%w: size %dx%d (1..%d)", ErrBadTarget, w, h, MaxTargetSize)
	}
	return &Surface{Format: f, W: w, H: h, Data: make([]byte, w*h*f.Info().Bytes)}, nil
}

func (s *Surface) offset(x, y int) int { return (y*s.W + x) * s.Format.Info().Bytes }

func (s *Surface) inside(x, y int) bool { return x >= 0 && y >= 0 && x < s.W && y < s.H }

// Target is a framebuffer: colour attachments and an optional
// depth/stencil attachment, all W x H.
type Target struct {
	W, H         int
	Color        []*Surface
	DepthStencil *Surface
}

// NewTarget creates a target with zero-filled attachments. ds may be
// format.Invalid for no depth/stencil attachment.
func NewTarget(w, h int, colors []format.Format, ds format.Format) (*Target, error) {
	if len(colors) > MaxRenderTargets {
		return nil, fmt.Errorf("%w: %d colour attachments (max %d)", ErrBadTarget, len(colors), MaxRenderTargets)
	}
	t := &Target{W: w, H: h}
	for i, f := range colors {
		if !f.IsColor() {
			return nil, fmt.Errorf("%w: colour attachment %d format %v", ErrBadTarget, i, f)
		}
		s, err := NewSurface(f, w, h)
		if err != nil {
			return nil, fmt.Errorf("colour attachment %d: %w", i, err)
		}
		t.Color = append(t.Color, s)
	}
	if ds != format.Invalid {
		if !ds.IsDepth() && !ds.HasStencil() {
			return nil, fmt.Errorf("%w: depth/stencil format %v", ErrBadTarget, ds)
		}
		s, err := NewSurface(ds, w, h)
		if err != nil {
			return nil, fmt.Errorf("depth/stencil: %w", err)
		}
		t.DepthStencil = s
	}
	if len(t.Color) == 0 && t.DepthStencil == nil {
		if _, err := NewSurface(format.RGBA8, w, h); err != nil { // validates the size
			return nil, err
		}
	}
	return t, nil
}

func (t *Target) check() error {
	for i, s := range t.Color {
		if s == nil || s.W != t.W || s.H != t.H || !s.Format.IsColor() || len(s.Data) != s.W*s.H*s.Format.Info().Bytes {
			return fmt.Errorf("%w: colour attachment %d does not match the %dx%d target", ErrBadTarget, i, t.W, t.H)
		}
	}
	if s := t.DepthStencil; s != nil && (s.W != t.W || s.H != t.H || s.Format.IsColor() || len(s.Data) != s.W*s.H*s.Format.Info().Bytes) {
		return fmt.Errorf("%w: depth/stencil attachment does not match the %dx%d target", ErrBadTarget, t.W, t.H)
	}
	if len(t.Color) > MaxRenderTargets || t.W < 1 || t.H < 1 || t.W > MaxTargetSize || t.H > MaxTargetSize {
		return fmt.Errorf("%w: %dx%d with %d colour attachments", ErrBadTarget, t.W, t.H, len(t.Color))
	}
	return nil
}

// ClearColor fills colour attachment i with c (converted as a fragment
// colour would be: clamped and rounded for unorm, sRGB-encoded for sRGB).
func (t *Target) ClearColor(i int, c [4]float32) error {
	if i < 0 || i >= len(t.Color) {
		return fmt.Errorf("%w: clear of colour attachment %d of %d", ErrBadTarget, i, len(t.Color))
	}
	s := t.Color[i]
	var r format.Raw
	if s.Format.IsInteger() {
		r = format.FromInt(s.Format, [4]uint32{uint32(int32(c[0])), uint32(int32(c[1])), uint32(int32(c[2])), uint32(int32(c[3]))})
	} else {
		r = format.FromFloat(s.Format, c)
	}
	s.fill(r)
	return nil
}

// ClearColorInt fills integer colour attachment i with v.
func (t *Target) ClearColorInt(i int, v [4]uint32) error {
	if i < 0 || i >= len(t.Color) || !t.Color[i].Format.IsInteger() {
		return fmt.Errorf("%w: integer clear of colour attachment %d", ErrBadTarget, i)
	}
	t.Color[i].fill(format.FromInt(t.Color[i].Format, v))
	return nil
}

func (s *Surface) fill(r format.Raw) {
	bpp := s.Format.Info().Bytes
	format.Pack(s.Format, s.Data[:bpp], r)
	repeat(s.Data, bpp)
}

// repeat fills b with copies of its first n bytes (len(b) a multiple of
// n), doubling the filled prefix with each copy.
func repeat(b []byte, n int) {
	for f := n; f < len(b); f *= 2 {
		copy(b[f:], b[:f])
	}
}

// ClearDepth sets every depth value to z (clamped to [0,1] for unorm
// depth); stencil bits are kept.
func (t *Target) ClearDepth(z float32) error {
	s := t.DepthStencil
	if s == nil || !s.Format.IsDepth() {
		return fmt.Errorf("%w: depth clear without a depth attachment", ErrBadTarget)
	}
	bpp := s.Format.Info().Bytes
	switch s.Format {
	case format.D24S8:
		// The depth bits PackDepth writes, with each texel's stencil
		// byte kept.
		var t [4]byte
		format.PackDepth(s.Format, t[:], z)
		dep := binary.LittleEndian.Uint32(t[:]) &^ 0xFF
		for o := 0; o+4 <= len(s.Data); o += 4 {
			w := s.Data[o : o+4 : o+4]
			binary.LittleEndian.PutUint32(w, dep|uint32(w[0]))
		}
	case format.D16, format.D32F:
		// No stencil: every texel is the first one.
		format.PackDepth(s.Format, s.Data[:bpp], z)
		repeat(s.Data, bpp)
	default:
		for o := 0; o < len(s.Data); o += bpp {
			format.PackDepth(s.Format, s.Data[o:], z)
		}
	}
	return nil
}

// ClearStencil sets every stencil value to v; depth bits are kept.
func (t *Target) ClearStencil(v uint8) error {
	s := t.DepthStencil
	if s == nil || !s.Format.HasStencil() {
		return fmt.Errorf("%w: stencil clear without a stencil attachment", ErrBadTarget)
	}
	bpp := s.Format.Info().Bytes
	switch s.Format {
	case format.D24S8:
		// PackStencil writes the texel's lowest byte.
		for o := 0; o < len(s.Data); o += 4 {
			s.Data[o] = v
		}
	case format.S8:
		format.PackStencil(s.Format, s.Data[:bpp], v)
		repeat(s.Data, bpp)
	default:
		for o := 0; o < len(s.Data); o += bpp {
			format.PackStencil(s.Format, s.Data[o:], v)
		}
	}
	return nil
}

// Float returns the colour at (x, y) as floats (sRGB decoded; integers
// converted); zero outside the surface.
func (s *Surface) Float(x, y int) [4]float32 {
	if !s.inside(x, y) || !s.Format.IsColor() {
		return [4]float32{}
	}
	return format.ToFloat(s.Format, format.Unpack(s.Format, s.Data[s.offset(x, y):]))
}

// Raw returns the stored components at (x, y).
func (s *Surface) Raw(x, y int) format.Raw {
	if !s.inside(x, y) || !s.Format.IsColor() {
		return format.Raw{}
	}
	return format.Unpack(s.Format, s.Data[s.offset(x, y):])
}

// Depth returns the stored depth at (x, y).
func (s *Surface) Depth(x, y int) float32 {
	if !s.inside(x, y) {
		return 0
	}
	return format.UnpackDepth(s.Format, s.Data[s.offset(x, y):])
}

// Stencil returns the stored stencil value at (x, y).
func (s *Surface) Stencil(x, y int) uint8 {
	if !s.inside(x, y) {
		return 0
	}
	return format.UnpackStencil(s.Format, s.Data[s.offset(x, y):])
}

// pixel8 returns the colour at (x, y) as 8-bit channels: 8-bit unorm
// formats return their stored bytes (sRGB stays encoded), others are
// converted with the unorm rule (integers clamped to 0..255).
func (s *Surface) pixel8(x, y int) color.NRGBA {
	r := s.Raw(x, y)
	in := s.Format.Info()
	var c [4]uint8
	switch {
	case in.Kind == format.KindUNorm && in.Bits == 8:
		v := [4]uint32{0, 0, 0, 255}
		copy(v[:in.Components], r[:in.Components])
		c = [4]uint8{uint8(v[0]), uint8(v[1]), uint8(v[2]), uint8(v[3])}
	case s.Format.IsInteger():
		v := format.ToInt(s.Format, r)
		for i := range 4 {
			x := int64(v[i])
			if in.Kind == format.KindSInt {
				x = int64(int32(v[i]))
			}
			if i == 3 && in.Components < 4 {
				x = 255
			}
			c[i] = uint8(min(max(x, 0), 255))
		}
	default:
		f := format.ToFloat(s.Format, r)
		for i := range 4 {
			c[i] = uint8(format.UNorm(f[i], 8))
		}
	}
	return color.NRGBA{R: c[0], G: c[1], B: c[2], A: c[3]}
}

// NRGBA reads the surface back as an 8-bit image. With flipY, image row 0
// is the surface's top row (window y = H-1), as GL's bottom-left origin
// displays.
func (s *Surface) NRGBA(flipY bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, s.W, s.H))
	if s.Format == format.RGBA8 {
		// The stored bytes are NRGBA's: copy whole rows (pixel8 would give
		// the same bytes one texel at a time).
		row := 4 * s.W
		for y := 0; y < s.H; y++ {
			dst := y
			if flipY {
				dst = s.H - 1 - y
			}
			copy(img.Pix[dst*img.Stride:dst*img.Stride+row], s.Data[y*row:(y+1)*row])
		}
		return img
	}
	for y := 0; y < s.H; y++ {
		row := y
		if flipY {
			row = s.H - 1 - y
		}
		for x := 0; x < s.W; x++ {
			img.SetNRGBA(x, row, s.pixel8(x, y))
		}
	}
	return img
}

// RGBA reads the surface back with the stored channel bytes copied as they
// are (no premultiplication is applied, as a GPU readback returns them).
func (s *Surface) RGBA(flipY bool) *image.RGBA {
	n := s.NRGBA(flipY)
	return &image.RGBA{Pix: n.Pix, Stride: n.Stride, Rect: n.Rect}
}

// ClearRegion describes a masked, scissored clear (GL glClear honours the
// scissor rectangle, the colour write mask and the stencil write mask).
type ClearRegion struct {
	Rect             Rect  // pixels cleared; clipped to the target
	ColorMask        uint8 // bit 0 R .. bit 3 A
	StencilWriteMask uint8
}

// clip returns the region's rectangle clipped to the target.
func (t *Target) clip(r Rect) (x0, y0, x1, y1 int) {
	return max(r.X, 0), max(r.Y, 0), min(r.X+r.W, t.W), min(r.Y+r.H, t.H)
}

// ClearColorRegion clears colour attachment i inside reg.Rect, writing only
// the components in reg.ColorMask. Integer attachments take c converted to
// integers.
func (t *Target) ClearColorRegion(i int, c [4]float32, reg ClearRegion) error {
	if i < 0 || i >= len(t.Color) {
		return fmt.Errorf("%w: clear of colour attachment %d of %d", ErrBadTarget, i, len(t.Color))
	}
	s := t.Color[i]
	var r format.Raw
	if s.Format.IsInteger() {
		r = format.FromInt(s.Format, [4]uint32{uint32(int32(c[0])), uint32(int32(c[1])), uint32(int32(c[2])), uint32(int32(c[3]))})
	} else {
		r = format.FromFloat(s.Format, c)
	}
	x0, y0, x1, y1 := t.clip(reg.Rect)
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			buf := s.Data[s.offset(x, y):]
			v := format.Unpack(s.Format, buf)
			for k := range 4 {
				if reg.ColorMask&(1<<k) != 0 {
					v[k] = r[k]
				}
			}
			format.Pack(s.Format, buf, v)
		}
	}
	return nil
}

// ClearDepthRegion sets the depth inside reg.Rect to z.
func (t *Target) ClearDepthRegion(z float32, reg ClearRegion) error {
	s := t.DepthStencil
	if s == nil || !s.Format.IsDepth() {
		return fmt.Errorf("%w: depth clear without a depth attachment", ErrBadTarget)
	}
	x0, y0, x1, y1 := t.clip(reg.Rect)
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			format.PackDepth(s.Format, s.Data[s.offset(x, y):], z)
		}
	}
	return nil
}

// ClearStencilRegion sets the stencil bits in reg.StencilWriteMask inside
// reg.Rect to those of v.
func (t *Target) ClearStencilRegion(v uint8, reg ClearRegion) error {
	s := t.DepthStencil
	if s == nil || !s.Format.HasStencil() {
		return fmt.Errorf("%w: stencil clear without a stencil attachment", ErrBadTarget)
	}
	x0, y0, x1, y1 := t.clip(reg.Rect)
	m := reg.StencilWriteMask
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			buf := s.Data[s.offset(x, y):]
			old := format.UnpackStencil(s.Format, buf)
			format.PackStencil(s.Format, buf, old&^m|v&m)
		}
	}
	return nil
}
