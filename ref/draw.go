package ref

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"vortexgfx/gl/compare"
)

// ErrBadDraw reports invalid draw parameters, state or vertex input.
var ErrBadDraw = errors.New("ref: bad draw")

// Limits of one draw; larger requests are rejected with ErrBadDraw.
const (
	MaxDrawCount   = 1 << 26 // vertices or indices
	MaxInstances   = 1 << 24
	MaxAttribWords = 4096 // attribute words per vertex or per instance
)

const (
	vertexBatch = 64 // vertices per vertex-shader call
	quadBatch   = 16 // quads per fragment-shader call
	// laneBatch is the most covered lanes per fragment-shader call when
	// helpers are not shaded (FragmentHelperFree): a batch then holds up
	// to laneBatch quads, so a shader that packs covered lanes (as a
	// compiled program does) fills whole 64-lane warps.
	laneBatch = 64
	// maxVaryings bounds a vertex layout's words: gl_Position and the
	// user outputs of the stage that feeds the rasterizer (up to
	// gl_MaxGeometryOutputComponents, 128, for a geometry shader) with the
	// built-in outputs beside them (point size, the compatibility
	// profile's colours, texture coordinates and fog coordinate,
	// gl_PrimitiveID, gl_Layer). spec: GLSL 1.50 §7.4.
	maxVaryings  = 256
	maxClipVerts = 3 + 6 + MaxClipDistances + 2
	subPixelBits = 8 // window coordinates are snapped to 1/256 pixel
	subPixel     = 1 << subPixelBits
	restartMark  = math.MinInt64
	bandRows     = 16 // rows per band in the parallel path (even: quads never straddle)
	maxWorkers   = 64
)

// drawer holds one draw's state and scratch buffers; it is allocated once
// per Draw, so the per-primitive and per-fragment paths never allocate.
type drawer struct {
	ctx    context.Context
	bufs   *drawBufs // the draw's per-element and per-vertex memory
	t      *Target
	s      *State
	tex    boundTextures
	layout VertexLayout
	vw     int // varying words
	interp []Interp
	// smoothW, linearW and flatW list the varying words the fragment
	// shader reads by qualifier (all of them unless it implements
	// FragmentVaryingUse; none without a fragment shader): only those
	// are set up and interpolated.
	smoothW, linearW, flatW []int
	// backMap[k] is the vertex word a back-facing primitive reads for
	// fragment word k (two-sided colour); identity otherwise.
	frontMap, backMap []int

	// post-vertex-shader data, per vertex slot
	pos   [][4]float32
	vary  []uint32
	psize []float32
	cdist []float32

	// wv[s] is post-VS slot s in window space (without its words) when
	// the vertex is finite, in front of the eye and inside every clip
	// plane, else has fy == noY. A triangle of three such vertices is not
	// clipped: it is set up from these, computed once per vertex, and
	// workers skip it before any setup when it cannot reach their bands.
	wv []winPos

	// the depth/stencil attachment's bytes per texel and components
	dsBytes            int
	dsDepth, dsStencil bool
	// early: quads whose covered lanes all fail the depth test are not
	// shaded (see FragmentEarlyDepth)
	early bool
	// fastOps: the per-fragment operations run as fragmentsRGBA8
	fastOps bool
	// noHelpers: helper lanes are not interpolated (FragmentHelperFree)
	noHelpers bool
	// outRT: the render targets whose colour outputs the per-fragment
	// operations read (the attachments), cleared per quad; outSrc1: the
	// dual-source colour is read (a blend factor uses it)
	outRT   int
	outSrc1 bool

	clip clipper
	// clipScratch: one clipper per concurrent vertex shader, for the
	// window positions of its vertices (vertexStage)
	clipScratch []clipper
	rect        [4]int // x0, y0, x1, y1 (exclusive): target ∩ scissor
	primID      int32
	zoff        float64 // depth bias of the triangle being rasterized
	// polyModes: a face is in LINE or POINT polygon mode (polymode.go)
	polyModes bool
	pm        polyClip
	fs        FragmentShader
	// fetchFS is fs when it reads the framebuffer (fetch.go), fetchRT the
	// targets it reads and dest the destination colours of a batch.
	fetchFS FragmentFetch
	fetchRT uint32
	dest    []FetchedColors
	// band and bands select the quad rows this drawer rasterizes: those in
	// bands of bandRows rows whose index modulo bands is band.
	band, bands int

	// triangle setup scratch
	poly [maxClipVerts]wvert // a clipped triangle in window space
	// lazy: poly[0..2] are an unclipped triangle whose words are not yet
	// loaded; rasterTri loads those of slots lazySlots through lazyMap
	// at its first covered quad
	lazy      bool
	lazySlots [3]int32
	lazyMap   []int
	setup     [3][]float64 // per-vertex attribute terms (setupOwn, or views of vt)
	setupOwn  [3][]float64
	vt        *vertexTerms // per-vertex terms of unclipped triangles, or nil
	flat      []uint32     // the provoking vertex's words

	// fragment batch
	quads []Quad
	qmask []uint8
	qback []bool
	qpos  [][2]int // each quad's position, kept outside the shader's reach
	nq    int
	// quadCap: quads per batch (quadBatch, or laneBatch when helpers are
	// not shaded); lanes: covered lanes in the batch
	quadCap, lanes int
	varyBuf        []uint32

	// packed path (see FragmentPacked): the shader's lane arrays, and per
	// packed lane its pixel's byte offset and window depth; batchPrim is
	// the batch's first primitive (for errors)
	packed *PackedLanes
	pfs    FragmentPacked
	// pSmooth, pLinear, pFlat: the words of smoothW, linearW, flatW the
	// packed shader reads, with their lane arrays
	pSmooth, pLinear, pFlat []packWord
	laneOff                 []int32
	laneZ                   []float32
	batchPrim               int32
	// qzFast: the packed path's depth test is on the D24S8 integers of the
	// interpolated window depth, unclamped and not replaced by the shader
	// (see setPacked): emitQuad quantizes each covered lane's depth once
	// into qz, for the early test and, through laneQZ, the late one.
	qzFast bool
	// earlyPass: rasterTri's depth bounds show the quad it is emitting
	// passes the early test (zClassify), so emitQuad skips it
	earlyPass bool
	qz        [4]uint32
	laneQZ    []uint32
	// laneZero: zero lanes, the colour of a shader without a colour
	// output (fragmentsPackedQZ); laneRGBA: each lane's packed RGBA8
	// texel (packRGBA8), stored where the depth test passes
	laneZero []uint32
	laneRGBA []uint32
	// plainInputs: the packed shader reads no gl_FragCoord,
	// gl_FrontFacing or gl_PointCoord (packQuad)
	plainInputs bool
	// smoothPtr and smoothTerms are smoothQuad's arguments: each smooth
	// word's lane array, and the terms of the words (three each) of the
	// primitive whose setup termsGen counts (prepare and cornerTerms
	// bump it), gathered when smoothGen lags
	smoothPtr           []*uint32
	smoothTerms         []float64
	termsGen, smoothGen uint64
}

