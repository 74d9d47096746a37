package pipe

import (
	"testing"
	"vortexgfx/gl/compare"
)

// TestOcclusionDevice: an occlusion counter over a partly hidden triangle
// counts on the device (the software merger's passing samples, STRICT) what
// the reference renderer counts, within the 2% the two rasterizers' edge
// rules allow. spec: vortexpipe §1.5
func TestOcclusionDevice(t *testing.T) {
	run := func(o Options) uint64 {
		e := newDrawEnv(t, o, true)
		e.program(t, testVS, testFS)
		if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{}, 1, 0); err != nil {
			t.Fatal(err)
		}
		d, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less})
		e.c.BindDSAState(d)
		v := quadVerts(0, [4]float32{1, 0, 0, 1}, -0.3, -1, 0.5, 0.4)
		for _, p := range [][3]float32{{-0.9, -0.8, 0.5}, {0.9, -0.6, -0.5}, {0.1, 0.9, 0.2}} {
			v = append(v, p[0], p[1], p[2], 1, 0, 1, 0, 1)
		}
		e.posCol(t, v...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
		q, _ := e.c.CreateQuery(QueryOcclusionCounter)
		if err := e.c.BeginQuery(q); err != nil {
			t.Fatal(err)
		}
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Start: 4, Count: 3}}}); err != nil {
			t.Fatal(err)
		}
		if err := e.c.EndQuery(q); err != nil {
			t.Fatal(err)
		}
		n, err := e.c.GetQueryResult(q)
		if err != nil {
			t.Fatal(err)
		}
		if st := e.c.Stats(); o.Strict && (st.Device != 2 || st.Routes[RouteOcclusionQuery] != 1) {
			t.Fatalf("stats %+v", st)
		}
		return n
	}
	dev, ref := run(Options{Strict: true}), run(Options{ForceReference: true})
	if diff := int64(dev) - int64(ref); dev < 100 || diff*50 > int64(ref) || -diff*50 > int64(ref) {
		t.Errorf("device counted %d samples, the reference renderer %d", dev, ref)
	}
}

// TestPrimitivesGeneratedDevice: a primitives-generated query over an
// instanced, indexed strip with a restart counts the assembled triangles on
// the device (STRICT) as on the reference renderer, culled ones included.
func TestPrimitivesGeneratedDevice(t *testing.T) {
	run := func(o Options) uint64 {
		e := newDrawEnv(t, o, false)
		e.program(t, testVS, testFS)
		r, err := e.c.CreateRasterizerState(RasterizerState{Cull: CullBack, FrontCCW: true})
		if err != nil {
			t.Fatal(err)
		}
		e.c.BindRasterizerState(r)
		e.posCol(t, append(quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, 0, 0), quadVerts(0, [4]float32{1, 0, 1, 1}, 0, 0, 1, 1)...)...)
		ib := e.bytes(t, []byte{0, 1, 2, 3, 0xFF, 4, 5, 6, 7, 6})
		q, _ := e.c.CreateQuery(QueryPrimitivesGenerated)
		if err := e.c.BeginQuery(q); err != nil {
			t.Fatal(err)
		}
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, Index: ib, IndexSize: 1, PrimitiveRestart: true, RestartIndex: 0xFF,
			InstanceCount: 3, Draws: []DrawRange{{Count: 10}}}); err != nil {
			t.Fatal(err)
		}
		if err := e.c.EndQuery(q); err != nil {
			t.Fatal(err)
		}
		n, err := e.c.GetQueryResult(q)
		if err != nil {
			t.Fatal(err)
		}
		if st := e.c.Stats(); o.Strict && st.Device != 1 {
			t.Fatalf("stats %+v", st)
		}
		return n
	}
	dev, ref := run(Options{Strict: true}), run(Options{ForceReference: true})
	if dev != ref || dev != 3*(2+3) {
		t.Errorf("device counted %d primitives, the reference renderer %d; want %d", dev, ref, 3*(2+3))
	}
}
