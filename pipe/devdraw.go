package pipe

import (
	"encoding/binary"
	"fmt"
	"math"

	"vortexgfx/abi"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/shader/ir"
)

// The device path: one direct draw through shaderdev.Device — the compiled VS
// as the front end's stage 0, setup/binning on the cores, RASTER, the FS wrapper
// and the OM — with vertex, index and texture data resident across frames.
// spec: vortexpipe §3.2–§3.4

// attrPlan is how one program attribute reaches the device: straight from the
// resident vertex buffer when its element layout is the attribute's words, or
// as host-converted words otherwise.
type attrPlan struct {
	direct  bool
	vb      VertexBuffer
	el      VertexElement
	convert []VertexElement // columns, when converted
	slot    ir.Slot
}

// deviceGates checks what the device backend implements for a draw Route kept on
// the device, returning the device program and nothing, or the reasons the draw
// goes to the reference renderer instead. spec: vortexpipe §1.5.1 (a gated
// fallback names its reason)
func (c *Context) deviceGates(st *BoundState, l *linked, key VariantKey, info *DrawInfo) (*shaderdev.Program, []attrPlan, []Reason, error) {
	var gates []Reason
	gate := func(format string, a ...any) {
		gates = append(gates, Reason{GateDeviceBackend, fmt.Sprintf(format, a...)})
	}
	vc := l.variants
	flat := st.flatshade() && l.flatVariants != nil
	switch {
	case flat && st.clampColour() && l.flatClampVariants != nil:
		vc = l.flatClampVariants
	case flat:
		// GL_FLAT on the legacy colours: the variant whose colour inputs
		// are flat. spec: vortexpipe-driver.md §1.5.1
		vc = l.flatVariants
	case st.clampColour() && l.clampVariants != nil:
		vc = l.clampVariants
	}
	pv, err := vc.Get(key)
	var sp *shaderdev.Program
	switch {
	case st.clampColour() && l.clampWhy != "":
		gate("vertex colour clamp: %s", l.clampWhy)
	case err != nil && routeErr(err):
		gate("program: %s", trimErr(err))
	case err != nil:
		return nil, nil, nil, err
	default:
		sp = pv.(*shaderdev.Program)
	}
	fb := &st.FB
	if conf, why := targetConfig(fb); why != "" {
		gate("%s", why)
	} else {
		be := &c.screen.be
		be.mu.Lock()
		why := be.loadable(fb, conf)
		be.mu.Unlock()
		if why != "" {
			gate("%s", why)
		}
	}
	if why := viewportGate(st.Viewport, fb.Width, fb.Height); why != "" {
		gate("%s", why)
	} else if key.Samples > 1 && !integralViewport(st.Viewport, fb.Width, fb.Height) {
		// The device clips to the viewport's pixels (shaderdev's clip
		// rectangle); a multisampled pixel a fractional viewport edge
		// crosses keeps or loses all its samples, where GL keeps those
		// inside. spec: GL 4.6 §13.7 (clipping), §14.3.1 (multisampling)
		gate("viewport with fractional bounds on a multisampled framebuffer")
	}
	// A program that declares samplers but samples none
	// (shaderdev.Program.Textured) binds no textures: nothing needs a
	// texture at their units.
	if sp != nil && sp.Textured() {
		for _, b := range sp.Samplers() {
			unit := l.unitOf(b.Name)
			if unit < 0 || unit >= MaxSamplers || st.Views[unit] == nil {
				gate("sampler %s: no texture bound at unit %d", b.Name, unit)
				continue
			}
		}
	}
	if sp != nil {
		gates = append(gates, legacyColourGates(st, l, sp, flat)...)
		if info.Mode.polygons() && sp.NFlat() > 0 {
			gates = append(gates, Reason{GateFlatPolygons, ""})
		}
	}
	var attrs []attrPlan
	if sp != nil {
		attrs, err = c.attribPlans(st, l, sp)
		if err != nil {
			gate("%s", err.Error())
		}
	}
	return sp, attrs, gates, nil
}