// Draw renders one draw call into t with state s, vertex attributes in and
// parameters p: vertex shading in batches, primitive assembly (restart,
// strips, fans, loops, instancing), homogeneous clipping, culling,
// rasterization with the top-left rule at 8 sub-pixel bits, fragment
// shading in 2x2 quads with helper lanes, and the per-fragment operations
// in GL order. It returns an error naming what is wrong for invalid input,
// or the first error of a shader or of ctx. Output is deterministic.
// spec: vortexpipe-driver §5.2 (the CPU renderer is the correctness oracle).
func Draw(ctx context.Context, t *Target, s *State, in VertexInput, p DrawParams) error {
	if s != nil && s.Geometry != nil {
		return drawGeometry(ctx, t, s, in, p)
	}
	b := drawBufPool.Get().(*drawBufs)
	defer drawBufPool.Put(b)
	d, elems, err := newDrawer(ctx, t, s, in, p, b)
	if err != nil {
		return err
	}
	return d.run(in, p, elems)
}

// drawBufs holds a draw's per-element and per-vertex arrays. Draws take
// them from drawBufPool, so consecutive draws reuse the memory instead of
// allocating (and faulting in) megabytes per draw, whatever target they
// draw into (a caller may make a new Target per draw); every array is
// fully written before it is read.
type drawBufs struct {
	elems []int64
	slot  []int32
	table []int32
	ids   []int64
	pos   [][4]float32
	vary  []uint32
	psize []float32
	cdist []float32
	wv    []winPos
}

// drawBufPool holds the drawBufs of finished draws; concurrent draws each
// take their own.
var drawBufPool = sync.Pool{New: func() any { return new(drawBufs) }}

