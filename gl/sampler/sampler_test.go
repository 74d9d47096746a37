package sampler

import (
	"errors"
	"math"
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

func mustTex(t *testing.T, dim Dim, f format.Format, w, h, d, levels int) *Texture {
	t.Helper()
	tx, err := NewTexture(dim, f, w, h, d, levels)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// sample1 samples one lane and returns its result as floats.
func sample1(t *testing.T, tx *Texture, s Sampler, req Request) [4]float32 {
	t.Helper()
	req.N = 1
	out := make([][4]uint32, 1)
	if err := Sample(tx, &s, &req, out); err != nil {
		t.Fatal(err)
	}
	var f [4]float32
	for i, w := range out[0] {
		f[i] = math.Float32frombits(w)
	}
	return f
}

func nearestS(w Wrap) Sampler {
	s := DefaultSampler()
	s.MinFilter, s.MagFilter, s.MipFilter = Nearest, Nearest, MipNone
	s.WrapS, s.WrapT, s.WrapR = w, w, w
	s.BorderColor = [4]float32{10, 10, 10, 10}
	return s
}

func TestWrapIndex(t *testing.T) {
	// indices -5..8 of a 4-texel axis (GL 4.6 table 8.20); -1 = border
	want := map[Wrap][]int{
		Repeat:            {3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0},
		MirroredRepeat:    {3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0},
		ClampToEdge:       {0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3},
		ClampToBorder:     {-1, -1, -1, -1, -1, 0, 1, 2, 3, -1, -1, -1, -1, -1},
		MirrorClampToEdge: {3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3},
	}
	for w, exp := range want {
		for k, i := range []int{-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8} {
			got, ok := wrap(i, 4, w)
			if !ok {
				got = -1
			}
			if got != exp[k] {
				t.Errorf("wrap %d index %d: %d, want %d", w, i, got, exp[k])
			}
		}
	}
}

// ramp4 is a 4x1 R32F texture with texel x = x.
func ramp4(t *testing.T) *Texture {
	tx := mustTex(t, Dim2D, format.R32F, 4, 1, 1, 1)
	for x := range 4 {
		_ = tx.SetFloat(0, x, 0, 0, [4]float32{float32(x)})
	}
	return tx
}

// spec: software-shader-backend "CPU texture sampling" (the nearest/clamp
// sampler whose endpoints and out-of-range coordinates these pin down).
func TestNearestEndpointsAndOutOfRange(t *testing.T) {
	coords := []float32{-1.1, -0.1, 0, 0.2499, 0.25, 0.5, 0.999, 1, 1.1, 2.3}
	want := map[Wrap][]float32{
		Repeat:            {3, 3, 0, 0, 1, 2, 3, 0, 0, 1},
		MirroredRepeat:    {3, 0, 0, 0, 1, 2, 3, 3, 3, 1},
		ClampToEdge:       {0, 0, 0, 0, 1, 2, 3, 3, 3, 3},
		ClampToBorder:     {10, 10, 0, 0, 1, 2, 3, 10, 10, 10},
		MirrorClampToEdge: {3, 0, 0, 0, 1, 2, 3, 3, 3, 3},
		Clamp:             {0, 0, 0, 0, 1, 2, 3, 3, 3, 3},
	}
	tx := ramp4(t)
	for w, exp := range want {
		for i, s := range coords {
			got := sample1(t, tx, nearestS(w), Request{Coord: [][4]float32{{s, 0.5}}})[0]
			if got != exp[i] {
				t.Errorf("wrap %d s=%v: %v, want %v", w, s, got, exp[i])
			}
		}
	}
}

func TestLinearFilter(t *testing.T) {
	coords := []float32{0, 0.125, 0.25, 0.5, 0.875, 1}
	want := map[Wrap][]float32{
		Repeat:         {1.5, 0, 0.5, 1.5, 3, 1.5},
		ClampToEdge:    {0, 0, 0.5, 1.5, 3, 3},
		ClampToBorder:  {5, 0, 0.5, 1.5, 3, 6.5},
		MirroredRepeat: {0, 0, 0.5, 1.5, 3, 3},
		Clamp:          {5, 0, 0.5, 1.5, 3, 6.5},
	}
	tx := ramp4(t)
	for w, exp := range want {
		s := nearestS(w)
		s.MinFilter, s.MagFilter = Linear, Linear
		for i, c := range coords {
			got := sample1(t, tx, s, Request{Coord: [][4]float32{{c, 0.5}}})[0]
			if math.Abs(float64(got-exp[i])) > 1e-6 {
				t.Errorf("wrap %d s=%v: %v, want %v", w, c, got, exp[i])
			}
		}
	}
	// NPOT bilinear in 2D: 3x3 texture, texel value x + 3y, centre sample
	// between texels (0,0),(1,0),(0,1),(1,1) at (1/3, 1/3).
	tx2 := mustTex(t, Dim2D, format.RGBA32F, 3, 3, 1, 1)
	for y := range 3 {
		for x := range 3 {
			_ = tx2.SetFloat(0, x, y, 0, [4]float32{float32(x + 3*y), 0, 0, 1})
		}
	}
	s := nearestS(ClampToEdge)
	s.MinFilter, s.MagFilter = Linear, Linear
	if got := sample1(t, tx2, s, Request{Coord: [][4]float32{{1.0 / 3, 1.0 / 3}}})[0]; math.Abs(float64(got)-2) > 1e-5 {
		t.Errorf("NPOT bilinear %v, want 2", got)
	}
}

// levels8 is an 8x8 RGBA32F texture whose level n holds the value n.
func levels8(t *testing.T) *Texture {
	tx := mustTex(t, Dim2D, format.RGBA32F, 8, 8, 1, 0)
	for n, l := range tx.Levels {
		for y := range l.H {
			for x := range l.W {
				_ = tx.SetFloat(n, x, y, 0, [4]float32{float32(n), 0, 0, 1})
			}
		}
	}
	return tx
}

func TestMipSelection(t *testing.T) {
	tx := levels8(t)
	if len(tx.Levels) != 4 {
		t.Fatalf("%d levels, want 4", len(tx.Levels))
	}
	cases := []struct {
		mip        MipFilter
		lod        float32
		bias       float32
		minL, maxL float32
		base       int
		want       float32
	}{
		{MipNearest, 0, 0, -1000, 1000, 0, 0}, {MipNearest, 0.5, 0, -1000, 1000, 0, 0}, {MipNearest, 0.51, 0, -1000, 1000, 0, 1},
		{MipNearest, 1.5, 0, -1000, 1000, 0, 1}, {MipNearest, 1.6, 0, -1000, 1000, 0, 2}, {MipNearest, 9, 0, -1000, 1000, 0, 3},
		{MipLinear, 1.25, 0, -1000, 1000, 0, 1.25}, {MipLinear, 2.9, 0, -1000, 1000, 0, 2.9}, {MipLinear, 7, 0, -1000, 1000, 0, 3},
		{MipLinear, 0.5, 1, -1000, 1000, 0, 1.5}, {MipLinear, 3, 0, 0, 1.5, 0, 1.5}, {MipLinear, -3, 0, 0.75, 3, 0, 0.75},
		{MipNearest, 0, 0, -1000, 1000, 2, 2}, {MipNone, 3, 0, -1000, 1000, 0, 0},
	}
	for _, c := range cases {
		s := nearestS(Repeat)
		s.MipFilter, s.LODBias, s.MinLOD, s.MaxLOD = c.mip, c.bias, c.minL, c.maxL
		tx.BaseLevel = c.base
		got := sample1(t, tx, s, Request{Coord: [][4]float32{{0.3, 0.6}}, LOD: LODExplicit, LODValue: []float32{c.lod}})[0]
		if math.Abs(float64(got-c.want)) > 1e-6 {
			t.Errorf("%+v: level %v, want %v", c, got, c.want)
		}
	}
}

func TestLODFromDerivatives(t *testing.T) {
	tx := levels8(t)
	s := nearestS(Repeat)
	s.MipFilter = MipLinear
	cases := []struct {
		dx, dy [3]float32
		aniso  float32
		want   float32
	}{
		{[3]float32{1.0 / 8, 0, 0}, [3]float32{0, 1.0 / 8, 0}, 1, 0},
		{[3]float32{2.0 / 8, 0, 0}, [3]float32{0, 1.0 / 8, 0}, 1, 1},
		{[3]float32{0, 0, 0}, [3]float32{0, 4.0 / 8, 0}, 1, 2},
		{[3]float32{1.0 / 8, 1.0 / 8, 0}, [3]float32{0, 0, 0}, 1, 0.5},
		{[3]float32{1.0 / 16, 0, 0}, [3]float32{0, 1.0 / 16, 0}, 1, 0}, // magnified
		// Anisotropic: Px = 4, Py = 1: N = 4 samples at lambda = log2(4/4) = 0.
		{[3]float32{4.0 / 8, 0, 0}, [3]float32{0, 1.0 / 8, 0}, 16, 0},
		// N capped at 2: lambda = log2(4/2) = 1.
		{[3]float32{4.0 / 8, 0, 0}, [3]float32{0, 1.0 / 8, 0}, 2, 1},
	}
	for _, c := range cases {
		s.MaxAnisotropy = c.aniso
		got := sample1(t, tx, s, Request{Coord: [][4]float32{{0.3, 0.6}}, LOD: LODGrad, DPdx: [][3]float32{c.dx}, DPdy: [][3]float32{c.dy}})[0]
		if math.Abs(float64(got-c.want)) > 1e-5 {
			t.Errorf("%+v: level %v, want %v", c, got, c.want)
		}
	}
	// Vertex-stage sampling: no derivatives, level 0 plus the biases.
	s.MaxAnisotropy, s.LODBias = 1, 0.5
	if got := sample1(t, tx, s, Request{Coord: [][4]float32{{0.3, 0.6}}, LOD: LODNone, LODValue: []float32{1}})[0]; got != 1.5 {
		t.Errorf("LODNone with biases: level %v, want 1.5", got)
	}
	// The anisotropic footprint averages samples along the major axis: on
	// the ramp, 2 samples at s = 0.5 +- 0.125 read texels 1 and 2.
	r := ramp4(t)
	sa := nearestS(ClampToEdge)
	sa.MaxAnisotropy = 2
	got := sample1(t, r, sa, Request{Coord: [][4]float32{{0.5, 0.5}}, LOD: LODGrad, DPdx: [][3]float32{{0.5, 0, 0}}, DPdy: [][3]float32{{0, 0.25, 0}}})[0]
	if got != 1.5 {
		t.Errorf("anisotropic average %v, want 1.5", got)
	}
}

func TestCube(t *testing.T) {
	tx := mustTex(t, DimCube, format.R32F, 4, 4, 6, 1)
	for f := range 6 {
		for y := range 4 {
			for x := range 4 {
				_ = tx.SetFloat(0, x, y, f, [4]float32{float32(100*f + x + 4*y)})
			}
		}
	}
	s := nearestS(ClampToEdge)
	cases := []struct {
		dir  [3]float32
		want float32
	}{
		// face centres: s = t = 0.5 -> texel (2,2)
		{[3]float32{1, 0, 0}, 10}, {[3]float32{-1, 0, 0}, 110}, {[3]float32{0, 1, 0}, 210},
		{[3]float32{0, -1, 0}, 310}, {[3]float32{0, 0, 1}, 410}, {[3]float32{0, 0, -1}, 510},
		// +X: sc = -z, tc = -y: (1, 0.5, 0) -> s 0.5, t 0.25 -> (2,1)
		{[3]float32{1, 0.5, 0}, 6},
		// +Y: sc = x, tc = z: (0.5, 1, -0.75) -> s 0.75, t 0.125 -> (3,0)
		{[3]float32{0.5, 1, -0.75}, 203},
		// -Z: sc = -x, tc = -y: (-0.9, 0.9, -1) -> s 0.95, t 0.05 -> (3,0)
		{[3]float32{-0.9, 0.9, -1}, 503},
		// tie |x| = |y|: x wins
		{[3]float32{1, 1, 0}, 0 + 2 + 0},
	}
	for _, c := range cases {
		got := sample1(t, tx, s, Request{Coord: [][4]float32{{c.dir[0], c.dir[1], c.dir[2]}}})[0]
		if got != c.want {
			t.Errorf("dir %v: %v, want %v", c.dir, got, c.want)
		}
	}
}

func TestArraysAnd3D(t *testing.T) {
	arr := mustTex(t, Dim2DArray, format.R32F, 2, 2, 4, 1)
	for z := range 4 {
		for y := range 2 {
			for x := range 2 {
				_ = arr.SetFloat(0, x, y, z, [4]float32{float32(z)})
			}
		}
	}
	s := nearestS(Repeat)
	for _, c := range []struct{ layer, want float32 }{{0, 0}, {1.4, 1}, {1.5, 2}, {-3, 0}, {99, 3}} {
		if got := sample1(t, arr, s, Request{Coord: [][4]float32{{0.5, 0.5, c.layer}}})[0]; got != c.want {
			t.Errorf("layer %v: %v, want %v", c.layer, got, c.want)
		}
	}
	a1 := mustTex(t, Dim1DArray, format.R32F, 2, 1, 3, 1)
	_ = a1.SetFloat(0, 1, 0, 2, [4]float32{7})
	if got := sample1(t, a1, s, Request{Coord: [][4]float32{{0.75, 2}}})[0]; got != 7 {
		t.Errorf("1D array: %v", got)
	}
	v := mustTex(t, Dim3D, format.R32F, 2, 2, 2, 1)
	for z := range 2 {
		for y := range 2 {
			for x := range 2 {
				_ = v.SetFloat(0, x, y, z, [4]float32{float32(x + 2*y + 4*z)})
			}
		}
	}
	sl := nearestS(ClampToEdge)
	sl.MinFilter, sl.MagFilter = Linear, Linear
	if got := sample1(t, v, sl, Request{Coord: [][4]float32{{0.5, 0.5, 0.5}}})[0]; got != 3.5 {
		t.Errorf("3D trilinear centre %v, want 3.5", got)
	}
	if got := sample1(t, v, s, Request{Coord: [][4]float32{{0.75, 0.25, 0.75}}})[0]; got != 5 {
		t.Errorf("3D nearest %v, want 5", got)
	}
}

func TestShadowCompare(t *testing.T) {
	tx := mustTex(t, Dim2D, format.D32F, 2, 1, 1, 1)
	_ = tx.SetFloat(0, 0, 0, 0, [4]float32{0.5})
	_ = tx.SetFloat(0, 1, 0, 0, [4]float32{0.5})
	want := map[compare.Func][3]float32{
		compare.Never: {0, 0, 0}, compare.Less: {1, 0, 0}, compare.Equal: {0, 1, 0}, compare.LessEqual: {1, 1, 0},
		compare.Greater: {0, 0, 1}, compare.NotEqual: {1, 0, 1}, compare.GreaterEqual: {0, 1, 1}, compare.Always: {1, 1, 1},
	}
	for fn, w := range want {
		for i, ref := range []float32{0.25, 0.5, 0.75} {
			s := nearestS(ClampToEdge)
			s.CompareEnable, s.Compare = true, fn
			got := sample1(t, tx, s, Request{Coord: [][4]float32{{0.25, 0.5}}, Ref: []float32{ref}})
			if got != [4]float32{w[i], 0, 0, 1} {
				t.Errorf("func %d ref %v: %v, want %v", fn, ref, got, w[i])
			}
		}
	}
	// Linear filtering averages the compare results (PCF).
	_ = tx.SetFloat(0, 1, 0, 0, [4]float32{0.9})
	s := nearestS(ClampToEdge)
	s.MinFilter, s.MagFilter, s.CompareEnable, s.Compare = Linear, Linear, true, compare.Greater
	if got := sample1(t, tx, s, Request{Coord: [][4]float32{{0.5, 0.5}}, Ref: []float32{0.7}})[0]; got != 0.5 {
		t.Errorf("PCF %v, want 0.5", got)
	}
	// Shadow cube: compare on the selected face.
	cube := mustTex(t, DimCube, format.D16, 1, 1, 6, 1)
	_ = cube.SetFloat(0, 0, 0, 3, [4]float32{0.25})
	s = nearestS(ClampToEdge)
	s.CompareEnable, s.Compare = true, compare.Less
	if got := sample1(t, cube, s, Request{Coord: [][4]float32{{0, -1, 0}}, Ref: []float32{0.2}})[0]; got != 1 {
		t.Errorf("shadow cube -Y %v, want 1", got)
	}
}

func TestFetchSizeGather(t *testing.T) {
	tx := mustTex(t, Dim2D, format.RGBA8UI, 4, 2, 1, 0)
	for y := range 2 {
		for x := range 4 {
			_ = tx.SetInt(0, x, y, 0, [4]uint32{uint32(x + 10*y), 1, 2, 3})
		}
	}
	_ = tx.SetInt(1, 1, 0, 0, [4]uint32{77})
	out := make([][4]uint32, 4)
	s := DefaultSampler()
	req := Request{Op: OpFetch, N: 4, IntCoord: [][4]int32{{3, 1, 0, 0}, {4, 0, 0, 0}, {1, 0, 0, 1}, {0, 0, 0, 5}}}
	if err := Sample(tx, &s, &req, out); err != nil {
		t.Fatal(err)
	}
	if out[0] != [4]uint32{13, 1, 2, 3} || out[1] != [4]uint32{} || out[2][0] != 77 || out[3] != [4]uint32{} {
		t.Errorf("fetch %v", out)
	}
	req = Request{Op: OpSize, N: 3, IntCoord: [][4]int32{{0, 0, 0, 0}, {0, 0, 0, 2}, {0, 0, 0, 3}}}
	if err := Sample(tx, &s, &req, out); err != nil {
		t.Fatal(err)
	}
	if out[0] != [4]uint32{4, 2, 0, 3} || out[1] != [4]uint32{1, 1, 0, 3} || out[2] != [4]uint32{0, 0, 0, 3} {
		t.Errorf("size %v", out[:3])
	}
	// Gather at the centre of texels (1..2, 0..1): order (i0,j1),(i1,j1),(i1,j0),(i0,j0).
	s = nearestS(ClampToEdge)
	req = Request{Op: OpGather, N: 1, Coord: [][4]float32{{0.5, 0.5}}}
	if err := Sample(tx, &s, &req, out); err != nil {
		t.Fatal(err)
	}
	if out[0] != [4]uint32{11, 12, 2, 1} {
		t.Errorf("gather %v, want [11 12 2 1]", out[0])
	}
	req.GatherComp = 3
	_ = Sample(tx, &s, &req, out)
	if out[0] != [4]uint32{3, 3, 3, 3} {
		t.Errorf("gather alpha %v", out[0])
	}
	req.GatherComp, req.Offset = 0, [3]int32{-1, 0, 0}
	_ = Sample(tx, &s, &req, out)
	if out[0] != [4]uint32{10, 11, 1, 0} {
		t.Errorf("gather offset %v", out[0])
	}
	req.UseGatherOffsets, req.GatherOffsets = true, [4][2]int32{{0, 0}, {1, 0}, {0, 0}, {-1, 0}}
	_ = Sample(tx, &s, &req, out)
	if out[0] != [4]uint32{11, 13, 2, 0} {
		t.Errorf("gather offsets %v", out[0])
	}
	// Integer textures never filter linearly.
	s.MinFilter, s.MagFilter = Linear, Linear
	req = Request{Op: OpSample, N: 1, Coord: [][4]float32{{0.3, 0.3}}}
	_ = Sample(tx, &s, &req, out)
	if out[0] != [4]uint32{1, 1, 2, 3} {
		t.Errorf("integer sample %v", out[0])
	}
	// Gather with compare.
	d := mustTex(t, Dim2D, format.D32F, 2, 2, 1, 1)
	_ = d.SetFloat(0, 1, 1, 0, [4]float32{1})
	s = nearestS(ClampToEdge)
	s.CompareEnable, s.Compare = true, compare.Less
	req = Request{Op: OpGather, N: 1, Coord: [][4]float32{{0.5, 0.5}}, Ref: []float32{0.5}}
	_ = Sample(d, &s, &req, out)
	if f := [4]float32{math.Float32frombits(out[0][0]), math.Float32frombits(out[0][1]), math.Float32frombits(out[0][2]), math.Float32frombits(out[0][3])}; f != [4]float32{0, 1, 0, 0} {
		t.Errorf("gather compare %v", f)
	}
}

func TestSwizzleAndFormats(t *testing.T) {
	tx := mustTex(t, Dim2D, format.RGBA8, 1, 1, 1, 1)
	_ = tx.SetFloat(0, 0, 0, 0, [4]float32{1, 0.5, 0, 0.2})
	tx.Swizzle = [4]Swizzle{SwizzleB, SwizzleG, SwizzleR, SwizzleOne}
	s := nearestS(Repeat)
	got := sample1(t, tx, s, Request{Coord: [][4]float32{{0.5, 0.5}}})
	if got != [4]float32{0, 128.0 / 255, 1, 1} {
		t.Errorf("swizzle %v", got)
	}
	tx.Swizzle = [4]Swizzle{SwizzleZero, SwizzleA, SwizzleA, SwizzleR}
	if got := sample1(t, tx, s, Request{Coord: [][4]float32{{0.5, 0.5}}}); got != [4]float32{0, 51.0 / 255, 51.0 / 255, 1} {
		t.Errorf("swizzle 2 %v", got)
	}
	sr := mustTex(t, Dim2D, format.SRGB8A8, 1, 1, 1, 1)
	_ = sr.SetFloat(0, 0, 0, 0, [4]float32{0.5, 0.5, 0.5, 0.5})
	if got := sample1(t, sr, s, Request{Coord: [][4]float32{{0.5, 0.5}}}); math.Abs(float64(got[0])-0.5) > 0.003 || got[3] != 128.0/255 {
		t.Errorf("sRGB decode %v", got)
	}
	h := mustTex(t, Dim1D, format.RGBA16F, 2, 1, 1, 1)
	_ = h.SetFloat(0, 1, 0, 0, [4]float32{-3.5, 1024, 0.25, 1})
	if got := sample1(t, h, s, Request{Coord: [][4]float32{{0.9}}}); got != [4]float32{-3.5, 1024, 0.25, 1} {
		t.Errorf("half 1D %v", got)
	}
}

func TestGenerateMipmaps(t *testing.T) {
	tx := mustTex(t, Dim2D, format.R32F, 5, 3, 1, 0)
	for y := range 3 {
		for x := range 5 {
			_ = tx.SetFloat(0, x, y, 0, [4]float32{float32(x + 5*y)})
		}
	}
	if err := tx.GenerateMipmaps(); err != nil {
		t.Fatal(err)
	}
	if len(tx.Levels) != 3 || tx.Levels[1].W != 2 || tx.Levels[1].H != 1 || tx.Levels[2].W != 1 {
		t.Fatalf("levels %d, level 1 %dx%d", len(tx.Levels), tx.Levels[1].W, tx.Levels[1].H)
	}
	at := func(l, x int) float32 {
		return format.ToFloat(tx.Format, format.Unpack(tx.Format, tx.Levels[l].Data[tx.Levels[l].Offset(tx.Format, x, 0, 0):]))[0]
	}
	// level 1 texel 0 covers x 0..1, y 0..2: mean 5.5; texel 1 covers x
	// 2..4 (the odd column folds in): mean 8; level 2 is their mean.
	if at(1, 0) != 5.5 || at(1, 1) != 8 || at(2, 0) != 6.75 {
		t.Errorf("mips %v %v %v", at(1, 0), at(1, 1), at(2, 0))
	}
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		dim     Dim
		f       format.Format
		w, h, d int
	}{{Dim2D, format.Invalid, 1, 1, 1}, {Dim2D, format.RGBA8, 0, 1, 1}, {Dim1D, format.RGBA8, 4, 2, 1}, {DimCube, format.RGBA8, 4, 4, 5}, {99, format.RGBA8, 1, 1, 1}, {Dim3D, format.RGBA32F, 1 << 15, 1 << 15, 2}} {
		if _, err := NewTexture(c.dim, c.f, c.w, c.h, c.d, 1); err == nil {
			t.Errorf("NewTexture(%v %v %dx%dx%d) accepted", c.dim, c.f, c.w, c.h, c.d)
		}
	}
	tx := ramp4(t)
	s := DefaultSampler()
	out := make([][4]uint32, 1)
	for _, req := range []Request{
		{Op: OpSample, N: 2, Coord: [][4]float32{{0}}},
		{Op: OpSample, N: 1, Coord: [][4]float32{{0}}, LOD: LODGrad},
		{Op: OpSample, N: 1, Coord: [][4]float32{{0}}, LOD: LODExplicit},
		{Op: OpFetch, N: 1},
		{Op: 42, N: 1},
		{Op: OpGather, N: 1, Coord: [][4]float32{{0}}, GatherComp: 4},
	} {
		if err := Sample(tx, &s, &req, out); err == nil {
			t.Errorf("request %+v accepted", req)
		}
	}
	// Non-finite coordinates and derivatives do not panic.
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	req := Request{Op: OpSample, N: 1, Coord: [][4]float32{{nan, inf}}, LOD: LODGrad, DPdx: [][3]float32{{inf, nan, 0}}, DPdy: [][3]float32{{nan, 0, 0}}}
	s.MaxAnisotropy = 16
	if err := Sample(tx, &s, &req, out); err != nil {
		t.Fatal(err)
	}
}

func TestCubeSeamless(t *testing.T) {
	tx := mustTex(t, DimCube, format.R32F, 2, 2, 6, 1)
	for f := range 6 {
		for y := range 2 {
			for x := range 2 {
				_ = tx.SetFloat(0, x, y, f, [4]float32{float32(10 * f)})
			}
		}
	}
	s := nearestS(ClampToEdge)
	s.MinFilter, s.MagFilter = Linear, Linear
	// +X near its t = 1 edge (towards -y): the footprint's lower row lies on -Y.
	dir := [][4]float32{{1, -0.99, 0}}
	if got := sample1(t, tx, s, Request{Coord: dir})[0]; got != 0 {
		t.Errorf("non-seamless %v, want 0", got)
	}
	s.CubeSeamless = true
	if got := sample1(t, tx, s, Request{Coord: dir})[0]; math.Abs(float64(got)-0.49*30) > 1e-4 {
		t.Errorf("seamless %v, want %v", got, 0.49*30)
	}
	for f := range 6 {
		for _, c := range [][2]int{{-1, 0}, {2, 1}, {0, -1}, {1, 2}} {
			i, j, k := seamless(2, c[0], c[1], f+6)
			if i < 0 || i > 1 || j < 0 || j > 1 || k/6 != 1 || k%6 == f {
				t.Errorf("face %d texel %v -> (%d,%d,%d)", f, c, i, j, k)
			}
		}
	}
}

func TestValidateCraftedTextures(t *testing.T) {
	good := ramp4(t)
	short := *good
	short.Levels = []Level{{W: 4, H: 1, D: 1, Data: make([]byte, 3)}}
	cube := mustTex(t, DimCube, format.RGBA8, 2, 2, 6, 1)
	cube.Levels[0].D = 5
	s := DefaultSampler()
	out := make([][4]uint32, 1)
	for i, tx := range []*Texture{&short, cube, {Dim: Dim2D, Format: format.RGBA8}, {Dim: 0, Format: format.RGBA8, Levels: good.Levels}} {
		req := Request{Op: OpSample, N: 1, Coord: [][4]float32{{0.5, 0.5}}}
		if err := Sample(tx, &s, &req, out); err == nil {
			t.Errorf("crafted texture %d accepted", i)
		}
		if err := tx.GenerateMipmaps(); err == nil {
			t.Errorf("crafted texture %d: mipmap generation accepted", i)
		}
	}
}

func TestUnnormalized(t *testing.T) {
	tx := levels8(t)
	tx.BaseLevel = 0
	_ = tx.SetFloat(0, 5, 2, 0, [4]float32{42, 0, 0, 1})
	s := nearestS(ClampToEdge)
	s.Unnormalized, s.MipFilter = true, MipLinear
	got := sample1(t, tx, s, Request{Coord: [][4]float32{{5.5, 2.9}}, LOD: LODExplicit, LODValue: []float32{2}})[0]
	if got != 42 {
		t.Fatalf("rectangle texel (5,2): %v, want 42 from level 0", got)
	}
	s.MagFilter = Linear
	if got := sample1(t, tx, s, Request{Coord: [][4]float32{{6, 2.5}}})[0]; got != 21 {
		t.Fatalf("rectangle linear between (5,2) and (6,2): %v, want 21", got)
	}
}

func TestCubeLOD(t *testing.T) {
	tx := mustTex(t, DimCube, format.R32F, 8, 8, 6, 0)
	for n, l := range tx.Levels {
		for z := range 6 {
			for y := range l.H {
				for x := range l.W {
					_ = tx.SetFloat(n, x, y, z, [4]float32{float32(n)})
				}
			}
		}
	}
	s := nearestS(ClampToEdge)
	s.MipFilter = MipLinear
	// On +X at its centre, s = (1 - z/x)/2: a z step of -2/8 moves s by 1/8
	// (one texel of 8): lambda 0; -4/8: lambda 1; an x step changes only the
	// major axis, which does not move the centre.
	for _, c := range []struct {
		dx   [3]float32
		want float32
	}{{[3]float32{0, 0, -2.0 / 8}, 0}, {[3]float32{0, 0, -4.0 / 8}, 1}, {[3]float32{0, 8.0 / 8, 0}, 2}, {[3]float32{0.5, 0, 0}, 0}} {
		got := sample1(t, tx, s, Request{Coord: [][4]float32{{1, 0, 0}}, LOD: LODGrad, DPdx: [][3]float32{c.dx}, DPdy: [][3]float32{{}}})[0]
		if math.Abs(float64(got-c.want)) > 1e-5 {
			t.Errorf("derivative %v: level %v, want %v", c.dx, got, c.want)
		}
	}
}

// TestBufferTexture: a buffer texture is one level of W texels read by
// texelFetch (zero past either end, whatever the level operand says about
// other levels) and textureSize; sampling it is a request error.
// spec: GL 4.6 §8.9; GLSL 1.40 §8.7
func TestBufferTexture(t *testing.T) {
	tex, err := NewTexture(DimBuffer, format.R32UI, 70000, 1, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(tex.Levels) != 1 || tex.Levels[0].W != 70000 {
		t.Fatalf("levels %d, width %d", len(tex.Levels), tex.Levels[0].W)
	}
	for _, x := range []int{0, 1, 69999} {
		if err := tex.SetInt(0, x, 0, 0, [4]uint32{uint32(x) + 5}); err != nil {
			t.Fatal(err)
		}
	}
	s := DefaultSampler()
	ic := [][4]int32{{0}, {69999}, {70000}, {-1}, {1, 3, 4}, {0, 0, 0, 1}}
	out := make([][4]uint32, len(ic))
	if err := Sample(tex, &s, &Request{Op: OpFetch, N: len(ic), IntCoord: ic}, out); err != nil {
		t.Fatal(err)
	}
	want := [][4]uint32{{5, 0, 0, 1}, {70004, 0, 0, 1}, {}, {}, {6, 0, 0, 1}, {}}
	for i := range want {
		if out[i] != want[i] {
			t.Errorf("fetch %v = %v, want %v", ic[i], out[i], want[i])
		}
	}
	if err := Sample(tex, &s, &Request{Op: OpSize, N: 1, IntCoord: ic[:1]}, out); err != nil || out[0] != [4]uint32{70000, 0, 0, 1} {
		t.Errorf("size = %v, %v", out[0], err)
	}
	if err := Sample(tex, &s, &Request{Op: OpSample, N: 1, Coord: [][4]float32{{0.5}}}, out); !errors.Is(err, ErrBadRequest) {
		t.Errorf("sample on a buffer texture: %v", err)
	}
	for _, sz := range [][3]int{{MaxBufferTexels + 1, 1, 1}, {4, 2, 1}, {4, 1, 2}} {
		if _, err := NewTexture(DimBuffer, format.R8, sz[0], sz[1], sz[2], 1); !errors.Is(err, ErrBadTexture) {
			t.Errorf("buffer texture %v: %v", sz, err)
		}
	}
}
