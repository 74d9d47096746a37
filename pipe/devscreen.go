package pipe

import (
	"encoding/binary"
	"fmt"
	"sync"

	"vortexgfx/config"
	"vortexgfx/gfx/session"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/sampler"
	"vortexgfx/runtime"
)

// devScreen is a screen's device backend: the shaderdev.Device the device path
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
	sd   *shaderdev.Device
	conf devConf
	// programs added to sd
	added map[*shaderdev.Program]bool
	// resident textures: shaderdev's FF chain by resource, and the software
	// sampler's layout by resource and sampler state
	texs   map[*Resource]*devTexture
	swTexs map[swTexKey]*devTexture
	// fb is what the device's targets hold; hostStale says the device is newer.
	fb        devFB
	hostStale bool
	// stats
	targetLoads, targetReads, texUploads, indexUploads uint64
	// derived holds translated u32 index lists of index buffers (u8/u16
	// widened, strips and fans as lists, restart resolved), oldest first.
	derived     map[derivedKey]*runtime.Buffer
	derivedFIFO []derivedKey
	// refTexs caches textures converted for the reference renderer.
	refTexs map[*Resource]*refTexEntry
	// kernels are the front-end kernels' machine-code counters of the
	// devices closed so far (cores = "isa"; the open one's are added).
	kernels map[string]session.KernelStats
}

type devTexture struct {
	version uint64
	serial  uint64
	dt      *shaderdev.ResidentTexture
	w, h    uint32
	px      []byte // level 0, A8R8G8B8
}

// derivedKey names one translation of an index buffer's contents.
type derivedKey struct {
	r                  *Resource
	serial, version    uint64
	mode               PrimMode
	size               int
	start, count       uint32
	restart, provFirst bool
	restartIndex       uint32
}

// maxDerived bounds the translated index lists kept resident.
const maxDerived = 64

// derivedIndices returns a device buffer holding the translated list idx of
// info's index buffer, uploading it only when this translation of the
// buffer's current contents is not resident. The caller holds d.mu.
func (d *devScreen) derivedIndices(info *DrawInfo, dd DirectDraw, provFirst bool, idx []uint32) (*runtime.Buffer, error) {
	r := info.Index
	k := derivedKey{r: r, serial: r.serial, version: r.versionNow(), mode: info.Mode, size: info.IndexSize,
		start: dd.Start, count: dd.Count, restart: info.PrimitiveRestart, provFirst: provFirst, restartIndex: info.RestartIndex}
	if b := d.derived[k]; b != nil {
		return b, nil
	}
	dev := d.sd.Runtime()
	b, err := dev.Alloc(uint64(4 * len(idx)))
	if err != nil {
		return nil, err
	}
	raw := make([]byte, 4*len(idx))
	for i, v := range idx {
		binary.LittleEndian.PutUint32(raw[4*i:], v)
	}
	if err := dev.Write(b, 0, raw); err != nil {
		_ = b.Free()
		return nil, err
	}
	if d.derived == nil {
		d.derived = map[derivedKey]*runtime.Buffer{}
	}
	if len(d.derivedFIFO) >= maxDerived {
		old := d.derivedFIFO[0]
		d.derivedFIFO = d.derivedFIFO[1:]
		if ob := d.derived[old]; ob != nil {
			_ = ob.Free()
			delete(d.derived, old)
		}
	}
	d.derived[k] = b
	d.derivedFIFO = append(d.derivedFIFO, k)
	d.indexUploads++
	return b, nil
}

// dropDerived frees the translated lists of r (all of them for nil).
func (d *devScreen) dropDerived(r *Resource) {
	keep := d.derivedFIFO[:0]
	for _, k := range d.derivedFIFO {
		if r == nil || k.r == r {
			if b := d.derived[k]; b != nil {
				_ = b.Free()
			}
			delete(d.derived, k)
			continue
		}
		keep = append(keep, k)
	}
	d.derivedFIFO = keep
}

