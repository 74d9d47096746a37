package lower

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// recordSampler records lane 0 of the last request and answers every lane with
// (1, 2, 3, 4) in the result type of the request.
type recordSampler struct {
	op      ir.TexOp
	kind    ir.SamplerKind
	ncoord  int
	coord   [4]float32
	icoord  [4]int32
	hasLod  bool
	ilod    int32
	hasRef  bool
	ref     float32
	grads   int
	offsets [4][2]int32
	hasOffs bool
	offset  [3]int32
	hasOff  bool
	dynOff  [2]int32 // lane 0's run-time gather offset
	hasDyn  bool
	sampler int
	intRes  bool
}

func (s *recordSampler) Texture(r *exec.TexRequest) error {
	s.op, s.kind, s.ncoord, s.hasLod, s.hasRef, s.grads = r.Op, r.Binding.Kind, r.NCoord, r.HasLod, r.HasRef, r.Grads
	s.offsets, s.hasOffs = r.Offsets, r.HasOffsets
	s.offset, s.hasOff, s.hasDyn, s.sampler = r.Offset, r.HasOffset, r.HasDynOffset, r.Sampler
	if r.HasDynOffset {
		s.dynOff = [2]int32{r.DynOffset[0][0], r.DynOffset[1][0]}
	}
	for k := 0; k < r.NCoord; k++ {
		s.coord[k], s.icoord[k] = r.Coord[k][0], r.ICoord[k][0]
	}
	s.ilod, s.ref = r.ILod[0], r.Compare[0]
	ints := r.Op == ir.TexSize || r.Op == ir.TexQueryLevels ||
		r.Binding.Result != ir.F32 && r.Op != ir.TexQueryLod && !(r.Binding.Kind.Shadow() && r.Op != ir.TexFetch)
	s.intRes = ints
	for k := 0; k < 4; k++ {
		for l := range r.Out[k] {
			if ints {
				r.Out[k][l] = uint32(k + 1)
			} else {
				r.Out[k][l] = math.Float32bits(float32(k + 1))
			}
		}
	}
	return nil
}

