package shaderdev

import (
	"fmt"
	"math"

	"vortexgfx/abi"
	"vortexgfx/device"
	"vortexgfx/gfx/frontend"
)

// Prim is the primitive type of a compiled draw.
type Prim uint8

const (
	// PrimTriangles draws a triangle list (Count a multiple of 3).
	PrimTriangles Prim = iota
	// PrimLines draws a line list (Count a multiple of 2): each pair is
	// one segment, widened into the parallelogram of two triangles that
	// prim_k builds after the vertex stage.
	PrimLines
	// PrimPoints draws a point list: each vertex is one size×size square
	// of two triangles built by prim_k.
	PrimPoints
)

// String names the primitive type.
func (p Prim) String() string {
	switch p {
	case PrimTriangles:
		return "triangles"
	case PrimLines:
		return "lines"
	case PrimPoints:
		return "points"
	}
	return fmt.Sprintf("prim(%d)", uint8(p))
}

// primPolygons is the expansion of a triangle draw with a LINE or POINT
// polygon mode: each triangle becomes up to three lines or points, six
// triangles.
const primPolygons Prim = 3

// primVerts is the VS records prim_k writes per input vertex: a segment's
// two endpoints become two triangles (6 records), a point one square of two,
// a triangle six (18 records: three segments or points, or itself; more
// under user clipping, drawState.primVerts).
func (p Prim) primVerts() int {
	switch p {
	case PrimLines:
		return 3
	case PrimPoints, primPolygons:
		return 6
	}
	return 1
}

// PolygonMode is a polygon rasterization mode (glPolygonMode).
// spec: GL 4.6 §14.6.4
type PolygonMode uint8

// The polygon modes; the zero value fills.
const (
	PolygonFill PolygonMode = iota
	PolygonLine
	PolygonPoint
)

// prim_k's argument block, in 64-bit slots.
const (
	primArgIn       = iota // the vertex stage's records
	primArgOut             // the expanded records (expand_k's input)
	primArgCount           // primitives: segments or points
	primArgWords           // words per record (the VS output words)
	primArgFlags           // primFlag* | the point-size word << primSizeShift
	primArgScale           // viewport SX, SY (float32 bits, low, high)
	primArgOffset          // viewport TX, TY (float32 bits)
	primArgSize            // the line width and the API point size (float32 bits, low, high)
	primArgExact           // per expanded triangle one abi.LineCoverBytes record
	primArgClip            // the enabled user clip distances (bit i)
	primArgEdges           // polygon modes: the edge flags, a byte per triangle (0: every edge)
	primArgEdgeTris        // the edge flags' triangles (one instance's)
	primArgPlanes          // the legacy clip planes: MaxClipDistances×4 float32, two per slot
	primArgSlots    = primArgPlanes + frontend.MaxClipDistances*4/2
)

// prim_k's flags (slot primArgFlags).
const (
	primFlagPoints       = 1 << 0 // points (else lines)
	primFlagProvokeFirst = 1 << 1 // a segment's flat words are its first vertex's
	primFlagShaderSize   = 1 << 2 // the point size is the record's gl_PointSize word
	primFlagDepthClamp   = 1 << 3 // no near/far clipping (GL depth clamp)
	primFlagPointCoord   = 1 << 4 // points: append gl_PointCoord's (s, t) to each record
	primFlagOriginLower  = 1 << 5 // gl_PointCoord's t grows upwards (GL_LOWER_LEFT)
	primFlagPolygons     = 1 << 6 // triangles in polygon modes (primPolygons)
	primFlagFrontCCW     = 1 << 7 // the API front face winds counter-clockwise
	primFlagMultisample  = 1 << 9 // a multisampled pass: GL's multisample line and point shapes (primms.go)
	primFillFrontShift   = 10     // the front face's PolygonMode (2 bits)
	primFillBackShift    = 12     // the back face's
	primCullShift        = 14     // setup_k's frontend.CullMode (2 bits)
	primSizeShift        = 16
	maxPrimRecordWords   = 1 << 12
	maxRasterLineWidth   = 2048 // ref's and GL's clamp of the rounded width
	maxRasterPointSize   = 2048
	pointCoordWords      = 2   // gl_PointCoord's s, t after a point's record
	primSubPixel         = 256 // ref's 8-bit sub-pixel snap
	primPlaneCount       = 6   // x, y, near, far planes of the view volume
)

