package pipe

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/gl/format"
)

// LevelSize returns the texel dimensions of a mip level.
func (d TextureDesc) LevelSize(level int) (w, h, z int) {
	return max(d.Width>>level, 1), max(d.Height>>level, 1), max(d.Depth>>level, 1)
}

// ImageOffset returns the byte offset and size of one 2D image (a layer, cube
// face or 3D slice) of a level in the resource's backing: levels one after the
// other, each level's images contiguous, rows tightly packed.
func (d TextureDesc) ImageOffset(level, layer int) (off, size int, err error) {
	if level < 0 || level >= d.Levels {
		return 0, 0, fmt.Errorf("pipe: level %d of %d", level, d.Levels)
	}
	bpp := d.Format.Info().Bytes
	for l := 0; l < level; l++ {
		w, h, z := d.LevelSize(l)
		off += w * h * z * d.ArraySize * bpp
	}
	w, h, z := d.LevelSize(level)
	if layer < 0 || layer >= z*d.ArraySize {
		return 0, 0, fmt.Errorf("pipe: layer %d of %d at level %d", layer, z*d.ArraySize, level)
	}
	size = w * h * bpp * d.samples()
	return off + layer*size, size, nil
}

// ClearFlags selects the buffers Clear writes (PIPE_CLEAR_*).
type ClearFlags uint16

// The clear bits: depth, stencil, and colour attachment i as ClearColor0 << i.
const (
	ClearDepth   ClearFlags = 1 << 0
	ClearStencil ClearFlags = 1 << 1
	ClearColor0  ClearFlags = 1 << 2
	ClearColor   ClearFlags = 0xFF << 2
)

// Clear fills the bound attachments' framebuffer area. When the device's
// targets hold exactly the bound attachments and the clear covers all of them it
// runs on the device; otherwise it writes host memory (the attachment's storage,
// as the pass's loadOp=CLEAR lands there before the device seeds its planes,
// vortexpipe §3.2) after reading newer device contents back, and marks the
// written range dirty in the residency table. Colour is encoded per attachment
// format (sRGB encoded, integer formats take the colour's integer values); depth
// and stencil clear independently, keeping the other aspect of a D24S8 texel.
func (c *Context) Clear(flags ClearFlags, color [4]float32, depth float32, stencil uint8) error {
	st := c.Bound()
	fb := &st.FB
	if fb.Width < 1 {
		return fmt.Errorf("pipe: clear without a framebuffer")
	}
	if n := fbLayers(fb); n > 0 {
		// Every layer of a layered attachment (layered.go).
		for k := range n {
			lfb := atLayer(*fb, k)
			if err := c.clearHost(&lfb, flags, color, depth, stencil); err != nil {
				return err
			}
		}
		return nil
	}
	if done, err := c.clearOnDevice(fb, flags, color, depth, stencil); err != nil || done {
		return err
	}
	return c.clearHost(fb, flags, color, depth, stencil)
}

// clearHost is Clear in host memory.
func (c *Context) clearHost(fb *Framebuffer, flags ClearFlags, color [4]float32, depth float32, stencil uint8) error {
	if err := c.hostCurrent(); err != nil {
		return err
	}
	for i, s := range fb.Cbufs {
		if s == nil || flags&(ClearColor0<<i) == 0 {
			continue
		}
		f := s.Fmt()
		var raw format.Raw
		if f.IsInteger() {
			raw = format.FromInt(f, [4]uint32{uint32(int32(color[0])), uint32(int32(color[1])), uint32(int32(color[2])), uint32(int32(color[3]))})
		} else {
			raw = format.FromFloat(f, color)
		}
		if err := c.clearSurface(s, fb, i, true, func(px []byte) { format.Pack(f, px, raw) }); err != nil {
			return fmt.Errorf("pipe: clear colour %d: %w", i, err)
		}
		recordClear(s, fb, clearRecord{color: color})
	}
	if z := fb.Zsbuf; z != nil && flags&(ClearDepth|ClearStencil) != 0 {
		f := z.Fmt()
		// A clear of every aspect writes one texel value.
		every := (flags&ClearDepth != 0 || !f.IsDepth()) && (flags&ClearStencil != 0 || !f.HasStencil())
		err := c.clearSurface(z, fb, -1, every, func(px []byte) {
			if flags&ClearDepth != 0 && f.IsDepth() {
				format.PackDepth(f, px, depth)
			}
			if flags&ClearStencil != 0 && f.HasStencil() {
				format.PackStencil(f, px, stencil)
			}
		})
		if err != nil {
			return fmt.Errorf("pipe: clear depth/stencil: %w", err)
		}
		// Only a clear of every aspect makes the plane one known value.
		if (flags&ClearDepth != 0 || !f.IsDepth()) && (flags&ClearStencil != 0 || !f.HasStencil()) {
			recordClear(z, fb, clearRecord{depth: depth, stencil: stencil})
		}
	}
	return nil
}

