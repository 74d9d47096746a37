package gfx

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/swom"
	"vortexgfx/device/swtex"
	"vortexgfx/gl/format"
	"vortexgfx/runtime"
	"vortexgfx/trace"
)

// AttribBinding is one attribute-table entry of a compiled draw: the vertex
// data (little-endian words, Words of the program's attribute per element),
// the element stride in bytes and the instance divisor (0: per vertex).
// spec: vortexpipe §2.5 ({base, stride, divisor}[8])
type AttribBinding struct {
	Data []byte
	// Buffer, when set, is device-resident vertex data used instead of Data
	// (a driver's residency-table entry on Runtime(): uploaded once, bound by
	// every draw). spec: vortexpipe §1.3
	Buffer  *runtime.Buffer
	Offset  uint64 // of the first element in Data (or Buffer)
	Stride  uint64
	Divisor uint64
}

// ShaderDraw is one triangle-list draw of a compiled program on the device.
type ShaderDraw struct {
	Program *ShaderProgram
	// Attribs holds one binding per Program.Attributes() entry, in order.
	Attribs []AttribBinding
	// Indices are the u32 indices (nil: non-indexed); Count is the vertices
	// per instance (len(Indices) when indexed), a multiple of 3.
	Indices []uint32
	// IndexBuffer, when set, holds the u32 indices in device memory at
	// IndexOffset (a resident buffer on Runtime()); Indices is then ignored.
	IndexBuffer  *runtime.Buffer
	IndexOffset  uint64
	Count        int
	Instances    int // 0 means 1
	BaseVertex   int32
	BaseInstance uint32
	// Uniforms is the program's uniform word buffer (UniformWords words).
	Uniforms []uint32
	Cull     CullMode
	// OM is the output-merger state, programmed as draw3d's host flow does
	// (depth and stencil tests, blending, colour write mask); texturing must
	// be off.
	OM        trace.States
	Near, Far float32 // depth range (0, 1 when both are 0)
	// Textures holds one texture per sampler binding when the program
	// samples in either stage (Program.Textured); TEX stage i samples
	// Textures[i]. A vertex stage samples them through the software sampler
	// (VS arg slot abi.ArgVSSWSampler). spec: vortexpipe §2.5, §3.6
	Textures []ShaderTexture
	// Blend, when set, is the colour target's blend state, written after the
	// host flow's OM DCRs (set OM.BlendEnabled too, so early-Z is not armed).
	Blend *OMBlend
	// Merge, when set, is the draw's whole output-merger state (depth,
	// two-sided stencil, per-target blend and write masks in
	// Targets[i].Blend, logic op, alpha test, alpha-to-coverage/one, depth
	// bounds and clamp, dual source with location 1 as the second colour of
	// target 0); OM and Blend are then ignored. Its geometry (size,
	// samples, target formats and plane addresses, the depth/stencil plane)
	// is the device's and is filled in by Draw. The FF OM runs it when it
	// can encode it (swom.State.FFWhy), the software merger otherwise.
	Merge *swom.State
	// Key is the FS variant key the driver selected (pipe.VariantKey):
	// units it sets run in software. spec: vortexpipe §2.3.1, §2.3.3
	Key Variant
	// ClipDistances holds GL's GL_CLIP_DISTANCEi enables (bit i): setup_k
	// clips each triangle against every enabled gl_ClipDistance[i] ≥ 0 the
	// vertex stage writes (Program.ClipMask). spec: GL 4.6 §13.7;
	// vortexpipe §3.8
	ClipDistances uint8
	// ClipPlanes are the legacy user clip planes (GL_CLIP_PLANEi, in the
	// coordinates the vertex stage writes gl_ClipVertex in, else
	// gl_Position's): for a program without gl_ClipDistance, distance i is
	// ClipPlanes[i] · gl_ClipVertex. spec: GL 3.0 §2.17 (clipping)
	ClipPlanes [MaxClipDistances][4]float32
	// TwoSide enables two-sided colour (GL_VERTEX_PROGRAM_TWO_SIDE) over
	// these pairs, each one of Program.TwoSidePairs(): back-facing
	// primitives read the back colour's planes. spec: GL 2.1 §2.14.1
	TwoSide []TwoSide
}

// OMBlend is the OM's blend state of render target 0: equations, factors and
// the A8R8G8B8 constant colour. spec: vortexpipe §3.3 step 2, §3.7
type OMBlend struct {
	ModeRGB, ModeA abi.BlendMode
	SrcRGB, SrcA   abi.BlendFactor
	DstRGB, DstA   abi.BlendFactor
	Const          uint32
}

