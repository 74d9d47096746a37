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
// plane and the guard band and checks that the fan setup_k sets up covers,
// inside the guard band, the near-clipped polygon clipped by the guard planes
// — nothing dropped, nothing doubled — also when the two near-split halves
// would need more fan triangles than a slot holds (the quad is then clipped
// whole). A sub-triangle left unclipped because it sets up exactly
// (fitsUnclipped) reaches past the band, so its area is measured after the
// guard clip. spec: vortexpipe §3.8
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
			whole := false // a sub-triangle passed through unclipped
			for k := 0; k < ns; k++ {
				whole = whole || fan[s] == sub[k]
			}
			if !whole {
				got += ndcArea(fan[s][:])
			} else if p := clipAll(fan[s], e.guard, &a, &b); len(p) >= 3 {
				got += ndcArea(p)
			}
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

// TestGuardBandKeepsExactTriangles: a quad whose near corners reach 12 800 and
// 24 320 pixels past a 128² target lies beyond the 8192-pixel guard band, but
// its unclipped Q15.16 edges and Q7.24 planes are exact, so setup_k must set it
// up unclipped, word for word as host Binning does (the draw3d goldens' flow):
// guard-clipping it re-fanned the quad and left a crack of pixels along the
// shared diagonal that neither half covered. A triangle with a vertex behind
// the eye (w < 0) is still clipped, since its divided bounding box does not
// bound it. spec: vortexpipe §3.8 (guard band); vortex-hardware-facts §3.2
func TestGuardBandKeepsExactTriangles(t *testing.T) {
	for _, reach := range []float32{200, 380} {
		v := []Vertex{
			{Pos: [4]float32{-reach, -reach * 0.3, 0.1, 1}, Color: [4]float32{1, 0.5, 0.2, 1}},
			{Pos: [4]float32{reach * 0.9, -reach * 0.31, 0.15, 1}, Color: [4]float32{1, 0.5, 0.2, 1}},
			{Pos: [4]float32{-0.6, 0.5, 0.8, 1}, Color: [4]float32{0.1, 0.9, 0.3, 1}},
			{Pos: [4]float32{0.7, 0.45, 0.85, 1}, Color: [4]float32{0.2, 0.2, 0.9, 1}},
		}
		tris := [][3]uint32{{0, 1, 2}, {2, 1, 3}}
		p, _, st, err := RunWithStats(v, tris, 128, 128, 0, 1, CullNone, nil, PlanesGrx)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Binning(v, tris, 128, 128, 0, 1, 7, PlanesGrx)
		if err != nil {
			t.Fatal(err)
		}
		if st.GuardClipped != 0 || len(p) != len(b.Prims) {
			t.Fatalf("reach %v: %d guard-clipped, %d primitives; host Binning has %d", reach, st.GuardClipped, len(p), len(b.Prims))
		}
		for i := range p {
			if p[i] != b.Prims[i] {
				t.Errorf("reach %v: primitive %d differs from host Binning's", reach, i)
			}
		}
	}
	behind := []Vertex{{Pos: [4]float32{-9000, 0, 2, -1}}, {Pos: [4]float32{1, -1, 0, 1}}, {Pos: [4]float32{-1, 1, 0, 1}}}
	_, _, st, err := RunWithStats(behind, [][3]uint32{{0, 1, 2}}, 128, 128, 0, 1, CullNone, nil, PlanesGrx)
	if err != nil {
		t.Fatal(err)
	}
	if st.GuardClipped != 1 {
		t.Errorf("w < 0 vertex: %d guard-clipped, want 1", st.GuardClipped)
	}
}