// fillSurface applies put to every texel of the framebuffer area of s. With
// uniform set the texel's new bytes do not depend on what it overwrites (a
// clear of every aspect): put packs the first texel only, and its bytes are
// copied across the area, instead of packing the same bytes width × height
// times.
func fillSurface(s *Surface, fb *Framebuffer, uniform bool, put func(px []byte), m *mirror) error {
	r := s.Resource
	d := r.desc
	f := s.Fmt()
	bpp := f.Info().Bytes
	if bpp != d.Format.Info().Bytes {
		return fmt.Errorf("view format %v does not match the %v texture", f, d.Format)
	}
	off, _, err := d.ImageOffset(s.Level, s.Layer)
	if err != nil {
		return err
	}
	if fb.Width < 1 || fb.Height < 1 {
		return nil
	}
	w, _, _ := d.LevelSize(s.Level)
	spp := d.samples()
	pitch, n := w*bpp*spp, fb.Width*spp*bpp
	r.mu.Lock()
	if r.destroyed {
		r.mu.Unlock()
		return ErrDestroyed
	}
	// The mirror takes the same writes when it may (see mirror): a uniform
	// fill makes it whole whatever it held, a per-texel one needs it to hold
	// the resource's bytes already.
	mirrored := m != nil && spp == 1 && len(m.buf) == fb.Height*n && (uniform || m.held && m.version == r.version)
	if uniform {
		first := r.data[off : off+n]
		put(first[:bpp])
		for k := bpp; k < n; k *= 2 {
			copy(first[k:], first[:k])
		}
		inRows(fb.Height, n, func(y0, y1 int) {
			if pitch == n {
				// Contiguous rows: the band doubles from its first row,
				// in copies large enough for memmove's streaming stores.
				fillBand(r.data[off+y0*n:off+y1*n], first, y0 == 0)
			} else {
				for y := max(y0, 1); y < y1; y++ {
					copy(r.data[off+y*pitch:off+y*pitch+n], first)
				}
			}
			if mirrored {
				fillBand(m.buf[y0*n:y1*n], first, false)
			}
		})
	} else {
		for y := 0; y < fb.Height; y++ {
			row := r.data[off+y*pitch:]
			for x := 0; x < fb.Width*spp; x++ {
				put(row[x*bpp : (x+1)*bpp])
			}
			if mirrored {
				copy(m.buf[y*n:(y+1)*n], row[:n])
			}
		}
	}
	r.version++
	if mirrored {
		m.version, m.ok = r.version, true
	}
	r.mu.Unlock()
	r.screen.res.MarkDirty(r, uint64(off), uint64((fb.Height-1)*pitch+n))
	return nil
}

// fillBand fills band, whole rows of len(first) bytes, with copies of first:
// the first row copied in (unless has says it holds first already), then the
// filled prefix doubled, so a band of many rows takes few large copies
// instead of one per row.
func fillBand(band, first []byte, has bool) {
	n := len(first)
	if len(band) < n {
		return
	}
	if !has {
		copy(band[:n], first)
	}
	for k := n; k < len(band); k *= 2 {
		copy(band[k:], band[:k])
	}
}

