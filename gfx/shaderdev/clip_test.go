package shaderdev_test

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/ref"
	"vortexgfx/ref/format"
	"vortexgfx/ref/program"
)

// TestShaderDepthClampKeepsGeometry checks what the "depth clamp ff" row of
// TestShaderUnitsMatchRef (and its forced-software renders, byte-identical)
// relies on: with the merger's DepthClamp set, setup_k runs without the
// near-plane clip (frontend.Args.DepthClipDisable), so the part of the second
// triangle in front of the near plane is drawn (depth clamped to the range's
// near end) and the image differs from the clipped render; without it the
// triangle is near-clipped. Clamping to [0, 1] stays on the FF OM (its plane
// depth is clamped to the Z24 range anyway); a narrower range routes to the
// software merger. spec: vortexpipe §3.7 (depth-clamp / depth-clip-disable row)
func TestShaderDepthClampKeepsGeometry(t *testing.T) {
	c := unitCase{name: "clamp", vs: clampVS, fs: unitsFS, colors: []format.Format{format.RGBA8}, clearZ: 1,
		state: func(d int, s *swom.State) { s.DepthClamp, s.DepthFunc = true, abi.CmpLEqual }}
	clamped, cs := renderDevice(t, &c, config.Default(), 0)
	c.state = func(d int, s *swom.State) { s.DepthFunc = abi.CmpLEqual }
	clipped, ns := renderDevice(t, &c, config.Default(), 0)
	if cs[1].FrontEnd.NearClipped != 0 || ns[1].FrontEnd.NearClipped != 1 || cs[1].FrontEnd.FarClipped != 0 || ns[1].FrontEnd.FarClipped != 1 {
		t.Errorf("near/far-clipped triangles: %d/%d with depth clamp (want 0/0), %d/%d without (want 1/1)",
			cs[1].FrontEnd.NearClipped, cs[1].FrontEnd.FarClipped, ns[1].FrontEnd.NearClipped, ns[1].FrontEnd.FarClipped)
	}
	if cs[1].Route.SWOM {
		t.Errorf("depth clamp to [0, 1] routed %+v", cs[1].Route)
	}
	c.state = func(d int, s *swom.State) { s.DepthClamp, s.ClampMin, s.ClampMax = true, 0, 0.5 }
	if _, rs := renderDevice(t, &c, config.Default(), 0); !rs[1].Route.SWOM || rs[1].SWMerged == 0 {
		t.Errorf("depth clamp to [0, 0.5] routed %+v (%d samples merged)", rs[1].Route, rs[1].SWMerged)
	}
	diff, _, _ := compareTargets(format.RGBA8, clamped[0], clipped[0], [4]float32{}, 1.0/255)
	t.Logf("%d pixels differ between the clamped and the clipped render", diff)
	if diff < 20 {
		t.Errorf("only %d pixels differ: the near part was not kept", diff)
	}
}

