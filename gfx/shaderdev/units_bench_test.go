package shaderdev_test

import (
	"fmt"
	"math"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/session"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/ref/format"
	"vortexgfx/ref/program"
)

// BenchmarkShaderRoutes draws a 128×128 frame of 512 small alpha-blended
// triangles (depth tested) through each route: FF RASTER + OM, the software
// merger, every unit in software, and 4x MSAA (software raster and merger).
// One op is one frame (clear + draw + readback of the resolved target).
func BenchmarkShaderRoutes(b *testing.B) {
	const N = 512
	p := link(b, unitsVS, unitsFS)
	benchRoutes(b, p, overlapScene(p, N))
}

// TestShaderRoutesOrdering draws 300 overlapping alpha-blended, depth-tested
// triangles in ONE draw through the FF units, the software merger and every
// unit in software: the images must be byte-identical, which holds only if
// every route merges each pixel's fragments in submission order (RASTER's
// same-pixel packer flush and owner affinity; the software walk's one CTA per
// bin and same-quad flush). spec: rasterizer §8, §9.1; vortexpipe §3.4
func TestShaderRoutesOrdering(t *testing.T) {
	const W, H, N = 64, 64, 300
	p := link(t, unitsVS, unitsFS)
	raw := overlapScene(p, N)
	var want []byte
	for _, force := range []shaderdev.Units{0, shaderdev.UnitOM, shaderdev.UnitsAll} {
		sp, err := shaderdev.NewProgram(fmt.Sprint("order.", force), p.IR)
		if err != nil {
			t.Fatal(err)
		}
		dev, err := shaderdev.OpenTargets(config.Default(), W, H, shaderdev.TargetConfig{Colors: []format.Format{format.RGBA8}}, []*shaderdev.Program{sp})
		if err != nil {
			t.Fatal(err)
		}
		dev.SetForceSW(force)
		attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
		for i, s := range sp.Attributes() {
			attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * p.AttribWords())}
		}
		var ms swom.State
		baseState(0, &ms)
		blendAlpha(&ms, 0)
		ms.DepthFunc = abi.CmpLEqual
		if err := dev.ClearDepthStencil(1, 0); err != nil {
			t.Fatal(err)
		}
		st, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3 * N, Uniforms: p.Uniforms, Merge: ms})
		if err != nil {
			t.Fatal(err)
		}
		got, err := dev.ReadTarget(0)
		dev.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = got
			continue
		}
		if !st.Route.SWOM || st.Route.SWRaster != (force == shaderdev.UnitsAll) {
			t.Errorf("force %v: routed %+v", force, st.Route)
		}
		if string(got) != string(want) {
			t.Errorf("force %v: the image differs from the FF one", force)
		}
	}
}

// overlapScene is n small overlapping triangles at 7 depths, as attribute
// bytes.
func overlapScene(p *program.Program, n int) []byte {
	raw := make([]byte, 0, n*3*4*p.AttribWords())
	for i := range n {
		cx, cy := float32(i%23)/11.5-1, float32(i/23)/11.5-1
		z := float32(i%7)/7 - 0.5
		var tri [3][8]float32
		for k := range 3 {
			a := float64(k)*2.1 + float64(i)
			tri[k] = [8]float32{cx + 0.12*float32(math.Cos(a)), cy + 0.12*float32(math.Sin(a)), z, 1,
				float32(k) / 2, float32(i%5) / 4, 0.5, 0.6}
		}
		_, r := vertexBytes(p, tri)
		raw = append(raw, r...)
	}
	return raw
}

func benchRoutes(b *testing.B, p *program.Program, raw []byte) {
	const W, H, N = 128, 128, 512
	for _, r := range []struct {
		name    string
		force   shaderdev.Units
		samples int
	}{{"ff", 0, 1}, {"sw-om", shaderdev.UnitOM, 1}, {"sw-all", shaderdev.UnitsAll, 1}, {"msaa4", 0, 4}} {
		b.Run(r.name, func(b *testing.B) {
			sp, err := shaderdev.NewProgram("bench."+r.name, p.IR)
			if err != nil {
				b.Fatal(err)
			}
			dev, err := shaderdev.OpenTargets(config.Default(), W, H, shaderdev.TargetConfig{Colors: []format.Format{format.RGBA8}, Samples: r.samples}, []*shaderdev.Program{sp})
			if err != nil {
				b.Fatal(err)
			}
			defer dev.Close()
			dev.SetForceSW(r.force)
			attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
			for i, s := range sp.Attributes() {
				attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * p.AttribWords())}
			}
			var ms swom.State
			baseState(0, &ms)
			blendAlpha(&ms, 0)
			ms.DepthFunc = abi.CmpLEqual
			var st session.DrawStats
			for b.Loop() {
				if err := dev.ClearTarget(0, [4]float32{}); err != nil {
					b.Fatal(err)
				}
				if err := dev.ClearDepthStencil(1, 0); err != nil {
					b.Fatal(err)
				}
				if st, err = dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3 * N, Uniforms: p.Uniforms, Merge: ms}); err != nil {
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
