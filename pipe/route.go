package pipe

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
)

// BoundState is a snapshot of everything a draw reads, as bound on a context.
// Nil CSOs mean Gallium's defaults (no depth/stencil/alpha, blending off with all
// channels written, fill with no cull).
type BoundState struct {
	// layer is 1 + the layer a layered framebuffer's reference draw is
	// drawing, of layers (layered.go); 0 otherwise.
	layer, layers int
	VS, FS        *Shader
	// GS is the bound geometry shader (nil: none).
	GS         *Shader
	VElems     *VertexElements
	DSA        *DSA
	Blend      *Blend
	Rast       *Rasterizer
	Samplers   [MaxSamplers]*Sampler
	Views      [MaxSamplers]*SamplerView
	VBufs      []VertexBuffer
	CBufs      [MaxConstantBuffers]ConstantBuffer
	FB         Framebuffer
	StencilRef uint32
	BlendColor BlendColor
	// BlendColorF is the blend constant as set (the reference renderer's form).
	BlendColorF [4]float32
	Scissor     Scissor
	Viewport    Viewport
	// MinSamples is the sample shading state (SetMinSamples).
	MinSamples int
	// SampleMask is the sample mask state (SetSampleMask).
	SampleMask SampleMask
	// Clip is the user clip plane equations (SetClipState).
	Clip ClipState
	// Legacy is the built-in uniform state (SetLegacyState; nil: none set).
	Legacy *LegacyState
	// CountingQuery is set while a pipeline-statistics query is open.
	CountingQuery bool
	// OcclusionQuery is set while an occlusion counter or predicate is open:
	// the software merger counts the samples.
	OcclusionQuery bool
	// Storage is the storage buffers, atomic counter buffers and images of
	// the vertex and fragment stages (SetStorageBindings, storage.go).
	Storage []StorageBinding
	// QueryCondition gates under a query-based render condition; Bound
	// leaves it false, since the host evaluates the predicate at each call.
	QueryCondition bool
}

// DrawShape is the part of a draw routing reads besides the bound state.
type DrawShape struct {
	Mode                  PrimMode
	CountFromStreamOutput bool
	Draw                  DirectDraw
}

// Decision is where one direct draw runs: on the device (with the FS variant key
// saying which units run in software) or on the reference renderer, with every
// reason. Empty draws produce nothing on either path and run nowhere.
// spec: vortexpipe §2.3.3, §3.1, §3.5
type Decision struct {
	Reference bool
	Empty     bool
	Key       VariantKey
	Gates     []Reason // non-empty exactly when Reference
	Routes    []Reason // why units run in software (device path)
}

// Err is the STRICT-mode error of a reference-bound decision: a *StrictError
// naming every gate (errors.Is ErrStrict), nil for a device or empty draw.
// spec: vortexpipe §1.5
func (d Decision) Err() error {
	if !d.Reference {
		return nil
	}
	return &StrictError{Reasons: append([]Reason(nil), d.Gates...)}
}

func unitDetail(unit int, detail string) string {
	if detail == "" {
		return fmt.Sprintf("unit %d", unit)
	}
	return fmt.Sprintf("unit %d %s", unit, detail)
}

func bgraAttachment(f format.Format) bool { return f == format.BGRA8 }

// colorRoute classifies a colour attachment format for the merger. spec: §3.7
func colorRoute(f format.Format) ReasonCode {
	switch f {
	case format.RGBA8, format.BGRA8:
		return 0
	}
	if f.IsColor() {
		// sRGB, R8, RG8, float and integer formats: the software merger
		// encodes every colour format.
		return RouteColorFormat
	}
	return GateColorFormat
}

// depthRoute classifies a depth/stencil attachment format. D24S8 is the merger's
// own word with the stencil byte moved (the pass seed converts). spec: §3.7
func depthRoute(f format.Format) ReasonCode {
	switch f {
	case format.D24S8:
		return 0
	case format.D16, format.D32F, format.S8:
		return RouteDepthFormat
	}
	return GateDepthFormat
}

