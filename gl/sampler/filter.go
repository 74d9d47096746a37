package sampler

import (
	"math"
)

// coords is one lane's coordinates resolved to a level-independent form:
// normalized st (nd of them used), the slice (array layer or cube face), and
// the derivatives of st.
type coords struct {
	st     [3]float64
	dx, dy [3]float64
	nd     int
	slice  int
}

// layerIndex is clamp(floor(layer + 1/2), 0, n-1).
func layerIndex(v float32, n int) int {
	return min(max(ifloor(float64(v)+0.5), 0), n-1)
}

// resolve computes lane l's coordinates; hasDeriv reports whether dx, dy are
// valid.
func (t *Texture) resolve(req *Request, l int, hasDeriv bool) coords {
	c := req.Coord[l]
	var d0, d1 [3]float32
	if hasDeriv {
		d0, d1 = req.DPdx[l], req.DPdy[l]
	}
	var r coords
	slices := t.Levels[0].D
	switch t.Dim {
	case Dim1D:
		r.nd = 1
	case Dim1DArray:
		r.nd = 1
		r.slice = layerIndex(c[1], slices)
	case Dim2D:
		r.nd = 2
	case Dim2DArray:
		r.nd = 2
		r.slice = layerIndex(c[2], slices)
	case Dim3D:
		r.nd = 3
	case DimCube, DimCubeArray:
		face, st, dx, dy := cubeFace(c, d0, d1)
		r.nd, r.st, r.dx, r.dy = 2, st, dx, dy
		r.slice = face
		if t.Dim == DimCubeArray {
			r.slice += 6 * layerIndex(c[3], slices/6)
		}
		return r
	}
	for i := 0; i < r.nd; i++ {
		r.st[i] = float64(c[i])
		r.dx[i], r.dy[i] = float64(d0[i]), float64(d1[i])
	}
	return r
}

// cubeFace selects the face and face coordinates per GL table 8.19 and
// transforms the derivatives with the quotient rule.
func cubeFace(c [4]float32, d0, d1 [3]float32) (int, [3]float64, [3]float64, [3]float64) {
	x, y, z := float64(c[0]), float64(c[1]), float64(c[2])
	ax, ay, az := math.Abs(x), math.Abs(y), math.Abs(z)
	// face, and which input axis / sign gives sc, tc and ma.
	var face, si, ti, mi int
	var ss, ts float64
	switch {
	case ax >= ay && ax >= az:
		mi = 0
		if x >= 0 {
			face, si, ss, ti, ts = 0, 2, -1, 1, -1
		} else {
			face, si, ss, ti, ts = 1, 2, 1, 1, -1
		}
	case ay >= az:
		mi = 1
		if y >= 0 {
			face, si, ss, ti, ts = 2, 0, 1, 2, 1
		} else {
			face, si, ss, ti, ts = 3, 0, 1, 2, -1
		}
	default:
		mi = 2
		if z >= 0 {
			face, si, ss, ti, ts = 4, 0, 1, 1, -1
		} else {
			face, si, ss, ti, ts = 5, 0, -1, 1, -1
		}
	}
	v := [3]float64{x, y, z}
	ma := math.Abs(v[mi])
	sgn := 1.0
	if v[mi] < 0 {
		sgn = -1
	}
	sc, tc := ss*v[si], ts*v[ti]
	var st, dx, dy [3]float64
	if ma == 0 {
		return face, [3]float64{0.5, 0.5, 0}, dx, dy
	}
	st[0] = 0.5 * (sc/ma + 1)
	st[1] = 0.5 * (tc/ma + 1)
	deriv := func(d [3]float32) [3]float64 {
		dv := [3]float64{float64(d[0]), float64(d[1]), float64(d[2])}
		dma := sgn * dv[mi]
		return [3]float64{
			0.5 * (ss*dv[si]*ma - sc*dma) / (ma * ma),
			0.5 * (ts*dv[ti]*ma - tc*dma) / (ma * ma),
			0,
		}
	}
	return face, st, deriv(d0), deriv(d1)
}

// baseSize returns the base level's extent along each used axis.
func (t *Texture) baseSize(nd int) [3]float64 {
	base, _ := t.levelRange()
	l := &t.Levels[base]
	sz := [3]float64{float64(l.W), float64(l.H), 1}
	if t.Dim == Dim3D {
		sz[2] = float64(l.D)
	}
	if nd == 1 {
		sz[1] = 1
	}
	return sz
}

func texLen(d [3]float64, sz [3]float64, nd int) float64 {
	s := 0.0
	for i := 0; i < nd; i++ {
		v := d[i] * sz[i]
		s += v * v
	}
	return math.Sqrt(s)
}