// primKernel is prim_k: one thread per primitive, it turns a line segment or
// a point of the vertex stage's records into two triangles of records that
// the rest of the front end draws as any triangle list. The geometry is the
// reference renderer's rule, computed as it computes it (float64 from the
// records' float32 words): a segment is clipped against the view volume
// (the varyings interpolated, noperspective ones with the window-space
// parameter), projected through the viewport, widened by the rounded line
// width (clamped to [1, 2048]) along its minor axis (y when |dx| ≥ |dy|)
// into a parallelogram whose corners are snapped to 1/256 pixel; a point
// inside the view volume becomes the size×size square around its snapped
// window position (the size clamped to [1, 2048]). Each corner is written
// back in clip coordinates at its vertex's w, so setup_k interpolates the
// varyings perspective-correctly across it, and each triangle is wound
// front-facing (GL: lines and points are front-facing and never culled).
// Every record of a primitive carries the provoking vertex's flat words.
// A primitive that draws nothing writes degenerate triangles, which setup_k
// drops.
//
// A point's square is drawn with its corners on the outer boundaries of the
// pixels ref covers, so RASTER's edges reproduce ref's coverage whatever
// their rounding. A line's parallelogram cannot be (its sides are sloped):
// prim_k also writes each of its two triangles' snapped corners
// (abi.LineCoverBytes, slot primArgExact), which its second stage
// (primMap) hands to the software raster walk by pid, and line draws walk
// in software (route.go), testing ref's edge functions exactly. spec: GL 4.6 §14.4 (points), §14.5 (lines, wide lines); §13.7
// (clipping); vortexpipe §3.2
func (sp *Program) primKernel(c *device.CTA) error {
	if f := c.Arg(primArgFlags); f&primFlagPIDMap != 0 {
		return sp.pidMap(c)
	} else if f&primFlagMap != 0 {
		return sp.primMap(c)
	}
	in, out, count, ow, flags := c.Arg(primArgIn), c.Arg(primArgOut), c.Arg(primArgCount), c.Arg(primArgWords), c.Arg(primArgFlags)
	scale, off, size := c.Arg(primArgScale), c.Arg(primArgOffset), c.Arg(primArgSize)
	if err := c.Err(); err != nil {
		return err
	}
	if ow != uint64(sp.prog.VS.OutputWords) || ow < 4 || ow > maxPrimRecordWords || count > frontend.MaxItems {
		return fmt.Errorf("%s: %d primitives of %d-word records (program: %d)", sp.primName(), count, ow, sp.prog.VS.OutputWords)
	}
	g := primGeom{
		points: flags&primFlagPoints != 0, first: flags&primFlagProvokeFirst != 0,
		clamp: flags&primFlagDepthClamp != 0, ms: flags&primFlagMultisample != 0, sizeWord: -1,
		sx: math.Float32frombits(uint32(scale)), sy: math.Float32frombits(uint32(scale >> 32)),
		tx: math.Float32frombits(uint32(off)), ty: math.Float32frombits(uint32(off >> 32)),
		width: math.Float32frombits(uint32(size)), size: math.Float32frombits(uint32(size >> 32)),
	}
	if flags&primFlagShaderSize != 0 {
		g.sizeWord = int(flags >> primSizeShift)
		if g.sizeWord < 4 || g.sizeWord >= int(ow) {
			return fmt.Errorf("%s: gl_PointSize at word %d of %d", sp.primName(), g.sizeWord, ow)
		}
	}
	if !(g.sx > 0) || g.sy == 0 || !finite32(g.sy) || !finite32(g.sx) || !finite32(g.tx) || !finite32(g.ty) || !finite32(g.size) || !finite32(g.width) {
		return fmt.Errorf("%s: viewport scale (%g, %g) offset (%g, %g), line width %g, point size %g", sp.primName(), g.sx, g.sy, g.tx, g.ty, g.width, g.size)
	}
	g.init(sp, int(ow))
	g.on = g.n
	if g.points && flags&primFlagPointCoord != 0 {
		if sp.pointCoord < 0 {
			return fmt.Errorf("%s: gl_PointCoord words for a program that does not read it", sp.primName())
		}
		g.on += pointCoordWords
		g.lower = flags&primFlagOriginLower != 0
	}
	if err := g.userClip(sp, c); err != nil {
		return err
	}
	if flags&primFlagPolygons != 0 {
		if err := g.polygonModes(flags); err != nil {
			return fmt.Errorf("%s: %w", sp.primName(), err)
		}
	}
	n := int(ow)
	per, tris := 2, 2 // input records and output triangles per primitive
	switch {
	case g.poly:
		per, tris = 3, 2*polyEdges(len(g.cd))
	case g.points:
		per = 1
	}
	edges, edgeTris := c.Arg(primArgEdges), c.Arg(primArgEdgeTris)
	if edges != 0 && (!g.poly || edgeTris == 0) {
		return fmt.Errorf("%s: edge flags for %d triangles on a launch without polygon modes", sp.primName(), edgeTris)
	}
	var eb [1]byte
	inB := make([]uint32, per*n) // once per CTA
	outB := make([]uint32, 3*tris*g.on)
	exB := make([]uint32, tris*abi.LineCoverBytes/4)
	exact := c.Arg(primArgExact)
	inS := c.Span(in)
	frontend.GridStride(c, count, func(i uint64) {
		for k := range per {
			for w := range n {
				inB[k*n+w] = inS.ReadU32(4 * ((uint64(per)*i+uint64(k))*ow + uint64(w)))
			}
		}
		clear(exB)
		switch {
		case g.poly:
			mask := uint8(0b111)
			if edges != 0 {
				c.Read(edges+i%edgeTris, eb[:])
				mask = eb[0] & 0b111
			}
			g.polygon(inB[:n], inB[n:2*n], inB[2*n:], mask, outB, exB)
		case g.points:
			g.point(inB, inB, outB, false)
		default:
			prov := inB[n:]
			if g.first {
				prov = inB[:n]
			}
			g.line(inB[:n], inB[n:], prov, outB, exB, false)
		}
		c.WriteWords(out+4*uint64(3*tris)*i*uint64(g.on), outB)
		if exact != 0 {
			c.WriteWords(exact+uint64(tris)*abi.LineCoverBytes*i, exB)
		}
	})
	return c.Err()
}

