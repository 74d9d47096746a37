package program

import (
	"bytes"
	"context"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/ref"
	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
)

// quadsOnly hides FragmentPacked from ref, so it shades through ShadeQuads
// with every other optional interface the program's stage has.
type quadsOnly struct{ f *FragmentShader }

func (q quadsOnly) ShadeQuads(qs []ref.Quad, tex ref.Textures) error { return q.f.ShadeQuads(qs, tex) }
func (q quadsOnly) EarlyDepthSafe() bool                             { return q.f.EarlyDepthSafe() }
func (q quadsOnly) VaryingsRead() []bool                             { return q.f.VaryingsRead() }
func (q quadsOnly) HelpersUnused() bool                              { return q.f.HelpersUnused() }
func (q quadsOnly) CloneFragment() ref.FragmentShader {
	return quadsOnly{q.f.CloneFragment().(*FragmentShader)}
}

// countPacked is the program's stage counting the packed calls ref makes.
type countPacked struct {
	*FragmentShader
	calls *atomic.Int64
}

func (c countPacked) ShadePacked(n int, tex ref.Textures) (uint64, error) {
	c.calls.Add(1)
	return c.FragmentShader.ShadePacked(n, tex)
}
func (c countPacked) CloneFragment() ref.FragmentShader {
	return countPacked{c.FragmentShader.CloneFragment().(*FragmentShader), c.calls}
}