// texDescBytes is one sampler descriptor in descriptor set 0 of a compiled
// draw: {u32 width, u32 height, u32 levels, u32 mip filter}, what the FS
// wrapper needs to form the level of detail.
const texDescBytes = 16

// PassTriangles is the most triangles one front-end pass of a compiled draw
// takes: at SetupSlot primitives per triangle (near and guard-band clipping)
// a pass's visible primitives always fit the RASTER pid field, so a larger
// draw runs as several in-order passes inside its one runtime draw.
// spec: vortexpipe §3.8; rasterizer §2.4 (16-bit pid)
const PassTriangles = abi.MaxPrimsPerPass / SetupSlot

type shaderModules struct {
	vs, fs       *runtime.Module
	vsK, expandK *runtime.Kernel
	fsK          *runtime.Kernel
}

// ShaderDevice is an open device model (runtime, CP, SIMT cores, RASTER, OM)
// with a width×height A8R8G8B8 colour and D24S8 depth target, running compiled
// programs' draws: the VS as the front end's stage 0, expand_k, setup_k and
// binning_k, the FF DCRs and the RASTER frame kick that launches the FS
// wrapper — one runtime draw (one CMD_DRAW and one doorbell on emu) per draw.
// spec: vortexpipe §3.2–§3.4
type ShaderDevice struct {
	ds         *deviceSession
	w, h       int
	binLog     uint
	cbuf, zbuf *runtime.Buffer // colour target 0 and the depth/stencil plane
	fb         []*runtime.Buffer
	tc         TargetConfig
	colors     []*runtime.Buffer // sample-major colour planes
	resolved   []*runtime.Buffer // with 4 samples: the resolve destinations
	caps       Units             // units the configuration has (the rest run in software)
	force      Units             // units forced to software (VORTEX_FORCE_SW)
	mods       map[*ShaderProgram]*shaderModules
	// registered are the programs named at open (their own kernels in the
	// library); slots and slotOf bind programs added later (AddProgram).
	registered map[*ShaderProgram]bool
	slots      *slotTable
	slotOf     map[*ShaderProgram]int
	// pool holds the per-draw buffers, slot by slot in the order a draw asks
	// for them, grown as needed and kept for the next draw (the draws are
	// sequential), so a repeated draw allocates and clears no device memory.
	pool []*runtime.Buffer
	next int
}

// buffer returns the draw's next pooled device buffer of at least n bytes.
func (d *ShaderDevice) buffer(n int) (*runtime.Buffer, error) {
	n = max(n, 4)
	i := d.next
	d.next++
	if i < len(d.pool) && d.pool[i].Size() >= uint64(n) {
		return d.pool[i], nil
	}
	if i < len(d.pool) {
		if err := d.pool[i].Free(); err != nil {
			return nil, err
		}
		n = max(n, int(d.pool[i].Size())*2)
	} else {
		d.pool = append(d.pool, nil)
	}
	b, err := d.ds.dev.AllocWith(uint64(n), runtime.AllocOptions{Physical: true})
	if err != nil {
		return nil, err
	}
	d.pool[i] = b
	return b, nil
}

// OpenShaderDevice opens the device with the draw3d kernels and every
// program's stages in its kernel library, and the default targets (one
// A8R8G8B8 colour target and a D24S8 plane; OpenShaderDeviceTargets takes
// others). Programs not named here join later through AddProgram.
func OpenShaderDevice(cfg config.Config, width, height int, progs []*ShaderProgram) (*ShaderDevice, error) {
	return OpenShaderDeviceTargets(cfg, width, height, TargetConfig{}, progs)
}

