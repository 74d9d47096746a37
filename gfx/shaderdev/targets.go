package shaderdev

import (
	"encoding/binary"
	"fmt"
	"math"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/fecode"
	"vortexgfx/gfx/session"
	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
	"vortexgfx/runtime"
)

// TargetConfig describes a Device's render targets. The zero value is
// the FF default: one A8R8G8B8 (format.BGRA8) colour target, a D24S8 plane,
// one sample. spec: vortexpipe §3.2 (render-pass-resident planes), §3.4.1, §3.7
type TargetConfig struct {
	// Colors are the colour attachments' formats (any gl/format colour
	// format: BGRA8 is the FF A8R8G8B8 word, RGBA8 the FF unit through the
	// variant key's byte order, the rest run on the software merger); at
	// most swom.MaxTargets. Empty means {format.BGRA8} unless NoColor.
	Colors []format.Format
	// NoColor asks for a depth-only pass: no colour target at all (Colors
	// must then be empty). A program's colour outputs are dropped, as GL
	// drops outputs without a bound attachment; the FF OM runs with every
	// target's write mask off. spec: vortexpipe §3.3 step 2 (depth-only
	// aperture), §3.7
	NoColor bool
	// Depth is the depth/stencil plane's format (D24S8 is the FF OM's word,
	// stencil in [31:24]); NoDepth leaves the pass without one.
	Depth   abi.OMDepthFormat
	NoDepth bool
	// Samples is 1 (0 means 1), 2, 4, 8 or 16: with more than one the
	// planes are sample-major and the draws take the software raster/merge
	// path (§3.4.1) at gl/msaa's standard positions. The spec's hardware
	// takes 1 and 4; the software walk goes beyond it.
	Samples int
}

// normalize fills the defaults and validates.
func (tc TargetConfig) normalize() (TargetConfig, error) {
	switch {
	case tc.NoColor && len(tc.Colors) > 0:
		return tc, fmt.Errorf("shaderdev: a depth-only pass (NoColor) with %d colour targets", len(tc.Colors))
	case tc.NoColor && tc.NoDepth:
		return tc, fmt.Errorf("shaderdev: a pass with neither colour targets nor a depth/stencil plane")
	case len(tc.Colors) == 0 && !tc.NoColor:
		tc.Colors = []format.Format{format.BGRA8}
	}
	tc.Colors = append([]format.Format(nil), tc.Colors...)
	if tc.Samples == 0 {
		tc.Samples = 1
	}
	switch {
	case len(tc.Colors) > swom.MaxTargets:
		return tc, fmt.Errorf("shaderdev: %d colour targets (at most %d)", len(tc.Colors), swom.MaxTargets)
	case !msaa.Valid(tc.Samples):
		return tc, fmt.Errorf("shaderdev: %d samples per pixel: 1, 2, 4, 8 or 16 run on the device (gl/msaa's standard patterns)", tc.Samples)
	case tc.Depth > abi.OMDepthS8:
		return tc, fmt.Errorf("shaderdev: depth format %d", tc.Depth)
	}
	for i, f := range tc.Colors {
		if !f.IsColor() {
			return tc, fmt.Errorf("shaderdev: colour target %d: %v is not a colour format", i, f)
		}
	}
	return tc, nil
}

// isDefault reports whether the targets are the FF default the word-based
// API (Clear, Color, Targets, SetTargets) reads and writes.
func (tc *TargetConfig) isDefault() bool {
	return !tc.NoColor && len(tc.Colors) == 1 && tc.Colors[0] == format.BGRA8 && !tc.NoDepth && tc.Depth == abi.OMDepthD24S8 && tc.Samples == 1
}

