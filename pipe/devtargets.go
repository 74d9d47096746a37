package pipe

import (
	"encoding/binary"
	"fmt"
	"slices"

	"vortexgfx/abi"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/format"
)

// The device's render targets mirror the framebuffer. A framebuffer of one
// RGBA8 or BGRA8 colour attachment with an optional D24S8 one runs on the
// device's default planes (A8R8G8B8 and the OM's D24S8 word), which the host
// can load with any contents. Any other framebuffer — several attachments,
// sRGB/R8/RG8/float/integer colour, D16/D32F/S8 depth, MSAA — gets planes of
// its own formats (shaderdev.TargetConfig), which the driver fills with a clear when
// the attachment's contents are a recorded clear value and seeds with the
// contents otherwise (one sample per pixel, so a multisample attachment whose
// samples differ within a pixel cannot be reloaded).
// spec: vortexpipe §3.2 (the pass seeds its planes), §3.4.1, §3.7

// devConf is the device's geometry: the framebuffer size and its targets.
type devConf struct {
	w, h int
	dflt bool // the default planes (word-loadable)
	tc   shaderdev.TargetConfig
}

func (a devConf) equal(b devConf) bool {
	return a.w == b.w && a.h == b.h && a.dflt == b.dflt && a.tc.NoColor == b.tc.NoColor && slices.Equal(a.tc.Colors, b.tc.Colors) &&
		a.tc.Depth == b.tc.Depth && a.tc.NoDepth == b.tc.NoDepth && a.tc.Samples == b.tc.Samples
}

// omDepth maps a depth/stencil format to the merger's.
func omDepth(f format.Format) (abi.OMDepthFormat, bool) {
	switch f {
	case format.D24S8:
		return abi.OMDepthD24S8, true
	case format.D16:
		return abi.OMDepthD16, true
	case format.D32F:
		return abi.OMDepthD32F, true
	case format.S8:
		return abi.OMDepthS8, true
	}
	return 0, false
}

// targetConfig derives the device's targets from a framebuffer, or says why the
// device cannot hold it.
func targetConfig(fb *Framebuffer) (devConf, string) {
	c := devConf{w: fb.Width, h: fb.Height}
	samples := max(fb.Samples, 1)
	if fb.Width > 4096 || fb.Height > 4096 {
		return c, fmt.Sprintf("framebuffer %dx%d beyond the device target's 4096", fb.Width, fb.Height)
	}
	if len(fb.Cbufs) > swom.MaxTargets || len(fb.Cbufs) == 0 && fb.Zsbuf == nil {
		return c, fmt.Sprintf("%d colour attachments (the device takes 1 to %d, or none with a depth/stencil attachment)", len(fb.Cbufs), swom.MaxTargets)
	}
	// No colour attachment: a depth-only pass (shaderdev.TargetConfig.NoColor).
	c.tc.NoColor = len(fb.Cbufs) == 0
	for i, s := range fb.Cbufs {
		if s == nil {
			return c, fmt.Sprintf("colour attachment %d unbound", i)
		}
		if n := s.Resource.desc.samples(); n != samples {
			return c, fmt.Sprintf("colour attachment %d has %d samples, the framebuffer %d", i, n, samples)
		}
		c.tc.Colors = append(c.tc.Colors, s.Fmt())
	}
	c.tc.Samples = samples
	if z := fb.Zsbuf; z != nil {
		f, ok := omDepth(z.Fmt())
		if !ok {
			return c, fmt.Sprintf("depth/stencil attachment %v", z.Fmt())
		}
		if n := z.Resource.desc.samples(); n != samples {
			return c, fmt.Sprintf("depth/stencil attachment has %d samples, the framebuffer %d", n, samples)
		}
		c.tc.Depth = f
	} else {
		c.tc.NoDepth = true
	}
	if len(c.tc.Colors) == 1 && (c.tc.Colors[0] == format.RGBA8 || c.tc.Colors[0] == format.BGRA8) && samples == 1 &&
		(fb.Zsbuf == nil || c.tc.Depth == abi.OMDepthD24S8) {
		c.dflt, c.tc = true, shaderdev.TargetConfig{}
	}
	return c, ""
}

// clearRecord remembers that a surface's framebuffer area holds one clear
// value, so the device can recreate it with a clear instead of an upload.
type clearRecord struct {
	ok           bool
	version      uint64
	level, layer int
	w, h         int
	color        [4]float32
	depth        float32
	stencil      uint8
}