func compileWide(t *testing.T, vs, fs string) *Program {
	t.Helper()
	opts := glsl.Options{Compatibility: true}
	cp, err := shader.Compile(shader.Source{Name: "t", Stage: glsl.Vertex, Text: vs, Options: opts},
		shader.Source{Name: "t", Stage: glsl.Fragment, Text: fs, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(cp, Config{VertexWidth: 64, FragmentWidth: 64})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPackedMatchesQuads renders scenes of many overlapping, depth-tested
// primitives through ref's packed path (FragmentPacked) and through its quad
// path with the same shader, and requires identical colour and depth bytes:
// smooth, flat and noperspective inputs, gl_FragCoord, gl_FrontFacing,
// discard, gl_FragDepth, points with gl_PointCoord, a shader writing no
// colour, and one to three workers (each with its own depth function, one
// with depth clamping).
func TestPackedMatchesQuads(t *testing.T) {
	vs := `#version 130
in vec4 pos;
in vec4 col;
out vec3 c;
flat out vec2 f;
noperspective out float np;
void main() {
	gl_Position = pos;
	gl_PointSize = 3.0 + 4.0 * col.a;
	c = col.rgb;
	f = col.ab * 2.0;
	np = col.g * 0.5;
}
`
	fss := map[string]string{
		"varyings": `#version 130
in vec3 c;
flat in vec2 f;
noperspective in float np;
out vec4 o;
void main() { o = vec4(c * f.x, np + f.y * 0.25); }
`,
		"fragcoord-facing-discard": `#version 130
in vec3 c;
out vec4 o;
void main() {
	if (c.r > 0.8) discard;
	vec4 fc = gl_FragCoord;
	o = vec4(fract(fc.x / 7.0), fc.z, gl_FrontFacing ? 1.0 : 0.25, fc.w);
}
`,
		"fragdepth": `#version 130
in vec3 c;
out vec4 o;
void main() { o = vec4(c, 1.0); gl_FragDepth = c.g; }
`,
		"pointcoord": `#version 130
in vec3 c;
out vec4 o;
void main() { o = vec4(gl_PointCoord, c.b, 1.0); }
`,
		"nocolour": `#version 130
in vec3 c;
void main() { if (c.b > 0.5) discard; }
`,
	}
	const n, tris = 48, 40
	rng := rand.New(rand.NewPCG(1, 2))
	var pos, col [][4]float32
	for range 3 * tris {
		pos = append(pos, [4]float32{rng.Float32()*2.4 - 1.2, rng.Float32()*2.4 - 1.2, rng.Float32()*1.8 - 0.9, 0.5 + rng.Float32()})
		col = append(col, [4]float32{rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()})
	}
	for name, fs := range fss {
		p := compileWide(t, vs, fs)
		in := vertexData(t, p, map[string][][4]float32{"pos": pos, "col": col}, len(pos))
		// The depth state varies with the worker count: the test functions
		// the packed path quantizes once for (Less, Greater) and a clamped
		// LessEqual, which it does not (see ref's qzFast).
		type depthCase struct {
			fn    compare.Func
			clear float32
			clamp bool
		}
		depthOf := map[int]depthCase{1: {compare.Less, 1, false}, 2: {compare.LessEqual, 1, true}, 3: {compare.Greater, 0, false}}
		render := func(fsh ref.FragmentShader, topo ref.Topology, workers int) (c, z []byte) {
			dc := depthOf[workers]
			tg, err := ref.NewTarget(n, n, []format.Format{format.RGBA8}, format.D24S8)
			if err != nil {
				t.Fatal(err)
			}
			if err := tg.ClearDepth(dc.clear); err != nil {
				t.Fatal(err)
			}
			vsh, err := p.NewVertexShader(context.Background(), VertexOptions{})
			if err != nil {
				t.Fatal(err)
			}
			st := ref.DefaultState(n, n)
			st.Vertex, st.Fragment, st.Workers = vsh, fsh, workers
			st.Interp = p.Interp(false)
			st.Depth.Test, st.Depth.Write, st.Depth.Func, st.Depth.Clamp = true, true, dc.fn, dc.clamp
			if err := ref.Draw(context.Background(), tg, &st, in, ref.DrawParams{Topology: topo, Count: len(pos)}); err != nil {
				t.Fatal(err)
			}
			return tg.Color[0].Data, tg.DepthStencil.Data
		}
		for _, topo := range []ref.Topology{ref.Triangles, ref.Points} {
			for _, workers := range []int{1, 2, 3} {
				fsc, err := p.NewFragmentShader(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if !fsc.HelpersUnused() || fsc.Packed() == nil {
					t.Fatalf("%s: lanes not independent or no packed arrays", name)
				}
				var calls atomic.Int64
				pc, pz := render(countPacked{fsc, &calls}, topo, workers)
				qc, qz := render(quadsOnly{fsc}, topo, workers)
				if calls.Load() == 0 {
					t.Errorf("%s, topology %d, %d workers: the packed path was not taken", name, topo, workers)
				}
				if !bytes.Equal(pc, qc) || !bytes.Equal(pz, qz) {
					t.Errorf("%s, topology %d, %d workers: packed and quad paths differ", name, topo, workers)
				}
				if bytes.Count(pc, []byte{0}) == len(pc) && name != "nocolour" {
					t.Errorf("%s, topology %d: nothing drawn", name, topo)
				}
			}
		}
	}
}

// TestShadePackedRejectsBadCounts: more lanes than the warp, or a program
// whose lanes depend on each other, is an error, not a panic.
func TestShadePackedRejectsBadCounts(t *testing.T) {
	p := compileWide(t, "#version 130\nin vec4 pos;\nvoid main() { gl_Position = pos; }\n",
		"#version 130\nout vec4 o;\nvoid main() { o = vec4(dFdx(gl_FragCoord.x)); }\n")
	fsc, err := p.NewFragmentShader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if fsc.Packed() != nil {
		t.Errorf("a program taking derivatives offers packed lanes")
	}
	if _, err := fsc.ShadePacked(4, nil); err == nil {
		t.Errorf("ShadePacked on a derivative program: no error")
	}
	q := compileWide(t, "#version 130\nin vec4 pos;\nvoid main() { gl_Position = pos; }\n",
		"#version 130\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n")
	fq, err := q.NewFragmentShader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fq.ShadePacked(65, nil); err == nil {
		t.Errorf("ShadePacked of 65 lanes: no error")
	}
}
