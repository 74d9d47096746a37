package shaderdev

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/session"
	"vortexgfx/gl/format"
	"vortexgfx/runtime"
)

// shaderModules are a program's VS and FS modules at their link bases and
// the kernels a draw launches from them.
type shaderModules struct {
	vs, fs              *runtime.Module
	vsK, expandK, primK *runtime.Kernel
	fsK                 *runtime.Kernel
	fsISAK              *runtime.Kernel // the machine-code wrapper (isafs.go; nil: none)
}

// Device is an open device model (runtime, CP, SIMT cores, RASTER, OM)
// with a width×height A8R8G8B8 colour and D24S8 depth target, running compiled
// programs' draws: the VS as the front end's stage 0, expand_k, setup_k and
// binning_k, the FF DCRs and the RASTER frame kick that launches the FS
// wrapper — one runtime draw (one CMD_DRAW and one doorbell on emu) per draw.
// spec: vortexpipe §3.2–§3.4
type Device struct {
	ds         *session.Device
	w, h       int
	binLog     uint
	cbuf, zbuf *runtime.Buffer // colour target 0 and the depth/stencil plane
	fb         []*runtime.Buffer
	tc         TargetConfig
	colors     []*runtime.Buffer // sample-major colour planes
	resolved   []*runtime.Buffer // multisampled: the resolve destinations
	caps       Units             // units the configuration has (the rest run in software)
	force      Units             // units forced to software (VORTEX_FORCE_SW)
	mods       map[*Program]*shaderModules
	// registered are the programs named at open (their own kernels in the
	// library); slots and slotOf bind programs added later (AddProgram).
	registered map[*Program]bool
	slots      *slotTable
	slotOf     map[*Program]int
	// pool holds the per-draw buffers, slot by slot in the order a draw asks
	// for them, grown as needed and kept for the next draw (the draws are
	// sequential), so a repeated draw allocates and clears no device memory.
	pool []*runtime.Buffer
	next int
	// triList is the identity triangle list 0, 1, 2, … as u32 words, grown
	// as draws need longer ones and never written once built (an upload in
	// flight may still read it).
	triList []byte
	// reuseSlot is vertex reuse's dense slot table (dedupe), all zero
	// between draws.
	reuseSlot []int32
	// isa is the vertex stage's machine code on a cores = "isa" device
	// (isavs.go; nil: every stage runs its Go kernel).
	isa *isaVS
	// strictISA fails a resolve the machine code cannot take (SetStrictISA).
	strictISA bool
}

// identityList returns the little-endian u32 words 0..n-1.
func (d *Device) identityList(n int) []byte {
	if len(d.triList) < 4*n {
		b := make([]byte, 4*n)
		for i := range n {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(i))
		}
		d.triList = b
	}
	return d.triList[:4*n]
}

// buffer returns the draw's next pooled device buffer of at least n bytes.
func (d *Device) buffer(n int) (*runtime.Buffer, error) {
	n = max(n, 4)
	i := d.next
	d.next++
	if i < len(d.pool) && d.pool[i] != nil && d.pool[i].Size() >= uint64(n) {
		return d.pool[i], nil
	}
	if i < len(d.pool) {
		if old := d.pool[i]; old != nil {
			// Emptied before the new allocation: a failed one leaves no
			// freed buffer behind for the next draw to reuse.
			d.pool[i] = nil
			if err := old.Free(); err != nil {
				return nil, err
			}
			n = max(n, int(old.Size())*2)
		}
	} else {
		d.pool = append(d.pool, nil)
	}
	b, err := d.ds.Runtime.AllocWith(uint64(n), runtime.AllocOptions{Physical: true})
	if err != nil {
		return nil, err
	}
	d.pool[i] = b
	return b, nil
}

// release frees the pooled buffers from slot i on (the next draw's buffers
// from i on are allocated afresh) and makes i the draw's next slot.
func (d *Device) release(i int) error {
	for k := i; k < len(d.pool); k++ {
		if b := d.pool[k]; b != nil {
			d.pool[k] = nil
			if err := b.Free(); err != nil {
				return err
			}
		}
	}
	d.next = i
	return nil
}

