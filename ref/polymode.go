package ref

// Polygon modes: a triangle face in LINE or POINT mode is drawn as its
// polygon's boundary edges or boundary vertices, after facing and culling.
// spec: GL 4.6 §14.6.4 (polygon modes), §13.7 (clipping), §14.6.5 (polygon
// offset)

// polyClip clips a LINE or POINT face by the user clip planes before its
// edges are taken, keeping each edge's flag. A clip vertex is the
// clipper's (stride float64s) then the vertex's point size, interpolated
// like a smooth word.
type polyClip struct {
	stride int   // the clipper's stride + 1
	view   []int // the view-volume planes of the clipper's list
	user   []int // its user clip planes
	buf    [2][]float64
	edge   [2][]bool // per clipped vertex: the edge it starts is a boundary edge
}

func (pc *polyClip) init(d *drawer) {
	c := &d.clip
	pc.stride = c.stride + 1
	nv := 0
	for nv < len(c.planes) && c.planes[nv] < 6 {
		nv++
	}
	pc.view, pc.user = c.planes[:nv], c.planes[nv:]
	for i := range pc.buf {
		pc.buf[i] = make([]float64, maxClipVerts*pc.stride)
		pc.edge[i] = make([]bool, maxClipVerts)
	}
}

// faceMode is the polygon mode of a front- or back-facing triangle.
func (d *drawer) faceMode(front bool) PolygonMode {
	if front {
		return d.s.PolygonFront
	}
	return d.s.PolygonBack
}

// unfilled draws a triangle's LINE or POINT face: the triangle (slots v,
// words read through m) is clipped by the user clip planes, then each
// boundary edge of the clipped polygon is drawn as a line of the line
// width (line's rule, clipped by the view volume), or each vertex starting
// a boundary edge as a point of its point size (point's rule, dropped
// outside the view volume), all with prov's flat words, the polygon's
// facing and its primitive id. Edges (bit k: vertex k to k+1) are the
// triangle's boundary edges; an edge a user plane cuts into the polygon is
// a boundary edge (GL's edge flags of clipping), while the view volume only
// shortens edges, drawing none along its planes (the convention of Mesa's
// draw module and NVIDIA, which the device's prim_k shares). With the
// mode's offset enable (DepthBias.Line, Point) every fragment takes the
// offset of the polygon wp (the face clipped by every plane, in window
// space). spec: GL 4.6 §14.6.4, §14.6.5; GL 4.6 compatibility §13.7 (edge
// flags of clipped polygons)
func (d *drawer) unfilled(mode PolygonMode, v [3]int32, prov, id int32, edges uint8, front bool, m []int, wp []wvert) error {
	if b := d.s.DepthBias; mode == PolygonLine && b.Line || mode == PolygonPoint && b.Point {
		d.zoff = d.depthBias(wp)
	}
	pc := &d.pm
	src, n, fl := pc.clip(d, v, m, edges)
	d.loadFlat(prov, m)
	st, cst := pc.stride, d.clip.stride
	buf := d.clip.buf[0]
	var err error
	for i := 0; i < n && err == nil; i++ {
		if !fl[i] {
			continue
		}
		copy(buf[:cst], src[i*st:i*st+cst])
		if mode == PolygonLine {
			j := (i + 1) % n
			copy(buf[cst:2*cst], src[j*st:j*st+cst])
			err = d.segment(pc.view, prov, m, front, id)
		} else {
			err = d.pointAt(pc.view, src[i*st+cst], front, id)
		}
	}
	d.zoff = 0
	return err
}

// clip loads triangle v (words through m, the point sizes after them) and
// clips it by the user clip planes with Sutherland-Hodgman, new vertices
// from an edge's inside end (the clipper's lerp): a vertex where an edge
// enters keeps that edge's flag, one where it leaves starts an edge along
// the plane, a boundary edge. It returns the polygon, its vertex count (0
// when fewer than three are left) and its flags.
func (pc *polyClip) clip(d *drawer, v [3]int32, m []int, edges uint8) ([]float64, int, []bool) {
	st, cst := pc.stride, d.clip.stride
	src, dst := pc.buf[0], pc.buf[1]
	fs, fd := pc.edge[0], pc.edge[1]
	for i, s := range v {
		d.load(src[i*st:i*st+cst], s, m)
		src[i*st+cst] = float64(d.psize[s])
		fs[i] = edges>>i&1 != 0
	}
	n := 3
	for _, pl := range pc.user {
		k := 0
		for i := range n {
			ip := (i + n - 1) % n
			cur, prev := src[i*st:(i+1)*st], src[ip*st:(ip+1)*st]
			dc, dp := d.clip.dist(cur, pl), d.clip.dist(prev, pl)
			if dc >= 0 {
				if !(dp >= 0) {
					pc.lerp(d, dst[k*st:(k+1)*st], cur, prev, dc, dp)
					fd[k] = fs[ip]
					k++
				}
				copy(dst[k*st:(k+1)*st], cur)
				fd[k] = fs[i]
				k++
			} else if dp >= 0 {
				pc.lerp(d, dst[k*st:(k+1)*st], prev, cur, dp, dc)
				fd[k] = true
				k++
			}
		}
		src, dst, fs, fd = dst, src, fd, fs
		n = k
		if n < 3 {
			return src, 0, fs
		}
	}
	return src, n, fs
}

// lerp is the clipper's lerp plus the point size, interpolated with the
// clip-space parameter.
func (pc *polyClip) lerp(d *drawer, dst, in, out []float64, din, dout float64) {
	cst := d.clip.stride
	d.clip.lerp(dst[:cst], in[:cst], out[:cst], din, dout)
	t := din / (din - dout)
	dst[cst] = in[cst] + t*(out[cst]-in[cst])
}
