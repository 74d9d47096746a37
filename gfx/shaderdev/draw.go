package shaderdev

import (
	"errors"
	"fmt"
	"math"

	"vortexgfx/abi"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/session"
	"vortexgfx/gl/msaa"
	"vortexgfx/runtime"
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

// Draw is one triangle-, line- or point-list draw of a compiled program on
// the device.
type Draw struct {
	Program *Program
	// StrictISA fails the draw (ErrISARefused) on a cores = "isa" device
	// when its vertex stage runs the IR kernel because codegen refuses it.
	StrictISA bool
	// Prim is the primitive type (the zero value a triangle list). Lines
	// and points run prim_k after the vertex stage (primKernel): it turns
	// each into two triangles of the reference renderer's geometry, never
	// culled or polygon-offset, which the front end then draws.
	// spec: GL 4.6 §14.4, §14.5
	Prim Prim
	// LineWidth is GL's line width (rounded, clamped to [1, 2048]) and
	// PointSize the API point size (clamped to [1, 2048]), used unless
	// ShaderPointSize takes the vertex stage's gl_PointSize.
	// ProvokingFirst gives a segment its first vertex's flat words (else
	// its last's, GL's default). spec: GL 4.6 §14.4, §14.5, §13.4
	LineWidth, PointSize float32
	ShaderPointSize      bool
	ProvokingFirst       bool
	// FillFront and FillBack are GL's polygon modes of a triangle draw's
	// front and back faces (glPolygonMode; FrontCCW names the front
	// winding): prim_k draws a LINE face's edges as lines and a POINT
	// face's vertices as points, with the line and point state above and
	// the triangle's provoking (last) vertex's flat words, facing as the
	// polygon. Cull applies first. Under ClipDistances a LINE or POINT
	// face's polygon is clipped by the user planes first (its edges along
	// them drawn); a draw that keeps a FILL face then is refused, as is
	// one with PolygonOffset. spec: GL 4.6 §14.6.4
	FillFront, FillBack PolygonMode
	FrontCCW            bool
	// EdgeFlags, with a LINE or POINT polygon mode, holds per triangle of
	// the list (of one instance: Count/3 entries) which edges are drawn: bit
	// k the edge from its vertex k to k+1, and in POINT mode vertex k (a
	// quad's or polygon's fan diagonals are not edges). nil: every edge.
	// spec: GL 2.1 §2.6.2 (edge flags); GL 4.6 §14.6.4
	EdgeFlags []uint8
	// PrimitiveIDs, for a program reading gl_PrimitiveID
	// (Program.ReadsPrimitiveID), holds per input primitive of the list
	// (triangle, segment or point of one instance) its GL primitive number
	// (a quad's two triangles, a polygon's fan, share one). nil: the
	// primitive's index in the list. spec: GL 4.6 §11.1.3.9
	PrimitiveIDs []uint32
	// PointOriginLower puts gl_PointCoord's origin at a point's lower left
	// (GL_POINT_SPRITE_COORD_ORIGIN GL_LOWER_LEFT; upper left otherwise).
	// spec: GL 4.6 §14.4.1
	PointOriginLower bool
	// Attribs holds one binding per Program.Attributes() entry, in order.
	Attribs []AttribBinding
	// Indices are the u32 indices (nil: non-indexed); Count is the vertices
	// per instance (len(Indices) when indexed), a multiple of 3 for
	// triangles and of 2 for lines.
	Indices []uint32
	// IndexBuffer, when set, holds the u32 indices in device memory at
	// IndexOffset (a resident buffer on Runtime()). Indices may then be
	// the host's copy of the same Count indices (a driver keeps its index
	// data) or nil; the device reads the buffer, and the host copy lets a
	// triangle list shade each distinct vertex once (vertex reuse,
	// vertexreuse.go).
	IndexBuffer  *runtime.Buffer
	IndexOffset  uint64
	Count        int
	Instances    int // 0 means 1
	BaseVertex   int32
	BaseInstance uint32
	// Uniforms is the program's uniform word buffer (UniformWords words).
	Uniforms  []uint32
	Cull      frontend.CullMode
	Near, Far float32 // depth range (0, 1 when both are 0, unless ExactDepth)
	// ExactDepth takes Near and Far as given, [0, 0] included (a driver's
	// glDepthRange(0, 0)); without it both 0 mean [0, 1]. Any order is
	// valid: [1, 0] reverses depth. spec: vortexpipe-driver §3.8 (depth range)
	ExactDepth bool
	// Viewport, when set, is the draw's viewport transform (window = ndc·S +
	// T, any size and position, a negative SY flipping), carried to setup_k
	// in the front-end argument block; nil maps NDC onto the whole target.
	// spec: vortex-hardware-facts §3.2 (viewport); vortexpipe-driver §3.8
	Viewport *frontend.Viewport
	// Scissor, when set, is the scissor rectangle [L, R) × [T, B) in pixels.
	// It and the viewport's pixels (clipRect) are RASTER_SCISSOR_X/Y on the
	// FF raster, and setup_k clamps every primitive's bounding box to them
	// (the software tile walk covers exactly the box). Clamped to the
	// target; an empty rectangle draws nothing. nil: the whole target.
	// spec: rasterizer.md §4; vortex-hardware-facts §2
	Scissor *frontend.BBox
	// Textures holds one texture per sampler binding when the program
	// samples in either stage (Program.Textured); TEX stage i samples
	// Textures[i]. A vertex stage samples them through the software sampler
	// (VS arg slot abi.ArgVSSWSampler). spec: vortexpipe §2.5, §3.6
	Textures []Texture
	// Merge is the draw's whole output-merger state: depth, two-sided
	// stencil, per-target blend and RGBA write masks in Targets[i].Blend
	// (the zero value writes nothing), logic op, alpha test,
	// alpha-to-coverage/one, depth bounds and clamp, dual source with
	// location 1 as the second colour of target 0. Its geometry (size,
	// samples, target formats and plane addresses, the depth/stencil plane)
	// is the device's and is filled in by Draw. The FF OM runs it when it
	// can encode it (swom.State.FFWhy, programmed by swom.State.FFDCRs), the
	// software merger otherwise. spec: vortexpipe §2.3.3, §3.3 step 2, §3.7
	Merge swom.State
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
	ClipPlanes [frontend.MaxClipDistances][4]float32
	// TwoSide enables two-sided colour (GL_VERTEX_PROGRAM_TWO_SIDE) over
	// these pairs, each one of Program.TwoSidePairs(): back-facing
	// primitives read the back colour's planes. spec: GL 2.1 §2.14.1
	TwoSide []TwoSide
	// PolygonOffset is GL's POLYGON_OFFSET_FILL state (Enable, Factor,
	// Units, Clamp): setup_k adds the offset to each primitive's depth
	// plane, so RASTER's early-Z, the merger and gl_FragCoord.z all see it.
	// Its DepthBits is the device's: Draw fills it from the pass's depth
	// plane. spec: GL 4.6 §14.6.5; rasterizer §2.3
	PolygonOffset frontend.PolygonOffset
	// MinSamples is GL's sample shading (GL_SAMPLE_SHADING with
	// MinSampleShading, as Gallium's min_samples: ⌈fraction × samples⌉):
	// on a multisampled pass a value above 1 shades every covered sample on
	// its own, which is at least the shadings per pixel any fraction asks
	// for. A program reading gl_SampleID or gl_SamplePosition or with
	// sample-qualified inputs shades per sample whatever it is (PerSample).
	// spec: GL 4.6 §14.3.1.1
	MinSamples int
	// SampleMaskEnable and SampleMask are GL_SAMPLE_MASK and
	// SAMPLE_MASK_VALUE word 0 (glSampleMaski; bit k: sample k): when
	// enabled, each fragment's coverage is ANDed with the mask after the
	// fragment shader, on every sample count (a single-sample pass whose mask
	// lacks bit 0 writes nothing). The wrapper reads the samples it drops from
	// the FS flags (abi.FSFlagSampleDropShift). spec: GL 4.6 §14.9.3
	SampleMaskEnable bool
	SampleMask       uint32
}

// sampleDrop is the FS flags' sample-drop field of the draw on an n-sample
// pass: the samples GL_SAMPLE_MASK clears.
func (dr *Draw) sampleDrop(n int) uint64 {
	if !dr.SampleMaskEnable {
		return 0
	}
	return uint64(^dr.SampleMask) & uint64(msaa.Full(n)) & abi.FSFlagSampleDropMask
}

// depthRange is the draw's depth range, [0, 1] when both ends are 0 (unless
// ExactDepth).
func (dr *Draw) depthRange() (near, far float32) {
	near, far = dr.Near, dr.Far
	if near == 0 && far == 0 && !dr.ExactDepth {
		far = 1
	}
	return near, far
}

// clipRect is the pixel rectangle a draw may cover on the w×h target: the
// target ∩ the scissor ∩ the viewport's pixels, nil when the draw has neither
// (the whole target). GL clips primitives to the view volume, so nothing
// lands outside the viewport rectangle [X, X+W] × [Y, Y+H]; its pixels are
// those whose centre lies inside under the top-left rule RASTER applies
// (left and top edges in, right and bottom out: a centre c is in when lo ≤ c
// < hi), i.e. [⌈lo − ½⌉, ⌈hi − ½⌉). Covering only those pixels is the
// frustum's x/y clip, as the full-target viewport's clamp to the target
// always was. spec: GL 4.6 §13.7 (primitive clipping), §14.6.1 (the
// top-left rule is RASTER's, vortex-hardware-facts §3.3); rasterizer.md §4
// (RASTER_SCISSOR_X/Y)
func (dr *Draw) clipRect(w, h int) *frontend.BBox {
	vp := dr.Viewport
	if dr.expansion() != PrimTriangles {
		// A line's or point's pixels beyond the viewport are drawn
		// (prim_k clips the vertices to the view volume, not the widened
		// primitive), as the reference renderer draws them.
		vp = nil
	}
	if dr.Scissor == nil && vp == nil {
		return nil
	}
	c := frontend.BBox{R: uint32(w), B: uint32(h)}
	if sc := dr.Scissor; sc != nil {
		c = frontend.BBox{L: sc.L, R: min(sc.R, c.R), T: sc.T, B: min(sc.B, c.B)}
	}
	if vp != nil {
		pix := func(s, t float32) (lo, hi uint32) {
			// The corners as the reference renderer's viewport has them:
			// X = t − s, W = 2s in float32, X + W in float64.
			x0 := float64(t - s)
			x1 := x0 + float64(2*s)
			a, b := math.Ceil(min(x0, x1)-0.5), math.Ceil(max(x0, x1)-0.5)
			return uint32(min(max(a, 0), 1<<20)), uint32(min(max(b, 0), 1<<20))
		}
		x0, x1 := pix(vp.SX, vp.TX)
		y0, y1 := pix(vp.SY, vp.TY)
		c.L, c.R, c.T, c.B = max(c.L, x0), min(c.R, x1), max(c.T, y0), min(c.B, y1)
	}
	c.R, c.B = max(c.R, c.L), max(c.B, c.T)
	return &c
}

// PassTriangles is the most triangles one front-end pass of a compiled draw
// takes: at SetupSlot primitives per triangle (near and guard-band clipping)
// a pass's visible primitives always fit the RASTER pid field, so a larger
// draw runs as several in-order passes inside its one runtime draw.
// spec: vortexpipe §3.8; rasterizer §2.4 (16-bit pid)
const PassTriangles = abi.MaxPrimsPerPass / frontend.SetupSlot

// drawState is one compiled draw in flight: each phase of Device.Draw fills
// in what the next one reads (as llvmpipe's lp_setup hands its scene to
// lp_rast). The phases allocate the device's pooled buffers in a fixed
// order, so a repeated draw reuses the same buffers at the same addresses.
type drawState struct {
	d  *Device
	dr *Draw
	p  *Program
	st session.DrawStats
	// expandErr refuses the draw under Draw.StrictISA when an expand_k
	// launch runs the Go kernel (isaexpand.go).
	expandErr error

	inst, total, nt int // instances, vertices over all instances, triangles
	mods            *shaderModules

	// route
	ms           swom.State
	route        session.Route
	fsTex, vsTex bool // the fragment / vertex stage samples

	// upload: one batch for everything the draw writes before it runs
	up        *runtime.Batch
	attribs   uint64       // the {base, stride, divisor}[max(8, n)] attribute table
	indices   uint64       // the vertex stage's u32 indices (0: non-indexed; the distinct ones with reuse)
	reuse     *vertexReuse // post-transform vertex reuse (nil: the vertex stage runs per index)
	desc      []byte       // descriptor table: uniforms at slot 0, set 0 at slot 1
	descBuf   *runtime.Buffer
	swTable   uint64        // the software sampler's descriptor table (0: none)
	texWrites []abi.DCRPair // TEX DCRs of the FF sampling route

	// front end
	recs, verts, tris *runtime.Buffer // VS records, expand_k records, triangle list
	xrecs             *runtime.Buffer // prim_k's triangle records (lines, points; else recs)
	// lines: prim_k's exact corners per triangle, and per pass per pid
	// (primmap_k's output, the walk's ArgFSLineCover)
	lineTris, lineCover *runtime.Buffer
	edges               *runtime.Buffer // Draw.EdgeFlags (nil: none)
	pids                *runtime.Buffer // Draw.PrimitiveIDs (nil: none)
	clipMask            uint8
	primClip            uint8 // the user clip distances prim_k clips lines and points by
	twoMask             uint64
	passTris, passes    int
	// stream: the vertex stage and expand_k run per pass over the pass's
	// vertices (the whole draw's records did not fit; see frontEnd).
	stream bool
	fe     feBuffers

	// fragment
	fsArgs   []byte
	fsBuf    *runtime.Buffer
	counters *runtime.Buffer // the FS wrapper's software counters

	steps []runtime.DrawStep
}

// Draw runs one compiled draw through the device and returns its counters.
// Per draw the host uploads the vertex data, attribute table, indices and
// uniform words and submits ONE runtime draw: the VS launch, expand_k, the
// nine front-end stage launches per pass, the RASTER/OM DCR writes and the
// grid-less frame kick that launches the FS wrapper (or, on the software
// raster, the wrapper's compute grid). spec: vortexpipe §3.2, §3.3
func (d *Device) Draw(dr *Draw) (session.DrawStats, error) {
	s := &drawState{d: d, dr: dr, p: dr.Program}
	for _, phase := range []func() error{
		s.validate, // the draw is a triangle list the program can run
		s.load,     // the program's modules at their link bases
		s.routeUnits,
		s.vertexRoute,
		s.fragmentRoute,
		s.upload,   // vertex data, indices, uniforms, textures, descriptors
		s.frontEnd, // VS and expand_k records, front-end buffers and passes
		s.fragment, // the FS wrapper's argument block
		s.submitUploads,
		s.record,                            // the runtime draw's steps
		func() error { return s.expandErr }, // a Go expand_k under StrictISA
		s.run,
		s.collect, // the software and front-end counters
	} {
		if err := phase(); err == errEmptyRect {
			return s.st, nil
		} else if err != nil {
			return s.st, err
		}
	}
	return s.st, nil
}

// validate checks the draw against its program and the front end's limits.
func (s *drawState) validate() error {
	dr, p := s.dr, s.p
	if p == nil {
		return fmt.Errorf("shaderdev: draw without a program")
	}
	s.inst = max(dr.Instances, 1)
	if err := s.validatePrim(); err != nil {
		return err
	}
	if len(dr.Attribs) != len(p.attrs) {
		return fmt.Errorf("shaderdev: draw: %d attribute bindings for %d attributes", len(dr.Attribs), len(p.attrs))
	}
	if len(dr.Uniforms) < p.prog.UniformWords {
		return fmt.Errorf("shaderdev: draw: %d uniform words for %d", len(dr.Uniforms), p.prog.UniformWords)
	}
	s.total = dr.Count * s.inst
	if s.total > frontend.MaxItems {
		return fmt.Errorf("shaderdev: draw: %d vertices exceed %d", s.total, frontend.MaxItems)
	}
	s.nt = s.total * s.primVerts() / 3
	s.st.Vertices = s.total
	if sc := dr.clipRect(s.d.w, s.d.h); sc != nil && (sc.L == sc.R || sc.T == sc.B) {
		// GL: an empty scissor rectangle (or a viewport wholly off the
		// target) passes no fragment. RASTER's window cannot be empty (the
		// OM binds [0, xmax) × [0, ymax)), so the draw runs nowhere.
		return errEmptyRect
	}
	return nil
}

// errEmptyRect ends a draw whose clip rectangle (clipRect) is empty: it
// draws nothing, without an error.
var errEmptyRect = errors.New("shaderdev: empty clip rectangle")

// load makes the program's modules resident.
func (s *drawState) load() (err error) {
	s.mods, err = s.d.resident(s.p)
	return err
}

// routeUnits decides where each unit runs: the merger state on the device's
// planes, the variant key, forced and missing units, then the sampling the
// FF TEX unit has no form of. spec: vortexpipe §2.3.3
func (s *drawState) routeUnits() error {
	var err error
	if s.ms, err = s.d.mergeState(s.dr); err != nil {
		return err
	}
	if s.route, err = s.d.route(s.dr, &s.ms); err != nil {
		return err
	}
	p := s.p
	s.fsTex, s.vsTex = len(p.prog.FS.Tex) > 0, len(p.prog.VS.Tex) > 0
	if s.fsTex && !s.route.SWTex {
		why := p.texSW
		if why == "" {
			why = texNeedsSW(s.dr.Textures)
		}
		if why == "" && s.route.SWRaster {
			why = "software raster (vx_tex answers RASTER-launched waves only)"
		}
		if why != "" {
			s.route.SWTex = true
			s.route.Why = append(s.route.Why, "tex: "+why)
		}
	}
	s.st.Route = s.route
	return nil
}

// put queues b for upload into the draw's next pooled buffer.
func (s *drawState) put(b []byte) (*runtime.Buffer, error) {
	buf, err := s.d.buffer(len(b))
	if err == nil && len(b) > 0 {
		s.up.Write(buf, 0, b)
	}
	return buf, err
}
