package program

import (
	"bytes"
	"context"
	"math"
	"testing"

	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/ref"
)

// TestDifferentialGoShader renders one scene twice on ref — with a compiled
// GLSL program and with the same shaders written as Go functions — and
// requires identical images: varyings, a mipmapped texture with the level of
// detail from quad derivatives, and a discard.
func TestDifferentialGoShader(t *testing.T) {
	vs := `#version 110
attribute vec4 pos;
attribute vec4 col;
varying vec4 c;
varying vec2 uv;
void main() { gl_Position = pos; c = col; uv = pos.xy * 1.5 + 0.5; }
`
	fs := `#version 110
uniform sampler2D tex;
varying vec4 c;
varying vec2 uv;
void main() {
	// Sampled before the discard: GLSL leaves derivatives after a
	// non-uniform discard undefined.
	vec4 t = texture2D(tex, uv);
	if (c.g > 0.9) discard;
	gl_FragColor = t * c + vec4(0.0, 0.0, 0.0, 0.25);
}
`
	p := link(t, vs, fs)
	const n = 32
	tex, err := sampler.NewTexture(sampler.Dim2D, format.RGBA8, 16, 16, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tex.Levels {
		lv := &tex.Levels[i]
		for k := range lv.Data {
			lv.Data[k] = byte(37*k + 91*i)
		}
	}
	smp := sampler.DefaultSampler()
	smp.MinFilter, smp.MagFilter, smp.MipFilter = sampler.Linear, sampler.Linear, sampler.MipLinear
	binds := make([]ref.TextureBinding, TextureIndex(1, 0))
	for i := range binds {
		binds[i] = ref.TextureBinding{Texture: tex, Sampler: smp}
	}
	pos := [][4]float32{{-1, -1, 0, 1}, {1, -0.8, 0, 1}, {-0.7, 1, 0, 1}, {0.9, 0.9, 0, 1}}
	col := [][4]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 0.5}, {1, 1, 1, 1}}
	in := vertexData(t, p, map[string][][4]float32{"pos": pos, "col": col}, 4)
	render := func(vsh ref.VertexShader, fsh ref.FragmentShader, workers int) []byte {
		tg, err := ref.NewTarget(n, n, []format.Format{format.RGBA8}, format.Invalid)
		if err != nil {
			t.Fatal(err)
		}
		st := ref.DefaultState(n, n)
		st.Vertex, st.Fragment, st.Textures, st.Workers = vsh, fsh, binds, workers
		if err := ref.Draw(context.Background(), tg, &st, in, ref.DrawParams{Topology: ref.TriangleStrip, Count: 4}); err != nil {
			t.Fatal(err)
		}
		return tg.Color[0].Data
	}
	vsc, err := p.NewVertexShader(context.Background(), VertexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fsc, err := p.NewFragmentShader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	compiled := render(vsc, fsc, 0)
	// ref's parallel workers shade with clones of the fragment stage and
	// must give the same bytes.
	if par := render(vsc, fsc, 3); !bytes.Equal(par, compiled) {
		t.Fatalf("3 workers differ from the serial render")
	}

	posS, _ := p.Attribute("pos")
	colS, _ := p.Attribute("col")
	var cw, uvw int
	for _, s := range p.IR.VS.Outputs {
		switch s.Name {
		case "c":
			cw = s.Word
		case "uv":
			uvw = s.Word
		}
	}
	nv := p.Varyings()
	goVS := ref.VertexFunc{Out: ref.VertexLayout{Varyings: nv}, Fn: func(b *ref.VertexBatch, _ ref.Textures) error {
		for v := 0; v < b.N; v++ {
			a := b.Attribs[v*b.AttribWords:]
			out := b.Varyings[v*nv : (v+1)*nv]
			for k := 0; k < 4; k++ {
				b.Position[v][k] = f32(a[posS.Word+k])
				out[k] = a[posS.Word+k]
				out[cw+k] = a[colS.Word+k]
			}
			out[uvw] = fbits(f32(a[posS.Word])*1.5 + 0.5)
			out[uvw+1] = fbits(f32(a[posS.Word+1])*1.5 + 0.5)
		}
		return nil
	}}
	coord := make([][4]float32, 4)
	dx, dy := make([][3]float32, 4), make([][3]float32, 4)
	out := make([][4]uint32, 4)
	goFS := ref.FragmentFunc(func(quads []ref.Quad, tx ref.Textures) error {
		for i := range quads {
			q := &quads[i]
			var u, v [4]float32
			for l := 0; l < 4; l++ {
				u[l], v[l] = q.Varying(l, nv, uvw), q.Varying(l, nv, uvw+1)
				coord[l] = [4]float32{u[l], v[l]}
			}
			du, dv := ref.QuadDdx(u), ref.QuadDdx(v)
			eu, ev := ref.QuadDdy(u), ref.QuadDdy(v)
			for l := 0; l < 4; l++ {
				dx[l] = [3]float32{du[l], dv[l]}
				dy[l] = [3]float32{eu[l], ev[l]}
			}
			req := sampler.Request{Op: sampler.OpSample, N: 4, Coord: coord, LOD: sampler.LODGrad, DPdx: dx, DPdy: dy}
			if err := tx.Sample(TextureIndex(0, Target2D), &req, out); err != nil {
				return err
			}
			for l := 0; l < 4; l++ {
				if q.Varying(l, nv, cw+1) > 0.9 {
					q.Live &^= 1 << uint(l)
					continue
				}
				var c [4]float32
				for k := 0; k < 4; k++ {
					c[k] = f32(out[l][k]) * q.Varying(l, nv, cw+k)
				}
				c[3] += 0.25
				q.SetColor(0, l, c)
			}
		}
		return nil
	})
	gold := render(goVS, goFS, 0)
	if !bytes.Equal(compiled, gold) {
		diff := 0
		for i := range gold {
			if gold[i] != compiled[i] {
				diff++
				t.Logf("pixel (%d,%d) channel %d: compiled %d, Go %d", i/4%n, i/4/n, i%4, compiled[i], gold[i])
			}
		}
		t.Fatalf("compiled and Go shaders differ in %d of %d bytes", diff, len(gold))
	}
	lit := 0
	for i := 3; i < len(gold); i += 4 {
		if gold[i] != 0 {
			lit++
		}
	}
	if lit < n*n/4 || lit == n*n {
		t.Fatalf("%d pixels drawn: the scene does not exercise the shaders", lit)
	}
}

func f32(w uint32) float32 { return math.Float32frombits(w) }