// OpenTargets is Open with the render targets tc
// describes (several colour targets in any colour format, D24S8/D16/D32F/S8
// depth/stencil, 4x MSAA). Units the configuration lacks (cfg.Device.TEX,
// RASTER, OM false) run in software on the device.
// spec: vortexpipe §2.3.3, §3.2, §3.4.1
func OpenTargets(cfg config.Config, width, height int, tc TargetConfig, progs []*Program) (*Device, error) {
	tc, err := tc.normalize()
	if err != nil {
		return nil, err
	}
	d, err := openDevice(cfg, width, height, progs)
	if err != nil {
		return nil, err
	}
	if err := d.allocTargets(tc); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// allocTargets allocates the planes: per colour target the sample-major
// plane (and, multisampled, the resolve destination), and the
// depth/stencil plane (always at least the FF D24S8 size, so a pass without
// one still has the plane the host flow's DCRs may name).
func (d *Device) allocTargets(tc TargetConfig) error {
	d.tc = tc
	px := d.w * d.h
	d.colors, d.resolved = nil, nil
	for _, f := range tc.Colors {
		b, err := d.ds.Alloc(px*tc.Samples*f.Info().Bytes, &d.fb)
		if err != nil {
			return err
		}
		d.colors = append(d.colors, b)
		if tc.Samples > 1 {
			r, err := d.ds.Alloc(px*f.Info().Bytes, &d.fb)
			if err != nil {
				return err
			}
			d.resolved = append(d.resolved, r)
		}
	}
	z, err := d.ds.Alloc(px*tc.Samples*max(4, swom.DepthBytes(tc.Depth)), &d.fb)
	if err != nil {
		return err
	}
	d.cbuf, d.zbuf = nil, z
	if len(d.colors) > 0 {
		d.cbuf = d.colors[0]
	}
	return nil
}

// TargetConfig returns the device's render-target configuration (defaults
// filled in).
func (d *Device) TargetConfig() TargetConfig {
	tc := d.tc
	tc.Colors = append([]format.Format(nil), tc.Colors...)
	return tc
}

// ClearTarget fills every sample of colour target i with c (converted to the
// target's format; an integer format takes int32(c[k])).
// spec: vortexpipe §3.7 (clear values reach the device planes)
func (d *Device) ClearTarget(i int, c [4]float32) error {
	if i < 0 || i >= len(d.colors) {
		return fmt.Errorf("shaderdev: clear: colour target %d of %d", i, len(d.colors))
	}
	f := d.tc.Colors[i]
	var raw format.Raw
	if f.IsInteger() {
		var v [4]uint32
		for k, x := range c {
			v[k] = uint32(int32(x))
		}
		raw = format.FromInt(f, v)
	} else {
		raw = format.FromFloat(f, c)
	}
	pat := make([]byte, f.Info().Bytes)
	format.Pack(f, pat, raw)
	return d.ds.Queue.EnqueueFill(d.colors[i], 0, d.colors[i].Size(), pat).Wait()
}

// ClearDepthStencil fills the depth/stencil plane with depth z (in [0, 1])
// and stencil s, in the plane's format.
func (d *Device) ClearDepthStencil(z float32, s uint8) error {
	if d.tc.NoDepth {
		return fmt.Errorf("shaderdev: clear: the pass has no depth/stencil plane")
	}
	pat := make([]byte, swom.DepthBytes(d.tc.Depth))
	switch d.tc.Depth {
	case abi.OMDepthD24S8:
		binary.LittleEndian.PutUint32(pat, swom.FloatDepth(z).Z24|uint32(s)<<abi.StencilShift)
	case abi.OMDepthD16:
		binary.LittleEndian.PutUint16(pat, uint16(format.UNorm(z, 16)))
	case abi.OMDepthD32F:
		binary.LittleEndian.PutUint32(pat, math.Float32bits(z))
	default:
		pat[0] = s
	}
	n := uint64(d.w * d.h * d.tc.Samples * len(pat))
	return d.ds.Queue.EnqueueFill(d.zbuf, 0, n, pat).Wait()
}

// ReadTarget reads colour target i back in its format, row 0 the bottom row;
// a multisampled target is resolved on the device first (msaa_resolve_k) and
// the resolved plane is read. spec: vortexpipe §3.4.1
func (d *Device) ReadTarget(i int) ([]byte, error) {
	if i < 0 || i >= len(d.colors) {
		return nil, fmt.Errorf("shaderdev: read: colour target %d of %d", i, len(d.colors))
	}
	src := d.colors[i]
	if d.tc.Samples > 1 {
		if err := d.resolve(i); err != nil {
			return nil, err
		}
		src = d.resolved[i]
	}
	out := make([]byte, d.w*d.h*d.tc.Colors[i].Info().Bytes)
	if err := d.ds.Queue.EnqueueRead(src, 0, out).Wait(); err != nil {
		return nil, fmt.Errorf("shaderdev: reading colour target %d: %w", i, err)
	}
	return out, nil
}

// ReadSamples reads colour target i's sample-major plane (texel
// (y·w + x)·S + k). spec: vortexpipe §3.4.1
func (d *Device) ReadSamples(i int) ([]byte, error) {
	if i < 0 || i >= len(d.colors) {
		return nil, fmt.Errorf("shaderdev: read: colour target %d of %d", i, len(d.colors))
	}
	out := make([]byte, d.colors[i].Size())
	if err := d.ds.Queue.EnqueueRead(d.colors[i], 0, out).Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// ReadDepthStencil reads the depth/stencil plane in its format (sample-major
// when multisampled; D24S8 as the device word, stencil in [31:24]).
func (d *Device) ReadDepthStencil() ([]byte, error) {
	if d.tc.NoDepth {
		return nil, fmt.Errorf("shaderdev: read: the pass has no depth/stencil plane")
	}
	out := make([]byte, d.w*d.h*d.tc.Samples*swom.DepthBytes(d.tc.Depth))
	if err := d.ds.Queue.EnqueueRead(d.zbuf, 0, out).Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// resolve runs msaa_resolve_k over colour target i: one device launch that
// box-filters each pixel's samples into the resolved plane. On a cores = "isa"
// device the launch runs the kernel's machine code (gfx/fecode) when it takes
// the target's format, else the Go kernel with the reason counted in the
// device's kernel stats (session.KernelStats), or fails under SetStrictISA.
// spec: vortexpipe §3.4.1
func (d *Device) resolve(i int) error {
	ds := d.ds
	f := d.tc.Colors[i]
	slots := []uint64{d.colors[i].Addr(), d.resolved[i].Addr(), uint64(d.w * d.h), uint64(d.tc.Samples), uint64(f)}
	k, why := ds.Resolve, ""
	if ds.ISA {
		desc, err := fecode.ResolveDesc(f, d.tc.Samples)
		if err != nil {
			if d.strictISA {
				return fmt.Errorf("%w: %v", ErrISARefused, err)
			}
			k, why = ds.ResolveGo, err.Error()
		}
		slots = append(slots, uint64(desc)) // fecode.ResolveDescSlot
	}
	args := make([]byte, 8*len(slots))
	for k, v := range slots {
		binary.LittleEndian.PutUint64(args[8*k:], v)
	}
	l0 := ds.Sim.GPU.TotalStats()
	p := runtime.LaunchParams{NDim: 1, Grid: [3]uint32{ds.Grid, 1, 1}, Block: [3]uint32{ds.Block, 1, 1}, Args: args}
	if err := ds.Queue.EnqueueLaunch(k, p).Wait(); err != nil {
		if le := ds.Sim.GPU.LastLaunchError(); le != nil {
			return fmt.Errorf("shaderdev: msaa_resolve_k: %w (device: %v)", err, le)
		}
		return fmt.Errorf("shaderdev: msaa_resolve_k: %w", err)
	}
	if ds.ISA {
		l := ds.Sim.GPU.TotalStats()
		ds.CountKernel(kernelResolve, why, l.Instructions-l0.Instructions, l.ThreadInstructions-l0.ThreadInstructions)
	}
	return nil
}

// kernelResolve, kernelBinning and kernelExpand are the front-end kernels'
// module entry names (their stats keys).
const (
	kernelResolve = "msaa_resolve_k"
	kernelBinning = "binning_k"
	kernelExpand  = "expand_k"
)

// SetStrictISA makes a resolve the machine code cannot take on a
// cores = "isa" device an error (ErrISARefused) instead of a counted
// fallback to the Go kernel (--strict).
func (d *Device) SetStrictISA(on bool) { d.strictISA = on }

// Kernels returns the front-end kernels' machine-code counters of a
// cores = "isa" device so far (nil on "ir").
func (d *Device) Kernels() map[string]session.KernelStats { return d.ds.Kernels() }

// WriteTarget seeds colour target i with a single-sample image in its format
// (row 0 the bottom row), replicated across the samples of a multisampled
// target — how a pass starts from the attachment's current contents.
// spec: vortexpipe §3.2 (planes seeded once per pass), §3.4.1
func (d *Device) WriteTarget(i int, data []byte) error {
	if i < 0 || i >= len(d.colors) {
		return fmt.Errorf("shaderdev: write: colour target %d of %d", i, len(d.colors))
	}
	return d.seed(d.colors[i], d.tc.Colors[i].Info().Bytes, data)
}

// WriteDepthStencil seeds the depth/stencil plane with a single-sample image
// in its format (D24S8 as the device word), replicated across samples.
func (d *Device) WriteDepthStencil(data []byte) error {
	if d.tc.NoDepth {
		return fmt.Errorf("shaderdev: write: the pass has no depth/stencil plane")
	}
	return d.seed(d.zbuf, swom.DepthBytes(d.tc.Depth), data)
}

// seed writes a single-sample image of bpp-byte texels to a sample-major plane.
func (d *Device) seed(dst *runtime.Buffer, bpp int, data []byte) error {
	px, S := d.w*d.h, d.tc.Samples
	if len(data) != px*bpp {
		return fmt.Errorf("shaderdev: write: %d bytes for %d texels of %d bytes", len(data), px, bpp)
	}
	out := data
	if S > 1 {
		out = make([]byte, px*S*bpp)
		for p := range px {
			for k := range S {
				copy(out[(p*S+k)*bpp:], data[p*bpp:(p+1)*bpp])
			}
		}
	}
	return d.ds.Queue.NewBatch().Write(dst, 0, out).Submit().Wait()
}