// Open opens the device with the front-end and MSAA resolve kernels and every
// program's stages in its kernel library, and the default targets (one
// A8R8G8B8 colour target and a D24S8 plane; OpenTargets takes others). Programs not named here join later through AddProgram.
func Open(cfg config.Config, width, height int, progs []*Program) (*Device, error) {
	return OpenTargets(cfg, width, height, TargetConfig{}, progs)
}

// openDevice opens the device without allocating targets.
func openDevice(cfg config.Config, width, height int, progs []*Program) (*Device, error) {
	if width <= 0 || height <= 0 || width > 4096 || height > 4096 {
		return nil, fmt.Errorf("shaderdev: device: target %dx%d out of range", width, height)
	}
	env := &devEnv{}
	slots := &slotTable{env: env}
	reg := map[*Program]bool{}
	ds, err := session.Open(cfg, func(lib *device.Library) error {
		if err := lib.Register(frontend.KernelResolve, resolveKernel); err != nil {
			return err
		}
		for _, p := range progs {
			if reg[p] {
				continue
			}
			if err := p.register(lib, env); err != nil {
				return err
			}
			reg[p] = true
		}
		return slots.register(lib)
	})
	if err != nil {
		return nil, fmt.Errorf("shaderdev: device: %w", err)
	}
	env.mem = ds.Sim.Mem
	d := &Device{ds: ds, w: width, h: height, mods: map[*Program]*shaderModules{},
		registered: reg, slots: slots, slotOf: map[*Program]int{}}
	d.binLog = uint(cfg.Raster.BinLogSize)
	if d.binLog == 0 {
		d.binLog = abi.DefaultBinLogSize
	}
	d.caps = unitsOf(cfg)
	d.isa = newISAVS(cfg)
	return d, nil
}

// Close releases the device.
func (d *Device) Close() error { return d.ds.Close() }

// Clear fills the colour target with an A8R8G8B8 word and the depth target
// with a D24S8 word (depth in bits 0..23, stencil in 24..31). With other
// targets (OpenTargets) it fills every plane whose texels are 4
// bytes with the words and fails on the rest (use ClearTarget and
// ClearDepthStencil).
func (d *Device) Clear(color, depthStencil uint32) error {
	if !d.tc.isDefault() {
		for i, f := range d.tc.Colors {
			if f.Info().Bytes != 4 {
				return fmt.Errorf("shaderdev: Clear: colour target %d is %v (use ClearTarget)", i, f)
			}
		}
		if !d.tc.NoDepth && swom.DepthBytes(d.tc.Depth) != 4 {
			return fmt.Errorf("shaderdev: Clear: the depth plane is not 4 bytes a texel (use ClearDepthStencil)")
		}
		var pat [4]byte
		binary.LittleEndian.PutUint32(pat[:], color)
		b := d.ds.Queue.NewBatch()
		for _, c := range d.colors {
			b.Fill(c, 0, c.Size(), pat[:])
		}
		binary.LittleEndian.PutUint32(pat[:], depthStencil)
		b.Fill(d.zbuf, 0, d.zbuf.Size(), pat[:])
		return b.Submit().Wait()
	}
	n := uint64(d.w * d.h * 4)
	var pat [4]byte
	binary.LittleEndian.PutUint32(pat[:], color)
	e := d.ds.Queue.EnqueueFill(d.cbuf, 0, n, pat[:])
	binary.LittleEndian.PutUint32(pat[:], depthStencil)
	return d.ds.Queue.EnqueueFill(d.zbuf, 0, n, pat[:], e).Wait()
}

