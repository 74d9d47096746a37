package swtex

import (
	"errors"
	"fmt"
	"math"

	"vortexgfx/abi"
	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
	"vortexgfx/gl/sampler"
)

// isInt reports whether the sampler returns integers for f (and so uses the
// integer border colour), as gl/sampler decides.
func isInt(f format.Format) bool { return f.IsInteger() || f == format.S8 }

// LevelAlign is the alignment of each level in an upload: one 64-byte cache line,
// the granule of the device's block addresses (vortex-hardware-facts §2).
// spec: vortex-hardware-facts §2
const LevelAlign = 64

// ErrLayout is wrapped by every Layout error.
// spec: docs/CONVENTIONS.md (errors name what and where)
var ErrLayout = errors.New("swtex: texture cannot be laid out")

// Upload is a texture laid out for device memory: Data is uploaded once, anywhere
// LevelAlign-aligned, and Descriptor(base) gives the descriptor for the upload at
// base (a driver relocates by calling it again; the bytes do not change).
// spec: vortexpipe-driver §1.3 (resident, upload once), §3.6 (gfx_sw_texstate_t)
type Upload struct {
	Data []byte
	// Desc is the descriptor with each level's address an offset into Data.
	Desc abi.SWTexDesc
}

// Descriptor returns the descriptor of the upload placed at device address base.
// spec: vortexpipe-driver §1.3 (relocation of resident ranges)
func (u *Upload) Descriptor(base uint64) abi.SWTexDesc {
	d := u.Desc
	for i := 0; i < int(d.Levels); i++ {
		d.Level[i].Addr += base
	}
	return d
}

// PutDescriptor encodes Descriptor(base) into b[0:abi.SWTexDescBytes], one entry
// of a descriptor table.
// spec: vortexpipe-driver §2.5
func (u *Upload) PutDescriptor(base uint64, b []byte) {
	d := u.Descriptor(base)
	d.Put(b)
}