// TestShaderDepthOnlyPass draws into a pass without colour targets
// (TargetConfig.NoColor) with a program that writes a colour anyway (dropped,
// as GL does), on the FF OM (D24S8) and on the software merger (D32F), and
// compares the depth plane with the reference renderer's: within 1e-4 (the
// float setup of the Q7.24 depth plane against ref's interpolation, on a
// steep triangle), coverage differing on at most 4% (edges).
// spec: vortexpipe §3.3 step 2 (depth-only), §3.7
func TestShaderDepthOnlyPass(t *testing.T) {
	for _, tc := range []struct {
		name  string
		depth abi.OMDepthFormat
		swOM  bool
	}{{"d24s8 ff", abi.OMDepthD24S8, false}, {"d32f sw", abi.OMDepthD32F, true}} {
		t.Run(tc.name, func(t *testing.T) {
			p := link(t, unitsVS, unitsFS)
			sp, err := shaderdev.NewProgram("depthonly."+tc.name, p.IR)
			if err != nil {
				t.Fatal(err)
			}
			dev, err := shaderdev.OpenTargets(config.Default(), uW, uH, shaderdev.TargetConfig{NoColor: true, Depth: tc.depth}, []*shaderdev.Program{sp})
			if err != nil {
				t.Fatal(err)
			}
			defer dev.Close()
			if err := dev.ClearDepthStencil(1, 0); err != nil {
				t.Fatal(err)
			}
			tg, err := ref.NewTarget(uW, uH, nil, [...]format.Format{format.D24S8, format.D16, format.D32F}[tc.depth])
			if err != nil {
				t.Fatal(err)
			}
			if err := tg.ClearDepth(1); err != nil {
				t.Fatal(err)
			}
			for k, tri := range unitTris(false) {
				data, raw := vertexBytes(p, tri)
				attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
				for i, s := range sp.Attributes() {
					attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * p.AttribWords())}
				}
				var ms swom.State
				baseState(k, &ms)
				st, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3, Uniforms: p.Uniforms, Merge: ms})
				if err != nil {
					t.Fatal(err)
				}
				if st.Route.SWOM != tc.swOM {
					t.Errorf("draw %d routed %+v", k, st.Route)
				}
				vs, _ := p.NewVertexShader(context.Background(), program.VertexOptions{})
				fs, _ := p.NewFragmentShader(context.Background())
				rs := ref.DefaultState(uW, uH)
				rs.Vertex, rs.Fragment, rs.Interp = vs, fs, p.Interp(false)
				refState(&ms, &rs)
				if err := ref.Draw(context.Background(), tg, &rs, ref.VertexInput{Words: p.AttribWords(), Data: data}, ref.DrawParams{Topology: ref.Triangles, Count: 3}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := dev.ReadTarget(0); err == nil {
				t.Error("a depth-only pass has a colour target 0")
			}
			got, err := dev.ReadDepthStencil()
			if err != nil {
				t.Fatal(err)
			}
			bpp := swom.DepthBytes(tc.depth)
			bad, edge, drawn := 0, 0, 0
			for px := 0; px < uW*uH; px++ {
				var z float64
				w := binary.LittleEndian.Uint32(got[bpp*px:])
				if tc.depth == abi.OMDepthD32F {
					z = float64(math.Float32frombits(w))
				} else {
					z = float64(w&abi.DepthMask) / (1 << 24)
				}
				want := float64(format.UnpackDepth(tg.DepthStencil.Format, tg.DepthStencil.Data[tg.DepthStencil.Format.Info().Bytes*px:]))
				const far = 1 - 1.0/(1<<20)
				if want < far {
					drawn++
				}
				switch {
				case (z < far) != (want < far):
					edge++
				case math.Abs(z-want) > 1e-4:
					bad++
				}
			}
			t.Logf("%d pixels drawn, %d coverage mismatches, %d depths beyond 1e-4", drawn, edge, bad)
			if drawn < 150 || bad != 0 || edge > uW*uH*4/100 {
				t.Errorf("%d drawn, %d coverage mismatches, %d depths beyond tolerance", drawn, edge, bad)
			}
		})
	}
	if _, err := shaderdev.OpenTargets(config.Default(), 4, 4, shaderdev.TargetConfig{NoColor: true, Colors: []format.Format{format.R8}}, nil); err == nil {
		t.Error("NoColor with a colour target was accepted")
	}
}

// TestShaderDepthOnlyMSAA draws a depth-only 4x pass (software raster and
// merger with no colour target): every sample inside the first triangle's
// interior holds its depth (window 0.6), the clear value stays outside.
// spec: vortexpipe §3.4.1, §3.7
func TestShaderDepthOnlyMSAA(t *testing.T) {
	p := link(t, unitsVS, unitsFS)
	sp, err := shaderdev.NewProgram("depthonly.msaa", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := shaderdev.OpenTargets(config.Default(), uW, uH, shaderdev.TargetConfig{NoColor: true, Depth: abi.OMDepthD32F, Samples: 4}, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if err := dev.ClearDepthStencil(1, 0); err != nil {
		t.Fatal(err)
	}
	_, raw := vertexBytes(p, unitTris(false)[0])
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * p.AttribWords())}
	}
	var ms swom.State
	baseState(0, &ms)
	st, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3, Uniforms: p.Uniforms, Merge: ms})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Route.SWRaster || st.SWMerged == 0 {
		t.Errorf("routed %+v, %d samples merged", st.Route, st.SWMerged)
	}
	ds, err := dev.ReadDepthStencil()
	if err != nil {
		t.Fatal(err)
	}
	z := func(x, y, k int) float32 {
		return math.Float32frombits(binary.LittleEndian.Uint32(ds[4*((y*uW+x)*4+k):]))
	}
	for k := range 4 {
		if got := z(12, 12, k); math.Abs(float64(got)-0.6) > 1e-4 {
			t.Errorf("sample %d of (12, 12): depth %v, want 0.6", k, got)
		}
		if got := z(0, uH-1, k); got != 1 {
			t.Errorf("sample %d of the corner: depth %v, want the clear 1", k, got)
		}
	}
}
