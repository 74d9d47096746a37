package shaderdev

import (
	"fmt"
	"sync/atomic"

	"vortexgfx/abi"
	"vortexgfx/device"
	"vortexgfx/device/swtex"
	"vortexgfx/gfx/mipmap"
	"vortexgfx/gl/sampler"
	"vortexgfx/runtime"
)

// ProgramSlots is how many programs a Device can take after it is open
// (AddProgram). The kernel library is fixed once the device exists and the
// launch path reads it with no lock, so instead of growing it the device
// registers ProgramSlots trampoline kernels per stage at open time; AddProgram
// binds a program to a free slot (an atomic pointer the trampolines load), which
// is safe between submissions and never touches the library.
// spec: vortexpipe §2.5 (modules compiled lazily and made resident once)
const ProgramSlots = 256

// slotTable is the programs bound to the trampoline kernels.
type slotTable struct {
	progs [ProgramSlots]atomic.Pointer[Program]
	env   *devEnv
}

// slotName is the library name of slot i's kernel of stage ("vs", "expand_k", "prim_k", "fs").
func slotName(i int, stage string) string { return fmt.Sprintf("gfx.slot%d.%s", i, stage) }

// register adds the trampolines of every slot to lib.
func (t *slotTable) register(lib *device.Library) error {
	for i := range t.progs {
		p := &t.progs[i]
		get := func(c *device.CTA) (*Program, error) {
			sp := p.Load()
			if sp == nil {
				return nil, fmt.Errorf("shaderdev: program slot %d is empty", i)
			}
			return sp, nil
		}
		for _, k := range []struct {
			stage string
			fn    device.Kernel
		}{
			{"vs", func(c *device.CTA) error {
				sp, err := get(c)
				if err != nil {
					return err
				}
				return sp.vsKernelOn(c, t.env)
			}},
			{"expand_k", func(c *device.CTA) error {
				sp, err := get(c)
				if err != nil {
					return err
				}
				return sp.expandKernel(c)
			}},
			{"prim_k", func(c *device.CTA) error {
				sp, err := get(c)
				if err != nil {
					return err
				}
				return sp.primKernel(c)
			}},
			{"fs", func(c *device.CTA) error {
				sp, err := get(c)
				if err != nil {
					return err
				}
				return sp.fsKernelOn(c, t.env)
			}},
		} {
			if err := lib.Register(slotName(i, k.stage), k.fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// Runtime returns the runtime device the Device draws on, so that a driver
// keeps its residency table (vertex, index and texture buffers) on the same
// device: buffers it allocates there are bound with AttribBinding.Buffer,
// Draw.IndexBuffer and Texture.Resident and uploaded once across
// frames. spec: vortexpipe §1.3, §3.2
func (d *Device) Runtime() *runtime.Device { return d.ds.Runtime }

// AddProgram makes p drawable on the open device by binding it to a free
// program slot (see ProgramSlots). Adding a program already known to the
// device does nothing. It must not run concurrently with a Draw.
func (d *Device) AddProgram(p *Program) error {
	if p == nil {
		return fmt.Errorf("shaderdev: AddProgram: nil program")
	}
	if d.registered[p] {
		return nil
	}
	if _, ok := d.slotOf[p]; ok {
		return nil
	}
	for i := range d.slots.progs {
		if d.slots.progs[i].Load() == nil {
			d.slots.progs[i].Store(p)
			d.slotOf[p] = i
			return nil
		}
	}
	return fmt.Errorf("shaderdev: AddProgram %s: all %d program slots are in use (RemoveProgram frees one)", p.name, ProgramSlots)
}

// RemoveProgram unloads p's modules and frees its program slot (a program
// registered at open stays registered; its modules are unloaded).
// spec: vortexpipe §2.5 (binding another program evicts the resident one)
func (d *Device) RemoveProgram(p *Program) error {
	if m := d.mods[p]; m != nil {
		for _, x := range []*runtime.Module{m.vs, m.fs} {
			if !x.Evicted() {
				if err := x.Unload(); err != nil {
					return err
				}
			}
		}
		delete(d.mods, p)
	}
	if i, ok := d.slotOf[p]; ok {
		d.slots.progs[i].Store(nil)
		delete(d.slotOf, p)
	}
	return nil
}

// images returns p's vertex and fragment module images: naming its own kernels
// when it was registered at open, else its slot's trampolines.
func (d *Device) images(p *Program) (vs, fs []byte, err error) {
	if d.registered[p] {
		vs, err = abi.EncodeKernelImage([]abi.KernelImageEntry{
			d.vsMain(p, abi.LibraryEntry("main", p.vsName())), abi.LibraryEntry("expand_k", p.expandName()),
			abi.LibraryEntry("prim_k", p.primName()),
		})
		if err == nil {
			fs, err = d.fsImage(p, abi.LibraryEntry("main", p.fsName()))
		}
		return vs, fs, err
	}
	i, ok := d.slotOf[p]
	if !ok {
		return nil, nil, fmt.Errorf("shaderdev: program %s is not on this device (name it at open or AddProgram it)", p.name)
	}
	vs, err = abi.EncodeKernelImage([]abi.KernelImageEntry{
		d.vsMain(p, abi.LibraryEntry("main", slotName(i, "vs"))), abi.LibraryEntry("expand_k", slotName(i, "expand_k")),
		abi.LibraryEntry("prim_k", slotName(i, "prim_k")),
	})
	if err == nil {
		fs, err = d.fsImage(p, abi.LibraryEntry("main", slotName(i, "fs")))
	}
	return vs, fs, err
}

// ResidentTexture is a texture's mip chain resident in device memory, uploaded
// once (UploadTexture) and bound by any number of draws through
// Texture.Resident. spec: vortexpipe §1.3 (residency), §3.3 step 3
type ResidentTexture struct {
	buf           *runtime.Buffer
	offs          []uint32
	width, height uint32
	mip           MipFilter
	// sw is the software sampler's layout of the texture (UploadRefTexture),
	// placed at buf; nil for an FF chain.
	sw *swtex.Upload
}

// UploadRefTexture lays a reference texture and its sampler state out for the
// software sampler (device/swtex: any target, format, level count or
// sampler state) and uploads it once; bind it with Texture.Resident,
// which routes the draw's TEX to software. spec: vortexpipe §1.3, §3.6
func (d *Device) UploadRefTexture(tx *sampler.Texture, s sampler.Sampler) (*ResidentTexture, error) {
	up, err := swtex.Layout(tx, &s)
	if err != nil {
		return nil, fmt.Errorf("shaderdev: UploadRefTexture: %w", err)
	}
	b, err := d.ds.Runtime.AllocWith(uint64(max(len(up.Data), 4)), runtime.AllocOptions{Physical: true})
	if err != nil {
		return nil, err
	}
	if err := d.ds.Queue.NewBatch().Write(b, 0, up.Data).Submit().Wait(); err != nil {
		b.Free()
		return nil, fmt.Errorf("shaderdev: UploadRefTexture: %w", err)
	}
	w, h := 0, 0
	if len(tx.Levels) > 0 {
		w, h = tx.Levels[0].W, tx.Levels[0].H
	}
	return &ResidentTexture{buf: b, width: uint32(w), height: uint32(h), sw: up}, nil
}

// UploadTexture builds t's mip chain and uploads it once; the returned texture
// serves every later draw that binds it (set Texture.Resident).
// spec: vortexpipe §1.3, §3.3 step 3 (the resident mip chain)
func (d *Device) UploadTexture(t *Texture) (*ResidentTexture, error) {
	if why := t.texCheck(); why != "" {
		return nil, fmt.Errorf("shaderdev: UploadTexture: %s", why)
	}
	chain, offs, err := mipmap.Generate(t.Pixels, abi.TexA8R8G8B8, t.Width, t.Height)
	if err != nil {
		return nil, err
	}
	b, err := d.ds.Runtime.AllocWith(uint64(len(chain)), runtime.AllocOptions{Physical: true})
	if err != nil {
		return nil, err
	}
	if err := d.ds.Queue.NewBatch().Write(b, 0, chain).Submit().Wait(); err != nil {
		b.Free()
		return nil, fmt.Errorf("shaderdev: UploadTexture: %w", err)
	}
	return &ResidentTexture{buf: b, offs: offs, width: t.Width, height: t.Height, mip: t.Mip}, nil
}

// Free releases the texture's device memory.
func (t *ResidentTexture) Free() error { return t.buf.Free() }
