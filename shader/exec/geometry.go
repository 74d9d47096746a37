package exec

import (
	"math/bits"

	"vortexgfx/shader/ir"
)

// geomOut holds what the lanes of a geometry program emit during one Run:
// for each lane up to max vertex records of words output words each, and
// for each record whether it starts a new strip (the lane's first vertex and
// the first after an EndPrim). Allocated once per Machine.
// spec: GLSL 1.50 §8.10, GL 4.6 §11.3.4.
type geomOut struct {
	max, words int
	buf        []uint32 // lane l's vertex i word k at (l*max+i)*words + k
	restart    []bool   // lane l's vertex i at l*max+i
	n          []int    // vertices emitted per lane
	cut        uint64   // lanes whose next vertex starts a strip
}

func newGeomOut(g *ir.GeometryLayout, words, w int) *geomOut {
	mx := int(g.MaxVertices)
	return &geomOut{max: mx, words: words, buf: make([]uint32, w*mx*words), restart: make([]bool, w*mx), n: make([]int, w)}
}

func (g *geomOut) reset() {
	clear(g.n)
	g.cut = ^uint64(0)
}

// emit appends the current output words of the lanes in exec; a lane that
// has emitted max vertices drops the vertex (and keeps a pending strip cut).
func (g *geomOut) emit(m *Machine, exec uint64) {
	for mm := exec; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		i := g.n[l]
		if i >= g.max {
			continue
		}
		rec := g.buf[(l*g.max+i)*g.words : (l*g.max+i+1)*g.words]
		for k := range rec {
			rec[k] = m.out[k*m.w+l]
		}
		g.restart[l*g.max+i] = g.cut&(1<<l) != 0
		g.cut &^= 1 << l
		g.n[l] = i + 1
	}
}

// Emitted returns what lane emitted during the last Run of a geometry
// program: the number of vertices n, their output words (vertex i's word k
// at words[i*OutputWords+k], valid until the next Run) and, per vertex,
// whether it starts a new strip of the output primitive (the first vertex,
// and the first after each EndPrimitive). For other programs n is 0.
// spec: GLSL 1.50 §8.10.
func (m *Machine) Emitted(lane int) (n int, words []uint32, restart []bool) {
	g := m.geo
	if g == nil || lane < 0 || lane >= m.w {
		return 0, nil, nil
	}
	n = g.n[lane]
	base := lane * g.max
	return n, g.buf[base*g.words : (base+n)*g.words], g.restart[base : base+n]
}