type swTexKey struct {
	r    *Resource
	s    sampler.Sampler
	view ViewState   // zero for a view of the whole texture
	buf  BufferRange // a buffer texture's range; zero for a texture
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
	valid  bool
	colors []devSurface
	zs     devSurface // r nil: none (the device depth is the far plane)
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
	if !d.hostStale || !d.fb.holds(r) {
		return nil
	}
	return d.readBack()
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

// openDevice returns the device with planes for conf, opening (or reopening
// for another framebuffer geometry) it; the caller holds d.mu. The residency
// table moves onto the device's runtime (its entries are re-uploaded on next
// use).
func (s *Screen) openDevice(conf devConf) (*shaderdev.Device, error) {
	d := &s.be
	if d.sd != nil && d.conf.equal(conf) {
		return d.sd, nil
	}
	if err := d.readBack(); err != nil {
		return nil, err
	}
	if d.sd != nil {
		d.closeDevice()
	}
	var sd *shaderdev.Device
	var err error
	if conf.dflt {
		sd, err = shaderdev.Open(d.cfg, conf.w, conf.h, nil)
	} else {
		sd, err = shaderdev.OpenTargets(d.cfg, conf.w, conf.h, conf.tc, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("pipe: open the device for a %dx%d framebuffer: %w", conf.w, conf.h, err)
	}
	sd.SetStrictISA(s.opts.Strict)
	d.sd, d.conf = sd, conf
	d.added = map[*shaderdev.Program]bool{}
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
	for _, t := range d.swTexs {
		_ = t.dt.Free()
	}
	d.swTexs = nil
	d.dropDerived(nil)
	d.kernels = session.AddKernels(d.kernels, d.sd.Kernels())
	_ = d.sd.Close()
	d.sd = nil
	d.fb = devFB{}
	d.hostStale = false
}

// addProgram makes p drawable on the device; the caller holds d.mu.
func (d *devScreen) addProgram(p *shaderdev.Program) error {
	if d.added[p] {
		return nil
	}
	if err := d.sd.AddProgram(p); err != nil {
		return err
	}
	d.added[p] = true
	return nil
}

// removeProgram unloads p from the device if it was made resident there.
func (d *devScreen) removeProgram(p *shaderdev.Program) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sd != nil && d.added[p] {
		_ = d.sd.RemoveProgram(p)
		delete(d.added, p)
	}
}

// evict drops r's device copies (Resource.Destroy).
func (d *devScreen) evict(r *Resource) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if t := d.texs[r]; t != nil {
		_ = t.dt.Free()
		delete(d.texs, r)
	}
	for k, t := range d.swTexs {
		if k.r == r {
			_ = t.dt.Free()
			delete(d.swTexs, k)
		}
	}
	d.dropDerived(r)
	delete(d.refTexs, r)
	if d.fb.holds(r) {
		d.fb = devFB{}
		d.hostStale = false
	}
}

// refTex returns r converted for the reference renderer, converting again only
// after r changed.
func (s *Screen) refTex(r *Resource) (*sampler.Texture, error) {
	d := &s.be
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.refTex(r)
}

// refTex is Screen.refTex for a caller holding d.mu: a texture the device drew
// into is read back first.
func (d *devScreen) refTex(r *Resource) (*sampler.Texture, error) {
	if d.hostStale && d.fb.holds(r) {
		if err := d.readBack(); err != nil {
			return nil, err
		}
	}
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

// BackendStats counts the device backend's framebuffer and texture traffic.
// spec: vortexpipe §1.3 (uploaded once), §3.2 (planes seeded once per pass)
type BackendStats struct {
	TargetLoads    uint64 // framebuffer contents put on the device (upload or clear)
	TargetReads    uint64 // device framebuffer contents read back to the host
	TextureUploads uint64 // textures made resident (FF chain or software layout)
	IndexUploads   uint64 // translated index lists made resident
	DeviceOpen     bool   // a device is open
	Width, Height  int    // its framebuffer size
	// Kernels are the front-end kernels' machine-code counters (cores =
	// "isa": msaa_resolve_k's launches, machine code or Go kernel by reason),
	// over every device the screen opened; nil on "ir".
	Kernels map[string]session.KernelStats
}

// BackendStats returns the device backend's counters.
func (s *Screen) BackendStats() BackendStats {
	d := &s.be
	d.mu.Lock()
	defer d.mu.Unlock()
	return BackendStats{TargetLoads: d.targetLoads, TargetReads: d.targetReads, TextureUploads: d.texUploads, IndexUploads: d.indexUploads,
		DeviceOpen: d.sd != nil, Width: d.conf.w, Height: d.conf.h, Kernels: d.kernelStats()}
}

// kernelStats are the closed devices' kernel counters plus the open one's;
// the caller holds d.mu.
func (d *devScreen) kernelStats() map[string]session.KernelStats {
	if d.sd == nil {
		return session.AddKernels(d.kernels, nil)
	}
	return session.AddKernels(d.kernels, d.sd.Kernels())
}

// Close releases the screen's device backend and residency entries.
// spec: vortexpipe §1.3
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