// grow returns s resized to n elements, reallocating only when its
// capacity is too small; the contents are unspecified.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func newDrawer(ctx context.Context, t *Target, s *State, in VertexInput, p DrawParams, bufs *drawBufs) (*drawer, []int64, error) {
	if t == nil || s == nil {
		return nil, nil, fmt.Errorf("%w: nil target or state", ErrBadDraw)
	}
	if err := t.check(); err != nil {
		return nil, nil, err
	}
	if s.Vertex == nil {
		return nil, nil, fmt.Errorf("%w: no vertex shader", ErrBadDraw)
	}
	if err := checkState(t, s); err != nil {
		return nil, nil, err
	}
	d := &drawer{ctx: ctx, t: t, s: s, tex: boundTextures(s.Textures), layout: s.Vertex.Layout(), bufs: bufs}
	lay := d.layout
	if lay.Varyings < 0 || lay.Varyings > maxVaryings || lay.ClipDistances < 0 || lay.ClipDistances > MaxClipDistances {
		return nil, nil, fmt.Errorf("%w: vertex layout %d varyings, %d clip distances (max %d, %d)", ErrBadDraw, lay.Varyings, lay.ClipDistances, maxVaryings, MaxClipDistances)
	}
	if lay.CullDistances < 0 || lay.CullDistances > MaxClipDistances || lay.CullDistances > 0 && (lay.CullWord < 0 || lay.CullWord+lay.CullDistances > lay.Varyings) {
		return nil, nil, fmt.Errorf("%w: vertex layout: %d cull distances at word %d of %d varyings", ErrBadDraw, lay.CullDistances, lay.CullWord, lay.Varyings)
	}
	d.vw = lay.Varyings
	if len(s.Interp) > d.vw {
		return nil, nil, fmt.Errorf("%w: %d interpolation qualifiers for %d varying words", ErrBadDraw, len(s.Interp), d.vw)
	}
	d.interp = make([]Interp, d.vw)
	copy(d.interp, s.Interp)
	for i, q := range d.interp {
		if q > NoPerspective {
			return nil, nil, fmt.Errorf("%w: varying word %d: interpolation %d", ErrBadDraw, i, q)
		}
	}
	d.frontMap = make([]int, d.vw)
	d.backMap = make([]int, d.vw)
	for i := range d.vw {
		d.frontMap[i], d.backMap[i] = i, i
	}
	if s.TwoSided {
		for _, r := range s.TwoSide {
			if r.Words < 0 || r.Front < 0 || r.Back < 0 || r.Front+r.Words > d.vw || r.Back+r.Words > d.vw {
				return nil, nil, fmt.Errorf("%w: two-sided range %+v outside %d varying words", ErrBadDraw, r, d.vw)
			}
			for k := range r.Words {
				d.backMap[r.Front+k] = r.Back + k
			}
		}
	}
	elems, err := elementsInto(bufs.elems, in, p, s.PrimitiveRestart, s.RestartIndex, min(max(s.Workers, 1), maxWorkers))
	if err != nil {
		return nil, nil, err
	}
	bufs.elems = elems
	d.rect = [4]int{0, 0, t.W, t.H}
	if s.ScissorTest {
		sc := s.Scissor
		d.rect = [4]int{max(sc.X, 0), max(sc.Y, 0), min(sc.X+sc.W, t.W), min(sc.Y+sc.H, t.H)}
	}
	d.fs = s.Fragment
	d.polyModes = s.PolygonFront != PolygonFill || s.PolygonBack != PolygonFill
	d.classifyWords()
	if ds := t.DepthStencil; ds != nil {
		d.dsBytes, d.dsDepth, d.dsStencil = ds.Format.Info().Bytes, ds.Format.IsDepth(), ds.Format.HasStencil()
	}
	if e, ok := s.Fragment.(FragmentEarlyDepth); ok && e.EarlyDepthSafe() && s.Depth.Test && d.dsDepth && !(s.StencilTest && d.dsStencil) {
		switch s.Depth.Func {
		case compare.Never, compare.Less, compare.LessEqual, compare.Greater, compare.GreaterEqual:
			d.early = true
		}
	}
	d.fastOps = fastFragmentOps(t, s)
	d.outRT = len(t.Color)
	for i := range t.Color {
		if b := s.Blend[i]; b.Enable && b.fn().UsesSrc1() {
			d.outSrc1 = true
		}
	}
	if h, ok := s.Fragment.(FragmentHelperFree); ok && h.HelpersUnused() {
		d.noHelpers = true
	}
	d.bands = 1
	d.setFetch()
	d.scratch()
	d.setPacked()
	return d, elems, nil
}

