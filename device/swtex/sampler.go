package swtex

import (
	"errors"
	"fmt"
	"math"

	"vortexgfx/abi"
	"vortexgfx/gl/sampler"
)

// Memory is the device memory the sampler reads, viewed zero-copy: one view per
// descriptor and per level, never per texel (package mem's *Device and
// device.ViewMemory satisfy it). Views must stay valid while the binding is used.
// spec: vortex-hardware-facts §9 item 12 (device memory viewed directly)
type Memory interface {
	View(addr uint64, n int) ([]byte, error)
}

// MaxUnits bounds a descriptor table (entries per binding).
// spec: vortexpipe-driver §2.5
const MaxUnits = 1024

// ErrSampler is wrapped by every binding, descriptor and sampling error.
// spec: docs/CONVENTIONS.md (errors name what and where)
var ErrSampler = errors.New("swtex")

// unit is one descriptor of the bound table, decoded on first use.
type unit struct {
	state  uint8 // unitFresh, unitReady or unitFailed
	err    error
	desc   abi.SWTexDesc
	tex    sampler.Texture
	smp    sampler.Sampler
	levels [abi.SWTexMaxLevels]sampler.Level
}

const (
	unitFresh uint8 = iota
	unitReady
	unitFailed
)

// Sampler is the software sampler of one wave (or of one draw: a binding may be
// reused by every wave that sees the same table). It is not safe for concurrent
// use; give each core or worker its own. spec: vortexpipe-driver §3.6
// (gfx_tex_*_sw over the resident gfx_sw_texstate_t descriptors)
type Sampler struct {
	mem   Memory
	table uint64
	units []unit
	n     int
	x     execScratch
	stats Stats
}

// Stats counts what a Sampler did since it was created (Bind does not reset
// them): a driver or the device's perf counters read them per wave or per draw.
// spec: vortex-hardware-facts §7 (the device counts TEX work per unit)
type Stats struct {
	Instructions uint64 // texture instructions (Texture and Sample calls)
	Lanes        uint64 // lanes sampled
	Decodes      uint64 // descriptors decoded (first use in a binding)
}

// Stats returns the counters.
// spec: vortex-hardware-facts §7
func (s *Sampler) Stats() Stats { return s.stats }

// New returns an unbound sampler.
// spec: vortexpipe-driver §3.6
func New() *Sampler { return &Sampler{} }

// Bind points the sampler at a table of count descriptors (abi.SWTexDescBytes
// each) at device address table. Nothing is read yet: each descriptor is decoded,
// and its levels viewed, the first time a texture instruction uses it, so a wave
// pays only for the textures it samples. Rebinding reuses the sampler's storage.
// spec: vortexpipe-driver §2.5 (FS arg slot 1: the resident SW-sampler descriptors)
func (s *Sampler) Bind(mem Memory, table uint64, count int) error {
	if mem == nil {
		return fmt.Errorf("%w: bind: nil memory", ErrSampler)
	}
	if count < 0 || count > MaxUnits {
		return fmt.Errorf("%w: bind: %d descriptors (max %d)", ErrSampler, count, MaxUnits)
	}
	if table > math.MaxUint64-uint64(count)*abi.SWTexDescBytes {
		return fmt.Errorf("%w: bind: table at 0x%x of %d descriptors wraps the address space", ErrSampler, table, count)
	}
	s.mem, s.table, s.n = mem, table, count
	if cap(s.units) < count {
		s.units = make([]unit, count)
	}
	s.units = s.units[:count]
	for i := range s.units {
		s.units[i].state, s.units[i].err = unitFresh, nil
	}
	return nil
}

// Units returns the number of descriptors bound.
// spec: vortexpipe-driver §2.5
func (s *Sampler) Units() int { return s.n }

// TextureState returns descriptor i's texture and sampler state as the reference
// sampler sees them (its levels view device memory). They belong to the binding.
// spec: vortexpipe-driver §3.6
func (s *Sampler) TextureState(i int) (*sampler.Texture, *sampler.Sampler, error) {
	u, err := s.unit(i)
	if err != nil {
		return nil, nil, err
	}
	return &u.tex, &u.smp, nil
}

// Descriptor returns descriptor i as decoded.
// spec: vortexpipe-driver §3.6
func (s *Sampler) Descriptor(i int) (abi.SWTexDesc, error) {
	u, err := s.unit(i)
	if err != nil {
		return abi.SWTexDesc{}, err
	}
	return u.desc, nil
}

