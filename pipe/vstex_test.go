package pipe

import (
	"testing"

	"vortexgfx/gl/format"
)

// TestDrawVertexTexturing: a vertex shader that samples a texture (a height
// and colour lookup per vertex) runs on the device — gfx samples for the
// vertex stage on the software sampler — under STRICT and matches the
// reference renderer (tolerance as TestDrawDifferential). spec: vortexpipe §3.6
func TestDrawVertexTexturing(t *testing.T) {
	const vs = `#version 330
uniform sampler2D tex;
layout(location = 0) in vec4 pos;
layout(location = 1) in vec2 uv;
out vec4 v_col;
void main() {
	vec4 c = textureLod(tex, uv, 0.0);
	gl_Position = vec4(pos.xy * (0.6 + 0.4 * c.a), pos.zw);
	v_col = c;
}
`
	for _, f := range []format.Format{format.BGRA8, format.RGBA16F} {
		t.Run(f.String(), func(t *testing.T) {
			run := func(o Options) *drawEnv {
				e := newDrawEnv(t, o, false)
				e.program(t, vs, testFS)
				r, err := e.s.CreateTexture(TextureDesc{Target: Target2D, Format: f, Width: 4, Height: 4, Depth: 1, ArraySize: 1, Levels: 1})
				if err != nil {
					t.Fatal(err)
				}
				px := make([]byte, r.Size())
				for i := range px {
					px[i] = byte(i*29 + 7)
				}
				if f == format.RGBA16F {
					for i := 1; i < len(px); i += 2 {
						px[i] = 0x38 + byte(i%3) // halves in [0.5, 1)
					}
				}
				if err := r.Write(0, px); err != nil {
					t.Fatal(err)
				}
				v, err := e.c.CreateSamplerView(r)
				if err != nil {
					t.Fatal(err)
				}
				if err := e.c.SetSamplerViews(0, []*SamplerView{v}); err != nil {
					t.Fatal(err)
				}
				var vs []float32
				for _, p := range [][4]float32{{-0.9, -0.9, 0.1, 0.1}, {0.9, -0.9, 0.9, 0.1}, {-0.9, 0.9, 0.1, 0.9}, {0.9, 0.9, 0.6, 0.6}} {
					vs = append(vs, p[0], p[1], 0, 1, p[2], p[3])
				}
				vb := e.floats(t, vs...)
				if err := e.drawUVStrip(vb); err != nil {
					t.Fatal(err)
				}
				return e
			}
			dev, ref := run(Options{Strict: true}), run(Options{ForceReference: true})
			if st := dev.c.Stats(); st.Device != 1 {
				t.Fatalf("stats %+v", st)
			}
			a, b := dev.image(t), ref.image(t)
			if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
				t.Errorf("%d pixels differ by more than 3 (worst %d)", bad, worst)
			}
			colours := map[[4]uint8]bool{}
			for i := 0; i < len(b.Pix); i += 4 {
				colours[[4]uint8(b.Pix[i:i+4])] = true
			}
			if len(colours) < 3 {
				t.Errorf("the reference image has %d colours", len(colours))
			}
		})
	}
}