// lod is one lane's level-of-detail computation: lambda before the
// [MinLOD, MaxLOD] clamp and, when n > 1, the anisotropic sample count along
// the x (xMajor) or y derivative.
type lod struct {
	lambda float64
	n      int
	xMajor bool
}

func (t *Texture) lod(s *Sampler, req *Request, l int, cs *coords) lod {
	lambda := float64(s.LODBias)
	switch req.LOD {
	case LODExplicit:
		lambda += float64(req.LODValue[l])
	case LODNone:
		if len(req.LODValue) > l {
			lambda += float64(req.LODValue[l])
		}
	case LODGrad:
		if len(req.LODValue) > l {
			lambda += float64(req.LODValue[l])
		}
		sz := t.baseSize(cs.nd)
		px, py := texLen(cs.dx, sz, cs.nd), texLen(cs.dy, sz, cs.nd)
		pmax, pmin := max(px, py), min(px, py)
		aniso := s.MaxAnisotropy > 1 && !s.Unnormalized && t.Dim != Dim3D && t.Dim != DimCube && t.Dim != DimCubeArray && pmax > 0
		if aniso {
			n := math.Floor(float64(s.MaxAnisotropy))
			if pmin > 0 {
				n = min(math.Ceil(pmax/pmin), n)
			}
			if n > 1 {
				return lod{lambda: lambda + math.Log2(pmax/n), n: int(n), xMajor: px >= py}
			}
		}
		lambda += math.Log2(pmax)
	}
	return lod{lambda: lambda, n: 1}
}

func (t *Texture) sample(s *Sampler, req *Request, l int) [4]uint32 {
	cs := t.resolve(req, l, req.LOD == LODGrad)
	var ref float32
	if s.CompareEnable {
		ref = req.Ref[l]
	}
	ld := t.lod(s, req, l, &cs)
	if ld.n > 1 {
		return t.finish(t.anisotropic(s, cs, ld.lambda, ld.n, ld.xMajor, ref, req.Offset))
	}
	return t.finish(t.sampleLambda(s, &cs, ld.lambda, ref, req.Offset))
}

// queryLod is textureQueryLod (see OpQueryLod): the level sampleLambda would
// access and the clamped level of detail, relative to the base level.
// spec: vortexpipe-driver §3.6 (textureQueryLod row); GLSL 4.60 §8.9.1
func (t *Texture) queryLod(s *Sampler, req *Request, l int) [4]uint32 {
	cs := t.resolve(req, l, req.LOD == LODGrad)
	lambda := t.lod(s, req, l, &cs).lambda
	lambda = clampLambda(s, lambda)
	base, q := t.levelRange()
	mip := t.mipFilter(s)
	level := 0.0
	switch {
	case lambda <= magSwitch(s):
	case mip == MipNearest:
		if lambda > 0.5 {
			level = min(math.Ceil(lambda+0.5)-1, float64(q-base))
		}
	case mip == MipLinear:
		level = min(max(lambda, 0), float64(q-base))
	}
	return [4]uint32{math.Float32bits(float32(level)), math.Float32bits(float32(lambda))}
}

// clampLambda applies the sampler's LOD clamp (NaN and unnormalized
// coordinates give 0).
func clampLambda(s *Sampler, lambda float64) float64 {
	if lambda != lambda || s.Unnormalized {
		lambda = 0
	}
	lambda = min(max(lambda, float64(s.MinLOD)), float64(s.MaxLOD), 1000)
	return max(lambda, -1000)
}

// magSwitch is the magnification switch point c (GL 4.6 §8.14.2).
func magSwitch(s *Sampler) float64 {
	if s.MagFilter == Linear && s.MinFilter == Nearest && s.MipFilter != MipNone {
		return 0.5
	}
	return 0
}

// mipFilter is the sampler's mip filter as the texture uses it: integer
// textures never blend levels.
func (t *Texture) mipFilter(s *Sampler) MipFilter {
	if t.isInt() && s.MipFilter == MipLinear {
		return MipNearest
	}
	return s.MipFilter
}

// anisotropic averages n samples spaced along the major derivative axis.
func (t *Texture) anisotropic(s *Sampler, cs coords, lambda float64, n int, xMajor bool, ref float32, off [3]int32) texel {
	dir := cs.dy
	if xMajor {
		dir = cs.dx
	}
	var acc [4]float64
	center := cs.st
	for i := range n {
		f := (float64(i)+0.5)/float64(n) - 0.5
		for k := 0; k < cs.nd; k++ {
			cs.st[k] = center[k] + dir[k]*f
		}
		v := t.sampleLambda(s, &cs, lambda, ref, off)
		if t.isInt() {
			return v
		}
		for c := range 4 {
			acc[c] += float64(v.f[c])
		}
	}
	var r texel
	for c := range 4 {
		r.f[c] = float32(acc[c] / float64(n))
	}
	return r
}

