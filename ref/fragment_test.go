package ref

import (
	"math"
	"testing"

	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/logicop"
	"vortexgfx/gl/stencil"
)

// drawOne draws a full-target quad with fragment colour src (and dual
// source src1) over a 2x2 target of format f whose contents are dst.
func drawOne(t *testing.T, f format.Format, s State, dst, src, src1 [4]float32) *Target {
	t.Helper()
	tg := newTarget(t, 2, 2, []format.Format{f}, format.Invalid)
	if err := tg.ClearColor(0, dst); err != nil {
		t.Fatal(err)
	}
	s.Vertex = passVS(0)
	s.Fragment = FragmentFunc(func(qs []Quad, _ Textures) error {
		for i := range qs {
			for l := range 4 {
				qs[i].SetColor(0, l, src)
				for c := range 4 {
					qs[i].Color1[l][c] = math.Float32bits(src1[c])
				}
			}
		}
		return nil
	})
	draw(t, tg, &s, verts([]float32{-1, -1, 0, 1}, []float32{3, -1, 0, 1}, []float32{-1, 3, 0, 1}), DrawParams{Topology: Triangles, Count: 3})
	return tg
}

func near(a, b [4]float32, eps float64) bool {
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > eps {
			return false
		}
	}
	return true
}

// Blend truth table on an RGBA32F target (no clamping): src (0.5, 0.25,
// 0.75, 0.6), dst (0.2, 0.4, 0.8, 0.3), src1 (0.1, 0.2, 0.3, 0.9),
// constant (0.3, 0.6, 0.9, 0.5).
func TestBlendFactors(t *testing.T) {
	src := [4]float32{0.5, 0.25, 0.75, 0.6}
	dst := [4]float32{0.2, 0.4, 0.8, 0.3}
	s1 := [4]float32{0.1, 0.2, 0.3, 0.9}
	k := [4]float32{0.3, 0.6, 0.9, 0.5}
	one := [4]float32{1, 1, 1, 1}
	mul := func(a, b [4]float32) [4]float32 {
		return [4]float32{a[0] * b[0], a[1] * b[1], a[2] * b[2], a[3] * b[3]}
	}
	inv := func(a [4]float32) [4]float32 { return [4]float32{1 - a[0], 1 - a[1], 1 - a[2], 1 - a[3]} }
	spl := func(v float32) [4]float32 { return [4]float32{v, v, v, v} }
	sat := min(src[3], 1-dst[3])
	factors := map[blend.Factor][4]float32{blend.Zero: {}, blend.One: one, blend.SrcColor: src, blend.OneMinusSrcColor: inv(src), blend.DstColor: dst, blend.OneMinusDstColor: inv(dst), blend.SrcAlpha: spl(src[3]), blend.OneMinusSrcAlpha: spl(1 - src[3]), blend.DstAlpha: spl(dst[3]), blend.OneMinusDstAlpha: spl(1 - dst[3]), blend.ConstantColor: k, blend.OneMinusConstantColor: inv(k), blend.ConstantAlpha: spl(k[3]), blend.OneMinusConstantAlpha: spl(1 - k[3]), blend.SrcAlphaSaturate: {sat, sat, sat, 1}, blend.Src1Color: s1, blend.OneMinusSrc1Color: inv(s1), blend.Src1Alpha: spl(s1[3]), blend.OneMinusSrc1Alpha: spl(1 - s1[3])}
	for f, fv := range factors {
		for _, asSrc := range []bool{true, false} {
			s := DefaultState(2, 2)
			s.BlendConstant = k
			b := BlendState{Enable: true, WriteMask: 0xF, SrcRGB: blend.Zero, DstRGB: blend.Zero, SrcAlpha: blend.Zero, DstAlpha: blend.Zero}
			var want [4]float32
			if asSrc {
				b.SrcRGB, b.SrcAlpha = f, f
				want = mul(src, fv)
			} else {
				b.DstRGB, b.DstAlpha = f, f
				want = mul(dst, fv)
			}
			s.Blend[0] = b
			got := drawOne(t, format.RGBA32F, s, dst, src, s1).Color[0].Float(0, 0)
			if !near(got, want, 1e-6) {
				t.Errorf("factor %d as src=%v: got %v, want %v", f, asSrc, got, want)
			}
		}
	}
}

