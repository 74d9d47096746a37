package shaderdev

// The clipping of prim_k: the view volume and the user clip distances, as
// the reference renderer's clipper has them. spec: GL 4.6 §13.7

import (
	"fmt"
	"math"

	"vortexgfx/device"
	"vortexgfx/gfx/frontend"
)

// userClip reads the launch's enabled user clip distances and legacy planes
// (as expand_k does) and adds their planes. spec: GL 4.6 §13.7; GL 3.0 §2.17
func (g *primGeom) userClip(sp *Program, c *device.CTA) error {
	mask := uint8(c.Arg(primArgClip))
	if err := c.Err(); err != nil {
		return err
	}
	if mask != sp.ClipMask(mask) {
		return fmt.Errorf("%s: clip-distance mask 0x%x names distances the vertex stage does not write (%d)", sp.primName(), mask, sp.clipN)
	}
	if mask == 0 {
		return nil
	}
	if sp.clipN > 0 {
		g.cdWord = sp.clipWord
	} else {
		for i := range g.planes {
			for j := range g.planes[i] {
				w := 4*i + j
				slot := c.Arg(primArgPlanes + w/2)
				g.planes[i][j] = float64(math.Float32frombits(uint32(slot >> (32 * (w % 2)))))
			}
		}
		g.cv = 0 // gl_ClipVertex, else gl_Position
		if sp.clipVert >= 0 {
			g.cv = sp.clipVert
		}
		if g.cv+4 > g.n {
			return fmt.Errorf("%s: gl_ClipVertex at word %d of %d", sp.primName(), g.cv, g.n)
		}
	}
	for d := range frontend.MaxClipDistances {
		if mask>>d&1 != 0 {
			g.pl = append(g.pl, clipPlane+len(g.cd))
			g.cd = append(g.cd, d)
		}
	}
	m := g.n + len(g.cd)
	g.a, g.b, g.t = make([]float64, m), make([]float64, m), make([]float64, m)
	return c.Err()
}

// load widens a record's words to float64 (the position and every
// varying), then appends its enabled clip distances: the vertex stage's
// gl_ClipDistance words, or each legacy plane dotted with the clip vertex in
// float64 and stored as float32, as the reference's vertex stage stores
// them.
func (g *primGeom) load(dst []float64, rec []uint32) {
	for w, v := range rec {
		dst[w] = float64(math.Float32frombits(v))
	}
	for k, d := range g.cd {
		var x float32
		if g.cdWord >= 0 {
			x = math.Float32frombits(rec[g.cdWord+d])
		} else {
			var s float64
			for j := range 4 {
				s += g.planes[d][j] * float64(math.Float32frombits(rec[g.cv+j]))
			}
			x = float32(s)
		}
		dst[g.n+k] = float64(x)
	}
}

// dist is the signed distance of clip vertex v from plane pl (g.pl).
func (g *primGeom) dist(v []float64, pl int) float64 {
	if pl >= clipPlane {
		return v[g.n+pl-clipPlane]
	}
	return dist(v, pl)
}

// dist is the signed distance of clip vertex v from view-volume plane pl.
func dist(v []float64, pl int) float64 {
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
		return v[3] + v[2]
	}
	return v[3] - v[2]
}

// lerp writes into dst the point of edge in→out at distances din ≥ 0 > dout,
// from the inside endpoint, noperspective words with the window-space
// parameter (the reference renderer's clipper).
func (g *primGeom) lerp(dst, in, out []float64, din, dout float64) {
	t := din / (din - dout)
	for k := range dst {
		dst[k] = in[k] + t*(out[k]-in[k])
	}
	if w := dst[3]; w != 0 {
		s := t * out[3] / w
		for k, np := range g.noPersp {
			if np && k >= 4 {
				dst[k] = in[k] + s*(out[k]-in[k])
			}
		}
	}
}