// sampleLambda picks levels and filters for a level of detail (before the
// sampler's [MinLOD, MaxLOD] clamp).
func (t *Texture) sampleLambda(s *Sampler, cs *coords, lambda float64, ref float32, off [3]int32) texel {
	lambda = clampLambda(s, lambda)
	base, q := t.levelRange()
	minF, magF, mip := s.MinFilter, s.MagFilter, t.mipFilter(s)
	if t.isInt() {
		minF, magF = Nearest, Nearest
	}
	if lambda <= magSwitch(s) {
		return t.filterLevel(s, base, magF, cs, ref, off)
	}
	switch mip {
	case MipNearest:
		d := base
		if lambda > 0.5 {
			d = base + int(math.Ceil(lambda+0.5)) - 1
		}
		return t.filterLevel(s, min(d, q), minF, cs, ref, off)
	case MipLinear:
		if lambda >= float64(q-base) {
			return t.filterLevel(s, q, minF, cs, ref, off)
		}
		d1 := base + int(math.Floor(lambda))
		f := frac(lambda)
		a := t.filterLevel(s, d1, minF, cs, ref, off)
		b := t.filterLevel(s, min(d1+1, q), minF, cs, ref, off)
		var r texel
		for i := range 4 {
			r.f[i] = float32((1-f)*float64(a.f[i]) + f*float64(b.f[i]))
		}
		return r
	}
	return t.filterLevel(s, base, minF, cs, ref, off)
}

// lookup reads texel (i, j, k) of a level through the wrap modes, the border
// and the depth compare.
func (t *Texture) lookup(s *Sampler, lv *Level, nd int, i, j, k int, ref float32) texel {
	var ok bool
	var v texel
	if s.CubeSeamless && (t.Dim == DimCube || t.Dim == DimCubeArray) && (i < 0 || j < 0 || i >= lv.W || j >= lv.H) {
		i, j, k = seamless(lv.W, i, j, k)
	}
	i, ok = wrap(i, lv.W, s.WrapS)
	if ok && nd >= 2 {
		j, ok = wrap(j, lv.H, s.WrapT)
	}
	if ok && nd >= 3 {
		k, ok = wrap(k, lv.D, s.WrapR)
	}
	if ok {
		v = t.read(lv, i, j, k)
	} else {
		v = t.border(s)
	}
	if s.CompareEnable && t.Format.IsDepth() {
		r := ref
		if t.Format.Info().DepthBits < 32 {
			r = min(max(r, 0), 1)
		}
		res := float32(0)
		if s.Compare.Test(r, v.f[0]) {
			res = 1
		}
		v.f = [4]float32{res, 0, 0, 1}
	}
	return v
}

func (t *Texture) filterLevel(s *Sampler, level int, f Filter, cs *coords, ref float32, off [3]int32) texel {
	lv := &t.Levels[level]
	size := [3]int{lv.W, lv.H, lv.D}
	var u [3]float64
	wraps := [3]Wrap{s.WrapS, s.WrapT, s.WrapR}
	for i := 0; i < cs.nd; i++ {
		u[i] = cs.st[i] * float64(size[i])
		if s.Unnormalized {
			u[i] = cs.st[i]
		}
		switch wraps[i] {
		case Clamp:
			u[i] = min(max(u[i], 0), float64(size[i]))
		case MirrorClamp:
			u[i] = min(math.Abs(u[i]), float64(size[i]))
		case MirrorClampToBorder:
			u[i] = min(math.Abs(u[i]), float64(size[i])+0.5)
		}
	}
	j, k := 0, cs.slice
	if f == Nearest {
		var idx [3]int
		for d := 0; d < cs.nd; d++ {
			idx[d] = ifloor(u[d]) + int(off[d])
			if wraps[d] == Clamp || wraps[d] == MirrorClamp {
				idx[d] = min(max(idx[d], 0), size[d]-1)
			}
		}
		if cs.nd >= 2 {
			j = idx[1]
		}
		if cs.nd >= 3 {
			k = idx[2]
		}
		return t.lookup(s, lv, cs.nd, idx[0], j, k, ref)
	}
	var i0 [3]int
	var a [3]float64
	for d := 0; d < cs.nd; d++ {
		i0[d] = ifloor(u[d]-0.5) + int(off[d])
		a[d] = frac(u[d] - 0.5)
	}
	if cs.nd < 3 {
		i0[2] = cs.slice
	}
	if cs.nd < 2 {
		i0[1] = 0
	}
	nz, ny := 1, 1
	if cs.nd >= 2 {
		ny = 2
	}
	if cs.nd >= 3 {
		nz = 2
	}
	var acc [4]float64
	for dz := range nz {
		wz := 1.0
		if cs.nd >= 3 {
			wz = w1(a[2], dz)
		}
		for dy := range ny {
			wy := 1.0
			if cs.nd >= 2 {
				wy = w1(a[1], dy)
			}
			for dx := range 2 {
				w := wz * wy * w1(a[0], dx)
				v := t.lookup(s, lv, cs.nd, i0[0]+dx, i0[1]+dy, i0[2]+dz, ref)
				for c := range 4 {
					acc[c] += w * float64(v.f[c])
				}
			}
		}
	}
	var r texel
	for c := range 4 {
		r.f[c] = float32(acc[c])
	}
	return r
}

