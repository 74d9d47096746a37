package pipe

import (
	"testing"

	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// TestSamplerViewState: a view's swizzle and level range apply on both paths
// — on the device through the software sampler (RouteTexView), which matches
// the reference renderer — and change the image; a view of the whole texture
// as stored keeps the FF unit. spec: vortexpipe §3.6; GL 4.6 §8.14.1
func TestSamplerViewState(t *testing.T) {
	draw := func(t *testing.T, o Options, vs *ViewState, mip bool) *drawEnv {
		t.Helper()
		e := newDrawEnv(t, o, false)
		e.program(t, texVS, texFS)
		tex, err := e.s.CreateTexture(TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 8, Height: 8, Depth: 1, ArraySize: 1, Levels: 4})
		if err != nil {
			t.Fatal(err)
		}
		px := make([]byte, tex.Size())
		for i := range px {
			px[i] = byte(i*53 + i/3)
		}
		if err := tex.Write(0, px); err != nil {
			t.Fatal(err)
		}
		smp := SamplerState{}
		if mip {
			smp.MipFilter = sampler.MipNearest
		}
		sm, err := e.c.CreateSamplerState(smp)
		if err != nil {
			t.Fatal(err)
		}
		var v *SamplerView
		if vs != nil {
			v, err = e.c.CreateSamplerViewState(tex, *vs)
		} else {
			v, err = e.c.CreateSamplerView(tex)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := e.c.SetSamplerViews(0, []*SamplerView{v}); err != nil {
			t.Fatal(err)
		}
		if err := e.c.BindSamplerStates(0, []*Sampler{sm}); err != nil {
			t.Fatal(err)
		}
		vb := e.floats(t, -1, -1, 0, 1, 0, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1)
		if err := e.drawUVStrip(vb); err != nil {
			t.Fatal(err)
		}
		return e
	}
	view := func(f func(*ViewState)) *ViewState { vs := DefaultViewState(); f(&vs); return &vs }
	for _, tc := range []struct {
		name string
		vs   *ViewState
		mip  bool
	}{
		{"swizzle", view(func(vs *ViewState) {
			vs.Swizzle = [4]sampler.Swizzle{sampler.SwizzleB, sampler.SwizzleZero, sampler.SwizzleR, sampler.SwizzleOne}
		}), false},
		{"base level 1", view(func(vs *ViewState) { vs.FirstLevel = 1 }), false},
		{"levels 2..3, mipmapped", view(func(vs *ViewState) { vs.FirstLevel, vs.LastLevel = 2, 3 }), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole := draw(t, Options{ForceReference: true}, nil, tc.mip).image(t)
			dev, ref := draw(t, Options{Strict: true}, tc.vs, tc.mip), draw(t, Options{ForceReference: true}, tc.vs, tc.mip)
			if st := dev.c.Stats(); st.Device != 1 || st.Routes[RouteTexView] == 0 {
				t.Fatalf("stats %+v, want one device draw with the %v route", st, RouteTexView)
			}
			if r := dev.c.LastDeviceDraw().Route; !r.SWTex {
				t.Errorf("TEX route %+v, want software", r)
			}
			a, b := dev.image(t), ref.image(t)
			if bad, worst := compareImages(a, b, 3); bad > 0 {
				t.Errorf("%d pixels differ from the reference renderer by more than 3 (worst %d)", bad, worst)
			}
			if bad, _ := compareImages(b, whole, 3); bad == 0 {
				t.Error("the view state does not change the reference image")
			}
		})
	}
	t.Run("whole texture", func(t *testing.T) {
		dev := draw(t, Options{Strict: true}, view(func(*ViewState) {}), false)
		if st := dev.c.Stats(); st.Device != 1 || st.Routes[RouteTexView] != 0 || dev.c.LastDeviceDraw().Route.SWTex {
			t.Errorf("stats %+v route %+v, want the FF unit", st, dev.c.LastDeviceDraw().Route)
		}
	})
	t.Run("bad state", func(t *testing.T) {
		e := newDrawEnv(t, Options{}, false)
		tex, err := e.s.CreateTexture(TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 4, Height: 4, Depth: 1, ArraySize: 1, Levels: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, vs := range []*ViewState{
			view(func(vs *ViewState) { vs.FirstLevel = 3 }),
			view(func(vs *ViewState) { vs.FirstLevel, vs.LastLevel = 2, 1 }),
			view(func(vs *ViewState) { vs.Swizzle[2] = sampler.SwizzleOne + 1 }),
		} {
			if _, err := e.c.CreateSamplerViewState(tex, *vs); err == nil {
				t.Errorf("view %+v accepted", *vs)
			}
		}
	})
}
