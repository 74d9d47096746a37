package pipe

import (
	"fmt"
	"strings"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/runtime"
)

// Unit is a set of graphics fixed-function units, for forcing them to software.
type Unit uint8

// The fixed-function units. spec: vortexpipe §2.3.3
const (
	UnitTEX Unit = 1 << iota
	UnitRASTER
	UnitOM
	UnitAll = UnitTEX | UnitRASTER | UnitOM
)

// ParseForceSW parses a VORTEX_FORCE_SW value: "tex", "om", "raster" or "all",
// several joined by '|' or ','; empty is none. spec: vortexpipe §2.3.3
// ($VORTEXPIPE_FORCE_SW)
func ParseForceSW(s string) (Unit, error) {
	var u Unit
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == '|' || r == ',' || r == ' ' }) {
		switch strings.ToLower(f) {
		case "tex":
			u |= UnitTEX
		case "om":
			u |= UnitOM
		case "raster":
			u |= UnitRASTER
		case "all":
			u |= UnitAll
		default:
			return 0, fmt.Errorf("pipe: VORTEX_FORCE_SW: unknown unit %q (want tex, om, raster or all)", f)
		}
	}
	return u, nil
}

// Options configure a screen and the contexts it creates.
type Options struct {
	// Strict turns every fallback to the reference renderer into an error that
	// names its reasons (VORTEX_STRICT=1). spec: vortexpipe §1.5
	Strict bool
	// ForceSW forces units to their on-device software path (VORTEX_FORCE_SW).
	ForceSW Unit
	// ForceReference sends every draw to the reference renderer (the
	// $VORTEXPIPE_SW_RASTER knob); it is a gate like any other.
	ForceReference bool
}

// OptionsFromEnv reads VORTEX_STRICT and VORTEX_FORCE_SW through getenv (pass
// os.Getenv); the package never reads the environment itself.
func OptionsFromEnv(getenv func(string) string) (Options, error) {
	var o Options
	switch v := getenv("VORTEX_STRICT"); v {
	case "", "0", "false":
	case "1", "true":
		o.Strict = true
	default:
		return o, fmt.Errorf("pipe: VORTEX_STRICT=%q (want 0 or 1)", v)
	}
	u, err := ParseForceSW(getenv("VORTEX_FORCE_SW"))
	if err != nil {
		return o, err
	}
	o.ForceSW = u
	return o, nil
}

// Caps are the device capabilities cached when the screen is created, so no draw
// queries the device. spec: vortexpipe §1.3 (hw_num_threads … has_rtu)
type Caps struct {
	Threads      int // threads per warp
	Warps        int // warps per core
	Cores        int
	MaxBlockSize int // threads of one CTA: threads × warps
	ISA          abi.ISACaps
	HasTEX       bool
	HasRASTER    bool
	HasOM        bool
	HasRTU       bool
}

// CapsOf derives the cached caps from the runtime's capability registers.
func CapsOf(c runtime.Caps) Caps {
	return Caps{
		Threads:      c.GPU.NumThreads(),
		Warps:        c.GPU.NumWarps(),
		Cores:        c.NumCores(),
		MaxBlockSize: c.GPU.NumThreads() * c.GPU.NumWarps(),
		ISA:          c.ISA,
		HasTEX:       c.ISA.Has(abi.ExtTEX),
		HasRASTER:    c.ISA.Has(abi.ExtRASTER),
		HasOM:        c.ISA.Has(abi.ExtOM),
		HasRTU:       c.ISA.Has(abi.ExtRTU),
	}
}

// Screen is the per-device driver object (pipe_screen): the cached caps, the
// options and the residency table; it creates resources and contexts.
// spec: vortexpipe §1.3
type Screen struct {
	dev  *runtime.Device
	caps Caps
	opts Options
	res  *Residency
	// progs holds the linked (VS, FS) pairs. spec: vortexpipe §2.5
	progs programCache
	// be is the device backend the device path draws on.
	be devScreen

	mu     sync.Mutex
	used   []bool // resource ids in use
	serial uint64
}

