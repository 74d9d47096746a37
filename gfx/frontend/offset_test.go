package frontend

import (
	"math"
	"testing"

	"vortexgfx/abi"
)

// TestPlaneOffset: setup_k's polygon offset moves a primitive's depth plane
// C word by o = factor·m + units·r in Q7.24 steps, with r by the depth
// attachment's format as ref's depthBias computes it (D24 1/(2^24−1): one
// step per unit; D16 1/65535: rounded up to 257 steps, so a unit always
// moves a stored D16 depth; D32F 2^(e−24): a sub-step offset becomes one
// step; none 2^−24), clamped by a nonzero clamp, bounded at ±64, and leaves
// A′ and B′ alone. spec: GL 4.6 §14.6.5
func TestPlaneOffset(t *testing.T) {
	// A tilted triangle: window z runs 0.3..0.45 over a 64×64 target.
	tri := func(z0 float32) [3]Vertex {
		return [3]Vertex{{Pos: [4]float32{-0.8, -0.8, z0, 1}}, {Pos: [4]float32{0.8, -0.6, z0 + 0.3, 1}}, {Pos: [4]float32{-0.6, 0.8, z0 + 0.1, 1}}}
	}
	setup := func(v [3]Vertex, po PolygonOffset) Prim {
		e := newFEEnv(64, 64, 0, 1, CullNone, nil, PlanesCompiled)
		e.offset = po
		var prims [setupSlotCap]Prim
		var bbs [setupSlotCap]BBox
		var st Stats
		if n := e.setupOne(&v[0], &v[1], &v[2], nil, &st, &prims, &bbs, nil); n != 1 {
			t.Fatalf("%d primitives", n)
		}
		return prims[0]
	}
	// m of the triangle as ref computes it, from setup's window positions.
	slope := func(v [3]Vertex) float64 {
		e := newFEEnv(64, 64, 0, 1, CullNone, nil, PlanesCompiled)
		var w [3][3]float64
		for i := range v {
			p := e.windowPos(&v[i])
			w[i] = [3]float64{float64(p.x), float64(p.y), float64(p.z)}
		}
		det := (w[1][0]-w[0][0])*(w[2][1]-w[0][1]) - (w[2][0]-w[0][0])*(w[1][1]-w[0][1])
		dzdx := ((w[1][2]-w[0][2])*(w[2][1]-w[0][1]) - (w[2][2]-w[0][2])*(w[1][1]-w[0][1])) / det
		dzdy := ((w[1][0]-w[0][0])*(w[2][2]-w[0][2]) - (w[2][0]-w[0][0])*(w[1][2]-w[0][2])) / det
		return max(math.Abs(dzdx), math.Abs(dzdy))
	}
	v := tri(-0.4)
	base := setup(v, PolygonOffset{})
	m := slope(v)
	for _, tc := range []struct {
		name string
		po   PolygonOffset
		want int64
	}{
		{"D24 units 1", PolygonOffset{Enable: true, Units: 1, DepthBits: 24}, 1},
		{"D24 units -3", PolygonOffset{Enable: true, Units: -3, DepthBits: 24}, -3},
		{"D16 units 1", PolygonOffset{Enable: true, Units: 1, DepthBits: 16}, 257},
		{"D16 units -2", PolygonOffset{Enable: true, Units: -2, DepthBits: 16}, -513},
		{"no depth units 2", PolygonOffset{Enable: true, Units: 2}, 2},
		{"D32F units 1 at 0.3", PolygonOffset{Enable: true, Units: 1, DepthBits: 32}, 1},
		{"D32F units 8 at 0.3", PolygonOffset{Enable: true, Units: 8, DepthBits: 32}, 4},
		{"D24 factor 2", PolygonOffset{Enable: true, Factor: 2, DepthBits: 24}, int64(math.Round(2 * m * (1 << 24)))},
		{"D24 factor -1 units -1", PolygonOffset{Enable: true, Factor: -1, Units: -1, DepthBits: 24},
			int64(math.Round((-m - 1/float64(1<<24-1)) * (1 << 24)))},
		{"clamp", PolygonOffset{Enable: true, Units: 1e6, Clamp: 1e-6, DepthBits: 24}, int64(math.Round(float64(float32(1e-6)) * (1 << 24)))},
		{"negative clamp", PolygonOffset{Enable: true, Units: -1e6, Clamp: -1e-6, DepthBits: 24}, int64(math.Round(float64(float32(-1e-6)) * (1 << 24)))},
		{"clamp above o", PolygonOffset{Enable: true, Units: 1, Clamp: 0.5, DepthBits: 24}, 1},
		{"bounded", PolygonOffset{Enable: true, Units: 1e12, DepthBits: 24}, maxPlaneOffset},
		{"enabled, zero", PolygonOffset{Enable: true, DepthBits: 24}, 0},
	} {
		p := setup(v, tc.po)
		ba, bb, bc := base.Plane(abi.PlaneZ)
		a, b, c := p.Plane(abi.PlaneZ)
		if a != ba || b != bb || int64(c)-int64(bc) != tc.want {
			t.Errorf("%s: plane {%d %d %+d}, want {%d %d %+d}", tc.name, a, b, int64(c)-int64(bc), ba, bb, tc.want)
		}
	}
	// D32F at window depths 0.075..0.225: r = 2^−26 is a quarter of a
	// plane step; one unit still moves the plane one step.
	low := tri(-0.85)
	lb, lp := setup(low, PolygonOffset{}), setup(low, PolygonOffset{Enable: true, Units: 1, DepthBits: 32})
	_, _, c0 := lb.Plane(abi.PlaneZ)
	_, _, c1 := lp.Plane(abi.PlaneZ)
	if c1-c0 != 1 {
		t.Errorf("D32F at depth 0.1: offset %d steps, want 1", c1-c0)
	}
}

// TestOffsetArgs: the argument block carries the offset through slots 26
// and 27, and setup_k refuses undefined depth bits and non-finite values.
func TestOffsetArgs(t *testing.T) {
	po := PolygonOffset{Enable: true, Factor: 1.5, Units: -2, Clamp: 0.25, DepthBits: 16}
	var a Args
	po.SetArgs(&a)
	got, err := abi.UnpackFrontEndArgs(a.Pack())
	if err != nil || offsetFromArgs(&got) != po {
		t.Errorf("round trip %+v, %v", offsetFromArgs(&got), err)
	}
	PolygonOffset{Factor: 3}.SetArgs(&a)
	if a.OffsetDepth != 0 || a.OffsetFactor != 0 {
		t.Errorf("a disabled offset writes %+v", a)
	}
}
