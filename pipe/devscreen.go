package pipe

import (
	"encoding/binary"
	"fmt"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/gfx"
	"vortexgfx/ref/format"
	"vortexgfx/ref/sampler"
)

// devScreen is a screen's device backend: the gfx.ShaderDevice the device path
// draws on (opened at the first device draw, sized to the framebuffer), the
// programs and textures made resident on it, and which framebuffer surfaces its
// targets hold. ONE framebuffer state is kept across both paths: the device's
// targets are loaded from the attachments when a device draw follows host work,
// and read back into them only when host work (a reference draw, a host clear,
// a read, a write) follows device draws. spec: vortexpipe §1.3, §3.2 (the pass
// seeds its planes from the attachments), §3.5
type devScreen struct {
	mu   sync.Mutex // serialises the device and the framebuffer state
	cfg  config.Config
	sd   *gfx.ShaderDevice
	w, h int
	// programs added to sd
	added map[*gfx.ShaderProgram]bool
	// resident textures (gfx's own chain layout), by resource
	texs map[*Resource]*devTexture
	// fb is what the device's targets hold; hostStale says the device is newer.
	fb        devFB
	hostStale bool
	// stats
	targetLoads, targetReads, texUploads uint64
	// refTexs caches textures converted for the reference renderer.
	refTexs map[*Resource]*refTexEntry
}

type devTexture struct {
	version uint64
	serial  uint64
	dt      *gfx.DeviceTexture
	w, h    uint32
	px      []byte // level 0, A8R8G8B8
}

type refTexEntry struct {
	version, serial uint64
	tex             *sampler.Texture
}

// devSurface names an attachment image and the version the device holds.
type devSurface struct {
	r            *Resource
	level, layer int
	version      uint64
}

type devFB struct {
	valid bool
	color devSurface // r nil: no colour attachment
	zs    devSurface // r nil: none (the device depth is the far plane)
}

func surfaceKey(s *Surface) devSurface {
	if s == nil {
		return devSurface{}
	}
	s.Resource.mu.RLock()
	v := s.Resource.version
	s.Resource.mu.RUnlock()
	return devSurface{r: s.Resource, level: s.Level, layer: s.Layer, version: v}
}

// syncHost makes r's host storage current before it is read or written on the
// host: when the device holds newer contents of r, they are read back first.
func (s *Screen) syncHost(r *Resource) error {
	d := &s.be
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.hostStale || (d.fb.color.r != r && d.fb.zs.r != r) {
		return nil
	}
	return d.readBack()
}

// readBack copies the device targets into the surfaces they hold; the caller
// holds d.mu.
func (d *devScreen) readBack() error {
	if !d.hostStale {
		return nil
	}
	color, depth, err := d.sd.Targets()
	if err != nil {
		return fmt.Errorf("pipe: reading the device framebuffer: %w", err)
	}
	d.targetReads++
	fb := &Framebuffer{Width: d.w, Height: d.h}
	if c := d.fb.color; c.r != nil {
		sf := &Surface{Resource: c.r, Level: c.level, Layer: c.layer}
		buf := make([]byte, 4*len(color))
		bgra := c.r.desc.Format == format.BGRA8
		for i, w := range color {
			putColorWord(buf[4*i:], w, bgra)
		}
		if err := surfaceIO(sf, fb, buf, true); err != nil {
			return fmt.Errorf("pipe: device framebuffer colour: %w", err)
		}
		d.fb.color.version = c.r.versionNow()
	}
	if z := d.fb.zs; z.r != nil {
		sf := &Surface{Resource: z.r, Level: z.level, Layer: z.layer}
		buf := make([]byte, 4*len(depth))
		for i, w := range depth {
			binary.LittleEndian.PutUint32(buf[4*i:], w)
		}
		OMToD24S8(buf, buf)
		if err := surfaceIO(sf, fb, buf, true); err != nil {
			return fmt.Errorf("pipe: device framebuffer depth: %w", err)
		}
		d.fb.zs.version = z.r.versionNow()
	}
	d.hostStale = false
	return nil
}

func (r *Resource) versionNow() uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.version
}

// putColorWord stores an A8R8G8B8 device word as an RGBA8 or BGRA8 texel.
func putColorWord(p []byte, w uint32, bgra bool) {
	a, r, g, b := byte(w>>24), byte(w>>16), byte(w>>8), byte(w)
	if bgra {
		p[0], p[1], p[2], p[3] = b, g, r, a
	} else {
		p[0], p[1], p[2], p[3] = r, g, b, a
	}
}

// colorWord loads an RGBA8 or BGRA8 texel as an A8R8G8B8 device word.
func colorWord(p []byte, bgra bool) uint32 {
	if bgra {
		return binary.LittleEndian.Uint32(p)
	}
	return uint32(p[3])<<24 | uint32(p[0])<<16 | uint32(p[1])<<8 | uint32(p[2])
}