// finite32 reports whether f is neither infinite nor NaN.
func finite32(f float32) bool { return f-f == 0 }

// primGeom is one prim_k launch's state and per-CTA scratch.
type primGeom struct {
	points, first, clamp bool
	// ms: the pass is multisampled, lines and points take GL's
	// multisample shapes (primms.go)
	ms bool
	// poly: triangles in polygon modes (primpoly.go)
	poly                bool
	frontCCW            bool
	fillFront, fillBack PolygonMode
	cull                frontend.CullMode
	sizeWord            int
	sx, sy, tx, ty      float32
	width, size         float32 // the line width and the API point size
	// n is the VS record's words and on the written records' (n, or n +
	// pointCoordWords for a point draw reading gl_PointCoord, whose t
	// grows upwards when lower).
	n, on   int
	lower   bool
	noPersp []bool // VS output words interpolated without perspective
	flat    []int  // VS output words read flat (the provoking vertex's)
	// pl lists the clip planes in ref's order: the view volume's x and y
	// planes, near and far (unless depth clamp), then each enabled user
	// clip distance (clipPlane + i: distance i).
	pl []int
	// view is pl's view-volume planes alone
	view []int
	// user clipping: the distances' VS output words (cdWord ≥ 0, the
	// program writes gl_ClipDistance) or the legacy planes dotted with the
	// clip vertex at word cv; cd lists the enabled distances. A clip
	// vertex is the n record words then one float64 per enabled distance.
	cdWord, cv int
	cd         []int
	planes     [frontend.MaxClipDistances][4]float64
	a, b, t    []float64
	// pc is polygonClipped's scratch (polygon modes under user clipping)
	pc polyScratch
}

// clipPlane is the first user clip distance's plane number in primGeom.pl.
const clipPlane = primPlaneCount

// init derives the words' interpolation from the program's packing.
func (g *primGeom) init(sp *Program, n int) {
	g.n = n
	g.noPersp = make([]bool, n)
	for p, w := range sp.planes {
		if w < n && sp.noPersp[p] {
			g.noPersp[w] = true
		}
	}
	for k, w := range sp.flat {
		if w >= 0 && w < n {
			g.flat = append(g.flat, w)
		}
		if f := sp.flatFront[k]; f >= 0 && f < n {
			g.flat = append(g.flat, f)
		}
	}
	g.pl = []int{0, 1, 2, 3}
	if !g.clamp {
		g.pl = append(g.pl, 4, 5)
	}
	g.view = g.pl[:len(g.pl):len(g.pl)]
	g.cdWord, g.cd = -1, nil
	g.a, g.b, g.t = make([]float64, n), make([]float64, n), make([]float64, n)
}

// window maps a clip position to the window, as the reference renderer's
// viewport has it (X = TX − SX, W = 2·SX in float32; float64 from there).
func (g *primGeom) window(v []float64) (xw, yw float64) {
	X, W := float64(g.tx-g.sx), float64(2*g.sx)
	Y, H := float64(g.ty-g.sy), float64(2*g.sy)
	iw := 1 / v[3]
	return X + (v[0]*iw+1)*W/2, Y + (v[1]*iw+1)*H/2
}