func TestBlendEquations(t *testing.T) {
	src := [4]float32{0.5, 0.25, 0.75, 0.6}
	dst := [4]float32{0.2, 0.4, 0.8, 0.3}
	cases := []struct {
		eq   blend.Equation
		want [4]float32
	}{
		{blend.Add, [4]float32{0.5 * 0.6, 0.25 * 0.6, 0.75 * 0.6, 0.6*0.6 + 0.3*0.4}},
		{blend.Subtract, [4]float32{0.5 * 0.6, 0.25 * 0.6, 0.75 * 0.6, 0.6*0.6 - 0.3*0.4}},
		{blend.ReverseSubtract, [4]float32{-0.5 * 0.6, -0.25 * 0.6, -0.75 * 0.6, 0.3*0.4 - 0.6*0.6}},
		{blend.Min, [4]float32{0.2, 0.25, 0.75, 0.3}},
		{blend.Max, [4]float32{0.5, 0.4, 0.8, 0.6}},
	}
	for _, c := range cases {
		s := DefaultState(2, 2)
		// rgb: src*srcAlpha + dst*0; alpha: src*srcAlpha + dst*(1-srcAlpha)
		s.Blend[0] = BlendState{Enable: true, WriteMask: 0xF, SrcRGB: blend.SrcAlpha, DstRGB: blend.Zero, SrcAlpha: blend.SrcAlpha, DstAlpha: blend.OneMinusSrcAlpha, EqRGB: c.eq, EqAlpha: c.eq}
		got := drawOne(t, format.RGBA32F, s, dst, src, src).Color[0].Float(0, 0)
		if !near(got, c.want, 1e-6) {
			t.Errorf("equation %d: got %v, want %v", c.eq, got, c.want)
		}
	}
}

func TestBlendUNormClampsInputs(t *testing.T) {
	// Source 2.0 is clamped to 1 before blending into RGBA8: ONE, ONE with
	// dst 0.25 gives 1 (not 2.25 clamped... the same) and SUBTRACT gives
	// 1 - 0.25 rather than 2 - 0.25.
	s := DefaultState(2, 2)
	s.Blend[0] = BlendState{Enable: true, WriteMask: 0xF, SrcRGB: blend.One, DstRGB: blend.One, SrcAlpha: blend.One, DstAlpha: blend.One, EqRGB: blend.Subtract, EqAlpha: blend.Subtract}
	got := drawOne(t, format.RGBA8, s, [4]float32{0.25, 0.25, 0.25, 0.25}, [4]float32{2, 2, 2, 2}, [4]float32{}).Color[0].Raw(0, 0)
	if got != (format.Raw{191, 191, 191, 191}) {
		t.Fatalf("got %v, want 191 (0.75)", got)
	}
}

func TestLogicOps(t *testing.T) {
	const sv, dv uint32 = 0b1100_1010, 0b1010_0110
	want := [16]uint32{0, sv & dv, sv &^ dv, sv, ^sv & dv, dv, sv ^ dv, sv | dv, ^(sv | dv), ^(sv ^ dv), ^dv, sv | ^dv, ^sv, ^sv | dv, ^(sv & dv), 0xFF}
	for op := logicop.Clear; op <= logicop.Set; op++ {
		for _, f := range []format.Format{format.RGBA8UI, format.RGBA8} {
			tg := newTarget(t, 2, 2, []format.Format{f}, format.Invalid)
			s := DefaultState(2, 2)
			s.LogicOpEnable, s.LogicOp = true, op
			s.Blend[0].Enable = true // ignored: the logic op supersedes blending
			s.Vertex = passVS(0)
			s.Fragment = FragmentFunc(func(qs []Quad, _ Textures) error {
				for i := range qs {
					for l := range 4 {
						if f.IsInteger() {
							qs[i].Color[0][l] = [4]uint32{sv, sv, sv, sv}
						} else {
							qs[i].SetColor(0, l, [4]float32{float32(sv) / 255, float32(sv) / 255, float32(sv) / 255, float32(sv) / 255})
						}
					}
				}
				return nil
			})
			if f.IsInteger() {
				_ = tg.ClearColorInt(0, [4]uint32{dv, dv, dv, dv})
			} else {
				_ = tg.ClearColor(0, [4]float32{float32(dv) / 255, float32(dv) / 255, float32(dv) / 255, float32(dv) / 255})
			}
			draw(t, tg, &s, verts([]float32{-1, -1, 0, 1}, []float32{3, -1, 0, 1}, []float32{-1, 3, 0, 1}), DrawParams{Topology: Triangles, Count: 3})
			if got := tg.Color[0].Raw(1, 1)[0]; got != want[op]&0xFF {
				t.Errorf("%v op %d: got %08b, want %08b", f, op, got, want[op]&0xFF)
			}
		}
	}
}