// viewportCoordRange bounds the window coordinates of a viewport the device
// takes: GL's viewport bounds range [−32768, 32768] (the reference renderer
// refuses a corner beyond it, ref.MaxTargetSize·2), which is also the 16-bit
// range of the RASTER scissor and FRAG_POS coordinates. Beyond it the float32
// viewport transform of setup_k loses the sub-pixel precision the Q15.16
// edges carry. spec: vortexpipe-driver §3.8 (scissor DCR: 16-bit
// coordinates; sub-pixel precision)
const viewportCoordRange = 32768

// viewportGate is why the device cannot draw through viewport v on a w×h
// framebuffer as the reference renderer does, or "": a viewport of any size
// and position inside the coordinate range, with any depth range, runs on
// the device (setup_k's guard band is the target's, viewportGuard). What
// remains are the viewports the reference renderer itself refuses (not
// finite, zero or negative width, zero height) and corners beyond the
// coordinate range.
func viewportGate(v Viewport, w, h int) string {
	vp := refViewport(v, w, h)
	for _, f := range []float32{vp.X, vp.Y, vp.W, vp.H, vp.MinDepth, vp.MaxDepth} {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return "viewport or depth range not finite"
		}
	}
	if vp.W <= 0 || vp.H == 0 {
		return "viewport of zero or negative width or zero height"
	}
	for _, c := range []float64{float64(vp.X), float64(vp.X) + float64(vp.W), float64(vp.Y), float64(vp.Y) + float64(vp.H)} {
		if c < -viewportCoordRange || c > viewportCoordRange {
			return fmt.Sprintf("viewport beyond the device coordinate range [-%d, %d]", viewportCoordRange, viewportCoordRange)
		}
	}
	return ""
}

// integralViewport reports whether viewport v's rectangle on a w×h
// framebuffer has integer corners.
func integralViewport(v Viewport, w, h int) bool {
	vp := refViewport(v, w, h)
	for _, c := range []float64{float64(vp.X), float64(vp.X) + float64(vp.W), float64(vp.Y), float64(vp.Y) + float64(vp.H)} {
		if c != math.Trunc(c) {
			return false
		}
	}
	return true
}

// deviceViewport is setup_k's viewport for v on a w×h framebuffer: nil for
// the default mapping onto the whole framebuffer (the zero Viewport or its
// exact transform), so those draws set up exactly as before the viewport
// rode the argument block.
func deviceViewport(v Viewport, w, h int) *frontend.Viewport {
	fw, fh := float32(w)/2, float32(h)/2
	if v == (Viewport{}) || v.Scale[0] == fw && v.Translate[0] == fw && v.Scale[1] == fh && v.Translate[1] == fh {
		return nil
	}
	return &frontend.Viewport{SX: v.Scale[0], TX: v.Translate[0], SY: v.Scale[1], TY: v.Translate[1]}
}