// openShaderDevice opens the device without allocating targets.
func openShaderDevice(cfg config.Config, width, height int, progs []*ShaderProgram) (*ShaderDevice, error) {
	if width <= 0 || height <= 0 || width > 4096 || height > 4096 {
		return nil, fmt.Errorf("gfx: shader device: target %dx%d out of range", width, height)
	}
	env := &devEnv{}
	slots := &slotTable{env: env}
	reg := map[*ShaderProgram]bool{}
	ds, err := openDeviceWith(cfg, func(lib *device.Library) error {
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
		return nil, fmt.Errorf("gfx: shader device: %w", err)
	}
	env.mem = ds.s.Mem
	d := &ShaderDevice{ds: ds, w: width, h: height, mods: map[*ShaderProgram]*shaderModules{},
		registered: reg, slots: slots, slotOf: map[*ShaderProgram]int{}}
	d.binLog = uint(cfg.Raster.BinLogSize)
	if d.binLog == 0 {
		d.binLog = abi.DefaultBinLogSize
	}
	d.caps = unitsOf(cfg)
	return d, nil
}

// Close releases the device.
func (d *ShaderDevice) Close() error { return d.ds.close() }

// Clear fills the colour target with an A8R8G8B8 word and the depth target
// with a D24S8 word (depth in bits 0..23, stencil in 24..31). With other
// targets (OpenShaderDeviceTargets) it fills every plane whose texels are 4
// bytes with the words and fails on the rest (use ClearTarget and
// ClearDepthStencil).
func (d *ShaderDevice) Clear(color, depthStencil uint32) error {
	if !d.tc.isDefault() {
		for i, f := range d.tc.Colors {
			if f.Info().Bytes != 4 {
				return fmt.Errorf("gfx: Clear: colour target %d is %v (use ClearTarget)", i, f)
			}
		}
		if !d.tc.NoDepth && swom.DepthBytes(d.tc.Depth) != 4 {
			return fmt.Errorf("gfx: Clear: the depth plane is not 4 bytes a texel (use ClearDepthStencil)")
		}
		var pat [4]byte
		binary.LittleEndian.PutUint32(pat[:], color)
		b := d.ds.q.NewBatch()
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
	e := d.ds.q.EnqueueFill(d.cbuf, 0, n, pat[:])
	binary.LittleEndian.PutUint32(pat[:], depthStencil)
	return d.ds.q.EnqueueFill(d.zbuf, 0, n, pat[:], e).Wait()
}

// Color reads the colour target back: A8R8G8B8 words, row 0 the bottom row
// (window y, as GL's framebuffer). Another format of target 0 is read with
// ReadTarget (resolved when multisampled) and converted to unorm8.
func (d *ShaderDevice) Color() ([]uint32, error) {
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
	out := make([]byte, d.w*d.h*4)
	if err := d.ds.q.EnqueueRead(d.cbuf, 0, out).Wait(); err != nil {
		return nil, fmt.Errorf("gfx: shader device: reading the colour target: %w", err)
	}
	px := make([]uint32, d.w*d.h)
	for i := range px {
		px[i] = binary.LittleEndian.Uint32(out[4*i:])
	}
	return px, nil
}

// Targets reads the colour (A8R8G8B8) and depth/stencil (depth in bits
// 0..23, stencil in 24..31) targets back, row 0 the bottom row, so that a
// draw routed to the reference renderer can continue the frame.
func (d *ShaderDevice) Targets() (color, depth []uint32, err error) {
	if !d.tc.isDefault() {
		return nil, nil, fmt.Errorf("gfx: Targets reads the default A8R8G8B8 + D24S8 targets (use ReadTarget / ReadDepthStencil)")
	}
	if color, err = d.Color(); err != nil {
		return nil, nil, err
	}
	out := make([]byte, d.w*d.h*4)
	if err := d.ds.q.EnqueueRead(d.zbuf, 0, out).Wait(); err != nil {
		return nil, nil, fmt.Errorf("gfx: shader device: reading the depth target: %w", err)
	}
	depth = make([]uint32, d.w*d.h)
	for i := range depth {
		depth[i] = binary.LittleEndian.Uint32(out[4*i:])
	}
	return color, depth, nil
}

// SetTargets writes both targets (the layout Targets returns).
func (d *ShaderDevice) SetTargets(color, depth []uint32) error {
	if !d.tc.isDefault() {
		return fmt.Errorf("gfx: SetTargets writes the default A8R8G8B8 + D24S8 targets")
	}
	if len(color) != d.w*d.h || len(depth) != d.w*d.h {
		return fmt.Errorf("gfx: shader device: %d colour and %d depth words for a %dx%d target", len(color), len(depth), d.w, d.h)
	}
	cb, zb := make([]byte, 4*len(color)), make([]byte, 4*len(depth))
	for i := range color {
		binary.LittleEndian.PutUint32(cb[4*i:], color[i])
		binary.LittleEndian.PutUint32(zb[4*i:], depth[i])
	}
	b := d.ds.q.NewBatch()
	b.Write(d.cbuf, 0, cb).Write(d.zbuf, 0, zb)
	if err := b.Submit().Wait(); err != nil {
		return fmt.Errorf("gfx: shader device: writing the targets: %w", err)
	}
	return nil
}

// resident loads p's modules at their link bases unless they still own them.
func (d *ShaderDevice) resident(p *ShaderProgram) (*shaderModules, error) {
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
	if m.vs, err = d.ds.dev.LoadModuleAt(vi, abi.LinkBaseVS, p.vsName()); err != nil {
		return nil, err
	}
	if m.fs, err = d.ds.dev.LoadModuleAt(fi, abi.LinkBaseFS, p.fsName()); err != nil {
		return nil, err
	}
	if m.vsK, err = m.vs.Kernel("main"); err == nil {
		if m.expandK, err = m.vs.Kernel("expand_k"); err == nil {
			m.fsK, err = m.fs.Kernel("main")
		}
	}
	if err != nil {
		return nil, err
	}
	d.mods[p] = m
	return m, nil
}

// Draw runs one compiled draw through the device and returns its counters.
// Per draw the host uploads the vertex data, attribute table, indices and
// uniform words and submits ONE runtime draw: the VS launch, expand_k, the
// nine front-end stage launches, the RASTER/OM DCR writes and the grid-less
// frame kick that launches the FS wrapper. spec: vortexpipe §3.2, §3.3
func (d *ShaderDevice) Draw(dr *ShaderDraw) (DeviceDrawStats, error) {
	var st DeviceDrawStats
	p := dr.Program
	if p == nil {
		return st, fmt.Errorf("gfx: shader draw without a program")
	}
	inst := max(dr.Instances, 1)
	if dr.Count <= 0 || dr.Count%3 != 0 || (dr.IndexBuffer == nil && dr.Indices != nil && len(dr.Indices) != dr.Count) {
		return st, fmt.Errorf("gfx: shader draw: %d vertices (%d indices) is not a triangle list", dr.Count, len(dr.Indices))
	}
	if len(dr.Attribs) != len(p.attrs) {
		return st, fmt.Errorf("gfx: shader draw: %d attribute bindings for %d attributes", len(dr.Attribs), len(p.attrs))
	}
	if len(dr.Uniforms) < p.prog.UniformWords {
		return st, fmt.Errorf("gfx: shader draw: %d uniform words for %d", len(dr.Uniforms), p.prog.UniformWords)
	}
	if dr.OM.TextureEnabled {
		return st, fmt.Errorf("gfx: shader draw: fixed-function texturing is draw3d's")
	}
	total := dr.Count * inst
	if total > maxFrontEndItems {
		return st, fmt.Errorf("gfx: shader draw: %d vertices exceed %d", total, maxFrontEndItems)
	}
	nt := total / 3
	st.Vertices = total
	m, err := d.resident(p)
	if err != nil {
		return st, err
	}
	ms, err := d.mergeState(dr)
	if err != nil {
		return st, err
	}
	route, err := d.route(dr, &ms)
	if err != nil {
		return st, err
	}
	fsTex, vsTex := len(p.prog.FS.Tex) > 0, len(p.prog.VS.Tex) > 0
	if fsTex && !route.SWTex {
		why := p.texSW
		if why == "" {
			why = texNeedsSW(dr.Textures)
		}
		if why == "" && route.SWRaster {
			why = "software raster (vx_tex answers RASTER-launched waves only)"
		}
		if why != "" {
			route.SWTex = true
			route.Why = append(route.Why, "tex: "+why)
		}
	}
	st.Route = route
	ds := d.ds
	d.next = 0
	up := ds.q.NewBatch()
	upload := func(b []byte) (*runtime.Buffer, error) {
		buf, err := d.buffer(len(b))
		if err == nil && len(b) > 0 {
			up.Write(buf, 0, b)
		}
		return buf, err
	}
	// Attribute table {base, stride, divisor}[8].
	// (Bindings sharing one interleaved buffer upload it once.)
	table := make([]byte, abi.VSAttribTableLocs*abi.VSAttribEntryBytes)
	data := map[*byte]*runtime.Buffer{}
	for i, a := range dr.Attribs {
		b := a.Buffer
		if b == nil && len(a.Data) == 0 {
			return st, fmt.Errorf("gfx: shader draw: attribute %d has no data", i)
		}
		if b == nil {
			b = data[&a.Data[0]]
		}
		if b == nil {
			if b, err = upload(a.Data); err != nil {
				return st, err
			}
			data[&a.Data[0]] = b
		}
		e := table[i*abi.VSAttribEntryBytes:]
		binary.LittleEndian.PutUint64(e, b.Addr()+a.Offset)
		binary.LittleEndian.PutUint64(e[8:], a.Stride)
		binary.LittleEndian.PutUint64(e[16:], a.Divisor)
	}
	tb, err := upload(table)
	if err != nil {
		return st, err
	}
	var ibAddr uint64
	switch {
	case dr.IndexBuffer != nil:
		if dr.IndexOffset%4 != 0 || dr.IndexOffset+4*uint64(dr.Count) > dr.IndexBuffer.Size() {
			return st, fmt.Errorf("gfx: shader draw: %d u32 indices at offset %d overrun a %d-byte index buffer", dr.Count, dr.IndexOffset, dr.IndexBuffer.Size())
		}
		ibAddr = dr.IndexBuffer.Addr() + dr.IndexOffset
	case dr.Indices != nil:
		ib := make([]byte, 4*len(dr.Indices))
		for i, x := range dr.Indices {
			binary.LittleEndian.PutUint32(ib[4*i:], x)
		}
		b, err := upload(ib)
		if err != nil {
			return st, err
		}
		ibAddr = b.Addr()
	}
	// Uniform words, reached through the descriptor table's slot 0.
	ub := make([]byte, 4*p.prog.UniformWords)
	for i := range p.prog.UniformWords {
		binary.LittleEndian.PutUint32(ub[4*i:], dr.Uniforms[i])
	}
	ubuf, err := upload(ub)
	if err != nil {
		return st, err
	}
	desc := make([]byte, 8*abi.FSDescSlots)
	binary.LittleEndian.PutUint64(desc, ubuf.Addr())
	var texWrites []DCRWrite
	var swTable uint64
	// The software sampler's descriptor table serves the fragment stage on
	// the software TEX route and the vertex stage always (VS arg slot
	// abi.ArgVSSWSampler): the samplers are the program's, shared by both.
	if (fsTex && route.SWTex) || vsTex {
		if len(dr.Textures) != len(p.Samplers()) {
			return st, fmt.Errorf("gfx: shader draw: %d textures for %d samplers", len(dr.Textures), len(p.Samplers()))
		}
		ups, bases, err := swTexUploads(dr.Textures)
		if err != nil {
			return st, err
		}
		for i, u := range ups {
			if bases[i] != 0 {
				continue // resident (UploadRefTexture)
			}
			b, err := upload(u.Data)
			if err != nil {
				return st, err
			}
			bases[i] = b.Addr()
		}
		table, err := swtex.PutTable(ups, bases)
		if err != nil {
			return st, err
		}
		tb, err := upload(table)
		if err != nil {
			return st, err
		}
		swTable = tb.Addr()
	}
	if fsTex && !route.SWTex {
		if len(dr.Textures) != len(p.Samplers()) {
			return st, fmt.Errorf("gfx: shader draw: %d textures for %d samplers", len(dr.Textures), len(p.Samplers()))
		}
		set0 := make([]byte, texDescBytes*len(dr.Textures))
		for i := range dr.Textures {
			t := &dr.Textures[i]
			var addr uint64
			var offs []uint32
			if r := t.Resident; r != nil {
				if r.sw != nil {
					return st, fmt.Errorf("gfx: shader draw: sampler %d: a software-sampler texture on the FF route", i)
				}
				if r.width != t.Width || r.height != t.Height {
					return st, fmt.Errorf("gfx: shader draw: sampler %d: a %dx%d binding of a resident %dx%d texture", i, t.Width, t.Height, r.width, r.height)
				}
				addr, offs = r.buf.Addr(), r.offs
			} else {
				if why := t.texCheck(); why != "" {
					return st, fmt.Errorf("gfx: shader draw: sampler %d: %s", i, why)
				}
				chain, o, err := GenerateMipmaps(t.Pixels, abi.TexA8R8G8B8, t.Width, t.Height)
				if err != nil {
					return st, err
				}
				tb, err := upload(chain)
				if err != nil {
					return st, err
				}
				addr, offs = tb.Addr(), o
			}
			texWrites = append(texWrites, texDCRs(i, t, addr, offs)...)
			levels := uint32(1)
			if t.Mip != MipNone {
				levels = min(texLevels(t.Width, t.Height), uint32(len(offs)))
			}
			for k, v := range []uint32{t.Width, t.Height, levels, uint32(t.Mip)} {
				binary.LittleEndian.PutUint32(set0[i*texDescBytes+4*k:], v)
			}
		}
		sb, err := upload(set0)
		if err != nil {
			return st, err
		}
		binary.LittleEndian.PutUint64(desc[8:], sb.Addr())
	}
	dbuf, err := upload(desc)
	if err != nil {
		return st, err
	}
	ow := p.prog.VS.OutputWords
	recs, err := d.buffer(total * ow * 4)
	if err != nil {
		return st, err
	}
	clipMask := p.ClipMask(dr.ClipDistances)
	twoMask, err := p.twoSideMask(dr.TwoSide)
	if err != nil {
		return st, err
	}
	verts, err := d.buffer(total * p.recordBytesClip(clipMask))
	if err != nil {
		return st, err
	}
	tris := make([]byte, 4*total)
	for i := range total {
		binary.LittleEndian.PutUint32(tris[4*i:], uint32(i))
	}
	trisBuf, err := upload(tris)
	if err != nil {
		return st, err
	}
	near, far := dr.Near, dr.Far
	if near == 0 && far == 0 {
		far = 1
	}
	// A pass is at most PassTriangles triangles (fewer when user clip
	// distances add slots), so its visible primitives (SlotsPerTriangle per
	// triangle at worst) always fit the 16-bit pid.
	passTris := min(nt, abi.MaxPrimsPerPass/SlotsPerTriangle(clipMask))
	passes := (nt + passTris - 1) / passTris
	fe, err := d.frontEndArgs(verts.Addr(), uint32(total), trisBuf.Addr(), passTris, passes, near, far, dr.Cull,
		uint32(p.NVar()), uint32(p.NFlat()), clipMask, up)
	if err != nil {
		return st, err
	}
	fa := fe.args
	// Depth clamp: setup_k keeps the geometry the near plane would cut and
	// the merger clamps the depth to the depth range (routed to software:
	// swom.State.FFWhy). spec: vortexpipe §3.7 (depth-clamp row)
	fa.DepthClipDisable = ms.DepthClamp
	// The FS arg block: prims at slot 0, the descriptor table at slot 9, the
	// aperture geometry at slot 11. (SCAN writes the visible-primitive count
	// into slot 1, which this wrapper — having no software sampler — ignores.)
	ap, err := abi.NewAperture(d.w, d.h, 1, abi.RecordShiftColorZ)
	if err != nil {
		return st, err
	}
	fsArgs := make([]byte, 8*abi.ArgFSSlots)
	binary.LittleEndian.PutUint64(fsArgs[8*abi.ArgFSPrimBuffer:], fa.Prims)
	binary.LittleEndian.PutUint64(fsArgs[8*abi.ArgFSSWSampler:], swTable)
	binary.LittleEndian.PutUint64(fsArgs[8*abi.ArgFSDesc:], dbuf.Addr())
	binary.LittleEndian.PutUint64(fsArgs[8*abi.ArgFSAperture:], ap.Pack())
	binary.LittleEndian.PutUint64(fsArgs[8*abi.ArgFSFlat:], fa.Flat)
	g, _ := NewBinGrid(d.w, d.h, d.binLog)
	ctrs, err := upload(make([]byte, 4*abi.FSCounterWords))
	if err != nil {
		return st, err
	}
	flags := uint64(len(d.tc.Colors)) << abi.FSFlagTargetsShift
	for i, f := range d.tc.Colors {
		if f == format.BGRA8 {
			flags |= 1 << (abi.FSFlagBGRAShift + i)
		}
	}
	if route.SWRaster {
		flags |= abi.FSFlagSWRaster
	}
	if route.SWTex {
		flags |= abi.FSFlagSWTex
	}
	if route.SWOM {
		flags |= abi.FSFlagSWOM
		desc, err := ms.Marshal()
		if err != nil {
			return st, err
		}
		db, err := upload(desc)
		if err != nil {
			return st, err
		}
		binary.LittleEndian.PutUint64(fsArgs[8*abi.ArgFSSWMerger:], db.Addr())
	}
	for slot, v := range map[int]uint64{
		abi.ArgFSTiles: fa.TBuf, abi.ArgFSTileCount: uint64(g.Bins()), abi.ArgFSBoxes: fa.Boxes,
		abi.ArgFSGeometry: abi.FSGeometry{Width: d.w, Height: d.h, Samples: d.tc.Samples, BinLog: d.binLog}.Pack(),
		abi.ArgFSCounters: ctrs.Addr(), abi.ArgFSFlags: flags,
	} {
		binary.LittleEndian.PutUint64(fsArgs[8*slot:], v)
	}
	// The FS arg block has its own buffer: SCAN writes draw3d's primitive
	// count into FrontEndArgs.FragArgs slot 1, which is the software
	// sampler's table slot here.
	fsBuf, err := upload(fsArgs)
	if err != nil {
		return st, err
	}
	if err := up.Submit().Wait(); err != nil {
		return st, fmt.Errorf("gfx: shader draw: uploading: %w", err)
	}
	var vsTable uint64
	if vsTex {
		vsTable = swTable
	}
	vsArgs := make([]byte, 8*abi.ArgSlots)
	for slot, v := range map[int]uint64{
		abi.ArgVSOutput: recs.Addr(), abi.ArgVSAttribTable: tb.Addr(), abi.ArgVSIndexBuffer: ibAddr,
		abi.ArgVSBaseInstance: uint64(dr.BaseInstance), abi.ArgVSBaseVertex: uint64(uint32(dr.BaseVertex)),
		abi.ArgVSCount: uint64(total), abi.ArgVSDescTable: dbuf.Addr(), abi.ArgVSSWSampler: vsTable,
	} {
		binary.LittleEndian.PutUint64(vsArgs[8*slot:], v)
	}
	if inst > 1 {
		binary.LittleEndian.PutUint64(vsArgs[8*abi.ArgVSVertsPerInst:], uint64(dr.Count))
	}
	exArgs := make([]byte, 8*ExpandArgSlots)
	for i, v := range []uint64{recs.Addr(), verts.Addr(), uint64(total), uint64(ow), uint64(clipMask) | twoMask<<expandTwoSideShift} {
		binary.LittleEndian.PutUint64(exArgs[8*i:], v)
	}
	PutExpandClipPlanes(exArgs, &dr.ClipPlanes)
	lp := func(a []byte) runtime.LaunchParams {
		return runtime.LaunchParams{NDim: 1, Grid: [3]uint32{ds.grid, 1, 1}, Block: [3]uint32{ds.block, 1, 1}, Args: a}
	}
	steps := []runtime.DrawStep{runtime.LaunchStep(m.vsK, lp(vsArgs)), runtime.LaunchStep(m.expandK, lp(exArgs))}
	var cbufAddr uint64
	if d.cbuf != nil {
		cbufAddr = d.cbuf.Addr()
	}
	dt := drawTargets{W: d.w, H: d.h, CBuf: cbufAddr, ZBuf: d.zbuf.Addr(), Tile: fa.TBuf, TileCount: g.Bins(),
		Prim: fa.Prims, FragArgs: fsBuf.Addr(), FragEntry: m.fsK.Entry()}
	dcrs, err := d.drawDCRs(dr, &ms, route, texWrites, &dt)
	if err != nil {
		return st, err
	}
	counters := fa.Counters
	for pass := range passes {
		// Each pass reuses the front-end buffers (the CP's launch barrier
		// orders it after the previous kick) with its own counters.
		first := pass * passTris
		fa.Tris, fa.NumTris = trisBuf.Addr()+12*uint64(first), uint32(min(passTris, nt-first))
		fa.Counters = counters + uint64(pass)*4*abi.FECounterWords
		for _, stage := range []uint64{abi.FEStageSetup, abi.FEStageScan, abi.FEStageEmit, abi.FEStageBCount, abi.FEStageBScan, abi.FEStageBEmit, abi.FEStageBHist, abi.FEStageBBase, abi.FEStageBScatter} {
			fa.Stage = stage
			k := ds.setup
			if stage >= abi.FEStageBCount {
				k = ds.binning
			}
			steps = append(steps, runtime.LaunchStep(k, lp(fa.Pack())))
		}
		for _, w := range dcrs {
			steps = append(steps, runtime.DCRStep(w.Addr, w.Value))
		}
		if route.SWRaster {
			// The wrapper walks the bins itself: a compute grid, no kick.
			steps = append(steps, runtime.LaunchStep(m.fsK, lp(fsArgs)))
			continue
		}
		steps = append(steps, runtime.LaunchStep(m.fsK, runtime.LaunchParams{NDim: 1, Grid: [3]uint32{0, 1, 1}, Block: [3]uint32{ds.block, 1, 1}}))
	}
	p0, err := ds.perf()
	if err != nil {
		return st, err
	}
	s0 := ds.dev.Stats()
	ds.take()
	if err := ds.q.EnqueueDraw(steps).Wait(); err != nil {
		if le := ds.s.GPU.LastLaunchError(); le != nil {
			return st, fmt.Errorf("gfx: shader draw: %w (device: %v)", err, le)
		}
		return st, fmt.Errorf("gfx: shader draw: %w", err)
	}
	s1 := ds.dev.Stats()
	ops, cyc := ds.take()
	st.Commands, st.Doorbells, st.Lines, st.CPCycles = s1.Commands-s0.Commands, s1.Doorbells-s0.Doorbells, s1.Lines-s0.Lines, cyc
	st.CmdDraw, st.CmdLaunch, st.CmdDCRWrite = ops[abi.OpDraw], ops[abi.OpLaunch]+ops[abi.OpLaunchQMD], ops[abi.OpDCRWrite]
	if !route.SWRaster { // the software walk has no frame kick: its counters are the SW ones
		gs := ds.s.GPU.LastGraphics()
		rs := gs.Raster
		st.KickCycles = gs.Cycles
		st.BinsTouched, st.Pairs, st.Quads, st.Waves, st.EarlyZCulled = rs.Bins, rs.Pairs, rs.Quads, rs.Waves, rs.EarlyZCulled
		if rs.Waves > 0 {
			st.Occupancy = float64(rs.Lanes) / float64(rs.Waves*int64(ds.threads))
		}
	}
	p1, err := ds.perf()
	if err != nil {
		return st, err
	}
	st.Perf = p1.sub(p0)
	st.Shaded, st.Written = int64(st.Perf.OMReads), int64(st.Perf.OMWrites)
	sc := make([]byte, 4*abi.FSCounterWords)
	if err := ds.q.EnqueueRead(ctrs, 0, sc).Wait(); err != nil {
		return st, err
	}
	swc := func(k int) int64 { return int64(binary.LittleEndian.Uint32(sc[4*k:])) }
	st.SWMerged, st.SWPassed, st.SWQuads, st.SWWaves = swc(abi.FSCounterMerged), swc(abi.FSCounterPassed), swc(abi.FSCounterQuads), swc(abi.FSCounterWaves)
	if route.SWOM {
		st.Shaded, st.Written = swc(abi.FSCounterFragments), st.SWPassed
	}
	if route.SWRaster {
		st.Quads, st.Waves = st.SWQuads, st.SWWaves
	}
	cb := make([]byte, 4*abi.FECounterWords*passes)
	if err := ds.q.EnqueueRead(fe.counters, 0, cb).Wait(); err != nil {
		return st, err
	}
	w := func(k int) int {
		n := 0
		for pass := range passes {
			n += int(binary.LittleEndian.Uint32(cb[4*(pass*abi.FECounterWords+k):]))
		}
		return n
	}
	st.Primitives = w(abi.FECounterPrims)
	st.FrontEnd = FrontEndStats{Triangles: nt, NearClipped: w(abi.FECounterNearClipped), GuardClipped: w(abi.FECounterGuardClipped),
		Culled: w(abi.FECounterCulled), PrecisionLoss: w(abi.FECounterPrecisionLoss), Prims: w(abi.FECounterPrims),
		FarClipped: w(abi.FECounterFarClipped)}
	return st, nil
}

// feBuffers are one compiled draw's front-end buffers.
type feBuffers struct {
	args           FrontEndArgs
	frag, counters *runtime.Buffer
}

// frontEndArgs allocates the front end's buffers for nt triangles over the
// expand_k records at verts (worst-case sized, as DeviceReplay's front end:
// the exact counts exist only on the device), queues the counter reset and
// returns the argument block. spec: rasterizer §3.1; vortexpipe §3.2
func (d *ShaderDevice) frontEndArgs(verts uint64, nverts uint32, tris uint64, nt, passes int, near, far float32, cull CullMode,
	nvar, nflat uint32, clipMask uint8, up *runtime.Batch) (feBuffers, error) {
	g, err := NewBinGrid(d.w, d.h, d.binLog)
	if err != nil {
		return feBuffers{}, err
	}
	slots := SlotsPerTriangle(clipMask)
	maxPrims := min(nt*slots, abi.MaxPrimsPerPass+slots)
	side := 0 // the per-primitive side array: flat words, varyings beyond the planes
	if nflat > 0 || nvar > abi.NumVaryingPlanes {
		side = 4 * abi.SideArrayWords(int(nvar), int(nflat))
	}
	bins := g.Bins()
	sizes := []int{
		nt * slots * abi.PrimBytes, nt * slots * bboxBytes, 4 * nt,
		4 * (max(nt, maxPrims) + 1), maxPrims * abi.PrimBytes, maxPrims * bboxBytes, 4 * abi.FECounterWords * passes,
		8 * abi.ArgFSSlots, 4 * maxPrims, 4 * maxPrims * bins, 4 * bins, 4 * bins, bins*abi.BinHeaderBytes + 4*maxPrims*bins,
		nt * slots * side, maxPrims * side,
	}
	b := make([]*runtime.Buffer, len(sizes))
	for k, n := range sizes {
		if b[k], err = d.buffer(n); err != nil {
			return feBuffers{}, err
		}
	}
	a := FrontEndArgs{
		Verts: verts, NumVerts: nverts, Tris: tris, NumTris: uint32(nt),
		Width: uint32(d.w), Height: uint32(d.h), Near: near, Far: far, Cull: uint32(cull), Planes: frontEndPlanes(PlanesCompiled, clipMask),
		Slots: b[0].Addr(), SlotBoxes: b[1].Addr(), Keep: b[2].Addr(), Offsets: b[3].Addr(), Prims: b[4].Addr(),
		Boxes: b[5].Addr(), Counters: b[6].Addr(), FragArgs: b[7].Addr(),
		Cols: uint32(g.Cols), Rows: uint32(g.Rows), BinLog: uint32(d.binLog),
		Counts: b[8].Addr(), Keys: b[9].Addr(), Hist: b[10].Addr(), Base: b[11].Addr(), TBuf: b[12].Addr(), NVar: nvar,
		NFlat: nflat, FlatSlots: b[13].Addr(), Flat: b[14].Addr(),
	}
	up.Write(b[6], 0, make([]byte, 4*abi.FECounterWords*passes))
	return feBuffers{args: a, frag: b[7], counters: b[6]}, nil
}
