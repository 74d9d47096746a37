package pipe

import (
	"fmt"

	"vortexgfx/device/swom"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
)

// The device path: one direct draw through shaderdev.Device — the compiled VS
// as the front end's stage 0, setup/binning on the cores, RASTER, the FS wrapper
// and the OM — with vertex, index and texture data resident across frames.
// spec: vortexpipe §3.2–§3.4

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
	if n := l.prog.WritesCullDistance(); n > 0 {
		// setup_k clips by gl_ClipDistance but has no cull-distance test
		// yet; the reference renderer discards such primitives before
		// clipping. spec: ARB_cull_distance
		gate("gl_CullDistance (%d entries) written by the vertex stage", n)
	}
	if name := l.prog.BlockInterpolation(); name != "" {
		// The device interpolates each varying slot one way; these
		// members carry their own qualifiers. spec: GLSL 1.50 §4.3.7
		gate("interpolation qualifiers on the members of input block %s", name)
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
		if info.Mode.polygons() && sp.FlatVaryings() > 0 {
			gates = append(gates, Reason{GateFlatPolygons, ""})
		}
		if st.Rast != nil && st.Rast.State.FlatshadeFirst && info.Mode.Triangles() && sp.FlatVaryings() > 0 {
			// The device's triangles take their flat words from their
			// last vertex (gfx/frontend), and TriangleList keeps the first
			// vertex first under this convention: the reference renderer
			// takes such draws. Segments honour it (shaderdev's
			// ProvokingFirst). spec: GL 3.2 §2.18 (table 2.12)
			gate("flat varyings on triangles with the first-vertex provoking convention")
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
		PolygonOffset: devicePolygonOffset(st.Rast), MinSamples: st.MinSamples, StrictISA: c.opts.Strict,
		SampleMaskEnable: st.SampleMask.Enable, SampleMask: st.SampleMask.Mask}
	per := devicePrim(dr, st, sp, info.Mode)
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
		// The host's copy rides along for the vertex reuse (shaderdev.Draw.Indices).
		dr.IndexBuffer, dr.IndexOffset, dr.Count, dr.Indices = buf, at+4*uint64(d.Start), int(n), p.Indices[:n]
		for _, v := range p.Indices[:n] {
			nverts = max(nverts, int(int64(v)+int64(d.BaseVertex))+1)
		}
	case p.Indices != nil:
		n := len(p.Indices) - len(p.Indices)%per
		dr.Indices, dr.Count = p.Indices[:n], n
		if st.Rast != nil && st.Rast.PolygonModes() {
			dr.EdgeFlags = p.EdgeFlags
		}
		if sp.ReadsPrimitiveID() && p.EdgeFlags != nil {
			dr.PrimitiveIDs = polygonPrimitiveIDs(p.EdgeFlags[:n/3])
		}
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
			dr.IndexBuffer = buf // dr.Indices stays: the host copy the vertex reuse reads
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