// Route decides where one direct draw runs. It is a pure function of its inputs.
// spec: vortexpipe §2.3.3 (per-unit routing), §3.1 (eligibility), §3.5, §3.6, §3.7
func Route(caps Caps, opts Options, st *BoundState, d DrawShape) Decision {
	var dec Decision
	gate := func(c ReasonCode, detail string) { dec.Gates = append(dec.Gates, Reason{c, detail}) }
	route := func(c ReasonCode, detail string) { dec.Routes = append(dec.Routes, Reason{c, detail}) }
	var swTex, swOM, swRaster bool

	if d.Draw.Count == 0 || d.Draw.InstanceCount == 0 || st.FB.Width < 1 || st.FB.Height < 1 ||
		st.Rast != nil && (st.Rast.State.RasterizerDiscard || st.Rast.CullsAll && d.Mode.Triangles()) {
		dec.Empty = true
		return dec
	}
	if opts.ForceReference {
		gate(GateForcedReference, "")
	}
	// §3.1 eligibility. An unbound stage is GL's fixed-function one, which
	// the device runs as a program the driver generates (ffgen.go; where
	// none can be, the device backend gates with GateNoVS or GateNoFS).
	// spec: vortexpipe-driver.md §1.5.1, §3.1
	if st.VS != nil && !st.VS.Desc.Info.Compiled {
		gate(GateVSNotCompiled, "")
	}
	var fsInfo ShaderInfo
	if st.FS != nil && !st.FS.Desc.Info.Compiled {
		gate(GateFSNotCompiled, "")
	}
	if st.FS != nil {
		fsInfo = st.FS.Desc.Info
	}
	if st.VS != nil {
		// The 12 planes and the side array carry abi.MaxExtraVaryings more
		// words, and abi.MaxFlatWords flat words. spec: vortexpipe §3.2, §3.4
		if v, f := st.VS.Desc.Info.VaryingVec4s, st.VS.Desc.Info.FlatWords; 4*v > abi.NumVaryingPlanes+abi.MaxExtraVaryings || f > abi.MaxFlatWords {
			gate(GateVaryings, fmt.Sprintf("%d vec4s, %d flat words", v, f))
		}
	}
	if fsInfo.FramebufferFetch {
		// spec: EXT_shader_framebuffer_fetch (no device input carries the
		// destination colour; ref/fetch.go)
		gate(GateFramebufferFetch, "")
	}
	if st.VS != nil && st.VS.Desc.Info.Storage || fsInfo.Storage {
		// spec: vortexpipe §2.5 (only compute kernels get a descriptor
		// set; pipe/storage.go)
		gate(GateStorage, "")
	}
	switch {
	case st.GS != nil:
		gate(GateGeometryStage, "")
	case d.Mode.Adjacency():
		// Without a geometry shader an adjacency draw draws its main
		// vertices (the reference renderer's assembly); the device's
		// front end has no such assembly.
		gate(GateTopology, d.Mode.String())
	}
	if d.CountFromStreamOutput {
		gate(GateStreamOutput, "")
	}
	if st.CountingQuery {
		gate(GateQuery, "")
	}
	if st.OcclusionQuery {
		swOM = true
		route(RouteOcclusionQuery, "")
	}
	if st.QueryCondition {
		gate(GateRenderCondition, "")
	}
	// Capture flags of the bound CSOs: state the device cannot express.
	if st.Rast != nil {
		dec.Gates = append(dec.Gates, st.Rast.Flags...)
		for _, r := range st.Rast.Routes {
			if z := st.FB.Zsbuf; r.Code == RouteDepthClip && z != nil && z.Fmt() == format.D32F {
				gate(GateDepthClip, z.Fmt().String())
				continue
			}
			swOM = true
			route(r.Code, r.Detail)
		}
	}
	if st.DSA != nil {
		dec.Gates = append(dec.Gates, st.DSA.Flags...)
		for _, r := range st.DSA.Routes {
			swOM = true
			route(r.Code, r.Detail)
		}
	}
	dualSource := false
	if st.Blend != nil {
		dec.Gates = append(dec.Gates, st.Blend.Flags...)
		for _, r := range st.Blend.Routes {
			swOM = true
			route(r.Code, r.Detail)
		}
		dualSource = st.Blend.DualSource
	}

	// Framebuffer and merger (§3.7, §3.4.1).
	fb := &st.FB
	samples := max(fb.Samples, 1)
	// Every multisample count walks in software: 4x at the spec's rotated
	// grid, 2x, 8x and 16x beyond the spec at the standard positions of
	// gl/msaa (vortexpipe refuses them; the software walk and merger take any
	// count of the table).
	switch {
	case samples == 1:
	case msaa.Valid(samples):
		swRaster = true
		route(RouteMultisample, fmt.Sprintf("%dx", samples))
	default:
		gate(GateSampleCount, fmt.Sprintf("%d samples", samples))
	}
	// Lines and points run on the device: prim_k expands them after the
	// vertex stage (clipping them by the view volume and the user clip
	// distances), lines on the software raster walk with the reference
	// rule; on a multisampled framebuffer prim_k draws GL's multisample
	// shapes (a line's rectangle, a point's exact square), which the
	// multisample walk covers per sample. spec: GL 4.6 §14.4, §14.5, §13.7
	if d.Mode.Lines() {
		swRaster = true
		route(RouteLines, d.Mode.String())
	}
	// LINE and POINT polygon modes: prim_k draws a triangle's edges and
	// vertices as the lines and points above (a quad's or polygon's fan
	// diagonals hidden by the edge flags Plan derives, PolygonEdgeFlags);
	// under user clip planes it clips each face's polygon by them first
	// and draws its edges along them. A FILL face would pass through prim_k
	// to setup_k, which does not clip a polygon-mode launch by the user
	// planes: with both, the reference renderer draws. On a multisampled
	// framebuffer the edges and vertices take the multisample line and
	// point shapes. spec: GL 4.6 §14.6.4
	if r := st.Rast; r != nil && r.PolygonModes() && d.Mode.Triangles() {
		rs := &r.State
		switch {
		case st.clipEnabled() != 0 && (rs.FillFront == PolygonFill && rs.Cull&CullFront == 0 || rs.FillBack == PolygonFill && rs.Cull&CullBack == 0):
			gate(GatePolygonMode, "a filled face with user clip planes")
		case rs.FillFront == PolygonLine && rs.Cull&CullFront == 0 || rs.FillBack == PolygonLine && rs.Cull&CullBack == 0:
			swRaster = true
			route(RouteLines, fmt.Sprintf("polygon mode front %d back %d", rs.FillFront, rs.FillBack))
		}
	}
	if fb.Width > abi.RasterScissorMaxCoord || fb.Height > abi.RasterScissorMaxCoord {
		gate(GateFramebufferSize, fmt.Sprintf("%dx%d", fb.Width, fb.Height))
	}
	rts := 0
	for i, s := range fb.Cbufs {
		if s != nil {
			rts = i + 1
		}
	}
	// Fragment outputs without a bound attachment are dropped, as GL
	// drops them, on both paths (GateMissingAttachment is no longer
	// produced).
	switch {
	case rts > abi.SWOMMaxTargets:
		gate(GateTooManyRTs, fmt.Sprintf("%d attachments", rts))
	case rts > abi.OMMaxRT:
		// The FF OM has four banks; the software merger takes eight.
		swOM = true
		route(RouteManyRTs, fmt.Sprintf("%d attachments", rts))
	}
	if dualSource && rts > 1 {
		gate(GateDualSource, fmt.Sprintf("%d attachments", rts))
	}
	var bgra uint8
	for i, s := range fb.Cbufs {
		if s == nil || i >= abi.SWOMMaxTargets {
			continue
		}
		f := s.Fmt()
		switch colorRoute(f) {
		case RouteColorFormat:
			swOM = true
			route(RouteColorFormat, fmt.Sprintf("rt %d %v", i, f))
		case GateColorFormat:
			gate(GateColorFormat, fmt.Sprintf("rt %d %v", i, f))
		}
		if bgraAttachment(f) {
			bgra |= 1 << i
		}
	}
	dsaUsed := st.DSA != nil && (st.DSA.State.DepthEnabled || st.DSA.StencilEnabled())
	if fb.Zsbuf != nil && dsaUsed {
		f := fb.Zsbuf.Fmt()
		switch depthRoute(f) {
		case RouteDepthFormat:
			swOM = true
			route(RouteDepthFormat, f.String())
		case GateDepthFormat:
			gate(GateDepthFormat, f.String())
		}
		if rts > 1 && (st.DSA.WritesDepthOrStencil() || fsInfo.WritesDepth || fsInfo.WritesStencil) {
			swOM = true
			route(RouteMRTDepthWrite, fmt.Sprintf("%d attachments", rts))
		}
	}
	shift := uint8(abi.RecordShiftOneWord)
	if fsInfo.WritesDepth && rts > 0 {
		shift = abi.RecordShiftColorZ
	}
	if fb.Width >= 1 && fb.Height >= 1 && rts <= abi.OMMaxRT {
		if _, err := abi.NewAperture(fb.Width, fb.Height, max(rts, 1), shift); err != nil {
			swOM = true
			route(RouteAperture, fmt.Sprintf("%dx%d, %d attachments", fb.Width, fb.Height, max(rts, 1)))
		}
	}

	// Textures (§3.6).
	// Every op the FF unit has no form of samples on the device's software
	// sampler (device/swtex).
	const swOps = TexOpShadow | TexOpArray | TexOpCube | TexOp3D | TexOpGather | TexOpFetch |
		TexOpGatherCube | TexOpFetchMS | TexOpQueryLod | TexOpQueryLevels | TexOp1DArray
	if op := fsInfo.TexOps & swOps; op != 0 {
		swTex = true
		route(RouteTexOp, fmt.Sprintf("ops %#x", uint32(op)))
	}
	textures := 0
	for i, v := range st.Views {
		if v == nil {
			continue
		}
		textures++
		for _, r := range v.Tex.Routes {
			swTex = true
			route(r.Code, unitDetail(i, r.Detail))
		}
		for _, r := range v.Tex.Flags {
			gate(r.Code, unitDetail(i, r.Detail))
		}
		if v.Buffer != nil {
			continue // no sampler state, levels or view swizzle (GL 4.6 §8.9)
		}
		if s := st.Samplers[i]; s != nil {
			for _, r := range s.Routes {
				swTex = true
				route(r.Code, unitDetail(i, r.Detail))
			}
			for _, r := range s.Flags {
				gate(r.Code, unitDetail(i, r.Detail))
			}
			// The FF unit samples for the fragment stage only (the vertex
			// stage's samples are the software sampler's whatever the key).
			if why := s.lodState(v.Texture.desc.Levels); why != "" && fsInfo.Samplers > 0 {
				swTex = true
				route(RouteTexLod, unitDetail(i, why))
			}
		}
		if why := v.viewRoute(); why != "" && fsInfo.Samplers > 0 {
			swTex = true
			route(RouteTexView, unitDetail(i, why))
		}
	}
	if n := fsInfo.Samplers; n > abi.TexNumStages {
		// The FF stage is the sampler's binding index (vx_tex's funct2,
		// fixed when the FS compiles; the driver loads the texture of the
		// binding's unit into it per draw), so a binding past the unit's
		// stages samples in software, whichever unit it reads.
		swTex = true
		route(RouteTexStages, fmt.Sprintf("%d samplers, %d TEX stages", n, abi.TexNumStages))
	}
	usesTex := textures > 0 || fsInfo.TexOps&^TexOpSize != 0

	// Device capabilities and forcing (§2.3.3): a unit, never the draw.
	if usesTex && !caps.HasTEX {
		swTex = true
		route(RouteNoTEX, "")
	}
	if !caps.HasRASTER {
		swRaster = true
		route(RouteNoRASTER, "")
	}
	if !caps.HasOM {
		swOM = true
		route(RouteNoOM, "")
	}
	if usesTex && opts.ForceSW&UnitTEX != 0 {
		swTex = true
		route(RouteForcedTEX, "")
	}
	if opts.ForceSW&UnitRASTER != 0 {
		swRaster = true
		route(RouteForcedRASTER, "")
	}
	if opts.ForceSW&UnitOM != 0 {
		swOM = true
		route(RouteForcedOM, "")
	}
	if swRaster && !swOM {
		swOM = true
		route(RouteRasterImpliesOM, "")
	}
	dec.Key = VariantKey{SWTex: swTex, SWOM: swOM, SWRaster: swRaster, Samples: uint8(min(samples, 255)), BGRAMask: bgra}
	dec.Reference = len(dec.Gates) > 0
	return dec
}