func TestWriteMaskAndMRT(t *testing.T) {
	fmts := []format.Format{format.RGBA8, format.RGBA16F, format.R32UI, format.BGRA8}
	tg := newTarget(t, 2, 2, fmts, format.Invalid)
	s := DefaultState(2, 2)
	s.Blend[0].WriteMask = 0b0101 // R and B
	s.Blend[3].WriteMask = 0b1000 // A only
	s.Vertex = passVS(0)
	s.Fragment = FragmentFunc(func(qs []Quad, _ Textures) error {
		for i := range qs {
			for l := range 4 {
				qs[i].SetColor(0, l, [4]float32{1, 1, 1, 1})
				qs[i].SetColor(1, l, [4]float32{0.5, -2, 65504, 1})
				qs[i].Color[2][l] = [4]uint32{123456789, 0, 0, 0}
				qs[i].SetColor(3, l, [4]float32{1, 1, 1, 0.2})
			}
		}
		return nil
	})
	draw(t, tg, &s, verts([]float32{-1, -1, 0, 1}, []float32{3, -1, 0, 1}, []float32{-1, 3, 0, 1}), DrawParams{Topology: Triangles, Count: 3})
	if got := tg.Color[0].Raw(0, 1); got != (format.Raw{255, 0, 255, 0}) {
		t.Errorf("RT0 masked: %v", got)
	}
	if got := tg.Color[1].Float(0, 1); got != [4]float32{0.5, -2, 65504, 1} {
		t.Errorf("RT1 half: %v", got)
	}
	if got := tg.Color[2].Raw(1, 0)[0]; got != 123456789 {
		t.Errorf("RT2 uint: %v", got)
	}
	if got := tg.Color[3].Raw(1, 1); got != (format.Raw{0, 0, 0, 51}) || tg.Color[3].Data[3] != 51 {
		t.Errorf("RT3 BGRA alpha only: %v", got)
	}
}

func TestSRGBWrite(t *testing.T) {
	// Linear 0.5 encodes to sRGB byte 188; blending decodes dst first.
	s := DefaultState(2, 2)
	got := drawOne(t, format.SRGB8A8, s, [4]float32{}, [4]float32{0.5, 0.5, 0.5, 0.5}, [4]float32{}).Color[0].Raw(0, 0)
	if got != (format.Raw{188, 188, 188, 128}) {
		t.Fatalf("sRGB store %v, want 188,188,188,128", got)
	}
	s.Blend[0] = BlendState{Enable: true, WriteMask: 0xF, SrcRGB: blend.One, DstRGB: blend.One, SrcAlpha: blend.One, DstAlpha: blend.One}
	got = drawOne(t, format.SRGB8A8, s, [4]float32{0.25, 0.25, 0.25, 0}, [4]float32{0.25, 0.25, 0.25, 0.5}, [4]float32{}).Color[0].Raw(0, 0)
	if got != (format.Raw{188, 188, 188, 128}) {
		t.Fatalf("sRGB blend %v, want 188 (linear 0.25 + 0.25)", got)
	}
}

