package ref

import (
	"math"
	"sync"
)

// vertexTerms caches, per post-VS vertex, the interpolation terms prepare
// computes for a triangle's corner: the varying word times 1/w (smooth) or the
// word itself (noperspective), in float64, for the words the fragment shader
// reads. A vertex of a dense mesh is a corner of about six triangles; an
// unclipped triangle (drawer.lazy) takes its corners' terms from here, each
// computed once, the first time a drawn triangle needs it, by the same
// arithmetic as loadWords and prepare (so the terms are the same bits).
// Each worker has its own: gen marks the entries filled for the current
// instance (vertices are shaded again per instance), so nothing is cleared
// between instances or draws.
type vertexTerms struct {
	terms []float64 // vw words per vertex slot
	gen   []uint32  // entry s is current when gen[s] == cur
	cur   uint32
}

// vertexTermsPool holds the caches of finished draws' workers.
var vertexTermsPool = sync.Pool{New: func() any { return new(vertexTerms) }}

// reset readies t for a new instance of n vertices of vw words.
func (t *vertexTerms) reset(n, vw int) {
	if cap(t.gen) < n || cap(t.terms) < n*vw {
		t.terms, t.gen, t.cur = make([]float64, n*vw), make([]uint32, n), 0
	}
	t.terms, t.gen = t.terms[:n*vw], t.gen[:n]
	t.cur++
	if t.cur == 0 { // wrapped: every entry's mark could be current
		clear(t.gen)
		t.cur = 1
	}
}

// useVertexTerms gives d (one drawer: the draw or a worker) a terms cache
// when its unclipped triangles are set up from the window-position cache.
func (d *drawer) useVertexTerms() {
	if d.wv != nil && d.fs != nil && len(d.smoothW)+len(d.linearW) > 0 {
		d.vt = vertexTermsPool.Get().(*vertexTerms)
	}
}

// releaseVertexTerms returns d's terms cache to the pool.
func (d *drawer) releaseVertexTerms() {
	if d.vt != nil {
		vertexTermsPool.Put(d.vt)
		d.vt = nil
	}
}

// cornerTerms sets up the lazy triangle's corners from the terms cache:
// d.setup[i] becomes a view of the terms of v[i], which is d.poly[j] for the
// post-VS slot d.lazySlots[j] (rasterTri may have swapped two corners), read
// through the identity map (a lazy triangle is never a back face read
// through TwoSide).
func (d *drawer) cornerTerms(v [3]*wvert) {
	t, vw := d.vt, d.vw
	d.termsGen++
	for i, w := range v {
		j := 0
		for j < 2 && w != &d.poly[j] {
			j++
		}
		s := d.lazySlots[j]
		o := int(s) * vw
		dst := t.terms[o : o+vw : o+vw]
		if t.gen[s] != t.cur {
			v := d.vary[o : o+vw : o+vw]
			iw := d.wv[s].iw
			for _, k := range d.smoothW {
				dst[k] = float64(math.Float32frombits(v[k])) * iw
			}
			for _, k := range d.linearW {
				dst[k] = float64(math.Float32frombits(v[k]))
			}
			t.gen[s] = t.cur
		}
		d.setup[i] = dst
	}
}