// recordClear notes the clear just written into s (the caller holds no lock).
func recordClear(s *Surface, fb *Framebuffer, rec clearRecord) {
	r := s.Resource
	r.mu.Lock()
	rec.ok, rec.version, rec.level, rec.layer, rec.w, rec.h = true, r.version, s.Level, s.Layer, fb.Width, fb.Height
	r.cleared = rec
	r.mu.Unlock()
}

// clearOf returns the clear value s's framebuffer area holds, if known.
func clearOf(s *Surface, fb *Framebuffer) (clearRecord, bool) {
	r := s.Resource
	r.mu.RLock()
	defer r.mu.RUnlock()
	c := r.cleared
	ok := c.ok && c.version == r.version && c.level == s.Level && c.layer == s.Layer && c.w == fb.Width && c.h == fb.Height
	return c, ok
}

// fbKey names the surfaces of fb at their current versions.
func fbKey(fb *Framebuffer) devFB {
	k := devFB{valid: true}
	for _, s := range fb.Cbufs {
		k.colors = append(k.colors, surfaceKey(s))
	}
	k.zs = surfaceKey(fb.Zsbuf)
	return k
}

func (a devFB) equal(b devFB) bool {
	return a.valid == b.valid && a.zs == b.zs && slices.Equal(a.colors, b.colors)
}

// holds reports whether the device's targets hold r.
func (a devFB) holds(r *Resource) bool {
	if a.zs.r == r {
		return true
	}
	for _, c := range a.colors {
		if c.r == r {
			return true
		}
	}
	return false
}

// loadable says why fb's attachments cannot be put on the device's planes of
// its own formats ("" when they can): a recorded clear is recreated with a
// clear, any other single-sample contents (and multisample contents whose
// samples agree in every pixel) are written into the planes; a multisample
// attachment whose samples differ cannot be seeded, since a plane is seeded
// from one sample per pixel. When the device holds newer contents of one of
// the attachments they are read back first. The caller holds d.mu.
// spec: vortexpipe §3.2 (the pass seeds its planes), §3.4.1
func (d *devScreen) loadable(fb *Framebuffer, conf devConf) string {
	if conf.dflt || d.sd != nil && d.conf.equal(conf) && d.fb.equal(fbKey(fb)) {
		return ""
	}
	if d.hostStale {
		for _, s := range append(append([]*Surface(nil), fb.Cbufs...), fb.Zsbuf) {
			if s != nil && d.fb.holds(s.Resource) {
				if err := d.readBack(); err != nil {
					return fmt.Sprintf("reading the device's planes back: %v", err)
				}
				break
			}
		}
	}
	for i, s := range fb.Cbufs {
		if _, ok := clearOf(s, fb); ok {
			continue
		}
		if _, why := seedImage(s, fb); why != "" {
			return fmt.Sprintf("colour attachment %d (%v): %s", i, s.Fmt(), why)
		}
	}
	if z := fb.Zsbuf; z != nil {
		if _, ok := clearOf(z, fb); !ok {
			if _, why := seedImage(z, fb); why != "" {
				return fmt.Sprintf("depth/stencil attachment (%v): %s", z.Fmt(), why)
			}
		}
	}
	return ""
}

// seedImage returns the framebuffer area of s as a single-sample image in the
// plane's format (D24S8 as the merger's word), or why it cannot: a
// multisample attachment qualifies only when every pixel's samples agree.
func seedImage(s *Surface, fb *Framebuffer) ([]byte, string) {
	n := s.Resource.desc.samples()
	bpp := s.Fmt().Info().Bytes
	buf := make([]byte, fb.Width*fb.Height*bpp*n)
	if err := surfaceRows(s, fb, buf, false); err != nil {
		return nil, err.Error()
	}
	if n > 1 {
		px := fb.Width * fb.Height
		for p := 0; p < px; p++ {
			texels := buf[p*n*bpp : (p+1)*n*bpp]
			for k := 1; k < n; k++ {
				if !slices.Equal(texels[:bpp], texels[k*bpp:(k+1)*bpp]) {
					return nil, fmt.Sprintf("pixel (%d, %d) holds %d different samples, and a plane is seeded from one sample per pixel", p%fb.Width, p/fb.Width, n)
				}
			}
			copy(buf[p*bpp:(p+1)*bpp], texels[:bpp])
		}
		buf = buf[:px*bpp]
	}
	if s.Fmt() == format.D24S8 {
		D24S8ToOM(buf, buf)
	}
	return buf, ""
}

