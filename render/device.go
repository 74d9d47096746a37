package render

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"strings"
	"time"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/session"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/pipe"
	"vortexgfx/ref/program"
	"vortexgfx/scene"
)

// ErrRouted is returned with Options.Strict on the device path for a draw the
// device cannot take; the message names the draw and the reason.
var ErrRouted = errors.New("render: draw routed to the reference renderer")

// deviceRun is the device path of a renderer: every draw's compiled program as
// device kernels on one open device model. spec: vortexpipe §3.1–§3.4
type deviceRun struct {
	dev   *shaderdev.Device
	progs []*shaderdev.Program
	texs  [][]shaderdev.Texture // per draw, one per fragment sampler
	keys  []shaderdev.Variant   // per draw, the FS variant key pipe.Route chose
	attrs [][]byte              // per draw, the vertex words as bytes
	img   *image.NRGBA
	last  []session.DrawStats
}

// deviceRoute says why draw d cannot run on the device ("" when it can),
// returning its device program, textures and FS variant key otherwise: the
// program's own gates (shaderdev.NewProgram), then pipe.Route on the draw as
// bound. A unit the route sends to software (4x MSAA's raster and merger, a
// texture the FF TEX unit has no form of) runs in software on the device.
// spec: vortexpipe §3.1 (eligibility), §2.3.3 (routing), §1.5.1 (a gated
// fallback names its reason)
func (r *Renderer) deviceRoute(d *drawObj, sd *scene.Draw, caps pipe.Caps) (*shaderdev.Program, []shaderdev.Texture, shaderdev.Variant, string) {
	ps := &sd.State
	if ps.Cull == scene.CullFrontAndBack {
		return nil, nil, shaderdev.Variant{}, "cull front and back"
	}
	sp, err := shaderdev.NewProgram(fmt.Sprintf("render.draw%d", d.index), d.prog.IR)
	if err != nil {
		return nil, nil, shaderdev.Variant{}, err.Error()
	}
	// The driver's routing decision for the draw as bound, on the device's
	// own target: one A8R8G8B8 (BGRA8) colour plane and D24S8.
	var info pipe.ShaderInfo
	info.Compiled, info.ColorOutputs = true, 1
	vsInfo := pipe.ShaderInfo{Compiled: true, VaryingVec4s: (sp.NVar() + 3) / 4}
	st := &pipe.BoundState{VS: &pipe.Shader{Desc: pipe.ShaderDesc{Stage: pipe.StageVertex, Info: vsInfo}},
		FS: &pipe.Shader{Desc: pipe.ShaderDesc{Stage: pipe.StageFragment, Info: info}},
		FB: pipe.Framebuffer{Width: r.width, Height: r.height, Samples: r.msaa,
			Cbufs: []*pipe.Surface{{Format: format.BGRA8}}, Zsbuf: &pipe.Surface{Format: format.D24S8}}}
	dec := pipe.Route(caps, pipe.Options{}, st, pipe.DrawShape{Mode: pipe.PrimTriangles,
		Draw: pipe.DirectDraw{Count: uint32(len(d.indices)), InstanceCount: 1}})
	if dec.Reference {
		return nil, nil, shaderdev.Variant{}, "pipe.Route: " + dec.Err().Error()
	}
	key := shaderdev.Variant{SWTex: dec.Key.SWTex, SWOM: dec.Key.SWOM, SWRaster: dec.Key.SWRaster,
		Samples: dec.Key.Samples, BGRAMask: dec.Key.BGRAMask}
	var texs []shaderdev.Texture
	if sp.Textured() {
		for _, b := range sp.Samplers() {
			t, why := deviceTexture(d, sd, b.Name)
			if why != "" {
				return nil, nil, shaderdev.Variant{}, why
			}
			texs = append(texs, t)
		}
	}
	return sp, texs, key, ""
}

// deviceTexture converts the scene texture bound to the sampler uniform name
// (through its unit) into the FF TEX unit's form when it has one, and
// otherwise binds the reference texture itself, which the device samples
// with its software sampler (device/swtex). spec: vortexpipe §2.3.3, §3.6
func deviceTexture(d *drawObj, sd *scene.Draw, name string) (shaderdev.Texture, string) {
	unit := -1
	for i, b := range d.prog.IR.Samplers {
		if b.Name == name && i < len(d.prog.Units) {
			unit = d.prog.Units[i]
		}
	}
	var tex *scene.Texture
	for _, tb := range sd.Textures {
		if tb.Unit == unit {
			tex = tb.Texture
		}
	}
	if tex == nil || tex.Image == nil {
		return shaderdev.Texture{}, fmt.Sprintf("sampler %s: no texture at unit %d", name, unit)
	}
	t, ok := ffTexture(tex)
	if ok {
		return t, ""
	}
	i := program.TextureIndex(unit, program.Target2D)
	if i >= len(d.state.Textures) || d.state.Textures[i].Texture == nil {
		return shaderdev.Texture{}, fmt.Sprintf("sampler %s: no reference texture at unit %d", name, unit)
	}
	b := d.state.Textures[i]
	smp := b.Sampler
	return shaderdev.Texture{Width: uint32(tex.Image.Rect.Dx()), Height: uint32(tex.Image.Rect.Dy()),
		Ref: b.Texture, RefSampler: &smp}, ""
}