func TestStencilOps(t *testing.T) {
	const ref, old = 0x35, 0xFE
	cases := []struct {
		op   stencil.Op
		want uint8
	}{
		{stencil.Keep, old}, {stencil.Zero, 0}, {stencil.Replace, ref}, {stencil.Incr, 0xFF}, {stencil.Decr, old - 1},
		{stencil.Invert, ^uint8(old)}, {stencil.IncrWrap, 0xFF}, {stencil.DecrWrap, old - 1},
	}
	for _, c := range cases {
		// The op is applied on each of the three paths: stencil fail,
		// depth fail, pass.
		for path := range 3 {
			tg := newTarget(t, 2, 2, []format.Format{format.RGBA8}, format.D24S8)
			_ = tg.ClearStencil(old)
			_ = tg.ClearDepth(0.5)
			s := DefaultState(2, 2)
			s.StencilTest, s.Depth.Test = true, true
			f := StencilFace{Func: compare.Always, Ref: ref, ReadMask: 0xFF, WriteMask: 0xFF}
			switch path {
			case 0:
				f.Func, f.Fail = compare.Never, c.op
			case 1:
				s.Depth.Func, f.DepthFail = compare.Never, c.op
			case 2:
				s.Depth.Func, f.Pass = compare.Always, c.op
			}
			s.StencilFront = f
			s.Vertex, s.Fragment = passVS(4), colorFS
			draw(t, tg, &s, quadVerts(-1, -1, 1, 1, 0, red), DrawParams{Topology: Triangles, Count: 6})
			if got := tg.DepthStencil.Stencil(1, 1); got != c.want {
				t.Errorf("op %d path %d: stencil %#x, want %#x", c.op, path, got, c.want)
			}
			if got := tg.DepthStencil.Depth(1, 1); got != format.QuantizeDepth(format.D24S8, 0.5) {
				t.Errorf("op %d path %d: depth changed to %v", c.op, path, got)
			}
		}
	}
	// Incr/decr wrap at the ends, and the write mask keeps bits.
	for _, c := range []struct {
		op       stencil.Op
		old, msk uint8
		want     uint8
	}{{stencil.IncrWrap, 0xFF, 0xFF, 0}, {stencil.DecrWrap, 0, 0xFF, 0xFF}, {stencil.Decr, 0, 0xFF, 0}, {stencil.Replace, 0xF0, 0x0F, 0xF5}} {
		tg := newTarget(t, 2, 2, nil, format.S8)
		_ = tg.ClearStencil(c.old)
		s := DefaultState(2, 2)
		s.StencilTest = true
		s.StencilFront = StencilFace{Func: compare.Always, Ref: 0x05, ReadMask: 0xFF, WriteMask: c.msk, Pass: c.op}
		s.Vertex = passVS(4)
		draw(t, tg, &s, quadVerts(-1, -1, 1, 1, 0, red), DrawParams{Topology: Triangles, Count: 6})
		if got := tg.DepthStencil.Stencil(0, 0); got != c.want {
			t.Errorf("op %d old %#x mask %#x: %#x, want %#x", c.op, c.old, c.msk, got, c.want)
		}
	}
}

func TestStencilFuncsAndTwoSided(t *testing.T) {
	// ref & mask OP stored & mask, with ref 0x12, stored 0x34, mask 0x0F:
	// 2 OP 4.
	want := map[compare.Func]bool{compare.Never: false, compare.Less: true, compare.Equal: false, compare.LessEqual: true, compare.Greater: false, compare.NotEqual: true, compare.GreaterEqual: false, compare.Always: true}
	for fn, w := range want {
		tg := newTarget(t, 2, 2, []format.Format{format.RGBA8}, format.D24S8)
		_ = tg.ClearStencil(0x34)
		s := DefaultState(2, 2)
		s.StencilTest = true
		s.StencilFront = StencilFace{Func: fn, Ref: 0x12, ReadMask: 0x0F, WriteMask: 0xFF}
		s.StencilBack = StencilFace{Func: compare.Never, ReadMask: 0xFF, WriteMask: 0xFF}
		s.Vertex, s.Fragment = passVS(4), colorFS
		draw(t, tg, &s, quadVerts(-1, -1, 1, 1, 0, red), DrawParams{Topology: Triangles, Count: 6})
		if got := tg.Color[0].Raw(0, 0)[0] == 255; got != w {
			t.Errorf("func %d: pass %v, want %v", fn, got, w)
		}
	}
	// Back faces use the back state.
	tg := newTarget(t, 2, 2, []format.Format{format.RGBA8}, format.S8)
	s := DefaultState(2, 2)
	s.StencilTest = true
	s.StencilFront = StencilFace{Func: compare.Always, Ref: 1, ReadMask: 0xFF, WriteMask: 0xFF, Pass: stencil.Replace}
	s.StencilBack = StencilFace{Func: compare.Always, Ref: 2, ReadMask: 0xFF, WriteMask: 0xFF, Pass: stencil.Replace}
	s.Vertex = passVS(0)
	draw(t, tg, &s, verts([]float32{-1, -1, 0, 1}, []float32{-1, 3, 0, 1}, []float32{3, -1, 0, 1}), DrawParams{Topology: Triangles, Count: 3})
	if got := tg.DepthStencil.Stencil(0, 0); got != 2 {
		t.Fatalf("back face stencil %d, want 2", got)
	}
}

