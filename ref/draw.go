package ref

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
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
	laneBatch    = 64
	maxVaryings  = 128
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
	fs          FragmentShader
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
	setup     [3][]float64 // per-vertex attribute terms
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
	elems, err := elementsInto(bufs.elems, in, p, s.PrimitiveRestart, s.RestartIndex)
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
	d.scratch()
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
	for i := range d.setup {
		d.setup[i] = make([]float64, d.vw)
	}
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
		}
		w.ctx, w.band, w.bands = ctx, k, n
		ws[k] = w
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
		return assemble(top, slot, last, d.primitive)
	}
	errs := make([]error, len(ws))
	var wg sync.WaitGroup
	for k, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.primID = 0
			if err := assemble(top, slot, last, w.primitive); err != nil {
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
	if !s.Depth.Func.Valid() || !s.AlphaFunc.Valid() {
		return fmt.Errorf("%w: depth func %d / alpha func %d", ErrBadDraw, s.Depth.Func, s.AlphaFunc)
	}
	return nil
}

// elements returns the draw's vertex indices (with the base vertex added)
// in order, restartMark marking a primitive restart (compared with the raw
// index).
func elements(in VertexInput, p DrawParams, restart bool, restartIndex uint32) ([]int64, error) {
	return elementsInto(nil, in, p, restart, restartIndex)
}

// elementsInto is elements writing into dst's memory when it is large
// enough.
func elementsInto(dst []int64, in VertexInput, p DrawParams, restart bool, restartIndex uint32) ([]int64, error) {
	if p.Count < 0 || p.First < 0 || p.Instances < 0 || p.BaseInstance < 0 ||
		p.Count > MaxDrawCount || p.First > math.MaxInt32 || p.Instances > MaxInstances || p.BaseInstance > math.MaxInt32 {
		return nil, fmt.Errorf("%w: first %d count %d instances %d base instance %d (limits: count %d, instances %d)",
			ErrBadDraw, p.First, p.Count, p.Instances, p.BaseInstance, MaxDrawCount, MaxInstances)
	}
	if p.Topology > Polygon {
		return nil, fmt.Errorf("%w: topology %d", ErrBadDraw, p.Topology)
	}
	if in.Words < 0 || in.InstanceWords < 0 || in.Words > MaxAttribWords || in.InstanceWords > MaxAttribWords {
		return nil, fmt.Errorf("%w: vertex input %d / %d words per vertex / instance (max %d)", ErrBadDraw, in.Words, in.InstanceWords, MaxAttribWords)
	}
	elems := grow(dst, p.Count)
	if p.IndexType == IndexNone {
		for i := range elems {
			elems[i] = int64(p.First + i)
		}
		return elems, nil
	}
	size := map[IndexType]int{Index8: 1, Index16: 2, Index32: 4}[p.IndexType]
	if size == 0 {
		return nil, fmt.Errorf("%w: index type %d", ErrBadDraw, p.IndexType)
	}
	if (p.First+p.Count)*size > len(p.Indices) {
		return nil, fmt.Errorf("%w: indices %d..%d outside the %d-byte index buffer", ErrBadDraw, p.First, p.First+p.Count, len(p.Indices))
	}
	idx := p.Indices[p.First*size : (p.First+p.Count)*size]
	base := int64(p.BaseVertex)
	switch size {
	case 1:
		for i, v := range idx {
			elems[i] = element(uint32(v), base, restart, restartIndex)
		}
	case 2:
		for i := range elems {
			elems[i] = element(uint32(binary.LittleEndian.Uint16(idx[2*i:])), base, restart, restartIndex)
		}
	default:
		for i := range elems {
			elems[i] = element(binary.LittleEndian.Uint32(idx[4*i:]), base, restart, restartIndex)
		}
	}
	return elems, nil
}

func (d *drawer) run(in VertexInput, p DrawParams, elems []int64) error {
	ids, slot := d.bufs.uniqueVertices(elems)
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
	if !d.s.RasterizerDiscard && p.Topology >= Triangles && (p.Topology != Triangles || len(slot) > n || workers > 1) {
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
		}
		if err := d.shade(ws, p.Topology, slot); err != nil {
			return err
		}
	}
	return d.flush()
}

// element is the element of raw index v: restartMark for the restart
// index (when restart is on), else v plus the base vertex.
func element(v uint32, base int64, restart bool, restartIndex uint32) int64 {
	if restart && v == restartIndex {
		return restartMark
	}
	return int64(v) + base
}

// uniqueVertices returns the draw's distinct vertex indices in ascending
// order (each is shaded once per instance) and, for every element, the
// position of its vertex in that list (-1 for a restart). When the indices
// span a range not much larger than the draw, a direct table over the range
// replaces sorting and searching; both give the same lists.
func uniqueVertices(elems []int64) (ids []int64, slot []int32) {
	return (&drawBufs{}).uniqueVertices(elems)
}

