package frontend

import (
	"encoding/binary"
	"math"

	"vortexgfx/abi"
)

// Vertex is setup_vertex_t: clip-space position, colour and texcoord (the
// draw3d vertex), or, when NVar > 0, the clip position and a compiled program's
// NVar varying words packed in declaration order onto the planes
// abi.VaryingPlane(0..NVar-1) (expand_k's output). spec: vortex-hardware-facts
// §3.2; vortexpipe §3.2 step 1
type Vertex struct {
	Pos      [4]float32
	Color    [4]float32
	TexCoord [2]float32
	// Var holds the packed varyings of a compiled program; NVar counts them
	// (0: the draw3d colour/texcoord planes).
	Var  [abi.NumVaryingPlanes]float32
	NVar int
	// bary is the vertex as weights of the input triangle's three vertices,
	// carried through clipping when setup_k needs it (varyings beyond the
	// planes are interpolated from the input vertices' values).
	bary [3]float32
}

// CullMode selects face culling in setup. spec: facts §3.2
type CullMode uint32

// The cull modes.
const (
	CullNone  CullMode = 0
	CullBack  CullMode = 1
	CullFront CullMode = 2
)

// Viewport is an application viewport transform (screen = ndc·scale + bias). A nil
// *Viewport means the default full-framebuffer y-down mapping.
type Viewport struct{ SX, TX, SY, TY float32 }

// BBox is a primitive's screen bounding box, clamped to the target: [L, R) × [T, B).
type BBox struct{ L, R, T, B uint32 }

// Prim is one set-up primitive: the 53 words of rast_prim_t.
// spec: rasterizer §2.3
type Prim [abi.PrimWords]uint32

