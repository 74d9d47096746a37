package frontend

import (
	"math"
	"math/rand"
	"testing"
)

// TestSetupOneFastPath checks that setupOne's in-place path for unclipped
// triangles produces exactly what the general clipping path does (the same
// primitives, boxes, counts and stats) over random triangles: wholly inside,
// crossing the near, far and guard planes, NaN varyings and positions,
// both cull modes, a scissor, a viewport, depth clip disabled and record
// vertices (whose NaN check looks at the record's fields alone).
func TestSetupOneFastPath(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	envs := []*feEnv{
		newFEEnv(512, 512, 0, 1, CullNone, nil, PlanesCompiled),
		newFEEnv(640, 480, 0.1, 0.9, CullBack, nil, PlanesCompiled),
		newFEEnv(300, 200, 0, 1, CullFront, &Viewport{SX: 100, TX: 120, SY: -80, TY: 90}, PlanesCompiled),
		newFEEnv(256, 256, 0, 1, CullNone, nil, PlanesGrx),
	}
	envs[1].scissor = &BBox{L: 100, R: 400, T: 50, B: 300}
	envs[2].noClip = true
	envs = append(envs, newFEEnv(512, 512, 0, 1, CullNone, nil, PlanesCompiled))
	envs[4].records = true // the compiled vertices below are record-shaped
	fast := 0
	for i := range 20000 {
		e := envs[i%len(envs)]
		var v [3]Vertex
		spread := []float32{0.05, 0.5, 3, 5000}[r.Intn(4)]
		cx, cy := r.Float32()*2-1, r.Float32()*2-1
		for k := range v {
			w := 0.5 + r.Float32()*2
			v[k].Pos = [4]float32{(cx + (r.Float32()-0.5)*spread) * w, (cy + (r.Float32()-0.5)*spread) * w, (r.Float32()*2.4 - 1.2) * w, w}
			if e.planes == PlanesCompiled {
				v[k].NVar = 6
				for j := range v[k].NVar {
					v[k].Var[j] = r.Float32()*4 - 2
				}
			} else {
				v[k].Color = [4]float32{r.Float32(), r.Float32(), r.Float32(), 1}
				v[k].TexCoord = [2]float32{r.Float32(), r.Float32()}
			}
		}
		switch r.Intn(40) {
		case 0:
			v[r.Intn(3)].Var[0] = float32(math.NaN())
		case 1:
			v[r.Intn(3)].Pos[r.Intn(2)] = float32(math.NaN())
		}
		var st1, st2 Stats
		var p1, p2 [setupSlotCap]Prim
		var b1, b2 [setupSlotCap]BBox
		if e.unclipped(&v[0], &v[1], &v[2]) {
			fast++
		}
		w := v
		n1 := e.setupOne(&v[0], &v[1], &v[2], nil, &st1, &p1, &b1, nil)
		n2 := e.setupClipped(&w[0], &w[1], &w[2], nil, &st2, &p2, &b2, nil)
		if n1 != n2 || st1 != st2 || p1 != p2 || b1 != b2 {
			t.Fatalf("triangle %d %v: fast path gives %d prims %+v, general path %d prims %+v (prims equal %v, boxes equal %v)",
				i, v, n1, st1, n2, st2, p1 == p2, b1 == b2)
		}
	}
	if fast < 2000 || fast > 18000 {
		t.Fatalf("%d of 20000 triangles took the fast path: the test does not exercise both paths", fast)
	}
}
