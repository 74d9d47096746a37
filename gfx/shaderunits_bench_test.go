package gfx_test

import (
	"fmt"
	"math"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gfx"
	"vortexgfx/ref/format"
)

// BenchmarkShaderRoutes draws a 128×128 frame of 512 small alpha-blended
// triangles (depth tested) through each route: FF RASTER + OM, the software
// merger, every unit in software, and 4x MSAA (software raster and merger).
// One op is one frame (clear + draw + readback of the resolved target).
func BenchmarkShaderRoutes(b *testing.B) {
	const W, H, N = 128, 128, 512
	p := link(b, unitsVS, unitsFS)
	tris := make([][3][8]float32, N)
	for i := range tris {
		cx, cy := float32(i%23)/11.5-1, float32(i/23)/11.5-1
		z := float32(i%7)/7 - 0.5
		for k := range 3 {
			a := float64(k)*2.1 + float64(i)
			tris[i][k] = [8]float32{cx + 0.12*float32(math.Cos(a)), cy + 0.12*float32(math.Sin(a)), z, 1,
				float32(k) / 2, float32(i%5) / 4, 0.5, 0.6}
		}
	}
	raw := make([]byte, 0, N*3*4*p.AttribWords())
	for _, t := range tris {
		_, r := vertexBytes(p, t)
		raw = append(raw, r...)
	}
	for _, r := range []struct {
		name    string
		force   gfx.Units
		samples int
	}{{"ff", 0, 1}, {"sw-om", gfx.UnitOM, 1}, {"sw-all", gfx.UnitsAll, 1}, {"msaa4", 0, 4}} {
		b.Run(r.name, func(b *testing.B) {
			sp, err := gfx.NewShaderProgram("bench."+r.name, p.IR)
			if err != nil {
				b.Fatal(err)
			}
			dev, err := gfx.OpenShaderDeviceTargets(config.Default(), W, H, gfx.TargetConfig{Colors: []format.Format{format.RGBA8}, Samples: r.samples}, []*gfx.ShaderProgram{sp})
			if err != nil {
				b.Fatal(err)
			}
			defer dev.Close()
			dev.SetForceSW(r.force)
			attrs := make([]gfx.AttribBinding, len(sp.Attributes()))
			for i, s := range sp.Attributes() {
				attrs[i] = gfx.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * p.AttribWords())}
			}
			var ms swom.State
			baseState(0, &ms)
			blendAlpha(&ms, 0)
			ms.DepthFunc = abi.CmpLEqual
			var st gfx.DeviceDrawStats
			for b.Loop() {
				if err := dev.ClearTarget(0, [4]float32{}); err != nil {
					b.Fatal(err)
				}
				if err := dev.ClearDepthStencil(1, 0); err != nil {
					b.Fatal(err)
				}
				if st, err = dev.Draw(&gfx.ShaderDraw{Program: sp, Attribs: attrs, Count: 3 * N, Uniforms: p.Uniforms, Merge: &ms}); err != nil {
					b.Fatal(err)
				}
				if _, err := dev.ReadTarget(0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(st.Shaded), "frags/frame")
			if testing.Verbose() {
				fmt.Printf("%s: route %+v merged %d\n", r.name, st.Route, st.SWMerged)
			}
		})
	}
}