// uniqueVertices is the package function using (and keeping) b's slot,
// table and id memory.
func (b *drawBufs) uniqueVertices(elems []int64) (ids []int64, slot []int32) {
	slot = grow(b.slot, len(elems))
	b.slot = slot
	lo, hi, found := int64(math.MaxInt64), int64(math.MinInt64), false
	for _, e := range elems {
		if e != restartMark {
			lo, hi, found = min(lo, e), max(hi, e), true
		}
	}
	if !found {
		for i := range slot {
			slot[i] = -1
		}
		return nil, slot
	}
	if span := uint64(hi - lo); span < uint64(2*len(elems)+4096) {
		ids = grow(b.ids, int(min(uint64(len(elems)), span+1)))[:0]
		table := grow(b.table, int(span+1)) // 0: unused, else 1 + position in ids
		clear(table)
		b.table = table
		for _, e := range elems {
			if e != restartMark {
				table[e-lo] = 1
			}
		}
		for k, used := range table {
			if used != 0 {
				ids = append(ids, lo+int64(k))
				table[k] = int32(len(ids))
			}
		}
		b.ids = ids
		for i, e := range elems {
			slot[i] = -1
			if e != restartMark {
				slot[i] = table[e-lo] - 1
			}
		}
		return ids, slot
	}
	return uniqueVerticesSorted(elems)
}

// uniqueVerticesSorted is uniqueVertices by sorting and binary search, for
// sparse indices.
func uniqueVerticesSorted(elems []int64) (ids []int64, slot []int32) {
	slot = make([]int32, len(elems))
	ids = make([]int64, 0, len(elems))
	for _, e := range elems {
		if e != restartMark {
			ids = append(ids, e)
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	for i, e := range elems {
		slot[i] = -1
		if e != restartMark {
			j, _ := slices.BinarySearch(ids, e)
			slot[i] = int32(j)
		}
	}
	return ids, slot
}

// assemble splits the element slots at restarts and emits each run's
// primitives with their provoking vertex (GL 4.6 §10.1, table 13.2;
// GL 2.1 §2.6.1 for quads and polygons): n = 1 for points, 2 for lines, 3
// for triangles; odd strip triangles swap their first two vertices to keep
// the winding. Quads and polygons are emitted as fans of triangles, those
// after the first with cont set: they continue the same primitive.
func assemble(top Topology, slot []int32, last bool, emit func(n int, v [3]int32, prov int32, cont bool) error) error {
	for start := 0; start < len(slot); {
		end := start
		for end < len(slot) && slot[end] >= 0 {
			end++
		}
		r := slot[start:end]
		n := len(r)
		var err error
		switch top {
		case Points:
			for i := 0; i < n && err == nil; i++ {
				err = emit(1, [3]int32{r[i]}, r[i], false)
			}
		case Lines, LineStrip, LineLoop:
			step, cnt := 1, n-1
			if top == Lines {
				step, cnt = 2, n/2
			}
			for i := 0; i < cnt && err == nil; i++ {
				a, b := r[i*step], r[i*step+1]
				err = emit(2, [3]int32{a, b}, pick(last, a, b), false)
			}
			if top == LineLoop && n >= 2 && err == nil {
				err = emit(2, [3]int32{r[n-1], r[0]}, pick(last, r[n-1], r[0]), false)
			}
		case Triangles:
			for i := 0; i+2 < n && err == nil; i += 3 {
				err = emit(3, [3]int32{r[i], r[i+1], r[i+2]}, pick(last, r[i], r[i+2]), false)
			}
		case TriangleStrip:
			for i := 0; i+2 < n && err == nil; i++ {
				if i%2 == 0 {
					err = emit(3, [3]int32{r[i], r[i+1], r[i+2]}, pick(last, r[i], r[i+2]), false)
				} else {
					err = emit(3, [3]int32{r[i+1], r[i], r[i+2]}, pick(last, r[i], r[i+2]), false)
				}
			}
		case TriangleFan:
			for i := 0; i+2 < n && err == nil; i++ {
				err = emit(3, [3]int32{r[0], r[i+1], r[i+2]}, pick(last, r[i+1], r[i+2]), false)
			}
		case Quads, QuadStrip:
			step := 4
			if top == QuadStrip {
				step = 2
			}
			for i := 0; i+3 < n && err == nil; i += step {
				q := [4]int32{r[i], r[i+1], r[i+2], r[i+3]}
				if top == QuadStrip {
					q[2], q[3] = r[i+3], r[i+2]
				}
				prov := pick(last, r[i], r[i+3])
				if err = emit(3, [3]int32{q[0], q[1], q[2]}, prov, false); err == nil {
					err = emit(3, [3]int32{q[0], q[2], q[3]}, prov, true)
				}
			}
		case Polygon:
			for i := 0; i+2 < n && err == nil; i++ {
				err = emit(3, [3]int32{r[0], r[i+1], r[i+2]}, r[0], i > 0)
			}
		}
		if err != nil {
			return err
		}
		start = end + 1
	}
	return nil
}

// primitive renders one assembled primitive; cont continues the previous
// primitive (same gl_PrimitiveID).
func (d *drawer) primitive(n int, v [3]int32, prov int32, cont bool) error {
	if cont {
		d.primID--
	}
	id := d.primID
	d.primID++
	switch n {
	case 1:
		return d.point(v[0], id)
	case 2:
		return d.line(v[0], v[1], prov, id)
	}
	return d.triangle(v[0], v[1], v[2], prov, id)
}

func pick(last bool, first, lastV int32) int32 {
	if last {
		return lastV
	}
	return first
}
