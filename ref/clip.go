package ref

import "math"

// clipper clips primitives in homogeneous clip space against the view
// volume -w <= x, y <= w, -w <= z <= w (GL) or 0 <= z <= w (Vulkan) (near
// and far dropped under depth clamp) and every enabled clip distance >= 0.
// A clip vertex is stride float64s: x, y, z, w, the varying words (as
// floats), the clip distances. A new vertex on an edge is always computed
// from the edge's inside endpoint towards its outside endpoint, so two
// primitives sharing an edge get bit-identical vertices (watertight).
// Noperspective words are interpolated with the window-space parameter.
// spec: software-shader-backend "W and clipping behavior" (the missing
// homogeneous clipper).
type clipper struct {
	stride int
	vw     int
	ncd    int
	planes []int // 0..5 view volume, 6+i clip distance i
	zero   bool  // Vulkan near plane
	noPers []bool
	buf    [2][]float64
	tmp    []float64
}

func (c *clipper) init(d *drawer) {
	c.vw, c.ncd = d.vw, d.layout.ClipDistances
	c.stride = 4 + c.vw + c.ncd
	c.zero = d.s.ClipZeroToOne
	c.planes = []int{0, 1, 2, 3}
	if !d.s.Depth.Clamp {
		c.planes = append(c.planes, 4, 5)
	}
	for i := 0; i < c.ncd; i++ {
		if d.s.ClipDistances&(1<<i) != 0 {
			c.planes = append(c.planes, 6+i)
		}
	}
	c.noPers = make([]bool, c.vw)
	for i, q := range d.interp {
		c.noPers[i] = q == NoPerspective
	}
	for i := range c.buf {
		c.buf[i] = make([]float64, maxClipVerts*c.stride)
	}
	c.tmp = make([]float64, 2*c.stride)
}

// load writes the clip vertex of post-VS slot s to dst, with the varying
// words read through m (two-sided colour).
func (d *drawer) load(dst []float64, s int32, m []int) {
	p := d.pos[s]
	for i := range 4 {
		dst[i] = float64(p[i])
	}
	v := d.vary[int(s)*d.vw:]
	for k := range d.vw {
		dst[4+k] = float64(math.Float32frombits(v[m[k]]))
	}
	cd := d.cdist[int(s)*d.clip.ncd:]
	for k := 0; k < d.clip.ncd; k++ {
		dst[4+d.vw+k] = float64(cd[k])
	}
}

// dist is the signed distance of clip vertex v from plane pl (inside >= 0).
func (c *clipper) dist(v []float64, pl int) float64 {
	switch pl {
	case 0:
		return v[3] + v[0]
	case 1:
		return v[3] - v[0]
	case 2:
		return v[3] + v[1]
	case 3:
		return v[3] - v[1]
	case 4:
		if c.zero {
			return v[2]
		}
		return v[3] + v[2]
	case 5:
		return v[3] - v[2]
	}
	return v[4+c.vw+pl-6]
}

// inside reports whether v is inside every plane.
func (c *clipper) inside(v []float64) bool { return c.insidePlanes(v, c.planes) }

// insidePlanes reports whether v is inside every plane of planes.
func (c *clipper) insidePlanes(v []float64, planes []int) bool {
	for _, pl := range planes {
		if !(c.dist(v, pl) >= 0) {
			return false
		}
	}
	return true
}

// lerp writes the point of edge in->out at distances din >= 0 > dout.
func (c *clipper) lerp(dst, in, out []float64, din, dout float64) {
	t := din / (din - dout)
	for k := range c.stride {
		dst[k] = in[k] + t*(out[k]-in[k])
	}
	// Window-space parameter for noperspective words.
	w := dst[3]
	if w != 0 {
		s := t * out[3] / w
		for k, np := range c.noPers {
			if np {
				dst[4+k] = in[4+k] + s*(out[4+k]-in[4+k])
			}
		}
	}
}

// polygon clips the n vertices in c.buf[0] and returns the buffer holding
// the result and its vertex count.
func (c *clipper) polygon(n int) ([]float64, int) {
	src, dst := c.buf[0], c.buf[1]
	st := c.stride
	for _, pl := range c.planes {
		m := 0
		for i := range n {
			cur := src[i*st : (i+1)*st]
			prev := src[((i+n-1)%n)*st : ((i+n-1)%n+1)*st]
			dc, dp := c.dist(cur, pl), c.dist(prev, pl)
			if dc >= 0 {
				if !(dp >= 0) {
					c.lerp(dst[m*st:(m+1)*st], cur, prev, dc, dp)
					m++
				}
				copy(dst[m*st:(m+1)*st], cur)
				m++
			} else if dp >= 0 {
				c.lerp(dst[m*st:(m+1)*st], prev, cur, dp, dc)
				m++
			}
			if m > maxClipVerts-2 {
				break
			}
		}
		src, dst = dst, src
		n = m
		if n < 3 {
			return src, 0
		}
	}
	return src, n
}

// segment clips the line in c.buf[0] (two vertices) against planes; false
// if rejected.
func (c *clipper) segment(planes []int) bool {
	st := c.stride
	a, b := c.buf[0][:st], c.buf[0][st:2*st]
	for _, pl := range planes {
		da, db := c.dist(a, pl), c.dist(b, pl)
		switch {
		case da >= 0 && db >= 0:
		case da >= 0:
			c.lerp(c.tmp[:st], a, b, da, db)
			copy(b, c.tmp[:st])
		case db >= 0:
			c.lerp(c.tmp[:st], b, a, db, da)
			copy(a, c.tmp[:st])
		default:
			return false
		}
	}
	return true
}