// Sample runs one batched reference request on descriptor i: the whole
// gl/sampler surface, including what the shader executor has no instruction for
// (OpQueryLod, per-texel gather offsets, OpFetchSample, 1D arrays through the
// exec path's coordinates). out receives req.N lanes.
// spec: vortexpipe-driver §3.6
func (s *Sampler) Sample(i int, req *sampler.Request, out [][4]uint32) error {
	u, err := s.unit(i)
	if err != nil {
		return err
	}
	if err := sampler.Sample(&u.tex, &u.smp, req, out); err != nil {
		return fmt.Errorf("%w: sampler %d: %w", ErrSampler, i, err)
	}
	s.stats.Instructions++
	s.stats.Lanes += uint64(req.N)
	return nil
}

func (s *Sampler) unit(i int) (*unit, error) {
	if i < 0 || i >= s.n {
		return nil, fmt.Errorf("%w: sampler %d outside the %d-entry descriptor table at 0x%x", ErrSampler, i, s.n, s.table)
	}
	u := &s.units[i]
	switch u.state {
	case unitReady:
		return u, nil
	case unitFailed:
		return nil, u.err
	}
	s.stats.Decodes++
	if err := s.decode(i, u); err != nil {
		u.state, u.err = unitFailed, err
		return nil, err
	}
	u.state = unitReady
	return u, nil
}

// decode reads descriptor i and views its levels.
func (s *Sampler) decode(i int, u *unit) error {
	addr := s.table + uint64(i)*abi.SWTexDescBytes
	b, err := s.mem.View(addr, abi.SWTexDescBytes)
	if err != nil {
		return fmt.Errorf("%w: sampler %d: descriptor at 0x%x: %w", ErrSampler, i, addr, err)
	}
	d, err := abi.DecodeSWTexDesc(b)
	if err != nil {
		return fmt.Errorf("%w: sampler %d: descriptor at 0x%x: %w", ErrSampler, i, addr, err)
	}
	f, ok := Format(d.Format)
	if !ok {
		return fmt.Errorf("%w: sampler %d: descriptor at 0x%x: format %v has no sampler format", ErrSampler, i, addr, d.Format)
	}
	for lv := 0; lv < int(d.Levels); lv++ {
		ext := d.LevelExtent(lv)
		row, slice := d.LevelPitches(lv)
		if ext > 1<<31 || row > 1<<31 || slice > 1<<40 {
			return fmt.Errorf("%w: sampler %d: level %d spans %d bytes (row pitch %d, slice pitch %d)", ErrSampler, i, lv, ext, row, slice)
		}
		la := d.Level[lv].Addr
		view, err := s.mem.View(la, int(ext))
		if err != nil {
			return fmt.Errorf("%w: sampler %d: level %d at 0x%x (+%d bytes): %w", ErrSampler, i, lv, la, ext, err)
		}
		w, h, sl := d.LevelSize(lv)
		u.levels[lv] = sampler.Level{W: int(w), H: int(h), D: int(sl), Data: view, RowPitch: int(row), SlicePitch: int(slice)}
	}
	u.desc = d
	u.tex = sampler.Texture{Dim: dimOf(d.Target), Format: f, Levels: u.levels[:d.Levels],
		BaseLevel: int(d.BaseLevel), MaxLevel: int(d.MaxLevel)}
	if d.Samples > 1 {
		u.tex.Samples = int(d.Samples)
	}
	for c, sw := range d.Swizzle {
		u.tex.Swizzle[c], _ = sampler.SwizzleFromSWTex(sw) // abi.DecodeSWTexDesc rejects undefined codes
	}
	minf, _ := sampler.FilterFromSWTex(d.MinFilter) // one bit: always defined
	magf, _ := sampler.FilterFromSWTex(d.MagFilter)
	mip, ok := sampler.MipFilterFromSWTex(d.MipFilter)
	if !ok {
		return fmt.Errorf("%w: sampler %d: descriptor at 0x%x: mip filter code %d", ErrSampler, i, addr, d.MipFilter)
	}
	u.smp = sampler.Sampler{MinFilter: minf, MagFilter: magf,
		MipFilter: mip, WrapS: wrapOf(d.Wrap[0]), WrapT: wrapOf(d.Wrap[1]),
		WrapR: wrapOf(d.Wrap[2]), BorderColorInt: d.Border, LODBias: d.LODBias, MinLOD: d.MinLOD,
		MaxLOD: d.MaxLOD, MaxAnisotropy: d.MaxAnisotropy, CompareEnable: d.CompareEnable,
		Compare: compareOf(d.Compare), CubeSeamless: d.CubeSeamless, Unnormalized: d.Unnormalized}
	for c, v := range d.Border {
		u.smp.BorderColor[c] = math.Float32frombits(v)
	}
	if err := u.tex.Validate(); err != nil {
		return fmt.Errorf("%w: sampler %d: descriptor at 0x%x: %w", ErrSampler, i, addr, err)
	}
	return nil
}