// ffTexture converts a scene texture into the FF TEX unit's form: power-of-
// two A8R8G8B8 with one filter for minification and magnification and the
// CLAMP/REPEAT/MIRROR wraps. Bilinear MIRROR is left to the software sampler:
// the FF unit swaps the two taps' weights in mirrored periods, which is not
// GL's filter (measured in device/swtex's FF agreement tests).
func ffTexture(tex *scene.Texture) (shaderdev.Texture, bool) {
	smp := &tex.Sampler
	t := shaderdev.Texture{Width: uint32(tex.Image.Rect.Dx()), Height: uint32(tex.Image.Rect.Dy())}
	if t.Width&(t.Width-1) != 0 || t.Height&(t.Height-1) != 0 {
		return t, false
	}
	wrap := func(w scene.Wrap) (abi.TexWrap, bool) {
		switch w {
		case scene.WrapRepeat:
			return abi.WrapRepeat, true
		case scene.WrapClampToEdge:
			return abi.WrapClamp, true
		case scene.WrapMirroredRepeat:
			return abi.WrapMirror, true
		}
		return 0, false
	}
	var okU, okV bool
	t.WrapU, okU = wrap(smp.WrapS)
	t.WrapV, okV = wrap(smp.WrapT)
	if !okU || !okV {
		return t, false
	}
	// The TEX unit has one filter for minification and magnification.
	linMin := smp.MinFilter == scene.FilterLinear || smp.MinFilter == scene.FilterLinearMipmapNearest || smp.MinFilter == scene.FilterLinearMipmapLinear
	t.Bilinear = smp.MagFilter != scene.FilterNearest
	if linMin != t.Bilinear || t.Bilinear && (t.WrapU == abi.WrapMirror || t.WrapV == abi.WrapMirror) {
		return t, false
	}
	switch smp.MinFilter {
	case scene.FilterNearestMipmapNearest, scene.FilterLinearMipmapNearest:
		t.Mip = shaderdev.MipNearest
	case scene.FilterNearestMipmapLinear, scene.FilterLinearMipmapLinear:
		t.Mip = shaderdev.MipLinear
	}
	w, h := int(t.Width), int(t.Height)
	t.Pixels = make([]byte, 4*w*h)
	img := tex.Image
	for y := range h {
		for x := range w {
			p := img.Pix[y*img.Stride+4*x:]
			q := t.Pixels[4*(y*w+x):]
			q[0], q[1], q[2], q[3] = p[2], p[1], p[0], p[3] // A8R8G8B8 little-endian: B, G, R, A
		}
	}
	return t, true
}