// Put serialises the record into b[0:212]. On a little-endian host the
// words' memory already is the record's bytes: one copy stores them.
func (p *Prim) Put(b []byte) {
	if hostLittleEndian {
		copy(b[:abi.PrimBytes], wordBytes(p[:]))
		return
	}
	for i, w := range p {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
}

// Edge returns edge k's {A, B, C} (Q15.16).
func (p *Prim) Edge(k int) (a, b, c int32) {
	return int32(p[3*k]), int32(p[3*k+1]), int32(p[3*k+2])
}

// Plane returns plane pl's three Q7.24 words.
func (p *Prim) Plane(pl abi.PrimPlane) (x, y, z int32) {
	w := pl.Word()
	return int32(p[w]), int32(p[w+1]), int32(p[w+2])
}

func (p *Prim) setPlane(pl abi.PrimPlane, x, y, z int32) {
	w := pl.Word()
	p[w], p[w+1], p[w+2] = uint32(x), uint32(y), uint32(z)
}

type vec4 struct{ x, y, z, w float32 }

// fx converts like fixed_t(float) on the x86-64 host: multiply by 2^frac in
// float32 and truncate; an out-of-range or NaN value gives INT_MIN (cvttss2si).
func fxHost(f float32, frac uint) int32 {
	r, ok := abi.FixedFromFloat(f, frac)
	if !ok {
		return math.MinInt32
	}
	return r
}

// viewXform is the viewport and depth-range mapping of one target: the
// bias (min) and scale of each axis, as the HDC and screen transforms form them
// from the window bounds l, r, t, b and the depth range n, f (the same
// float32 operations, so the same values: SetupTriangle forms them once per
// triangle instead of once per vertex and transform).
type viewXform struct{ minX, scaleX, minY, scaleY, minZ, scaleZ float32 }

func newViewXform(l, r, t, b, n, f float32) viewXform {
	return viewXform{float32(l+r) * 0.5, float32(r-l) * 0.5, float32(t+b) * 0.5, float32(b-t) * 0.5,
		float32(n+f) * 0.5, float32(f-n) * 0.5}
}

// hdc maps clip space to homogeneous device coordinates, keeping w.
func (v *viewXform) hdc(in vec4) vec4 {
	return vec4{
		float32(in.x*v.scaleX) + float32(in.w*v.minX),
		float32(in.y*v.scaleY) + float32(in.w*v.minY),
		float32(in.z*v.scaleZ) + float32(in.w*v.minZ),
		in.w,
	}
}

// screen divides by w and applies the viewport; w holds 1/w.
func (v *viewXform) screen(in vec4) vec4 {
	var rhw float32
	if in.w != 0 {
		rhw = 1 / in.w
	}
	nx, ny, nz := float32(in.x*rhw), float32(in.y*rhw), float32(in.z*rhw)
	return vec4{float32(nx*v.scaleX) + v.minX, float32(ny*v.scaleY) + v.minY, float32(nz*v.scaleZ) + v.minZ, rhw}
}

// clipToScreen divides by w and applies the viewport; w holds 1/w.
func clipToScreen(in vec4, l, r, t, b, n, f float32) vec4 {
	v := newViewXform(l, r, t, b, n, f)
	return v.screen(in)
}

func cross(a, b, c, d float32) float32 { return float32(a*b) - float32(c*d) }

// Planes selects the attribute-plane convention of a Vortex generation.
type Planes uint8

// The plane conventions.
const (
	// PlanesGrx is the grxgpu/newest convention (facts §3.2): every colour and
	// texcoord plane is premultiplied by the max-normalised 1/w, with the rhw
	// plane carrying 1/w; the fragment kernel divides by the interpolated rhw.
	PlanesGrx Planes = iota
	// PlanesV1 is the earlier convention without 1/w premultiplication (the v1
	// 120-byte record had no rhw plane): planes hold the plain attributes, the
	// rhw plane is the constant 1.0, so the kernel's divide is exact.
	PlanesV1
	// PlanesCompiled is the convention of compiled-program draws: planes hold
	// the plain varyings and the rhw plane is 1.0, as PlanesV1, because the
	// barycentrics the fragment wrapper forms from the 2DH edge functions are
	// already perspective-correct (each edge function evaluates to det·b_i/w,
	// rasterizer §2.3), so premultiplied planes would apply 1/w twice. The
	// rhw_scale word carries maxVal/|det| instead, so that the wrapper
	// recovers the fragment's 1/w (gl_FragCoord.w) as the sum of its three
	// normalised edge values times it. spec: vortexpipe §3.4
	PlanesCompiled
)

// String names the convention.
func (p Planes) String() string {
	switch p {
	case PlanesV1:
		return "v1"
	case PlanesCompiled:
		return "compiled"
	}
	return "grx"
}

// SetupTriangle runs gfx_setup::setup_triangle on one (already near-clipped)
// triangle for a width×height target. It returns false when the triangle is
// degenerate, face-culled or its clamped bbox is empty.
// spec: vortex-hardware-facts §3.2
func SetupTriangle(v0, v1, v2 *Vertex, width, height int, near, far float32,
	cull CullMode, vp *Viewport, planes Planes, out *Prim, bb *BBox) bool {
	p0 := vec4{v0.Pos[0], v0.Pos[1], v0.Pos[2], v0.Pos[3]}
	p1 := vec4{v1.Pos[0], v1.Pos[1], v1.Pos[2], v1.Pos[3]}
	p2 := vec4{v2.Pos[0], v2.Pos[1], v2.Pos[2], v2.Pos[3]}
	L, R, T, B := float32(0), float32(width), float32(0), float32(height)
	if vp != nil {
		L, R, T, B = vp.TX-vp.SX, vp.TX+vp.SX, vp.TY-vp.SY, vp.TY+vp.SY
	}
	// Edge equations in HDC (2DH rasterisation).
	vx := newViewXform(L, R, T, B, near, far)
	h0, h1, h2 := vx.hdc(p0), vx.hdc(p1), vx.hdc(p2)
	var e [3][3]float32
	e[0] = [3]float32{cross(h1.y, h2.w, h2.y, h1.w), cross(h2.x, h1.w, h1.x, h2.w), cross(h1.x, h2.y, h2.x, h1.y)}
	e[1] = [3]float32{cross(h2.y, h0.w, h0.y, h2.w), cross(h0.x, h2.w, h2.x, h0.w), cross(h2.x, h0.y, h0.x, h2.y)}
	e[2] = [3]float32{cross(h0.y, h1.w, h1.y, h0.w), cross(h1.x, h0.w, h0.x, h1.w), cross(h0.x, h1.y, h1.x, h0.y)}
	det := float32(float32(e[0][2]*h0.w)+float32(e[1][2]*h1.w)) + float32(e[2][2]*h2.w)
	if det == 0 || det != det {
		return false
	}
	back := det < 0
	if (cull == CullBack && back) || (cull == CullFront && !back) {
		return false
	}
	if back {
		for i := range e {
			for j := range e[i] {
				e[i][j] = -e[i][j]
			}
		}
	}
	// Screen-space bbox, clamped to the target.
	s0, s1, s2 := vx.screen(p0), vx.screen(p1), vx.screen(p2)
	left := fmin(s0.x, fmin(s1.x, s2.x))
	right := fmax(s0.x, fmax(s1.x, s2.x))
	top := fmin(s0.y, fmin(s1.y, s2.y))
	bottom := fmax(s0.y, fmax(s1.y, s2.y))
	l := max(cvtInt(float32(math.Floor(float64(left)))), 0)
	r := min(cvtInt(float32(math.Ceil(float64(right)))), int32(width))
	t := max(cvtInt(float32(math.Floor(float64(top)))), 0)
	b := min(cvtInt(float32(math.Ceil(float64(bottom)))), int32(height))
	if r <= l || b <= t {
		return false
	}
	*bb = BBox{uint32(l), uint32(r), uint32(t), uint32(b)}
	// Half-pixel sampling offset, then per-triangle normalisation to Q15.16.
	for i := range e {
		e[i][2] += float32(e[i][0]*0.5) + float32(e[i][1]*0.5)
	}
	maxVal := abs32(e[0][0])
	maxVal = fmax(maxVal, abs32(e[1][0]))
	maxVal = fmax(maxVal, abs32(e[2][0]))
	maxVal = fmax(maxVal, abs32(e[0][1]))
	maxVal = fmax(maxVal, abs32(e[1][1]))
	maxVal = fmax(maxVal, abs32(e[2][1]))
	scale := float32(1)
	if maxVal != 0 {
		scale = 1 / maxVal
	}
	*out = Prim{}
	for i := range e {
		for j := range e[i] {
			out[3*i+j] = uint32(fxHost(float32(e[i][j]*scale), abi.FracE))
		}
	}
	// Screen-space depth plane, evaluated at integer pixels with the centre offset.
	{
		ta := cross(s1.x-s0.x, s2.y-s0.y, s2.x-s0.x, s1.y-s0.y)
		var inv float32
		if ta != 0 {
			inv = 1 / ta
		}
		za := float32(cross(s1.z-s0.z, s2.y-s0.y, s2.z-s0.z, s1.y-s0.y) * inv)
		zb := float32(cross(s2.z-s0.z, s1.x-s0.x, s1.z-s0.z, s2.x-s0.x) * inv)
		zc := float32(float32(s0.z-float32(za*s0.x))-float32(zb*s0.y)) + float32(0.5*float32(za+zb))
		out.setPlane(abi.PlaneZ, fxHost(za, abi.FracA), fxHost(zb, abi.FracA), fxHost(zc, abi.FracA))
	}
	// Perspective-premultiplied planes with max-normalised 1/w.
	rhw := [3]float32{recip(p0.w), recip(p1.w), recip(p2.w)}
	if planes == PlanesV1 || planes == PlanesCompiled {
		rhw = [3]float32{1, 1, 1}
	}

	rmax := fmax(fmax(abs32(rhw[0]), abs32(rhw[1])), abs32(rhw[2]))
	var rscale float32
	if rmax != 0 {
		rscale = 1 / rmax
	}
	for i := range rhw {
		rhw[i] = float32(rhw[i] * rscale)
	}
	vs := [3]*Vertex{v0, v1, v2}
	var amax float32
	switch {
	case planes == PlanesCompiled:
		// Only the fold below reads amax, and compiled planes never fold.
	case v0.NVar > 0:
		for c := 0; c < v0.NVar; c++ {
			for i := 0; i < 3; i++ {
				amax = fmax(amax, abs32(float32(vs[i].Var[c]*rhw[i])))
			}
		}
	default:
		for c := 0; c < 2; c++ {
			for i := 0; i < 3; i++ {
				amax = fmax(amax, abs32(float32(vs[i].TexCoord[c]*rhw[i])))
			}
		}
	}
	fold := float32(1)
	for g := 0; g < 24 && amax > 32 && planes != PlanesCompiled; g++ {
		for i := range rhw {
			rhw[i] = float32(rhw[i] * 0.5)
		}
		amax = float32(amax * 0.5)
		fold = float32(fold * 0.5)
	}
	delta := func(pl abi.PrimPlane, a0, a1, a2 float32) {
		out.setPlane(pl, fxHost(a0-a2, abi.FracA), fxHost(a1-a2, abi.FracA), fxHost(a2, abi.FracA))
	}
	if v0.NVar > 0 && planes == PlanesCompiled {
		// A compiled program's varyings, plane by plane in packing order,
		// as float32 bits (a0−a2, a1−a2, a2): the wrapper interpolates
		// them in float, so a varying constant over the primitive comes
		// out exactly (Q7.24 would round 0.1 to 0.09999996). RASTER never
		// reads these words; only the depth plane stays fixed point.
		// spec: vortexpipe §3.4; docs/ABI.md (compiled planes)
		for c := 0; c < v0.NVar; c++ {
			a0, a1, a2 := v0.Var[c], v1.Var[c], v2.Var[c]
			w := abi.VaryingPlane(c).Word()
			out[w] = math.Float32bits(float32(a0 - a2))
			out[w+1] = math.Float32bits(float32(a1 - a2))
			out[w+2] = math.Float32bits(a2)
		}
	} else if v0.NVar > 0 {
		// A compiled program's varyings, plane by plane in packing order.
		for c := 0; c < v0.NVar; c++ {
			delta(abi.VaryingPlane(c), float32(v0.Var[c]*rhw[0]), float32(v1.Var[c]*rhw[1]), float32(v2.Var[c]*rhw[2]))
		}
	} else {
		for c, pl := range [4]abi.PrimPlane{abi.PlaneR, abi.PlaneG, abi.PlaneB, abi.PlaneA} {
			delta(pl, float32(v0.Color[c]*rhw[0]), float32(v1.Color[c]*rhw[1]), float32(v2.Color[c]*rhw[2]))
		}
		delta(abi.PlaneU, float32(v0.TexCoord[0]*rhw[0]), float32(v1.TexCoord[0]*rhw[1]), float32(v2.TexCoord[0]*rhw[2]))
		delta(abi.PlaneV, float32(v0.TexCoord[1]*rhw[0]), float32(v1.TexCoord[1]*rhw[1]), float32(v2.TexCoord[1]*rhw[2]))
	}
	delta(abi.PlaneRHW, rhw[0], rhw[1], rhw[2])
	if back {
		out[abi.PrimFacingWord] = 1
	}
	out[abi.PrimRHWScaleW] = math.Float32bits(float32(rscale * fold))
	if planes == PlanesCompiled {
		out[abi.PrimRHWScaleW] = math.Float32bits(maxVal / abs32(det))
	}
	return true
}

func recip(w float32) float32 {
	if w != 0 {
		return 1 / w
	}
	return 0
}

// cvtInt is a float→int C cast on x86-64: truncation, INT_MIN when out of range.
func cvtInt(f float32) int32 {
	if f != f || f >= 2147483648 || f < -2147483648 {
		return math.MinInt32
	}
	return int32(f)
}

func fmin(a, b float32) float32 {
	if a < b {
		return a
	}
	return b
}

func fmax(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}

func abs32(f float32) float32 { return math.Float32frombits(math.Float32bits(f) &^ (1 << 31)) }
