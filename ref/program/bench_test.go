package program

import (
	"context"
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/ref"
	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// BenchmarkShadeQuads shades batches of 64 quads with a textured-free
// arithmetic shader; allocs/op must stay 0 (no allocation per quad or lane).
func BenchmarkShadeQuads(b *testing.B) {
	vs := "#version 110\nattribute vec4 pos;\nvarying vec4 c;\nvoid main() { gl_Position = pos; c = pos; }\n"
	fs := "#version 110\nvarying vec4 c;\nvoid main() { gl_FragColor = vec4(sin(c.x), dFdx(c.y), c.z * c.w, 1.0); }\n"
	p, err := compile(vs, fs)
	if err != nil {
		b.Fatal(err)
	}
	f, err := p.NewFragmentShader(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	nv := p.Varyings()
	quads := make([]ref.Quad, 64)
	for i := range quads {
		quads[i].Varyings = make([]uint32, 4*nv)
		quads[i].X, quads[i].Y = int32(2*i), 0
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := f.ShadeQuads(quads, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(quads)*4), "ns/fragment")
}

// BenchmarkFragmentPath draws a screen of lit, depth-tested triangles
// (the bench scene's fragment shader over overlapping layers) through ref
// with the compiled program, on the packed path (FragmentPacked) and on the
// quad path the same shader takes without it, so one run gives both: the
// per-fragment cost of interpolation, shading and the output merger.
func BenchmarkFragmentPath(b *testing.B) {
	vs := `#version 130
in vec4 pos;
in vec4 col;
out vec3 v_normal;
void main() { gl_Position = pos; v_normal = col.xyz * 2.0 - 1.0; }
`
	fs := `#version 130
uniform vec3 u_light_dir;
uniform vec3 u_base_color;
in vec3 v_normal;
out vec4 frag_color;
void main() {
	vec3 n = normalize(v_normal);
	float diffuse = max(dot(n, u_light_dir), 0.0);
	frag_color = vec4(u_base_color * (0.15 + 0.85 * diffuse), 1.0);
}
`
	opts := glsl.Options{Compatibility: true}
	cp, err := shader.Compile(shader.Source{Name: "b", Stage: glsl.Vertex, Text: vs, Options: opts},
		shader.Source{Name: "b", Stage: glsl.Fragment, Text: fs, Options: opts})
	if err != nil {
		b.Fatal(err)
	}
	p, err := New(cp, Config{VertexWidth: 64, FragmentWidth: 64})
	if err != nil {
		b.Fatal(err)
	}
	const n, layers = 256, 4
	// Layers of 32 triangles per side, nearer layers drawn later, so every
	// fragment is shaded and passes the depth test.
	var pos, col [][4]float32
	for k := range layers {
		z := 0.8 - 0.4*float32(k)
		for y := range 16 {
			for x := range 16 {
				x0, y0 := float32(x)/8-1, float32(y)/8-1
				x1, y1 := x0+0.125, y0+0.125
				for _, v := range [][2]float32{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y0}, {x1, y1}, {x0, y1}} {
					pos = append(pos, [4]float32{v[0], v[1], z, 1})
					col = append(col, [4]float32{(v[0] + 1) / 2, (v[1] + 1) / 2, 0.7, 1})
				}
			}
		}
	}
	w := p.AttribWords()
	data := make([]uint32, len(pos)*w)
	for name, vals := range map[string][][4]float32{"pos": pos, "col": col} {
		s, _ := p.Attribute(name)
		for v := range vals {
			for c := 0; c < s.Words; c++ {
				data[v*w+s.Word+c] = fbits(vals[v][c])
			}
		}
	}
	in := ref.VertexInput{Words: w, Data: data}
	if err := p.SetUniform("u_light_dir", ir.F32, []uint32{fbits(0.3), fbits(0.5), fbits(0.8)}); err != nil {
		b.Fatal(err)
	}
	if err := p.SetUniform("u_base_color", ir.F32, []uint32{fbits(0.8), fbits(0.7), fbits(0.55)}); err != nil {
		b.Fatal(err)
	}
	for _, packed := range []bool{false, true} {
		name := map[bool]string{false: "quads", true: "packed"}[packed]
		b.Run(name, func(b *testing.B) {
			vsh, err := p.NewVertexShader(context.Background(), VertexOptions{})
			if err != nil {
				b.Fatal(err)
			}
			fsh, err := p.NewFragmentShader(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			var f ref.FragmentShader = fsh
			if !packed {
				f = quadsOnly{fsh}
			}
			tg, err := ref.NewTarget(n, n, []format.Format{format.RGBA8}, format.D24S8)
			if err != nil {
				b.Fatal(err)
			}
			st := ref.DefaultState(n, n)
			st.Vertex, st.Fragment, st.Interp = vsh, f, p.Interp(false)
			st.Depth.Test, st.Depth.Write, st.Depth.Func = true, true, compare.Less
			for b.Loop() {
				if err := tg.ClearDepth(1); err != nil {
					b.Fatal(err)
				}
				if err := ref.Draw(context.Background(), tg, &st, in, ref.DrawParams{Topology: ref.Triangles, Count: len(pos)}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n*n*layers), "ns/fragment")
		})
	}
}
