package frontend

import (
	"math"
	"math/rand"
	"testing"
)

// TestUserClipStaysInSlots clips random triangles — crossing the near and far
// planes, the guard band and up to eight user clip distances (random linear
// functions of the clip position) — and checks that setup_k's fan never needs
// more than SlotsPerTriangle(mask) primitives (a write past the slot's fan
// would panic), that every vertex it emits lies inside every enabled plane,
// and that a plane inside everywhere changes nothing.
// spec: vortexpipe §3.8; GL 4.6 §13.7
func TestUserClipStaysInSlots(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	var prims [setupSlotCap]Prim
	var bbs [setupSlotCap]BBox
	var lam [setupSlotCap][3][3]float32
	most := 0
	for it := 0; it < 20000; it++ {
		e := newFEEnv(64, 64, 0, 1, CullNone, nil, PlanesCompiled)
		nu := 1 + r.Intn(MaxClipDistances)
		mask := uint8(1<<nu - 1)
		e.slots = SlotsPerTriangle(mask)
		var v [3]Vertex
		scale := float32(1)
		if it%3 == 0 {
			scale = 5000 // reaches past the guard band
		}
		for k := range v {
			v[k] = Vertex{Pos: [4]float32{(r.Float32()*2 - 1) * scale, (r.Float32()*2 - 1) * scale, r.Float32()*4 - 2, r.Float32()*2 - 0.5}}
		}
		var coef [MaxClipDistances][4]float32
		user := make([]userPlane, nu)
		for p := range user {
			for j := range coef[p] {
				coef[p][j] = r.Float32()*2 - 1
			}
			for k := range v {
				for j := range 4 {
					user[p].cd[k] += coef[p][j] * v[k].Pos[j]
				}
			}
		}
		var st Stats
		n := e.setupOne(&v[0], &v[1], &v[2], user, &st, &prims, &bbs, &lam)
		if n > e.slots {
			t.Fatalf("triangle %v: %d primitives in %d slots", v, n, e.slots)
		}
		most = max(most, n)
		for s := range n {
			for k := range 3 {
				for p := range user {
					d := user[p].dist64(&Vertex{bary: lam[s][k]})
					mag := 0.0
					for j := range 3 {
						mag += math.Abs(float64(user[p].cd[j]))
					}
					if d < -1e-3*max(mag, 1) {
						t.Fatalf("triangle %v: primitive %d vertex %d is outside plane %d (%v)", v, s, k, p, d)
					}
				}
			}
		}
	}
	t.Logf("at most %d primitives from one triangle", most)
	// A plane inside everywhere leaves setup bit-exact.
	e := newFEEnv(64, 64, 0, 1, CullNone, nil, PlanesCompiled)
	v := [3]Vertex{{Pos: [4]float32{-0.5, -0.5, 0, 1}}, {Pos: [4]float32{0.5, -0.5, 0, 1}}, {Pos: [4]float32{0, 0.5, 0, 1}}}
	var st Stats
	n0 := e.setupOne(&v[0], &v[1], &v[2], nil, &st, &prims, &bbs, nil)
	p0 := prims[0]
	n1 := e.setupOne(&v[0], &v[1], &v[2], []userPlane{{cd: [3]float32{1, 2, 3}}}, &st, &prims, &bbs, nil)
	if n0 != 1 || n1 != 1 || prims[0] != p0 || st.UserClipped != 0 {
		t.Errorf("an inside plane changed setup: %d/%d primitives, %d user-clipped", n0, n1, st.UserClipped)
	}
}
