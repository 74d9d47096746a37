package frontend

import (
	"math"
	"math/rand"
	"testing"
)

// ndcArea is the area of a convex clip-space polygon after the divide by w.
func ndcArea(p []Vertex) float64 {
	var a float64
	for i := range p {
		q, r := &p[i], &p[(i+1)%len(p)]
		x0, y0 := float64(q.Pos[0])/float64(q.Pos[3]), float64(q.Pos[1])/float64(q.Pos[3])
		x1, y1 := float64(r.Pos[0])/float64(r.Pos[3]), float64(r.Pos[1])/float64(r.Pos[3])
		a += x0*y1 - x1*y0
	}
	return math.Abs(a) / 2
}

// TestGuardFanKeepsArea clips random large triangles that cross the near
// plane and the guard band and checks that the fan setup_k sets up covers the
// near-clipped polygon clipped by the guard planes — nothing dropped — also
// when the two near-split halves would need more fan triangles than a slot
// holds (the quad is then clipped whole). spec: vortexpipe §3.8
func TestGuardFanKeepsArea(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	e := newFEEnv(32, 32, 0, 1, CullNone, nil, PlanesCompiled)
	whole := 0
	for it := 0; it < 300000; it++ {
		var v [3]Vertex
		for k := range v {
			v[k] = Vertex{Pos: [4]float32{(r.Float32()*2 - 1) * 3000, (r.Float32()*2 - 1) * 3000, (r.Float32()*2 - 1) * 3, r.Float32()*4 - 1}}
		}
		var sub [SetupMaxSub][3]Vertex
		ns := ClipNear(&v[0], &v[1], &v[2], &sub)
		if ns == 0 {
			continue
		}
		var st Stats
		var fan [SetupSlot][3]Vertex
		in := sub[0][:]
		if ns == 2 {
			q := [4]Vertex{sub[0][0], sub[0][1], sub[0][2], sub[1][2]}
			in = q[:]
		}
		nf := e.guardFan(sub[:ns], in, &st, fan[:])
		var a, b [polyCap]Vertex
		want := 0.0
		if poly := clipPolyAll(in, e.guard, &a, &b); len(poly) >= 3 {
			want = ndcArea(poly)
		}
		got, per := 0.0, 0
		for s := 0; s < nf; s++ {
			got += ndcArea(fan[s][:])
		}
		for s := 0; s < ns; s++ {
			if p := clipAll(sub[s], e.guard, &a, &b); len(p) >= 3 {
				per += len(p) - 2
			}
		}
		if per > SetupSlot {
			whole++
		}
		if math.Abs(got-want) > 1e-3*math.Max(want, 1) {
			t.Fatalf("triangle %v: fan of %d covers %v of %v", v, nf, got, want)
		}
	}
	t.Logf("%d triangles needed the whole-quad clip", whole)
	if whole == 0 {
		t.Error("no triangle exercised the whole-quad clip")
	}
}

// TestHasNaNIsSelfInequality: hasNaN holds exactly when a copy of the vertex
// compares unequal to it (setup's inside-the-near-plane shortcut counts
// NearClipped on it as ClipNear's result comparison does).
func TestHasNaNIsSelfInequality(t *testing.T) {
	nan := float32(math.NaN())
	for field := range 5 {
		for _, x := range []float32{0, -0, 1, nan, float32(math.Inf(1))} {
			var v Vertex
			switch field {
			case 0:
				v.Pos[3] = x
			case 1:
				v.Color[1] = x
			case 2:
				v.TexCoord[0] = x
			case 3:
				v.Var[11] = x
			case 4:
				v.bary[2] = x
			}
			w := v
			if hasNaN(&v) != (w != v) {
				t.Errorf("field %d = %v: hasNaN %v, copy unequal %v", field, x, hasNaN(&v), w != v)
			}
		}
	}
}