// w1 is the linear weight of the lower (d = 0) or upper (d = 1) texel.
func w1(a float64, d int) float64 {
	if d == 0 {
		return 1 - a
	}
	return a
}

// gather returns one component (or the compare result) of the four texels
// of the bilinear footprint at the base level, in GL order
// (i0,j1), (i1,j1), (i1,j0), (i0,j0).
func (t *Texture) gather(s *Sampler, req *Request, l int) [4]uint32 {
	cs := t.resolve(req, l, false)
	base, _ := t.levelRange()
	lv := &t.Levels[base]
	var ref float32
	if s.CompareEnable {
		ref = req.Ref[l]
	}
	u := cs.st[0]*float64(lv.W) - 0.5
	v := cs.st[1]*float64(lv.H) - 0.5
	if s.Unnormalized {
		u, v = cs.st[0]-0.5, cs.st[1]-0.5
	}
	nd := max(cs.nd, 2)
	if cs.nd == 1 {
		v = 0
	}
	order := [4][2]int{{0, 1}, {1, 1}, {1, 0}, {0, 0}}
	comp := req.GatherComp
	if s.CompareEnable {
		comp = 0
	}
	var out [4]uint32
	for n, o := range order {
		ox, oy := req.Offset[0], req.Offset[1]
		switch {
		case req.UseGatherOffsets:
			ox, oy = req.GatherOffsets[n][0], req.GatherOffsets[n][1]
		case req.LaneOffset != nil:
			ox, oy = req.LaneOffset[l][0], req.LaneOffset[l][1]
		}
		i := ifloor(u) + int(ox) + o[0]
		j := ifloor(v) + int(oy) + o[1]
		if cs.nd == 1 {
			j = 0
		}
		tx := t.lookup(s, lv, nd, i, j, cs.slice, ref)
		out[n] = t.finish(tx)[comp]
	}
	return out
}

// faceAxes gives, per cube face, the major axis and its sign and the axes
// and signs of sc and tc (GL table 8.19): sc = ss*v[si], tc = ts*v[ti].
var faceAxes = [6]struct {
	mi, si, ti  int
	sgn, ss, ts float64
}{
	{0, 2, 1, 1, -1, -1}, {0, 2, 1, -1, 1, -1},
	{1, 0, 2, 1, 1, 1}, {1, 0, 2, -1, 1, -1},
	{2, 0, 1, 1, 1, -1}, {2, 0, 1, -1, -1, -1},
}

// seamless maps texel (i, j) just outside face k%6 of an n x n cube level
// to the adjacent face: the texel centre is turned back into a direction
// and the face selected again (GL 4.6 §8.13.1 seamless filtering; a corner
// texel outside two edges takes the face the major-axis rule selects rather
// than the mean of three texels).
func seamless(n, i, j, k int) (int, int, int) {
	face := k % 6
	fa := faceAxes[face]
	sc := 2*(float64(i)+0.5)/float64(n) - 1
	tc := 2*(float64(j)+0.5)/float64(n) - 1
	var v [3]float64
	v[fa.mi] = fa.sgn
	v[fa.si] = sc * fa.ss
	v[fa.ti] = tc * fa.ts
	nf, st, _, _ := cubeFace([4]float32{float32(v[0]), float32(v[1]), float32(v[2])}, [3]float32{}, [3]float32{})
	ni := min(max(ifloor(st[0]*float64(n)), 0), n-1)
	nj := min(max(ifloor(st[1]*float64(n)), 0), n-1)
	return ni, nj, k - face + nf
}