// openDevice decides the route of every draw and, when at least one can run
// on the device, opens it with their programs. A draw the device cannot take
// runs on the reference renderer inside the device frame (drawRouted), its
// reason in its Route and in Stats.Route; with Options.Strict it is an error.
// A scene with no device draw renders on the reference path.
func (r *Renderer) openDevice() error {
	var reasons []string
	cfg := config.Default()
	if r.opts.Config != nil {
		cfg = *r.opts.Config
	}
	isa := cfg.Device.ISACaps()
	caps := pipe.Caps{Threads: cfg.Device.Threads, Warps: cfg.Device.Warps, Cores: cfg.Device.NumCores(),
		MaxBlockSize: cfg.Device.Threads * cfg.Device.Warps, ISA: isa,
		HasTEX: isa.Has(abi.ExtTEX), HasRASTER: isa.Has(abi.ExtRASTER), HasOM: isa.Has(abi.ExtOM)}
	progs := make([]*shaderdev.Program, len(r.draws))
	texs := make([][]shaderdev.Texture, len(r.draws))
	keys := make([]shaderdev.Variant, len(r.draws))
	var onDevice []*shaderdev.Program
	for i, d := range r.draws {
		sp, tx, key, why := r.deviceRoute(d, &r.desc.Draws[i], caps)
		if why != "" {
			if r.opts.Strict {
				return fmt.Errorf("%w: draw %d (%s): %s", ErrRouted, i, d.name, why)
			}
			reasons = append(reasons, fmt.Sprintf("draw %d (%s): %s", i, d.name, why))
			r.stats.Draws[i].Route = "reference: " + why
			continue
		}
		progs[i], texs[i], keys[i] = sp, tx, key
		onDevice = append(onDevice, sp)
		r.stats.Draws[i].Route = "device"
		if key.SWTex || key.SWOM || key.SWRaster {
			r.stats.Draws[i].Route = "device, variant " + pipe.VariantKey(key).String()
		}
	}
	if len(onDevice) == 0 {
		r.stats.Path = string(PathReference)
		r.stats.Route = fmt.Sprintf("reference: no draw can run on the device (%s)", reasons[0])
		return nil
	}
	if r.msaa > 1 && len(reasons) > 0 {
		// A routed draw continues a device pass through single-sample
		// read-back and seeding (drawRouted), which would lose the other
		// draws' per-sample coverage: such a frame renders on the
		// reference path instead, and says so.
		for i := range r.stats.Draws {
			r.stats.Draws[i].Route = "reference"
		}
		r.stats.Path = string(PathReference)
		r.stats.Route = fmt.Sprintf("reference: a %dx multisampled frame with a draw the device cannot take (%s)", r.msaa, reasons[0])
		return nil
	}
	dev, err := shaderdev.OpenTargets(cfg, r.width, r.height,
		shaderdev.TargetConfig{Colors: []format.Format{format.BGRA8}, Depth: abi.OMDepthD24S8, Samples: r.msaa}, onDevice)
	if err != nil {
		return fmt.Errorf("render: device: %w", err)
	}
	// Textures the software sampler reads are laid out and uploaded once,
	// shared by every draw that binds them. spec: vortexpipe §1.3
	resident := map[*sampler.Texture]*shaderdev.ResidentTexture{}
	for _, tx := range texs {
		for k := range tx {
			t := &tx[k]
			if t.Ref == nil {
				continue
			}
			dt, ok := resident[t.Ref]
			if !ok {
				if dt, err = dev.UploadRefTexture(t.Ref, *t.RefSampler); err != nil {
					dev.Close()
					return fmt.Errorf("render: device: texture upload: %w", err)
				}
				resident[t.Ref] = dt
			}
			t.Resident = dt
		}
	}
	r.dev = &deviceRun{dev: dev, progs: progs, texs: texs, keys: keys, img: image.NewNRGBA(image.Rect(0, 0, r.width, r.height)),
		last: make([]session.DrawStats, len(progs)), attrs: make([][]byte, len(progs))}
	r.stats.Path = string(PathDevice)
	r.stats.Route = "device: every draw passed the device route (pipe.Route; compiled VS as front-end stage 0, FS wrapper, RASTER/OM)"
	if len(reasons) > 0 {
		r.stats.Route = fmt.Sprintf("device: %d of %d draws on the device; routed to the reference renderer: %s",
			len(onDevice), len(r.draws), strings.Join(reasons, "; "))
	}
	return nil
}

// deviceCull maps GL's cull face and front-face winding onto setup_k's cull
// mode. Setup's window y points up (row 0 is GL's bottom row) and it calls a
// triangle back-facing when its window-space winding is clockwise, so with
// counter-clockwise front faces GL's back faces are setup's back faces.
func deviceCull(ps *scene.PipelineState) frontend.CullMode {
	back, front := frontend.CullBack, frontend.CullFront
	if ps.FrontFace == scene.FrontCW {
		back, front = front, back
	}
	switch ps.Cull {
	case scene.CullBack:
		return back
	case scene.CullFront:
		return front
	}
	return frontend.CullNone
}