// Color reads the colour target back: A8R8G8B8 words, row 0 the bottom row
// (window y, as GL's framebuffer). Another format of target 0 is read with
// ReadTarget (resolved when multisampled) and converted to unorm8.
func (d *Device) Color() ([]uint32, error) {
	if !d.tc.isDefault() {
		b, err := d.ReadTarget(0)
		if err != nil {
			return nil, err
		}
		f := d.tc.Colors[0]
		bpp := f.Info().Bytes
		px := make([]uint32, d.w*d.h)
		for i := range px {
			c := format.ToFloat(f, format.Unpack(f, b[bpp*i:]))
			px[i] = format.UNorm(c[3], 8)<<24 | format.UNorm(c[0], 8)<<16 | format.UNorm(c[1], 8)<<8 | format.UNorm(c[2], 8)
		}
		return px, nil
	}
	px, err := readWordsInto(d.w*d.h, func(b []byte) error { return d.ds.Queue.EnqueueRead(d.cbuf, 0, b).Wait() })
	if err != nil {
		return nil, fmt.Errorf("shaderdev: device: reading the colour target: %w", err)
	}
	return px, nil
}

// Targets reads the colour (A8R8G8B8) and depth/stencil (depth in bits
// 0..23, stencil in 24..31) targets back, row 0 the bottom row, so that a
// draw routed to the reference renderer can continue the frame.
func (d *Device) Targets() (color, depth []uint32, err error) {
	if !d.tc.isDefault() {
		return nil, nil, fmt.Errorf("shaderdev: Targets reads the default A8R8G8B8 + D24S8 targets (use ReadTarget / ReadDepthStencil)")
	}
	if color, err = d.Color(); err != nil {
		return nil, nil, err
	}
	if depth, err = readWordsInto(d.w*d.h, func(b []byte) error { return d.ds.Queue.EnqueueRead(d.zbuf, 0, b).Wait() }); err != nil {
		return nil, nil, fmt.Errorf("shaderdev: device: reading the depth target: %w", err)
	}
	return color, depth, nil
}

// SetTargets writes both targets (the layout Targets returns).
func (d *Device) SetTargets(color, depth []uint32) error {
	if !d.tc.isDefault() {
		return fmt.Errorf("shaderdev: SetTargets writes the default A8R8G8B8 + D24S8 targets")
	}
	if len(color) != d.w*d.h || len(depth) != d.w*d.h {
		return fmt.Errorf("shaderdev: device: %d colour and %d depth words for a %dx%d target", len(color), len(depth), d.w, d.h)
	}
	b := d.ds.Queue.NewBatch()
	b.Write(d.cbuf, 0, wordBytes(color)).Write(d.zbuf, 0, wordBytes(depth)) // Write copies
	if err := b.Submit().Wait(); err != nil {
		return fmt.Errorf("shaderdev: device: writing the targets: %w", err)
	}
	return nil
}

// resident loads p's modules at their link bases unless they still own them.
func (d *Device) resident(p *Program) (*shaderModules, error) {
	m := d.mods[p]
	if m != nil && !m.vs.Evicted() && !m.fs.Evicted() {
		return m, nil
	}
	if m != nil {
		for _, x := range []*runtime.Module{m.vs, m.fs} {
			if !x.Evicted() {
				if err := x.Unload(); err != nil {
					return nil, err
				}
			}
		}
	}
	vi, fi, err := d.images(p)
	if err != nil {
		return nil, err
	}
	m = &shaderModules{}
	if m.vs, err = d.ds.Runtime.LoadModuleAt(vi, abi.LinkBaseVS, p.vsName()); err != nil {
		return nil, err
	}
	if m.fs, err = d.ds.Runtime.LoadModuleAt(fi, abi.LinkBaseFS, p.fsName()); err != nil {
		return nil, err
	}
	if m.vsK, err = m.vs.Kernel("main"); err == nil {
		if m.expandK, err = m.vs.Kernel("expand_k"); err == nil {
			if m.primK, err = m.vs.Kernel("prim_k"); err == nil {
				if m.fsK, err = m.fs.Kernel("main"); err == nil {
					m.fsISAK, err = d.fsISAKernel(p, m.fs)
				}
			}
		}
	}
	if err != nil {
		return nil, err
	}
	d.mods[p] = m
	return m, nil
}