// TestTextureKinds lowers the sampler kinds and texture functions of
// vortexpipe-driver §3.6 that reach the software sampler (1D arrays, cube
// arrays, rectangles, multisample fetches, textureQueryLod, textureQueryLevels,
// textureGatherOffsets) and checks the request the sampler receives.
func TestTextureKinds(t *testing.T) {
	tests := []struct {
		name    string
		version string
		decl    string
		expr    string // a vec4 expression
		op      ir.TexOp
		kind    ir.SamplerKind
		ncoord  int
		check   func(t *testing.T, s *recordSampler)
	}{
		{"1D array", "130", "uniform sampler1DArray s;", "texture(s, vec2(0.25, 2.0))", ir.TexSample, ir.Sampler1DArray, 2,
			func(t *testing.T, s *recordSampler) {
				if s.coord[0] != 0.25 || s.coord[1] != 2 || s.grads != 1 {
					t.Errorf("coords %v grads %d, want (0.25, 2) and one gradient", s.coord, s.grads)
				}
			}},
		{"1D array shadow", "130", "uniform sampler1DArrayShadow s;", "vec4(texture(s, vec3(0.25, 1.0, 0.5)))", ir.TexSample, ir.Sampler1DArrayShadow, 2,
			func(t *testing.T, s *recordSampler) {
				if !s.hasRef || s.ref != 0.5 || s.coord[1] != 1 {
					t.Errorf("ref %v (%v), coords %v", s.ref, s.hasRef, s.coord)
				}
			}},
		{"1D array fetch", "130", "uniform isampler1DArray s;", "vec4(texelFetch(s, ivec2(3, 1), 2))", ir.TexFetch, ir.Sampler1DArray, 2,
			func(t *testing.T, s *recordSampler) {
				if s.icoord[0] != 3 || s.icoord[1] != 1 || s.ilod != 2 || !s.intRes {
					t.Errorf("icoord %v lod %d int %v", s.icoord, s.ilod, s.intRes)
				}
			}},
		{"cube array", "400", "uniform samplerCubeArray s;", "textureLod(s, vec4(1.0, 0.0, 0.0, 3.0), 1.0)", ir.TexSampleLod, ir.SamplerCubeArray, 4,
			func(t *testing.T, s *recordSampler) {
				if s.coord != [4]float32{1, 0, 0, 3} {
					t.Errorf("coords %v", s.coord)
				}
			}},
		{"cube array shadow", "400", "uniform samplerCubeArrayShadow s;", "vec4(texture(s, vec4(0.0, 1.0, 0.0, 2.0), 0.75))", ir.TexSample, ir.SamplerCubeArrayShadow, 4,
			func(t *testing.T, s *recordSampler) {
				if !s.hasRef || s.ref != 0.75 || s.coord[3] != 2 || s.grads != 3 {
					t.Errorf("ref %v (%v), coords %v, grads %d", s.ref, s.hasRef, s.coord, s.grads)
				}
			}},
		{"cube array gather shadow", "400", "uniform samplerCubeArrayShadow s;", "textureGather(s, vec4(0.0, 1.0, 0.0, 2.0), 0.25)", ir.TexGather, ir.SamplerCubeArrayShadow, 4,
			func(t *testing.T, s *recordSampler) {
				if !s.hasRef || s.ref != 0.25 {
					t.Errorf("ref %v (%v)", s.ref, s.hasRef)
				}
			}},
		{"rect", "140", "uniform sampler2DRect s;", "texture(s, vec2(12.5, 3.5))", ir.TexSample, ir.Sampler2DRect, 2,
			func(t *testing.T, s *recordSampler) {
				if s.coord[0] != 12.5 || s.coord[1] != 3.5 {
					t.Errorf("coords %v", s.coord)
				}
			}},
		{"rect shadow", "140", "uniform sampler2DRectShadow s;", "vec4(texture(s, vec3(1.5, 2.5, 0.5)))", ir.TexSample, ir.Sampler2DRectShadow, 2,
			func(t *testing.T, s *recordSampler) {
				if !s.hasRef || s.ref != 0.5 {
					t.Errorf("ref %v (%v)", s.ref, s.hasRef)
				}
			}},
		{"rect fetch", "140", "uniform usampler2DRect s;", "vec4(texelFetch(s, ivec2(5, 6)))", ir.TexFetch, ir.Sampler2DRect, 2,
			func(t *testing.T, s *recordSampler) {
				if s.icoord[0] != 5 || s.icoord[1] != 6 || s.hasLod {
					t.Errorf("icoord %v hasLod %v", s.icoord, s.hasLod)
				}
			}},
		{"2D MS fetch", "150", "uniform sampler2DMS s;", "texelFetch(s, ivec2(4, 5), 3)", ir.TexFetch, ir.Sampler2DMS, 2,
			func(t *testing.T, s *recordSampler) {
				if s.icoord[0] != 4 || s.icoord[1] != 5 || !s.hasLod || s.ilod != 3 {
					t.Errorf("icoord %v sample %d (%v)", s.icoord, s.ilod, s.hasLod)
				}
			}},
		{"2D MS array fetch", "150", "uniform isampler2DMSArray s;", "vec4(texelFetch(s, ivec3(4, 5, 6), 1))", ir.TexFetch, ir.Sampler2DMSArray, 3,
			func(t *testing.T, s *recordSampler) {
				if s.icoord[2] != 6 || s.ilod != 1 {
					t.Errorf("icoord %v sample %d", s.icoord, s.ilod)
				}
			}},
		{"2D MS size", "150", "uniform sampler2DMS s;", "vec4(textureSize(s), 0.0, 0.0)", ir.TexSize, ir.Sampler2DMS, 0, nil},
		{"buffer fetch", "140", "uniform isamplerBuffer s;", "vec4(texelFetch(s, 77))", ir.TexFetch, ir.SamplerBuffer, 1,
			func(t *testing.T, s *recordSampler) {
				if s.icoord[0] != 77 || s.hasLod {
					t.Errorf("icoord %v hasLod %v", s.icoord, s.hasLod)
				}
			}},
		{"buffer size", "140", "uniform samplerBuffer s;", "vec4(float(textureSize(s)))", ir.TexSize, ir.SamplerBuffer, 0,
			func(t *testing.T, s *recordSampler) {
				if s.hasLod {
					t.Errorf("textureSize(samplerBuffer) has no lod; got one")
				}
			}},
		{"query lod 2D array", "400", "uniform sampler2DArray s;", "vec4(textureQueryLod(s, vec2(0.5, 0.25)), 0.0, 0.0)", ir.TexQueryLod, ir.Sampler2DArray, 2,
			func(t *testing.T, s *recordSampler) {
				if s.grads != 2 || s.intRes {
					t.Errorf("grads %d int %v", s.grads, s.intRes)
				}
			}},
		{"query lod cube array", "400", "uniform samplerCubeArray s;", "vec4(textureQueryLod(s, vec3(1.0, 0.5, 0.25)), 0.0, 0.0)", ir.TexQueryLod, ir.SamplerCubeArray, 3, nil},
		{"query levels", "430", "uniform sampler1DArray s;", "vec4(float(textureQueryLevels(s)))", ir.TexQueryLevels, ir.Sampler1DArray, 0, nil},
		{"ARB_texture_rectangle in 1.10", "110\n#extension GL_ARB_texture_rectangle : require", "uniform sampler2DRect s;", "texture2DRectProj(s, vec3(4.0, 6.0, 2.0))", ir.TexSample, ir.Sampler2DRect, 2,
			func(t *testing.T, s *recordSampler) {
				if s.coord[0] != 2 || s.coord[1] != 3 {
					t.Errorf("coords %v, want (2, 3)", s.coord)
				}
			}},
		{"ARB_texture_rectangle shadow in 1.20", "120\n#extension GL_ARB_texture_rectangle : enable", "uniform sampler2DRectShadow s;", "shadow2DRect(s, vec3(4.0, 6.0, 0.25))", ir.TexSample, ir.Sampler2DRectShadow, 2,
			func(t *testing.T, s *recordSampler) {
				if !s.hasRef || s.ref != 0.25 {
					t.Errorf("ref %v (%v)", s.ref, s.hasRef)
				}
			}},
		{"ARB_texture_query_levels in 1.30", "130\n#extension GL_ARB_texture_query_levels : require", "uniform sampler2DArray s;", "vec4(float(textureQueryLevels(s)))", ir.TexQueryLevels, ir.Sampler2DArray, 0, nil},
		{"ARB_texture_query_lod in 1.30", "130\n#extension GL_ARB_texture_query_lod : require", "uniform sampler2D s;", "vec4(textureQueryLOD(s, vec2(0.5)), 0.0, 0.0)", ir.TexQueryLod, ir.Sampler2D, 2, nil},
		{"gather offsets", "400", "uniform sampler2D s;", "textureGatherOffsets(s, vec2(0.5), ivec2[4](ivec2(0, 1), ivec2(-1, 2), ivec2(3, -4), ivec2(5, 6)), 2)", ir.TexGather, ir.Sampler2D, 2,
			func(t *testing.T, s *recordSampler) {
				want := [4][2]int32{{0, 1}, {-1, 2}, {3, -4}, {5, 6}}
				if !s.hasOffs || s.offsets != want {
					t.Errorf("offsets %v (%v), want %v", s.offsets, s.hasOffs, want)
				}
			}},
		// ARB_gpu_shader5: textureGatherOffset with an offset that is not a
		// constant expression (a run-time value per lane), and the shadow
		// gathers, whose reference comes before the offsets.
		{"gather run-time offset", "150\n#extension GL_ARB_gpu_shader5 : require", "uniform sampler2D s; uniform int n;",
			"textureGatherOffset(s, vec2(0.5), ivec2(n + 3, n - 2), 1)", ir.TexGather, ir.Sampler2D, 2,
			func(t *testing.T, s *recordSampler) {
				if !s.hasDyn || s.dynOff != [2]int32{3, -2} || s.hasOff {
					t.Errorf("run-time offset %v (%v), constant offset set %v; want (3, -2) at run time", s.dynOff, s.hasDyn, s.hasOff)
				}
			}},
		{"gather constant offset", "150\n#extension GL_ARB_gpu_shader5 : require", "uniform sampler2D s;",
			"textureGatherOffset(s, vec2(0.5), ivec2(3, -2))", ir.TexGather, ir.Sampler2D, 2,
			func(t *testing.T, s *recordSampler) {
				if s.hasDyn || !s.hasOff || s.offset != [3]int32{3, -2, 0} {
					t.Errorf("constant offset %v (%v), run time %v", s.offset, s.hasOff, s.hasDyn)
				}
			}},
		{"shadow gather offset", "150\n#extension GL_ARB_gpu_shader5 : require", "uniform sampler2DShadow s;",
			"textureGatherOffset(s, vec2(0.5), 0.75, ivec2(1, 2))", ir.TexGather, ir.Sampler2DShadow, 2,
			func(t *testing.T, s *recordSampler) {
				if !s.hasRef || s.ref != 0.75 || !s.hasOff || s.offset != [3]int32{1, 2, 0} {
					t.Errorf("ref %v (%v) offset %v (%v), want 0.75 and (1, 2)", s.ref, s.hasRef, s.offset, s.hasOff)
				}
			}},
		{"shadow gather offsets", "400", "uniform sampler2DShadow s;",
			"textureGatherOffsets(s, vec2(0.5), 0.25, ivec2[4](ivec2(0, 1), ivec2(1, 0), ivec2(-1, 0), ivec2(0, -1)))", ir.TexGather, ir.Sampler2DShadow, 2,
			func(t *testing.T, s *recordSampler) {
				want := [4][2]int32{{0, 1}, {1, 0}, {-1, 0}, {0, -1}}
				if !s.hasRef || s.ref != 0.25 || !s.hasOffs || s.offsets != want {
					t.Errorf("ref %v (%v) offsets %v (%v)", s.ref, s.hasRef, s.offsets, s.hasOffs)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "#version " + tc.version + "\n" + tc.decl + "\nout vec4 c;\nvoid main() { c = " + tc.expr + "; }\n"
			if strings.HasPrefix(tc.version, "110") || strings.HasPrefix(tc.version, "120") {
				src = "#version " + tc.version + "\n" + tc.decl + "\nvoid main() { gl_FragColor = " + tc.expr + "; }\n"
			}
			p, err := compileStage("k.frag", src, glsl.Fragment, glsl.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Samplers) != 1 || p.Samplers[0].Kind != tc.kind {
				t.Fatalf("samplers %+v, want one of kind %v", p.Samplers, tc.kind)
			}
			m, err := exec.New(p, exec.Config{Width: 4})
			if err != nil {
				t.Fatal(err)
			}
			if p.UniformWords > 0 {
				if err := m.SetUniforms(make([]uint32, p.UniformWords)); err != nil {
					t.Fatal(err)
				}
			}
			rs := &recordSampler{}
			m.SetSampler(rs)
			if _, err := m.Run(context.Background(), 0xf, 0xf); err != nil {
				t.Fatal(err)
			}
			if rs.op != tc.op || rs.kind != tc.kind || rs.ncoord != tc.ncoord {
				t.Errorf("request op %v kind %v ncoord %d, want %v %v %d", rs.op, rs.kind, rs.ncoord, tc.op, tc.kind, tc.ncoord)
			}
			if tc.check != nil {
				tc.check(t, rs)
			}
			// The first result word reaches the output as a float 1.
			if got := ff(m.Output(0)[0]); got != 1 {
				t.Errorf("c.x = %v, want 1", got)
			}
		})
	}
}

// TestTextureKindMisuse checks the front end refuses texture calls the kinds do
// not have.
func TestTextureKindMisuse(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"sample a multisample texture", "#version 150\nuniform sampler2DMS s; out vec4 c; void main() { c = texture(s, vec2(0.5)); }", "no matching overload"},
		{"fetch MS without a sample", "#version 150\nuniform sampler2DMS s; out vec4 c; void main() { c = texelFetch(s, ivec2(0)); }", "no matching overload"},
		{"MS array in 1.40", "#version 140\nuniform sampler2DMSArray s; out vec4 c; void main() { c = vec4(0.0); }", "sampler2DMSArray"},
		{"rect with lod", "#version 140\nuniform sampler2DRect s; out vec4 c; void main() { c = textureLod(s, vec2(0.5), 0.0); }", "no matching overload"},
		{"rect in 1.30 with the extension disabled", "#version 130\n#extension GL_ARB_texture_rectangle : disable\nuniform sampler2DRect s; out vec4 c; void main() { c = vec4(0.0); }", "sampler2DRect"},
		{"cube array in 3.30", "#version 330\nuniform samplerCubeArray s; out vec4 c; void main() { c = vec4(0.0); }", "samplerCubeArray"},
		{"cube array shadow without reference", "#version 400\nuniform samplerCubeArrayShadow s; out vec4 c; void main() { c = vec4(texture(s, vec4(0.0))); }", "no matching overload"},
		{"query lod in 3.30", "#version 330\nuniform sampler2D s; out vec4 c; void main() { c = vec4(textureQueryLod(s, vec2(0.5)), 0.0, 0.0); }", "textureQueryLod"},
		{"query lod on MS", "#version 400\nuniform sampler2DMS s; out vec4 c; void main() { c = vec4(textureQueryLod(s, vec2(0.5)), 0.0, 0.0); }", "no matching overload"},
		{"query levels in 4.00", "#version 400\nuniform sampler2D s; out vec4 c; void main() { c = vec4(float(textureQueryLevels(s))); }", "textureQueryLevels"},
		{"gather offsets not constant", "#version 400\nuniform sampler2D s; uniform ivec2 o[4]; out vec4 c; void main() { c = textureGatherOffsets(s, vec2(0.5), o); }", "constant"},
		{"texture2DRect in 1.10 without the extension", "#version 110\nuniform sampler2D s; void main() { gl_FragColor = texture2DRect(s, vec2(0.5)); }", "texture2DRect"},
		{"sampler2DRect in 1.20 with the extension disabled", "#version 120\n#extension GL_ARB_texture_rectangle : disable\nuniform sampler2DRect s; void main() { gl_FragColor = vec4(0.0); }", "sampler2DRect"},
		{"query levels in 1.30 without the extension", "#version 130\nuniform sampler2D s; out vec4 c; void main() { c = vec4(float(textureQueryLevels(s))); }", "textureQueryLevels"},
		{"textureQueryLOD without the extension", "#version 400\nuniform sampler2D s; out vec4 c; void main() { c = vec4(textureQueryLOD(s, vec2(0.5)), 0.0, 0.0); }", "textureQueryLOD"},
		{"1D array in 1.20", "#version 120\nuniform sampler1DArray s; void main() { gl_FragColor = vec4(0.0); }", "sampler1DArray"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := compileStage("m.frag", tc.src, glsl.Fragment, glsl.Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestRunTimeSamplerInStructArray lowers a sampler reached through an array of
// structs indexed at run time (ARB_gpu_shader5's dynamically uniform
// indexing, piglit's sampler_array_indexing/*-struct-nonconst*): each index
// must pick its own element's sampler, the index clamped to the array.
func TestRunTimeSamplerInStructArray(t *testing.T) {
	src := "#version 150\n#extension GL_ARB_gpu_shader5 : require\n" +
		"struct S { float k; sampler2D t[2]; }; uniform S ss[3]; uniform int n; uniform int m; out vec4 c;\n" +
		"void main() { c = texture(ss[n].t[m], vec2(0.5)); }\n"
	p, err := compileStage("k.frag", src, glsl.Fragment, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Samplers) != 6 {
		t.Fatalf("%d samplers, want 6", len(p.Samplers))
	}
	word := func(name string) int {
		for _, u := range p.Uniforms {
			if u.Name == name {
				return u.Word
			}
		}
		t.Fatalf("no uniform %s in %+v", name, p.Uniforms)
		return 0
	}
	nw, mw := word("n"), word("m")
	for _, tc := range []struct{ n, m int32 }{{0, 0}, {0, 1}, {1, 0}, {2, 1}, {7, 1}, {-1, 0}} {
		m, err := exec.New(p, exec.Config{Width: 4})
		if err != nil {
			t.Fatal(err)
		}
		words := make([]uint32, p.UniformWords)
		words[nw], words[mw] = uint32(tc.n), uint32(tc.m)
		if err := m.SetUniforms(words); err != nil {
			t.Fatal(err)
		}
		rs := &recordSampler{sampler: -1}
		m.SetSampler(rs)
		if _, err := m.Run(context.Background(), 0xf, 0xf); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("ss[%d].t[%d]", min(max(tc.n, 0), 2), tc.m)
		if rs.sampler < 0 || p.Samplers[rs.sampler].Name != want {
			got := "none"
			if rs.sampler >= 0 {
				got = p.Samplers[rs.sampler].Name
			}
			t.Errorf("n=%d m=%d sampled %s, want %s", tc.n, tc.m, got, want)
		}
	}
}