// Layout lays a reference texture and its sampler state out for the software
// sampler: every level packed tightly (rows of width × samples texels) at a
// LevelAlign-aligned offset, and the descriptor saying so. The view's base and max
// level are stored as the sampler uses them (clamped to the levels present). It
// refuses a texture whose levels do not follow the halving rule of abi.SWTexDesc,
// a format without a descriptor code, or NaN LOD state.
// spec: vortexpipe-driver §3.6; abi.SWTexDesc
func Layout(t *sampler.Texture, s *sampler.Sampler) (*Upload, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: nil sampler", ErrLayout)
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrLayout, err)
	}
	target, ok := targetOf(t.Dim)
	if !ok {
		return nil, fmt.Errorf("%w: dimensionality %v", ErrLayout, t.Dim)
	}
	code, ok := FormatCode(t.Format)
	if !ok {
		return nil, fmt.Errorf("%w: format %v has no descriptor code", ErrLayout, t.Format)
	}
	spp := max(t.Samples, 1)
	if !msaa.Valid(spp) {
		return nil, fmt.Errorf("%w: %d samples (the descriptor holds 1, 2, 4, 8 or 16)", ErrLayout, spp)
	}
	l0 := &t.Levels[0]
	last := len(t.Levels) - 1
	base := min(max(t.BaseLevel, 0), last)
	d := abi.SWTexDesc{Target: target, Format: code, Levels: uint8(len(t.Levels)), Samples: uint8(spp),
		Width: uint32(l0.W), Height: uint32(l0.H), Depth: uint32(l0.D),
		BaseLevel: uint8(base), MaxLevel: uint8(min(max(t.MaxLevel, base), last)),
		CompareEnable: s.CompareEnable, CubeSeamless: s.CubeSeamless, Unnormalized: s.Unnormalized,
		LODBias: s.LODBias, MinLOD: s.MinLOD, MaxLOD: s.MaxLOD, MaxAnisotropy: s.MaxAnisotropy}
	for i, sw := range t.Swizzle {
		c, ok := sw.SWTex()
		if !ok {
			return nil, fmt.Errorf("%w: swizzle[%d] = %d", ErrLayout, i, sw)
		}
		d.Swizzle[i] = c
	}
	for i, f := range [...]sampler.Filter{s.MinFilter, s.MagFilter} {
		c, ok := f.SWTex()
		if !ok {
			return nil, fmt.Errorf("%w: filter %d", ErrLayout, f)
		}
		*[...]*abi.SWTexFilterMode{&d.MinFilter, &d.MagFilter}[i] = c
	}
	mip, ok := s.MipFilter.SWTex()
	if !ok {
		return nil, fmt.Errorf("%w: mip filter %d", ErrLayout, s.MipFilter)
	}
	d.MipFilter = mip
	cmp, ok := s.Compare.OM()
	if !ok {
		return nil, fmt.Errorf("%w: compare function %d", ErrLayout, s.Compare)
	}
	d.Compare = cmp
	for i, w := range [...]sampler.Wrap{s.WrapS, s.WrapT, s.WrapR} {
		c, ok := w.SWTex()
		if !ok {
			return nil, fmt.Errorf("%w: wrap[%d] = %d", ErrLayout, i, w)
		}
		d.Wrap[i] = c
	}
	for _, f := range [...]float32{s.LODBias, s.MinLOD, s.MaxLOD, s.MaxAnisotropy} {
		if f != f {
			return nil, fmt.Errorf("%w: NaN LOD or anisotropy state", ErrLayout)
		}
	}
	if isInt(t.Format) {
		d.Border = s.BorderColorInt
	} else {
		for i, c := range s.BorderColor {
			d.Border[i] = math.Float32bits(c)
		}
	}
	bytes := t.Format.Info().Bytes
	var size uint64
	for i := range t.Levels {
		w, h, sl := d.LevelSize(i)
		l := &t.Levels[i]
		if uint32(l.W) != w || uint32(l.H) != h || uint32(l.D) != sl {
			return nil, fmt.Errorf("%w: level %d is %dx%dx%d, the chain from %dx%dx%d has %dx%dx%d",
				ErrLayout, i, l.W, l.H, l.D, d.Width, d.Height, d.Depth, w, h, sl)
		}
		size = (size + LevelAlign - 1) &^ (LevelAlign - 1)
		d.Level[i].Addr = size
		size += d.LevelExtent(i)
	}
	if size > 1<<31 {
		return nil, fmt.Errorf("%w: %d bytes", ErrLayout, size)
	}
	u := &Upload{Data: make([]byte, size)}
	for i := range t.Levels {
		l := &t.Levels[i]
		row := l.W * spp * bytes
		srcRow, srcSlice := l.RowPitch, l.SlicePitch
		if srcRow == 0 {
			srcRow = row
		}
		if srcSlice == 0 {
			srcSlice = srcRow * l.H
		}
		dst := u.Data[d.Level[i].Addr:]
		for z := range l.D {
			for y := range l.H {
				copy(dst[(z*l.H+y)*row:][:row], l.Data[z*srcSlice+y*srcRow:][:row])
			}
		}
	}
	// Round trip through the wire form: what the device decodes is what we built.
	b := make([]byte, abi.SWTexDescBytes)
	d.Put(b)
	back, err := abi.DecodeSWTexDesc(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrLayout, err)
	}
	u.Desc = back
	return u, nil
}

// PutTable encodes a descriptor table: entry i describes uploads[i] placed at
// device address bases[i]. The table is indexed by the program's sampler binding
// index (exec.TexRequest.Sampler) when a Sampler serves an executor.
// spec: vortexpipe-driver §2.5 (FS arg slot 1, the resident SW-sampler descriptors)
func PutTable(uploads []*Upload, bases []uint64) ([]byte, error) {
	if len(uploads) != len(bases) || len(uploads) > MaxUnits {
		return nil, fmt.Errorf("%w: %d uploads, %d bases (max %d)", ErrLayout, len(uploads), len(bases), MaxUnits)
	}
	b := make([]byte, len(uploads)*abi.SWTexDescBytes)
	for i, u := range uploads {
		if u == nil {
			return nil, fmt.Errorf("%w: upload %d is nil", ErrLayout, i)
		}
		if bases[i]%LevelAlign != 0 {
			return nil, fmt.Errorf("%w: upload %d at 0x%x is not %d-byte aligned", ErrLayout, i, bases[i], LevelAlign)
		}
		u.PutDescriptor(bases[i], b[i*abi.SWTexDescBytes:])
	}
	return b, nil
}