// open returns the device sized w×h, opening (or reopening for a new size) it;
// the caller holds d.mu and has read stale targets back. The residency table
// moves onto the device's runtime (its entries are re-uploaded on next use).
func (s *Screen) openDevice(w, h int) (*gfx.ShaderDevice, error) {
	d := &s.be
	if d.sd != nil && d.w == w && d.h == h {
		return d.sd, nil
	}
	if err := d.readBack(); err != nil {
		return nil, err
	}
	if d.sd != nil {
		d.closeDevice()
	}
	sd, err := gfx.OpenShaderDevice(d.cfg, w, h, nil)
	if err != nil {
		return nil, fmt.Errorf("pipe: open the device for a %dx%d framebuffer: %w", w, h, err)
	}
	d.sd, d.w, d.h = sd, w, h
	d.added = map[*gfx.ShaderProgram]bool{}
	d.fb = devFB{}
	s.res.rebind(sd.Runtime())
	return sd, nil
}

// closeDevice releases the device; the caller holds d.mu.
func (d *devScreen) closeDevice() {
	for _, t := range d.texs {
		_ = t.dt.Free()
	}
	d.texs = nil
	_ = d.sd.Close()
	d.sd = nil
	d.fb = devFB{}
	d.hostStale = false
}

// loadTargets makes the device's targets hold fb's colour attachment 0 and
// depth/stencil attachment, uploading them unless the device already holds
// those surfaces at their current versions. The caller holds d.mu.
func (d *devScreen) loadTargets(fb *Framebuffer) error {
	var cs, zs *Surface
	if len(fb.Cbufs) > 0 {
		cs = fb.Cbufs[0]
	}
	zs = fb.Zsbuf
	want := devFB{valid: true, color: surfaceKey(cs), zs: surfaceKey(zs)}
	if d.fb == want {
		return nil
	}
	if d.hostStale {
		// The device holds newer contents of other surfaces (a framebuffer
		// change): keep them before loading.
		if err := d.readBack(); err != nil {
			return err
		}
		want = devFB{valid: true, color: surfaceKey(cs), zs: surfaceKey(zs)}
		if d.fb == want {
			return nil
		}
	}
	n := fb.Width * fb.Height
	color := make([]uint32, n)
	depth := make([]uint32, n)
	if cs != nil {
		buf := make([]byte, 4*n)
		if err := surfaceIO(cs, fb, buf, false); err != nil {
			return fmt.Errorf("pipe: loading the device colour target: %w", err)
		}
		bgra := cs.Fmt() == format.BGRA8
		for i := range color {
			color[i] = colorWord(buf[4*i:], bgra)
		}
	}
	if zs != nil {
		buf := make([]byte, 4*n)
		if err := surfaceIO(zs, fb, buf, false); err != nil {
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
	if err := d.sd.SetTargets(color, depth); err != nil {
		return err
	}
	d.targetLoads++
	d.fb = want
	return nil
}

// addProgram makes p drawable on the device; the caller holds d.mu.
func (d *devScreen) addProgram(p *gfx.ShaderProgram) error {
	if d.added[p] {
		return nil
	}
	if err := d.sd.AddProgram(p); err != nil {
		return err
	}
	d.added[p] = true
	return nil
}

// evict drops r's device copies (Resource.Destroy).
func (d *devScreen) evict(r *Resource) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if t := d.texs[r]; t != nil {
		_ = t.dt.Free()
		delete(d.texs, r)
	}
	delete(d.refTexs, r)
	if d.fb.color.r == r || d.fb.zs.r == r {
		d.fb = devFB{}
		d.hostStale = false
	}
}

// refTex returns r converted for the reference renderer, converting again only
// after r changed.
func (s *Screen) refTex(r *Resource) (*sampler.Texture, error) {
	if err := s.syncHost(r); err != nil {
		return nil, err
	}
	d := &s.be
	d.mu.Lock()
	defer d.mu.Unlock()
	v := r.versionNow()
	if t := d.refTexs[r]; t != nil && t.version == v && t.serial == r.serial {
		return t.tex, nil
	}
	tex, err := refTexture(r)
	if err != nil {
		return nil, err
	}
	if d.refTexs == nil {
		d.refTexs = map[*Resource]*refTexEntry{}
	}
	d.refTexs[r] = &refTexEntry{version: v, serial: r.serial, tex: tex}
	return tex, nil
}

// Close releases the screen's device backend and residency entries.
func (s *Screen) Close() error {
	d := &s.be
	d.mu.Lock()
	defer d.mu.Unlock()
	s.res.Close()
	if d.sd != nil {
		d.closeDevice()
	}
	return nil
}
