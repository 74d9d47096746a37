package pipe

import (
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/device/swtex"
	"vortexgfx/gl/format"
)

// ResourceID names a resource within its screen. IDs of destroyed resources are
// reused (the lowest free one first), exactly as a freed host allocation can be
// handed back at the same address — the case the residency table must survive.
// spec: vortexpipe §1.3
type ResourceID uint32

// ErrDestroyed is returned for any use of a destroyed resource.
var ErrDestroyed = errors.New("pipe: resource destroyed")

// TextureDesc describes a texture resource (pipe_resource for a texture target).
type TextureDesc struct {
	Target    TextureTarget
	Format    format.Format
	Width     int
	Height    int // 1 for 1D
	Depth     int // 1 unless 3D
	ArraySize int // layers (6 per cube)
	Levels    int // mip levels, 1..
	// Samples is the sample count of a multisample 2D texture (0 or 1: single
	// sample; then 2, 4, 8 or 16 with one level, gl/msaa's counts), stored
	// sample-major within a pixel: texel (y*w+x)*Samples+k.
	// spec: vortexpipe §3.4.1
	Samples int
}

// samples is the stored samples per texel.
func (d TextureDesc) samples() int { return max(d.Samples, 1) }

// Resource is a buffer or texture with host backing (the llvmpipe-side storage
// of the spec); the device copy lives in the screen's residency table. Every host
// write marks the written range dirty there. spec: vortexpipe §1.3
type Resource struct {
	screen *Screen
	id     ResourceID
	serial uint64 // unique for the screen's lifetime, never reused
	buffer bool
	desc   TextureDesc

	mu        sync.RWMutex
	data      []byte
	destroyed bool
	// version counts host writes (Write, Clear, reference draws), so a copy of
	// the contents elsewhere (the device's framebuffer, a converted texture)
	// knows when it is stale.
	version uint64
	// cleared is the last clear written into a framebuffer area of r.
	cleared clearRecord
	// mipsGenerated is the version whose levels GenerateMipmap made, when
	// mipsValid.
	mipsGenerated uint64
	mipsValid     bool
}

// ID is the resource's (reusable) id.
func (r *Resource) ID() ResourceID { return r.id }

// IsBuffer reports whether r is a buffer (vertex, index, constant, indirect).
func (r *Resource) IsBuffer() bool { return r.buffer }

// Desc returns the texture description (the zero value for a buffer).
func (r *Resource) Desc() TextureDesc { return r.desc }

// Size is the host backing size in bytes.
func (r *Resource) Size() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.data)
}

// Write copies p into the resource at off (buffer_subdata / texture_subdata /
// transfer_unmap) and marks the range dirty in the residency table.
// spec: vortexpipe §1.3 (every host write path invalidates)
func (r *Resource) Write(off int, p []byte) error {
	if err := r.screen.syncHost(r); err != nil {
		return fmt.Errorf("pipe: write resource %d: %w", r.id, err)
	}
	r.mu.Lock()
	if r.destroyed {
		r.mu.Unlock()
		return fmt.Errorf("pipe: write resource %d: %w", r.id, ErrDestroyed)
	}
	if off < 0 || off > len(r.data) || len(p) > len(r.data)-off {
		n := len(r.data)
		r.mu.Unlock()
		return fmt.Errorf("pipe: write resource %d: [%d, %d) outside %d bytes", r.id, off, off+len(p), n)
	}
	copy(r.data[off:], p)
	r.version++
	r.mu.Unlock()
	r.screen.res.MarkDirty(r, uint64(off), uint64(len(p)))
	return nil
}