// clipXY is the clip x, y at w of window position (xw, yw): window's
// inverse.
func (g *primGeom) clipXY(xw, yw, w float64) (x, y float32) {
	X, W := float64(g.tx-g.sx), float64(2*g.sx)
	Y, H := float64(g.ty-g.sy), float64(2*g.sy)
	return float32(((xw-X)*2/W - 1) * w), float32(((yw-Y)*2/H - 1) * w)
}

// snapped rounds a window coordinate to ref's 1/256 pixel grid.
func snapped(v float64) float64 { return math.Round(v*primSubPixel) / primSubPixel }

// corner is one corner of a primitive's quad: its window position and the
// vertex (clip position and words) it stands for.
type corner struct {
	xw, yw float64
	v      []float64
	s, t   float64 // a point's gl_PointCoord
}

// line expands segment a–b (records) into out's six records, with prov's
// flat words, wound back-facing when back (a polygon's edge), and its two
// triangles' exact corners into ex (abi.LineCoverBytes each; left zero,
// not exact, when nothing is drawn).
func (g *primGeom) line(ra, rb, prov []uint32, out, ex []uint32, back bool) {
	g.load(g.a, ra)
	g.load(g.b, rb)
	if !g.finite(g.a) || !g.finite(g.b) {
		g.empty(out)
		return
	}
	g.lineLoaded(g.pl, prov, out, ex, back)
}

// lineLoaded is line on the clip vertices in g.a and g.b (finite), clipped
// against planes.
func (g *primGeom) lineLoaded(planes []int, prov []uint32, out, ex []uint32, back bool) {
	a, b := g.a, g.b
	for _, pl := range planes {
		da, db := g.dist(a, pl), g.dist(b, pl)
		switch {
		case da >= 0 && db >= 0:
		case da >= 0:
			g.lerp(g.t, a, b, da, db)
			copy(b, g.t)
		case db >= 0:
			g.lerp(g.t, b, a, db, da)
			copy(a, g.t)
		default:
			g.empty(out)
			return
		}
	}
	if !(a[3] > 0) || !(b[3] > 0) {
		g.empty(out)
		return
	}
	x0, y0 := g.window(a)
	x1, y1 := g.window(b)
	dx, dy := x1-x0, y1-y0
	if dx == 0 && dy == 0 {
		g.empty(out)
		return
	}
	if g.ms {
		g.quad(msLine(a, b, x0, y0, x1, y1, float64(g.width)), msLineTris, prov, out, back)
		return
	}
	width := min(max(math.Round(float64(g.width)), 1), maxRasterLineWidth)
	ox, oy := 0.0, width/2
	if math.Abs(dx) < math.Abs(dy) {
		ox, oy = width/2, 0
	}
	c := [4]corner{ // A0, A1, B0, B1, snapped as ref snaps them
		{xw: snapped(x0 - ox), yw: snapped(y0 - oy), v: a}, {xw: snapped(x0 + ox), yw: snapped(y0 + oy), v: a},
		{xw: snapped(x1 - ox), yw: snapped(y1 - oy), v: b}, {xw: snapped(x1 + ox), yw: snapped(y1 + oy), v: b},
	}
	tris := [2][3]int{{0, 2, 3}, {0, 3, 1}}
	for t, tri := range tris {
		// ref's rasterTri: the triangle wound to positive area in its
		// fixed-point window coordinates.
		var f [3][2]int64
		for k, ci := range tri {
			f[k] = [2]int64{int64(math.Round(c[ci].xw * primSubPixel)), int64(math.Round(c[ci].yw * primSubPixel))}
		}
		if (f[1][0]-f[0][0])*(f[2][1]-f[0][1])-(f[2][0]-f[0][0])*(f[1][1]-f[0][1]) < 0 {
			f[1], f[2] = f[2], f[1]
		}
		r := ex[t*abi.LineCoverBytes/4:]
		r[0] = abi.LineCoverExact
		for k := range f {
			r[1+2*k], r[2+2*k] = uint32(int32(f[k][0])), uint32(int32(f[k][1]))
		}
	}
	g.quad(&c, tris, prov, out, back)
}

// point expands the point record r into out's six records, with prov's
// flat words, wound back-facing when back (a polygon's vertex).
func (g *primGeom) point(r, prov []uint32, out []uint32, back bool) {
	g.load(g.a, r)
	if !g.finite(g.a) {
		g.empty(out)
		return
	}
	g.pointLoaded(g.pl, prov, out, back)
}