// classifyWords fills smoothW, linearW and flatW.
func (d *drawer) classifyWords() {
	if d.fs == nil {
		return
	}
	var used []bool
	u, partial := d.fs.(FragmentVaryingUse)
	if partial {
		used = u.VaryingsRead()
	}
	for k, q := range d.interp {
		if partial && (k >= len(used) || !used[k]) {
			continue
		}
		switch q {
		case Smooth:
			d.smoothW = append(d.smoothW, k)
		case NoPerspective:
			d.linearW = append(d.linearW, k)
		default:
			d.flatW = append(d.flatW, k)
		}
	}
}

// scratch allocates the drawer's own raster and fragment buffers.
func (d *drawer) scratch() {
	d.clip.init(d)
	d.pm = polyClip{}
	if d.polyModes {
		d.pm.init(d)
	}
	for i := range d.setupOwn {
		d.setupOwn[i] = make([]float64, d.vw)
	}
	d.setup = d.setupOwn
	d.vt = nil
	d.flat = make([]uint32, d.vw)
	d.quadCap = quadBatch
	if d.noHelpers {
		d.quadCap = laneBatch
	}
	d.quads = make([]Quad, d.quadCap)
	d.qmask = make([]uint8, d.quadCap)
	d.qback = make([]bool, d.quadCap)
	d.qpos = make([][2]int, d.quadCap)
	d.varyBuf = make([]uint32, d.quadCap*4*d.vw)
	d.nq, d.lanes = 0, 0
}

// workers returns n drawers that share d's post-vertex data and each own
// the quad rows of bands k, k+n, k+2n, ... (d itself is worker 0).
func (d *drawer) workers(ctx context.Context, n int) []*drawer {
	n = orderedWorkers(d.s.Fragment, d.fetchWorkers(n))
	ws := make([]*drawer, n)
	for k := range n {
		w := d
		if k > 0 {
			c := *d
			w = &c
			w.clip = clipper{}
			w.scratch()
			if cl, ok := d.s.Fragment.(FragmentCloner); ok {
				w.fs = cl.CloneFragment()
			}
			w.setFetch()
			w.dest = nil
			w.setPacked()
		}
		w.ctx, w.band, w.bands = ctx, k, n
		ws[k] = w
	}
	if _, ok := d.s.Fragment.(FragmentCloner); !ok && n > 1 {
		// One shader for every worker: its lane arrays cannot be shared.
		for _, w := range ws {
			w.packed, w.pfs, w.qzFast = nil, nil, false
		}
	}
	return ws
}

// owns reports whether quad row qy belongs to this drawer's bands.
func (d *drawer) owns(qy int) bool {
	return d.bands == 1 || (qy/bandRows)%d.bands == d.band
}