// loadTargets makes the device's planes hold fb's attachments, unless they
// already hold those surfaces at their current versions: the default planes
// are written from the host, the others recreated from their clear values or
// seeded with the attachments' contents (shaderdev.Device.WriteTarget/WriteDepthStencil).
// The caller holds d.mu and has opened the device for fb.
// spec: vortexpipe §3.2
func (d *devScreen) loadTargets(fb *Framebuffer) error {
	want := fbKey(fb)
	if d.fb.equal(want) {
		return nil
	}
	if d.hostStale {
		// The device holds newer contents of other surfaces (a framebuffer
		// change): keep them before loading.
		if err := d.readBack(); err != nil {
			return err
		}
		if want = fbKey(fb); d.fb.equal(want) {
			return nil
		}
	}
	if d.conf.dflt {
		if err := d.loadDefault(fb); err != nil {
			return err
		}
	} else {
		for i, s := range fb.Cbufs {
			if c, ok := clearOf(s, fb); ok {
				if err := d.sd.ClearTarget(i, c.color); err != nil {
					return err
				}
				continue
			}
			img, why := seedImage(s, fb)
			if why != "" {
				return fmt.Errorf("pipe: colour attachment %d: %s", i, why)
			}
			if err := d.sd.WriteTarget(i, img); err != nil {
				return fmt.Errorf("pipe: loading colour attachment %d: %w", i, err)
			}
		}
		if z := fb.Zsbuf; z != nil {
			if c, ok := clearOf(z, fb); ok {
				if err := d.sd.ClearDepthStencil(c.depth, c.stencil); err != nil {
					return err
				}
			} else {
				img, why := seedImage(z, fb)
				if why != "" {
					return fmt.Errorf("pipe: depth/stencil attachment: %s", why)
				}
				if err := d.sd.WriteDepthStencil(img); err != nil {
					return fmt.Errorf("pipe: loading the depth/stencil attachment: %w", err)
				}
			}
		}
	}
	d.targetLoads++
	d.fb = want
	return nil
}

// loadDefault writes colour attachment 0 and the depth/stencil attachment into
// the default planes.
func (d *devScreen) loadDefault(fb *Framebuffer) error {
	n := fb.Width * fb.Height
	color := make([]uint32, n)
	depth := make([]uint32, n)
	cs := fb.Cbufs[0]
	buf := make([]byte, 4*n)
	if err := surfaceRows(cs, fb, buf, false); err != nil {
		return fmt.Errorf("pipe: loading the device colour target: %w", err)
	}
	bgra := cs.Fmt() == format.BGRA8
	for i := range color {
		color[i] = colorWord(buf[4*i:], bgra)
	}
	if zs := fb.Zsbuf; zs != nil {
		if err := surfaceRows(zs, fb, buf, false); err != nil {
			return fmt.Errorf("pipe: loading the device depth target: %w", err)
		}
		D24S8ToOM(buf, buf)
		for i := range depth {
			depth[i] = binary.LittleEndian.Uint32(buf[4*i:])
		}
	} else {
		for i := range depth {
			depth[i] = abi.DepthMask
		}
	}
	return d.sd.SetTargets(color, depth)
}

// readBack copies the device's planes into the surfaces they hold; the caller
// holds d.mu.
func (d *devScreen) readBack() error {
	if !d.hostStale {
		return nil
	}
	fb := &Framebuffer{Width: d.conf.w, Height: d.conf.h}
	store := func(ds devSurface, buf []byte) error {
		sf := &Surface{Resource: ds.r, Level: ds.level, Layer: ds.layer}
		return surfaceRows(sf, fb, buf, true)
	}
	if d.conf.dflt {
		color, depth, err := d.sd.Targets()
		if err != nil {
			return fmt.Errorf("pipe: reading the device framebuffer: %w", err)
		}
		if c := d.fb.colors[0]; c.r != nil {
			buf := make([]byte, 4*len(color))
			bgra := c.r.desc.Format == format.BGRA8
			for i, w := range color {
				putColorWord(buf[4*i:], w, bgra)
			}
			if err := store(c, buf); err != nil {
				return fmt.Errorf("pipe: device framebuffer colour: %w", err)
			}
		}
		if z := d.fb.zs; z.r != nil {
			buf := make([]byte, 4*len(depth))
			for i, w := range depth {
				binary.LittleEndian.PutUint32(buf[4*i:], w)
			}
			OMToD24S8(buf, buf)
			if err := store(z, buf); err != nil {
				return fmt.Errorf("pipe: device framebuffer depth: %w", err)
			}
		}
	} else {
		for i, c := range d.fb.colors {
			read := d.sd.ReadTarget
			if d.conf.tc.Samples > 1 {
				read = d.sd.ReadSamples
			}
			buf, err := read(i)
			if err != nil {
				return fmt.Errorf("pipe: reading device colour target %d: %w", i, err)
			}
			if err := store(c, buf); err != nil {
				return fmt.Errorf("pipe: device colour target %d: %w", i, err)
			}
		}
		if z := d.fb.zs; z.r != nil {
			buf, err := d.sd.ReadDepthStencil()
			if err != nil {
				return fmt.Errorf("pipe: reading the device depth/stencil plane: %w", err)
			}
			if d.conf.tc.Depth == abi.OMDepthD24S8 {
				OMToD24S8(buf, buf)
			}
			if err := store(z, buf); err != nil {
				return fmt.Errorf("pipe: device depth/stencil plane: %w", err)
			}
		}
	}
	d.targetReads++
	for i := range d.fb.colors {
		d.fb.colors[i].version = d.fb.colors[i].r.versionNow()
	}
	if d.fb.zs.r != nil {
		d.fb.zs.version = d.fb.zs.r.versionNow()
	}
	d.hostStale = false
	return nil
}