// drawDevice renders one frame on the device: clear, then each draw as one
// device draw.
func (r *Renderer) drawDevice(ctx context.Context) error {
	desc := r.desc
	if err := r.dev.dev.ClearTarget(0, desc.ClearColor); err != nil {
		return fmt.Errorf("render: device clear: %w", err)
	}
	if err := r.dev.dev.ClearDepthStencil(desc.ClearDepth, desc.ClearStencil); err != nil {
		return fmt.Errorf("render: device clear: %w", err)
	}
	for i, d := range r.draws {
		sd := &desc.Draws[i]
		sp := r.dev.progs[i]
		if sp == nil {
			if err := r.drawRouted(ctx, i, d); err != nil {
				return err
			}
			continue
		}
		in := r.dev.attrs[i]
		if in == nil {
			// The mesh's vertex words as bytes, once for all frames.
			in = make([]byte, 4*len(d.in.Data))
			for k, w := range d.in.Data {
				binary.LittleEndian.PutUint32(in[4*k:], w)
			}
			r.dev.attrs[i] = in
		}
		attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
		for a, s := range sp.Attributes() {
			attrs[a] = shaderdev.AttribBinding{Data: in, Offset: uint64(4 * s.Word), Stride: uint64(4 * d.in.Words)}
		}
		ps := &sd.State
		// Scene states use the gl enums, as the merger does.
		var ms swom.State
		ms.DepthTest, ms.DepthWrite, ms.DepthFunc = ps.DepthTest, ps.DepthWrite, ps.DepthFunc
		bl := swom.Blend{WriteMask: 0xF, EqRGB: blend.Add, EqA: blend.Add,
			SrcRGB: blend.One, SrcA: blend.One, DstRGB: blend.Zero, DstA: blend.Zero}
		if b := &ps.Blend; b.Enable {
			bl = swom.Blend{Enable: true, WriteMask: 0xF, EqRGB: b.EquationRGB, EqA: b.EquationAlpha,
				SrcRGB: b.SrcRGB, SrcA: b.SrcAlpha, DstRGB: b.DstRGB, DstA: b.DstAlpha}
			for c := range 4 { // the OM's constant is unorm8
				ms.Constant[c] = float32(format.UNorm(b.Color[c], 8)) / 255
			}
		}
		ms.Targets[0].Blend = bl
		dr := &shaderdev.Draw{Program: sp, Attribs: attrs, Indices: d.indices, Count: len(d.indices),
			Uniforms: d.prog.Uniforms, Cull: deviceCull(ps), Merge: ms, Textures: r.dev.texs[i], Key: r.dev.keys[i]}
		t0 := time.Now()
		st, err := r.dev.dev.Draw(dr)
		if err != nil {
			return fmt.Errorf("render: draw %d (%s): %w", i, d.name, err)
		}
		r.dev.last[i] = st
		r.stats.Draws[i].Time += time.Since(t0)
		if r.opts.Stats {
			ds := &r.stats.Draws[i]
			ds.TrianglesIn += uint64(d.triangles)
			ds.TrianglesVisible += uint64(st.Primitives)
			ds.FragmentsShaded += uint64(st.Shaded)
			ds.FragmentsWritten += uint64(st.Written)
		}
	}
	return r.readDevice()
}

// drawRouted runs draw i, which the device cannot take, on the reference
// renderer in the middle of a device frame: the device's colour and depth
// targets are read into ref's target, the draw runs there, and the result is
// written back. spec: vortexpipe §3.5 (a fallback draw continues the pass)
func (r *Renderer) drawRouted(ctx context.Context, i int, d *drawObj) error {
	color, depth, err := r.dev.dev.Targets()
	if err != nil {
		return err
	}
	t := r.targets[0]
	cd, zd := t.Color[0].Data, t.DepthStencil.Data
	for k, c := range color {
		cd[4*k], cd[4*k+1], cd[4*k+2], cd[4*k+3] = uint8(c>>16), uint8(c>>8), uint8(c), uint8(c>>24)
		z := depth[k]
		// OM word: depth [23:0], stencil [31:24]; ref's D24S8: depth << 8 | stencil.
		binary.LittleEndian.PutUint32(zd[4*k:], z<<8|z>>24)
	}
	if err := r.runDraw(ctx, t, d, &r.stats.Draws[i], [2]float32{}); err != nil {
		return fmt.Errorf("render: draw %d (%s) on the reference renderer: %w", i, d.name, err)
	}
	for k := range color {
		color[k] = uint32(cd[4*k+3])<<24 | uint32(cd[4*k])<<16 | uint32(cd[4*k+1])<<8 | uint32(cd[4*k+2])
		z := binary.LittleEndian.Uint32(zd[4*k:])
		depth[k] = z>>8 | z<<24
	}
	return r.dev.dev.SetTargets(color, depth)
}

// readDevice reads the device colour target back (resolved on the device when
// multisampled) into the frame image, row 0 at the top.
func (r *Renderer) readDevice() error {
	px, err := r.dev.dev.ReadTarget(0)
	if err != nil {
		return err
	}
	img := r.dev.img
	w, h := r.width, r.height
	for y := range h {
		row := img.Pix[y*img.Stride:]
		src := px[4*(h-1-y)*w:]
		for x := range w {
			// BGRA8 bytes: B, G, R, A.
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = src[4*x+2], src[4*x+1], src[4*x], src[4*x+3]
		}
	}
	return nil
}

// Close releases the device model of the device path (nothing for the
// reference path).
func (r *Renderer) Close() error {
	if r.dev == nil {
		return nil
	}
	err := r.dev.dev.Close()
	r.dev = nil
	return err
}