func TestAlphaTestAndDepthBounds(t *testing.T) {
	for _, c := range []struct {
		fn   compare.Func
		ref  float32
		pass bool
	}{{compare.Greater, 0.5, true}, {compare.Greater, 0.7, false}, {compare.Less, 0.7, true}, {compare.Equal, 0.6, true}} {
		s := DefaultState(2, 2)
		s.AlphaTest, s.AlphaFunc, s.AlphaRef = true, c.fn, c.ref
		got := drawOne(t, format.RGBA32F, s, [4]float32{}, [4]float32{1, 1, 1, 0.6}, [4]float32{}).Color[0].Float(0, 0)[0] == 1
		if got != c.pass {
			t.Errorf("alpha func %d ref %v: pass %v", c.fn, c.ref, got)
		}
	}
	for _, c := range []struct {
		lo, hi float32
		pass   bool
	}{{0, 1, true}, {0.2, 0.3, true}, {0.3, 0.4, false}, {0, 0.2, false}} {
		tg := newTarget(t, 2, 2, []format.Format{format.RGBA8}, format.D32F)
		_ = tg.ClearDepth(0.25)
		s := DefaultState(2, 2)
		s.Depth.BoundsTest, s.Depth.BoundsMin, s.Depth.BoundsMax = true, c.lo, c.hi
		s.Vertex, s.Fragment = passVS(4), colorFS
		draw(t, tg, &s, quadVerts(-1, -1, 1, 1, 0, red), DrawParams{Topology: Triangles, Count: 6})
		if got := tg.Color[0].Raw(0, 0)[0] == 255; got != c.pass {
			t.Errorf("bounds [%v,%v]: pass %v", c.lo, c.hi, got)
		}
	}
}

func TestTwoSidedColor(t *testing.T) {
	// Varyings: front colour (words 0..3), back colour (4..7); the fragment
	// shader reads words 0..3.
	rows := func(cw bool) VertexInput {
		v := func(x, y float32) []float32 { return []float32{x, y, 0, 1, 1, 0, 0, 1, 0, 0, 1, 1} }
		if cw {
			return verts(v(-1, -1), v(-1, 3), v(3, -1))
		}
		return verts(v(-1, -1), v(3, -1), v(-1, 3))
	}
	for _, c := range []struct {
		twoSided, cw bool
		want         format.Raw
	}{{false, false, format.Raw{255, 0, 0, 255}}, {false, true, format.Raw{255, 0, 0, 255}}, {true, false, format.Raw{255, 0, 0, 255}}, {true, true, format.Raw{0, 0, 255, 255}}} {
		tg := newTarget(t, 2, 2, []format.Format{format.RGBA8}, format.Invalid)
		s := DefaultState(2, 2)
		s.TwoSided, s.TwoSide = c.twoSided, []TwoSide{{Front: 0, Back: 4, Words: 4}}
		s.Vertex, s.Fragment = passVS(8), colorFS
		draw(t, tg, &s, rows(c.cw), DrawParams{Topology: Triangles, Count: 3})
		if got := tg.Color[0].Raw(0, 0); got != c.want {
			t.Errorf("two-sided %v cw %v: %v, want %v", c.twoSided, c.cw, got, c.want)
		}
	}
}