// clearPlanes clears the device's planes when they hold exactly fb's current
// attachments and the clear covers whole planes; it reports whether it did.
// The caller holds d.mu.
func (d *devScreen) clearPlanes(fb *Framebuffer, flags ClearFlags, color [4]float32, depth float32, stencil uint8) (bool, error) {
	conf, why := targetConfig(fb)
	if why != "" || d.sd == nil || !d.conf.equal(conf) || !d.fb.equal(fbKey(fb)) {
		return false, nil
	}
	zsAll := false
	if z := fb.Zsbuf; z != nil {
		f := z.Fmt()
		var need ClearFlags
		if f.IsDepth() {
			need |= ClearDepth
		}
		if f.HasStencil() {
			need |= ClearStencil
		}
		if flags&(ClearDepth|ClearStencil) != 0 && flags&need != need {
			return false, nil // a partial depth/stencil clear runs on the host
		}
		zsAll = flags&need == need
	}
	for i := range fb.Cbufs {
		if flags&(ClearColor0<<i) == 0 {
			continue
		}
		if err := d.sd.ClearTarget(i, color); err != nil {
			return false, err
		}
	}
	if zsAll {
		if err := d.sd.ClearDepthStencil(depth, stencil); err != nil {
			return false, err
		}
	}
	d.hostStale = true
	return true, nil
}

// surfaceRows copies the framebuffer area of s (every sample of a multisample
// texture, sample-major) to (store false) or from (store true) buf, tightly
// packed, row 0 window y = 0. A store bumps the resource's version and marks
// the range dirty.
func surfaceRows(s *Surface, fb *Framebuffer, buf []byte, store bool) error {
	r := s.Resource
	d := r.desc
	bpp := s.Fmt().Info().Bytes * d.samples()
	if s.Fmt().Info().Bytes != d.Format.Info().Bytes {
		return fmt.Errorf("view format %v does not match the %v texture", s.Fmt(), d.Format)
	}
	off, _, err := d.ImageOffset(s.Level, s.Layer)
	if err != nil {
		return err
	}
	w, _, _ := d.LevelSize(s.Level)
	pitch, row := w*bpp, fb.Width*bpp
	if len(buf) < fb.Height*row {
		return fmt.Errorf("%d bytes for a %dx%d area of %d-byte texels", len(buf), fb.Width, fb.Height, bpp)
	}
	if !store {
		r.mu.RLock()
		defer r.mu.RUnlock()
		if r.destroyed {
			return ErrDestroyed
		}
		for y := 0; y < fb.Height; y++ {
			copy(buf[y*row:(y+1)*row], r.data[off+y*pitch:])
		}
		return nil
	}
	r.mu.Lock()
	if r.destroyed {
		r.mu.Unlock()
		return ErrDestroyed
	}
	for y := 0; y < fb.Height; y++ {
		copy(r.data[off+y*pitch:off+y*pitch+row], buf[y*row:(y+1)*row])
	}
	r.version++
	r.mu.Unlock()
	// The residency lock is taken after the resource's is released (Resolve
	// takes them in the other order).
	r.screen.res.MarkDirty(r, uint64(off), uint64((fb.Height-1)*pitch+row))
	return nil
}