// Read copies the resource's bytes at off into p.
func (r *Resource) Read(off int, p []byte) error {
	if err := r.screen.syncHost(r); err != nil {
		return fmt.Errorf("pipe: read resource %d: %w", r.id, err)
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.destroyed {
		return fmt.Errorf("pipe: read resource %d: %w", r.id, ErrDestroyed)
	}
	if off < 0 || off > len(r.data) || len(p) > len(r.data)-off {
		return fmt.Errorf("pipe: read resource %d: [%d, %d) outside %d bytes", r.id, off, off+len(p), len(r.data))
	}
	// A frame's read-back copies whole attachments: in rows of 64 KiB on
	// every core (see inRows).
	const row = 1 << 16
	src := r.data[off : off+len(p)]
	inRows((len(p)+row-1)/row, row, func(y0, y1 int) {
		copy(p[y0*row:min(y1*row, len(p))], src[y0*row:])
	})
	return nil
}

// readHost calls fn with the resource's host bytes, current (read back from
// the device first when it holds newer ones) and read-locked for the call: one
// sync and one lock for a whole vertex stream instead of one per element. fn
// must not keep or modify the slice.
func (r *Resource) readHost(fn func(data []byte)) error {
	if err := r.screen.syncHost(r); err != nil {
		return fmt.Errorf("pipe: read resource %d: %w", r.id, err)
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.destroyed {
		return fmt.Errorf("pipe: read resource %d: %w", r.id, ErrDestroyed)
	}
	fn(r.data)
	return nil
}

// textureBytes is the backing size of a texture: every level of every layer,
// levels packed contiguously after each other.
func textureBytes(d TextureDesc) (int, error) {
	info := d.Format.Info()
	if !d.Format.Valid() || info.Bytes == 0 {
		return 0, fmt.Errorf("format %v unsupported", d.Format)
	}
	if d.Width < 1 || d.Height < 1 || d.Depth < 1 || d.ArraySize < 1 || d.Levels < 1 {
		return 0, fmt.Errorf("%dx%dx%d, %d layers, %d levels", d.Width, d.Height, d.Depth, d.ArraySize, d.Levels)
	}
	switch d.Samples {
	case 0, 1:
	case 2, 4, 8, 16:
		if d.Target != Target2D || d.Levels != 1 {
			return 0, fmt.Errorf("%d samples need a single-level 2D texture", d.Samples)
		}
	default:
		return 0, fmt.Errorf("%d samples", d.Samples)
	}
	maxDim := max(d.Width, d.Height, d.Depth)
	if d.Levels > bits.Len(uint(maxDim)) {
		return 0, fmt.Errorf("%d levels for a %d-texel texture", d.Levels, maxDim)
	}
	const limit = 1 << 31
	total := 0
	w, h, z := d.Width, d.Height, d.Depth
	for l := 0; l < d.Levels; l++ {
		lv := w * h * z * d.ArraySize * info.Bytes * d.samples()
		if lv > limit || total > limit-lv {
			return 0, fmt.Errorf("texture exceeds %d bytes", limit)
		}
		total += lv
		w, h, z = max(w/2, 1), max(h/2, 1), max(z/2, 1)
	}
	return total, nil
}

// TexInfo is what a bound texture means for the TEX unit: its FF encoding when it
// has one, and the routes/gates its target, format and size imply.
// spec: vortexpipe §3.6
type TexInfo struct {
	Format     abi.TexFormat // TEX_FORMAT (FF or software-sampler code)
	HasCode    bool          // Format is meaningful
	HostDecode bool          // uploaded converted to A8R8G8B8 (RGBA8 byte order)
	LogDim     uint32        // TEX_LOGDIM for power-of-two 2D textures
	Routes     []Reason
	Flags      []Reason
}

// ClassifyTexture derives the TEX view of a texture. spec: vortexpipe §3.6 table
func ClassifyTexture(d TextureDesc) TexInfo {
	var t TexInfo
	switch d.Target {
	case Target1D, Target2D:
	case TargetRect:
		t.Routes = append(t.Routes, Reason{RouteTexTarget, "RECT (unnormalized)"})
	case Target3D, TargetCube, Target1DArray, Target2DArray, TargetCubeArray:
		t.Routes = append(t.Routes, Reason{RouteTexTarget, d.Target.String()})
	default:
		t.Flags = append(t.Flags, Reason{GateTexTarget, d.Target.String()})
	}
	if d.samples() > 1 {
		// texelFetch of a sample (txf_ms) on the sample-major texture.
		t.Routes = append(t.Routes, Reason{RouteTexTarget, fmt.Sprintf("%d samples", d.samples())})
	}
	t.HasCode = true
	switch d.Format {
	case format.BGRA8:
		t.Format = abi.TexA8R8G8B8
	case format.RGBA8:
		t.Format, t.HostDecode = abi.TexA8R8G8B8, true
	case format.SRGB8A8:
		t.Format = abi.TexSRGB8A8
	case format.R8:
		t.Format = abi.TexR8
	case format.RG8:
		t.Format = abi.TexRG8
	case format.RGBA16F:
		t.Format = abi.TexRGBA16F
	case format.R32F:
		t.Format = abi.TexR32F
	case format.RG32F:
		t.Format = abi.TexRG32F
	case format.RGBA32F:
		t.Format = abi.TexRGBA32F
	case format.D16:
		t.Format = abi.TexD16
	case format.D32F, format.D24S8:
		t.Format = abi.TexD32F // D24S8: the depth aspect converted to f32 on upload
	case format.RGBA8I, format.RGBA8UI:
		t.HasCode = false // fetched as raw int8 words by the software sampler
		t.Routes = append(t.Routes, Reason{RouteTexFormat, d.Format.String()})
	default:
		t.HasCode = false
		if _, ok := swtex.FormatCode(d.Format); ok {
			// Wider integer, snorm, unorm16, half and stencil formats:
			// the software sampler decodes them.
			t.Routes = append(t.Routes, Reason{RouteTexFormat, d.Format.String()})
		} else {
			t.Flags = append(t.Flags, Reason{GateTexFormat, d.Format.String()})
		}
	}
	if t.HasCode && !t.Format.FixedFunction() {
		t.Routes = append(t.Routes, Reason{RouteTexFormat, d.Format.String()})
	}
	w, h := d.Width, d.Height
	if w&(w-1) != 0 || h&(h-1) != 0 {
		t.Routes = append(t.Routes, Reason{RouteTexNPOT, fmt.Sprintf("%dx%d", w, h)})
	} else {
		lw, lh := abi.CeilLog2(w), abi.CeilLog2(h)
		if lw > 15 || lh > 15 {
			t.Routes = append(t.Routes, Reason{RouteTexSize, fmt.Sprintf("%dx%d", w, h)})
		}
		t.LogDim = abi.PackTexLogDim(uint32(lw), uint32(lh))
	}
	return t
}