// TexUpload lays a texture out for the fixed-function TEX unit: every level's
// first image in A8R8G8B8 words (an RGBA8 texture swizzled on the host), levels
// contiguous, and the MIPOFF byte offsets, the entries past the chain repeating
// the last level as the newer gfx_tex does (the shader clamps its LOD to the view's
// levels). It refuses a texture ClassifyTexture does not keep on the unit.
// spec: vortexpipe §3.3 step 3, §3.6; vortex-hardware-facts §4
func TexUpload(r *Resource) (img []byte, mipOff [abi.TexMaxLevels]uint32, err error) {
	d := r.Desc()
	ti := ClassifyTexture(d)
	if len(ti.Routes)+len(ti.Flags) != 0 || !ti.HasCode || !ti.Format.FixedFunction() {
		return nil, mipOff, fmt.Errorf("pipe: TexUpload: %v %v %dx%d is not a TEX-unit texture", d.Target, d.Format, d.Width, d.Height)
	}
	levels := min(d.Levels, abi.TexMaxLevels)
	total := 0
	for l := 0; l < levels; l++ {
		_, size, err := d.ImageOffset(l, 0)
		if err != nil {
			return nil, mipOff, err
		}
		total += size
	}
	img = make([]byte, 0, total)
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.destroyed {
		return nil, mipOff, ErrDestroyed
	}
	for l := 0; l < abi.TexMaxLevels; l++ {
		if l >= levels {
			mipOff[l] = mipOff[levels-1]
			continue
		}
		off, size, _ := d.ImageOffset(l, 0)
		mipOff[l] = uint32(len(img))
		start := len(img)
		img = append(img, r.data[off:off+size]...)
		if ti.HostDecode {
			for p := start; p < len(img); p += 4 {
				img[p], img[p+2] = img[p+2], img[p]
			}
		}
	}
	return img, mipOff, nil
}

// D24S8ToOM converts D24S8 texels as stored in a Resource (GL's UNSIGNED_INT_24_8:
// depth in bits 31..8, stencil in 7..0) into the OM's word (stencil [31:24],
// depth [23:0]), for seeding a pass's resident depth plane; len(dst) must be at
// least len(src), a multiple of 4. spec: vortexpipe §3.2 (depth/stencil seed);
// vortex-hardware-facts §5 (D24S8 word)
func D24S8ToOM(dst, src []byte) {
	for i := 0; i+4 <= len(src); i += 4 {
		w := binary.LittleEndian.Uint32(src[i:])
		binary.LittleEndian.PutUint32(dst[i:], w>>8|(w&0xFF)<<abi.StencilShift)
	}
}

// OMToD24S8 is the inverse of D24S8ToOM, for reading a depth plane back.
func OMToD24S8(dst, src []byte) {
	for i := 0; i+4 <= len(src); i += 4 {
		w := binary.LittleEndian.Uint32(src[i:])
		binary.LittleEndian.PutUint32(dst[i:], (w&abi.DepthMask)<<8|w>>abi.StencilShift)
	}
}

// rowsPerGoroutine is the least work, in bytes, worth a goroutine of its own
// in inRows: below it the start-up costs more than the bytes take to move.
const rowsPerGoroutine = 1 << 20

// inRows calls fn over rows [0, h) of rowBytes bytes each, split into
// contiguous ranges run concurrently (at most GOMAXPROCS, and one per
// rowsPerGoroutine bytes), for fills and copies of whole attachments that
// one core's memory bandwidth would otherwise serialise. fn must write only
// its own rows, so the bytes are the same however the rows are split.
func inRows(h, rowBytes int, fn func(y0, y1 int)) {
	k := min(runtime.GOMAXPROCS(0), max(h*rowBytes/rowsPerGoroutine, 1), h, 8)
	if k <= 1 {
		fn(0, h)
		return
	}
	var wg sync.WaitGroup
	for i := range k {
		wg.Go(func() { fn(i*h/k, (i+1)*h/k) })
	}
	wg.Wait()
}