// unitOf returns the texture unit of the sampler uniform name.
func (l *linked) unitOf(name string) int {
	if l.base != nil {
		// A generated stage samples nothing: the units are the pair's.
		return l.base.unitOf(name)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, b := range l.prog.IR.Samplers {
		if b.Name == name && i < len(l.prog.Units) {
			return l.prog.Units[i]
		}
	}
	return -1
}

// attribPlans matches the device program's attributes with the bound vertex
// elements: an attribute with layout(location = L) reads element L, one without
// reads the element at its index among the program's attributes.
func (c *Context) attribPlans(st *BoundState, l *linked, sp *shaderdev.Program) ([]attrPlan, error) {
	ve := st.VElems
	var out []attrPlan
	for _, s := range sp.Attributes() {
		loc := s.Location
		if loc < 0 {
			for i, a := range l.attrs {
				if a.Name == s.Name {
					// A generated vertex stage's built-in attributes
					// carry the fixed-function elements (ffLink).
					loc = i
					if a.Location >= 0 {
						loc = a.Location
					}
				}
			}
		}
		cols := (s.Words + 3) / 4
		if loc < 0 || ve == nil || loc+cols > len(ve.Elements) {
			return nil, fmt.Errorf("attribute %s: no vertex element at location %d", s.Name, loc)
		}
		els := ve.Elements[loc : loc+cols]
		ap := attrPlan{slot: s, el: els[0], direct: true}
		for c, e := range els {
			if e.BufferIndex >= len(st.VBufs) || st.VBufs[e.BufferIndex].Buffer == nil {
				return nil, fmt.Errorf("attribute %s reads unbound vertex buffer %d", s.Name, e.BufferIndex)
			}
			cw := min(4, s.Words-4*c)
			is32 := e.Format != VertexUNorm8x4
			if !is32 || elementComponents(e.Format) != cw || e.BufferIndex != els[0].BufferIndex ||
				e.InstanceDivisor != els[0].InstanceDivisor || e.SrcOffset != els[0].SrcOffset+uint32(16*c) {
				ap.direct = false
			}
		}
		ap.vb = st.VBufs[els[0].BufferIndex]
		if !ap.direct {
			ap.convert = els
		}
		out = append(out, ap)
	}
	return out, nil
}

// deviceCull maps the rasterizer's cull face and winding onto setup_k's: setup's
// window y points up and it calls a clockwise triangle back-facing, so with
// counter-clockwise front faces the API's back faces are setup's.
// devicePolygonOffset is the rasterizer's POLYGON_OFFSET_FILL state for
// setup_k (shaderdev fills in the depth plane's bits for r). spec: GL 4.6
// §14.6.5
func devicePolygonOffset(r *Rasterizer) frontend.PolygonOffset {
	if r == nil || !r.State.OffsetTri {
		return frontend.PolygonOffset{}
	}
	return frontend.PolygonOffset{Enable: true, Factor: r.State.OffsetScale, Units: r.State.OffsetUnits, Clamp: r.State.OffsetClamp}
}

func deviceCull(r *Rasterizer) frontend.CullMode {
	if r == nil {
		return frontend.CullNone
	}
	back, front := frontend.CullBack, frontend.CullFront
	if !r.State.FrontCCW {
		back, front = front, back
	}
	switch r.State.Cull {
	case CullBack:
		return back
	case CullFront:
		return front
	}
	return frontend.CullNone
}

// drawDevice runs one direct draw on the device.
func (c *Context) drawDevice(st *BoundState, l *linked, sp *shaderdev.Program, attrs []attrPlan, info *DrawInfo, p *PlannedDraw, uniforms []uint32) error {
	d := p.Draw
	s := c.screen
	be := &s.be
	be.mu.Lock()
	defer be.mu.Unlock()
	fb := &st.FB
	conf, why := targetConfig(fb)
	if why != "" {
		return fmt.Errorf("pipe: %s", why)
	}
	sd, err := s.openDevice(conf)
	if err != nil {
		return err
	}
	if err := be.addProgram(sp); err != nil {
		return err
	}
	if err := be.loadTargets(fb); err != nil {
		return err
	}
	dr := &shaderdev.Draw{Program: sp, Instances: int(d.InstanceCount), BaseInstance: d.StartInstance,
		BaseVertex: d.BaseVertex, Uniforms: uniforms, Cull: deviceCull(st.Rast),
		ClipDistances: st.clipEnabled(), ClipPlanes: st.Clip.UCP, TwoSide: deviceTwoSide(st, l),
		PolygonOffset: devicePolygonOffset(st.Rast)}
	// Indices: the resident index buffer when it already is a u32 list, else
	// the translated list; a non-indexed list draws vertices from Start.
	nverts := 0
	switch {
	case info.IndexSize == 4 && info.Index != nil && info.Mode == PrimTriangles && !info.PrimitiveRestart:
		n := d.Count - d.Count%3
		buf, at, err := s.res.ResolveBuffer(info.Index, 0, uint64(info.Index.Size()))
		if err != nil {
			return err
		}
		dr.IndexBuffer, dr.IndexOffset, dr.Count = buf, at+4*uint64(d.Start), int(n)
		for _, v := range p.Indices[:n] {
			nverts = max(nverts, int(int64(v)+int64(d.BaseVertex))+1)
		}
	case p.Indices != nil:
		n := len(p.Indices) - len(p.Indices)%3
		dr.Indices, dr.Count = p.Indices[:n], n
		for _, v := range dr.Indices {
			nverts = max(nverts, int(int64(v)+int64(d.BaseVertex))+1)
		}
		if info.Index != nil && n > 0 {
			// The translated list of an index buffer stays resident while
			// the buffer is unchanged. spec: vortexpipe §1.3
			provokingFirst := st.Rast != nil && st.Rast.State.FlatshadeFirst
			buf, err := be.derivedIndices(info, d, provokingFirst, dr.Indices)
			if err != nil {
				return err
			}
			dr.IndexBuffer, dr.Indices = buf, nil
		}
	default:
		dr.Count, dr.BaseVertex = int(d.Count-d.Count%3), int32(d.Start)
		nverts = int(d.Start) + dr.Count
	}
	if dr.Count == 0 {
		return nil
	}
	if err := checkVertexRange(st, l, nverts, d.StartInstance, d.InstanceCount); err != nil {
		return err
	}
	ninst := int(d.StartInstance) + int(d.InstanceCount)
	for _, a := range attrs {
		b, err := c.attribBinding(a, nverts, ninst)
		if err != nil {
			return err
		}
		dr.Attribs = append(dr.Attribs, b)
	}
	dr.Merge = mergeState(st)
	k := p.Decision.Key
	dr.Key = shaderdev.Variant{SWTex: k.SWTex, SWOM: k.SWOM, SWRaster: k.SWRaster}
	if !conf.dflt {
		// The planes are the attachments' own formats: the key's sample count
		// and byte orders are theirs. (The default planes are A8R8G8B8 whatever
		// the attachment's order; the host converts.)
		dr.Key.Samples, dr.Key.BGRAMask = k.Samples, k.BGRAMask
	}
	// The viewport, depth range and scissor, as the reference renderer
	// takes them (refViewport, refState): setup_k maps NDC through the
	// viewport, RASTER and setup_k's boxes honour the scissor.
	// spec: vortexpipe-driver §3.8 (viewport / depth range row)
	vp := refViewport(st.Viewport, fb.Width, fb.Height)
	dr.Near, dr.Far, dr.ExactDepth = vp.MinDepth, vp.MaxDepth, true
	dr.Viewport = deviceViewport(st.Viewport, fb.Width, fb.Height)
	if r := st.Rast; r != nil && r.State.Scissor {
		sc := st.Scissor
		x0, y0 := min(max(sc.MinX, 0), fb.Width), min(max(sc.MinY, 0), fb.Height)
		x1, y1 := min(max(sc.MaxX, x0), fb.Width), min(max(sc.MaxY, y0), fb.Height)
		dr.Scissor = &frontend.BBox{L: uint32(x0), R: uint32(x1), T: uint32(y0), B: uint32(y1)}
	}
	for _, b := range sp.Samplers() {
		if !sp.Textured() {
			break
		}
		unit := l.unitOf(b.Name)
		t, err := be.texture(st.Views[unit], st.Samplers[unit], k.SWTex)
		if err != nil {
			return fmt.Errorf("sampler %s: %w", b.Name, err)
		}
		dr.Textures = append(dr.Textures, t)
	}
	ds, err := sd.Draw(dr)
	if err != nil {
		return err
	}
	be.hostStale = true
	c.mu.Lock()
	c.devStats = ds
	c.cpCycles += ds.CPCycles
	for q := range c.queries {
		switch {
		case q.Type == QueryTimeElapsed:
			q.result += ds.CPCycles
		case q.Type.Occlusion():
			// Routing sent OM to software under the query: the merger
			// counted the samples passing. spec: vortexpipe §1.5
			q.result += uint64(max(ds.SWPassed, 0))
		case q.Type == QueryPrimitivesGenerated:
			// The assembled triangles, before clipping and culling.
			q.result += uint64(dr.Count/3) * uint64(max(dr.Instances, 1))
		}
	}
	c.mu.Unlock()
	return nil
}

// attribBinding binds one attribute: the resident vertex buffer, or converted
// words for [0, nverts) vertices (per-vertex) or [0, ninst) instance elements.
func (c *Context) attribBinding(a attrPlan, nverts, ninst int) (shaderdev.AttribBinding, error) {
	vb := a.vb
	if a.direct {
		buf, at, err := c.screen.res.ResolveBuffer(vb.Buffer, 0, uint64(vb.Buffer.Size()))
		if err != nil {
			return shaderdev.AttribBinding{}, err
		}
		return shaderdev.AttribBinding{Buffer: buf, Offset: at + uint64(vb.Offset) + uint64(a.el.SrcOffset),
			Stride: uint64(vb.Stride), Divisor: uint64(a.el.InstanceDivisor)}, nil
	}
	n := nverts
	if a.el.InstanceDivisor != 0 {
		// The device reads element base instance + instance / divisor, below
		// base instance + instances.
		n = ninst
	}
	words := a.slot.Words
	out := make([]byte, 4*words*max(n, 1))
	var raw [16]byte
	for col, e := range a.convert {
		vb := c.vbufOf(e)
		size := elementBytes(e.Format)
		cw := min(4, words-4*col)
		for v := 0; v < n; v++ {
			off := int64(vb.Offset) + int64(e.SrcOffset) + int64(v)*int64(vb.Stride)
			clear(raw[:])
			readRaw(vb.Buffer, off, raw[:size])
			vals := elementWords(e.Format, raw[:size], a.slot.Type)
			for k := 0; k < cw; k++ {
				binary.LittleEndian.PutUint32(out[4*(v*words+4*col+k):], vals[k])
			}
		}
	}
	return shaderdev.AttribBinding{Data: out, Stride: uint64(4 * words), Divisor: uint64(a.el.InstanceDivisor)}, nil
}

// vbufOf returns the vertex buffer an element reads.
func (c *Context) vbufOf(e VertexElement) VertexBuffer {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.BufferIndex < len(c.vbufs) {
		return c.vbufs[e.BufferIndex]
	}
	return VertexBuffer{}
}

// readRaw copies r's bytes at off into p without synchronising with the device
// (vertex data is never a device target); bytes outside r read as zero.
func readRaw(r *Resource, off int64, p []byte) {
	if r == nil || off < 0 {
		return
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.destroyed || off >= int64(len(r.data)) {
		return
	}
	copy(p, r.data[off:])
}

// texture returns the device binding of a sampler view, made resident once per
// version of the texture: a 2D power-of-two RGBA8/BGRA8 texture sampled without
// a border colour, and without mipmaps or over a generated chain, goes to the
// FF TEX unit (level 0, gfx builds the
// chain); any other — or any under a variant key with software TEX — to the
// software sampler (device/swtex) with all its levels and the full sampler
// state. The caller holds d.mu. spec: vortexpipe §3.6
func (d *devScreen) texture(v *SamplerView, sm *Sampler, swTex bool) (shaderdev.Texture, error) {
	r := v.Texture
	desc := r.desc
	if d.hostStale && d.fb.holds(r) {
		if err := d.readBack(); err != nil {
			return shaderdev.Texture{}, err
		}
	}
	if swTex || !ffTexture(v, sm) {
		return d.swTexture(v, sm)
	}
	t := shaderdev.Texture{Width: uint32(desc.Width), Height: uint32(desc.Height), Mip: shaderdev.MipNone,
		WrapU: abi.WrapRepeat, WrapV: abi.WrapRepeat}
	if sm != nil {
		t.Bilinear = sm.State.MagFilter == sampler.Linear
		t.Mip = ffMip(sm)
		code, _, _ := sm.State.WrapS.TEX()
		t.WrapU = code
		code, _, _ = sm.State.WrapT.TEX()
		t.WrapV = code
	}
	r.mu.RLock()
	ver, dead := r.version, r.destroyed
	r.mu.RUnlock()
	if dead {
		return t, ErrDestroyed
	}
	if e := d.texs[r]; e != nil && e.version == ver && e.serial == r.serial {
		t.Resident, t.Pixels = e.dt, e.px
		return t, nil
	}
	px := make([]byte, 4*desc.Width*desc.Height)
	r.mu.RLock()
	copy(px, r.data)
	r.mu.RUnlock()
	if desc.Format == format.RGBA8 {
		for i := 0; i < len(px); i += 4 {
			px[i], px[i+2] = px[i+2], px[i]
		}
	}
	t.Pixels = px
	if t.Mip != shaderdev.MipNone {
		// A generated chain binds level 0 with the draw, and shaderdev
		// builds the chain for it: a resident chain is sampled differently
		// where the draw's TEX runs in software (shaderdev describes the
		// resident FF chain to the software sampler instead of laying the
		// texture out itself), which would change the images of mipmapped
		// draws under 4x MSAA.
		return t, nil
	}
	dt, err := d.sd.UploadTexture(&t)
	if err != nil {
		return t, err
	}
	if old := d.texs[r]; old != nil {
		_ = old.dt.Free()
	}
	if d.texs == nil {
		d.texs = map[*Resource]*devTexture{}
	}
	// The level-0 words stay with the entry: gfx reads them where it does not
	// take the resident chain.
	d.texs[r] = &devTexture{version: ver, serial: r.serial, dt: dt, w: t.Width, h: t.Height, px: px}
	d.texUploads++
	t.Resident = dt
	return t, nil
}

// ffTexture reports whether the FF TEX unit samples v with sm exactly: a 2D
// power-of-two A8R8G8B8 texture seen whole (no view state), one filter, a wrap
// the unit has, no mipmaps
// unless the chain is the driver's own (GenerateMipmap: the device builds it
// from level 0) and no border colour
// (the binding carries none).
func ffTexture(v *SamplerView, sm *Sampler) bool {
	d := v.Texture.desc
	if d.Target != Target2D || d.Format != format.RGBA8 && d.Format != format.BGRA8 || len(v.Tex.Routes)+len(v.Tex.Flags) > 0 || v.viewRoute() != "" {
		return false
	}
	if sm == nil {
		return true
	}
	ss := &sm.State
	if ss.MipFilter != sampler.MipNone && !generatedChain(v.Texture) || ss.MinFilter != ss.MagFilter || ss.CompareMode || len(sm.Routes)+len(sm.Flags) > 0 ||
		sm.lodState(d.Levels) != "" {
		return false
	}
	for _, w := range [2]sampler.Wrap{ss.WrapS, ss.WrapT} {
		if _, ff, ok := w.TEX(); !ok || !ff || w == sampler.ClampToBorder {
			return false
		}
	}
	return true
}

// swTexture binds v for the software sampler, uploading its layout once per
// version of the texture and sampler state.
func (d *devScreen) swTexture(v *SamplerView, sm *Sampler) (shaderdev.Texture, error) {
	r := v.Texture
	tex, err := d.refTex(r)
	if err != nil {
		return shaderdev.Texture{}, err
	}
	tex = v.viewOf(tex)
	smp, err := refSampler(sm, r.desc.Target == TargetRect)
	if err != nil {
		return shaderdev.Texture{}, err
	}
	ver := r.versionNow()
	t := shaderdev.Texture{Width: uint32(r.desc.Width), Height: uint32(r.desc.Height)}
	key := swTexKey{r: r, s: smp}
	if v.State != nil {
		key.view = *v.State
	}
	if e := d.swTexs[key]; e != nil && e.version == ver && e.serial == r.serial {
		t.Resident = e.dt
		return t, nil
	}
	dt, err := d.sd.UploadRefTexture(tex, smp)
	if err != nil {
		return t, err
	}
	if old := d.swTexs[key]; old != nil {
		_ = old.dt.Free()
	}
	if d.swTexs == nil {
		d.swTexs = map[swTexKey]*devTexture{}
	}
	d.swTexs[key] = &devTexture{version: ver, serial: r.serial, dt: dt}
	d.texUploads++
	t.Resident = dt
	return t, nil
}

// mergeState builds the draw's whole output-merger state from the bound CSOs:
// the depth test, the two-sided stencil test with its references, every
// target's blend (equations, factors, write mask) and the constant, the logic op, the
// alpha and depth-bounds tests. gfx runs it on the FF OM when the unit can
// encode it and on the software merger otherwise; the planes are the device's.
// spec: vortexpipe §3.3 step 2, §3.7
func mergeState(st *BoundState) swom.State {
	var s swom.State
	fb := &st.FB
	if d := st.DSA; d != nil {
		ds := &d.State
		if fb.Zsbuf != nil && ds.DepthEnabled {
			s.DepthTest, s.DepthFunc, s.DepthWrite = true, ds.DepthFunc, ds.DepthWrite
		}
		if fb.Zsbuf != nil && d.StencilEnabled() {
			s.StencilTest = true
			back := ds.Stencil[1]
			if !back.Enabled {
				back = ds.Stencil[0]
			}
			face := func(f StencilState, ref uint8) swom.Face {
				return swom.Face{Func: f.Func, Fail: f.FailOp, ZFail: f.ZFailOp, ZPass: f.ZPassOp,
					Ref: ref, ReadMask: f.ValueMask, WriteMask: f.WriteMask}
			}
			s.Front = face(ds.Stencil[0], uint8(st.StencilRef))
			s.Back = face(back, uint8(st.StencilRef>>16))
		}
		if fb.Zsbuf != nil && ds.DepthBounds {
			s.DepthBounds, s.BoundsMin, s.BoundsMax = true, float32(ds.DepthBoundsMin), float32(ds.DepthBoundsMax)
		}
		if ds.AlphaEnabled && ds.AlphaFunc != compare.Always {
			s.AlphaTest, s.AlphaFunc, s.AlphaRef = true, ds.AlphaFunc, ds.AlphaRef
		}
	}
	def := swom.Blend{WriteMask: MaskRGBA, EqRGB: blend.Add, EqA: blend.Add,
		SrcRGB: blend.One, SrcA: blend.One, DstRGB: blend.Zero, DstA: blend.Zero}
	for i := range s.Targets {
		bl := def
		if b := st.Blend; b != nil {
			rt := b.State.RT[0]
			if b.State.IndependentBlend && i < len(b.State.RT) {
				rt = b.State.RT[i]
			}
			bl.WriteMask = rt.ColorMask & MaskRGBA
			if rt.BlendEnable && !b.State.LogicOpEnable {
				bl.Enable, bl.EqRGB, bl.EqA = true, rt.RGBFunc, rt.AlphaFunc
				bl.SrcRGB, bl.SrcA, bl.DstRGB, bl.DstA = rt.RGBSrc, rt.AlphaSrc, rt.RGBDst, rt.AlphaDst
			}
		}
		s.Targets[i].Blend = bl
	}
	if b := st.Blend; b != nil {
		if b.State.LogicOpEnable {
			s.LogicOpEnable, s.LogicOp = true, b.State.LogicOp
		}
		s.DualSource = b.DualSource
		s.AlphaToCoverage, s.AlphaToOne = b.State.AlphaToCoverage, b.State.AlphaToOne
	}
	if r := st.Rast; r != nil {
		switch {
		case r.State.DepthClamp:
			// GL depth clamp: gfx turns setup_k's depth clip off and
			// fills the clamp range from the depth range.
			s.DepthClamp = true
		case r.State.DepthClipDisable:
			// Clip off, no clamp: the fixed-point attachment's [0, 1].
			s.DepthClamp, s.ClampMin, s.ClampMax = true, 0, 1
		}
	}
	s.Constant = st.BlendColorF
	return s
}