// shade rasterizes one instance's primitives: directly, or with every
// worker walking all primitives in order over its own bands, so each pixel
// sees the same sequence of fragments as in the serial path.
func (d *drawer) shade(ws []*drawer, top Topology, slot []int32) error {
	last := d.s.Provoking == ProvokingLast
	if len(ws) <= 1 {
		d.primID = 0
		if d.vt != nil {
			d.vt.reset(len(d.wv), d.vw)
		}
		return assemble(top, slot, last, d.culler(), d.primitive)
	}
	errs := make([]error, len(ws))
	var wg sync.WaitGroup
	for k, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.primID = 0
			if w.vt != nil {
				w.vt.reset(len(w.wv), w.vw)
			}
			if err := assemble(top, slot, last, w.culler(), w.primitive); err != nil {
				errs[k] = err
				return
			}
			errs[k] = w.flush()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func finite(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }

func checkState(t *Target, s *State) error {
	vp := s.Viewport
	for _, v := range []float32{vp.X, vp.Y, vp.W, vp.H, vp.MinDepth, vp.MaxDepth} {
		if !finite(v) {
			return fmt.Errorf("%w: viewport %+v not finite", ErrBadDraw, vp)
		}
	}
	if vp.W <= 0 || vp.H == 0 || vp.W > 2*MaxTargetSize || math.Abs(float64(vp.H)) > 2*MaxTargetSize ||
		math.Abs(float64(vp.X)) > 2*MaxTargetSize || math.Abs(float64(vp.Y)) > 2*MaxTargetSize {
		return fmt.Errorf("%w: viewport %+v: width must be in (0, %d], height nonzero and within it", ErrBadDraw, vp, 2*MaxTargetSize)
	}
	if s.ScissorTest && (s.Scissor.W < 0 || s.Scissor.H < 0) {
		return fmt.Errorf("%w: scissor %+v", ErrBadDraw, s.Scissor)
	}
	if !finite(s.PointSize) || !finite(s.LineWidth) || !finite(s.DepthBias.Constant) || !finite(s.DepthBias.Slope) || !finite(s.DepthBias.Clamp) {
		return fmt.Errorf("%w: point size %v / line width %v / depth bias %+v not finite", ErrBadDraw, s.PointSize, s.LineWidth, s.DepthBias)
	}
	for i := range t.Color {
		b := s.Blend[i]
		if b.Enable && !(b.SrcRGB.Valid() && b.DstRGB.Valid() && b.SrcAlpha.Valid() && b.DstAlpha.Valid() &&
			b.EqRGB.Valid() && b.EqAlpha.Valid()) {
			return fmt.Errorf("%w: render target %d blend state %+v", ErrBadDraw, i, b)
		}
	}
	if s.LogicOpEnable && !s.LogicOp.Valid() {
		return fmt.Errorf("%w: logic op %d", ErrBadDraw, s.LogicOp)
	}
	for _, f := range []StencilFace{s.StencilFront, s.StencilBack} {
		if !f.Func.Valid() || !f.Fail.Valid() || !f.DepthFail.Valid() || !f.Pass.Valid() {
			return fmt.Errorf("%w: stencil state %+v", ErrBadDraw, f)
		}
	}
	if s.PolygonFront > PolygonPoint || s.PolygonBack > PolygonPoint {
		return fmt.Errorf("%w: polygon modes %d/%d", ErrBadDraw, s.PolygonFront, s.PolygonBack)
	}
	if !s.Depth.Func.Valid() || !s.AlphaFunc.Valid() {
		return fmt.Errorf("%w: depth func %d / alpha func %d", ErrBadDraw, s.Depth.Func, s.AlphaFunc)
	}
	return nil
}

func (d *drawer) run(in VertexInput, p DrawParams, elems []int64) error {
	ids, slot := d.bufs.uniqueVertices(elems, min(max(d.s.Workers, 1), maxWorkers))
	for _, id := range ids {
		if id < 0 || id > math.MaxInt32 || (in.Words > 0 && (id+1)*int64(in.Words) > int64(len(in.Data))) {
			return fmt.Errorf("%w: vertex %d outside the vertex data (%d words of %d per vertex)", ErrBadDraw, id, len(in.Data), in.Words)
		}
	}
	n := len(ids)
	bf := d.bufs
	bf.pos = grow(bf.pos, n)
	bf.vary = grow(bf.vary, n*d.vw)
	bf.psize = grow(bf.psize, n)
	bf.cdist = grow(bf.cdist, n*d.layout.ClipDistances)
	d.pos, d.vary, d.psize, d.cdist = bf.pos, bf.vary, bf.psize, bf.cdist
	instances := max(p.Instances, 1)
	var ws []*drawer
	workers := min(max(d.s.Workers, 1), maxWorkers)
	// The cache pays when vertices are shared between triangles (indexed
	// lists, strips, fans, quads) or when workers skip triangles by band.
	if !d.s.RasterizerDiscard && p.Topology >= Triangles && p.Topology <= Polygon && (p.Topology != Triangles || len(slot) > n || workers > 1) {
		bf.wv = grow(bf.wv, n)
		d.wv = bf.wv // shared by the workers
	}
	vs := newVertexStage(d, in, n, workers)
	if len(vs.shaders) > 1 && d.wv != nil {
		d.clipScratch = make([]clipper, len(vs.shaders))
		for j := range d.clipScratch {
			d.clipScratch[j].init(d)
		}
	}
	for inst := range instances {
		ii := p.BaseInstance + inst
		if in.InstanceWords > 0 && (ii+1)*in.InstanceWords > len(in.InstanceData) {
			return fmt.Errorf("%w: instance %d outside the instance data (%d words of %d per instance)", ErrBadDraw, ii, len(in.InstanceData), in.InstanceWords)
		}
		if err := vs.shade(d, in, ids, inst, ii); err != nil {
			return err
		}
		if d.s.RasterizerDiscard {
			continue
		}
		if ws == nil {
			ws = d.workers(d.ctx, workers)
			for _, w := range ws {
				w.useVertexTerms()
				defer w.releaseVertexTerms()
			}
		}
		if err := d.shade(ws, p.Topology, slot); err != nil {
			return err
		}
	}
	return d.flush()
}