// pointLoaded is point on the clip vertex in g.a (finite), dropped outside
// planes; its size is the API size or its gl_PointSize word.
func (g *primGeom) pointLoaded(planes []int, prov []uint32, out []uint32, back bool) {
	a := g.a
	for _, pl := range planes {
		if !(g.dist(a, pl) >= 0) {
			g.empty(out)
			return
		}
	}
	if !(a[3] > 0) {
		g.empty(out)
		return
	}
	size := float64(g.size)
	if g.sizeWord >= 0 {
		size = a[g.sizeWord] // the record's float32, or its clipped interpolation
	}
	if !(size >= 1) {
		size = 1
	}
	size = min(size, maxRasterPointSize)
	xw, yw := g.window(a)
	xw, yw = snapped(xw), snapped(yw)
	if g.ms {
		g.msPoint(a, xw, yw, size, prov, out, back)
		return
	}
	// The pixels whose centres lie in the half-open square, as ref counts
	// them; the square is drawn with its corners on those pixels' outer
	// boundaries, half a pixel from every centre, so setup_k's rounding
	// never matters. The words are the vertex's alone: the same at every
	// corner.
	x0, x1 := math.Ceil(xw-size/2-0.5), math.Ceil(xw+size/2-0.5)
	y0, y1 := math.Ceil(yw-size/2-0.5), math.Ceil(yw+size/2-0.5)
	if x0 >= x1 || y0 >= y1 {
		g.empty(out)
		return
	}
	c := [4]corner{{xw: x0, yw: y0, v: a}, {xw: x1, yw: y0, v: a}, {xw: x0, yw: y1, v: a}, {xw: x1, yw: y1, v: a}}
	g.pointCoords(&c, xw, yw, size)
	g.quad(&c, pointTris, prov, out, back)
}

// pointTris are a point square's two triangles over its corners (x0, y0),
// (x1, y0), (x0, y1), (x1, y1).
var pointTris = [2][3]int{{0, 1, 3}, {0, 3, 2}}

// pointCoords sets gl_PointCoord at each corner of the square of a point at
// (xw, yw), which the plane carries linearly in the window to each pixel
// centre: ref's s = ½ + (x − xw)/size and t = ½ ∓ (y − yw)/size (upper-left
// origin unless lower). spec: GL 4.6 §14.4.1
func (g *primGeom) pointCoords(c *[4]corner, xw, yw, size float64) {
	for k := range c {
		c[k].s = 0.5 + (c[k].xw-xw)/size
		c[k].t = 0.5 - (c[k].yw-yw)/size
		if g.lower {
			c[k].t = 0.5 + (c[k].yw-yw)/size
		}
	}
}

// quad writes the two triangles tris of corners c, each wound front-facing
// for setup_k (back-facing when back), with prov's flat words.
func (g *primGeom) quad(c *[4]corner, tris [2][3]int, prov []uint32, out []uint32, back bool) {
	n, on := g.n, g.on
	for t, tri := range tris {
		// setup_k calls a triangle front-facing when its window-space area
		// (y up) is positive after the viewport: wind it so.
		p0, p1, p2 := &c[tri[0]], &c[tri[1]], &c[tri[2]]
		area := (p1.xw-p0.xw)*(p2.yw-p0.yw) - (p2.xw-p0.xw)*(p1.yw-p0.yw)
		if (area < 0) != back {
			tri[1], tri[2] = tri[2], tri[1]
		}
		for k, ci := range tri {
			rec := out[(3*t+k)*on : (3*t+k+1)*on]
			cv := &c[ci]
			for w := range n {
				rec[w] = math.Float32bits(float32(cv.v[w]))
			}
			if on > n {
				rec[n], rec[n+1] = math.Float32bits(float32(cv.s)), math.Float32bits(float32(cv.t))
			}
			x, y := g.clipXY(cv.xw, cv.yw, cv.v[3])
			rec[0], rec[1] = math.Float32bits(x), math.Float32bits(y)
			for _, w := range g.flat {
				rec[w] = prov[w]
			}
		}
	}
}

// empty fills out with records at the origin: zero-area triangles setup_k
// drops.
func (g *primGeom) empty(out []uint32) {
	clear(out)
	for r := range len(out) / g.on {
		out[r*g.on+3] = math.Float32bits(1)
	}
}

// finite reports whether a clip vertex's position and clip distances are
// finite (ref drops a primitive with any other vertex).
func (g *primGeom) finite(v []float64) bool {
	return finiteVec(v[:4]) && finiteVec(v[g.n:])
}

// finiteVec reports whether every element is finite.
func finiteVec(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