// NewScreen opens a screen on dev, caching its capabilities; the residency
// table starts on dev. Draws run on the device model of config.Default()
// (shaderdev.Device, opened at the first device draw), and the residency table
// then moves onto that device's runtime; use OpenScreen to choose the
// configuration.
func NewScreen(dev *runtime.Device, o Options) (*Screen, error) {
	if dev == nil {
		return nil, fmt.Errorf("pipe: NewScreen: nil device (use NewScreenWithCaps for a routing-only screen)")
	}
	s := &Screen{dev: dev, caps: CapsOf(dev.Caps()), opts: o, res: newResidency(dev)}
	s.init(config.Default())
	return s, nil
}

// OpenScreen opens a screen for the device model configured by cfg: the caps
// come from cfg, and the device itself (shaderdev.Device on a simulated
// Vortex) opens at the first device draw, sized to the framebuffer.
// spec: vortexpipe §1.3 (vx_device_open once per screen)
func OpenScreen(cfg config.Config, o Options) (*Screen, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("pipe: OpenScreen: %w", err)
	}
	isa := cfg.Device.ISACaps()
	caps := Caps{Threads: cfg.Device.Threads, Warps: cfg.Device.Warps, Cores: cfg.Device.NumCores(),
		MaxBlockSize: cfg.Device.Threads * cfg.Device.Warps, ISA: isa,
		HasTEX: isa.Has(abi.ExtTEX), HasRASTER: isa.Has(abi.ExtRASTER), HasOM: isa.Has(abi.ExtOM), HasRTU: isa.Has(abi.ExtRTU)}
	s := &Screen{caps: caps, opts: o, res: newResidency(nil)}
	s.init(cfg)
	return s, nil
}

// NewScreenWithCaps opens a screen without a device: routing, state capture and
// index translation work; residency operations return ErrNoDevice.
func NewScreenWithCaps(c Caps, o Options) *Screen {
	s := &Screen{caps: c, opts: o, res: newResidency(nil)}
	s.init(config.Default())
	return s
}

// init sets up the device backend's configuration and program release.
func (s *Screen) init(cfg config.Config) {
	s.be.cfg = cfg
	s.progs.release = s.be.removeProgram
}

// Caps returns the cached capabilities.
func (s *Screen) Caps() Caps { return s.caps }

// Options returns the screen's options.
func (s *Screen) Options() Options { return s.opts }

// Device returns the device (nil for a routing-only screen).
func (s *Screen) Device() *runtime.Device { return s.dev }

// Residency returns the screen's residency table.
func (s *Screen) Residency() *Residency { return s.res }

func (s *Screen) newResource(n int) *Resource {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := len(s.used)
	for i, u := range s.used {
		if !u {
			id = i
			break
		}
	}
	if id == len(s.used) {
		s.used = append(s.used, true)
	} else {
		s.used[id] = true
	}
	s.serial++
	return &Resource{screen: s, id: ResourceID(id), serial: s.serial, data: make([]byte, n)}
}

// CreateBuffer creates a zero-filled buffer resource of size bytes.
func (s *Screen) CreateBuffer(size int) (*Resource, error) {
	if size <= 0 || size > 1<<31 {
		return nil, fmt.Errorf("pipe: CreateBuffer: size %d", size)
	}
	r := s.newResource(size)
	r.buffer = true
	return r, nil
}

// CreateTexture creates a zero-filled texture; levels are stored one after the
// other, each level's layers contiguous, rows tightly packed.
func (s *Screen) CreateTexture(d TextureDesc) (*Resource, error) {
	n, err := textureBytes(d)
	if err != nil {
		return nil, fmt.Errorf("pipe: CreateTexture: %w", err)
	}
	if d.Target == TargetBuffer {
		return nil, fmt.Errorf("pipe: CreateTexture: target BUFFER (use CreateBuffer)")
	}
	r := s.newResource(n)
	r.desc = d
	return r, nil
}

// Destroy releases r: its residency entries are evicted and its id becomes free
// for reuse. spec: vortexpipe §1.3 (resource_destroy)
func (r *Resource) Destroy() error {
	r.mu.Lock()
	if r.destroyed {
		r.mu.Unlock()
		return fmt.Errorf("pipe: destroy resource %d: %w", r.id, ErrDestroyed)
	}
	r.destroyed = true
	r.data = nil
	r.mu.Unlock()
	s := r.screen
	s.res.Evict(r.id)
	s.be.evict(r)
	s.mu.Lock()
	s.used[r.id] = false
	s.mu.Unlock()
	return nil
}
