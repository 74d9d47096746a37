package sampler

import (
	"math"
	"math/rand/v2"
	"testing"

	"vortexgfx/gl/format"
)

// padded returns a copy of tx whose levels have row and slice padding, so the
// texels sit at other byte offsets of a larger buffer.
func padded(tx *Texture, rowPad, slicePad int) *Texture {
	c := *tx
	c.Levels = make([]Level, len(tx.Levels))
	b := tx.Format.Info().Bytes
	for i, l := range tx.Levels {
		row := l.W*b + rowPad
		slice := row*l.H + slicePad
		n := Level{W: l.W, H: l.H, D: l.D, RowPitch: row, SlicePitch: slice, Data: make([]byte, slice*l.D)}
		for z := range l.D {
			for y := range l.H {
				copy(n.Data[z*slice+y*row:], l.Data[l.Offset(tx.Format, 0, y, z):][:l.W*b])
			}
		}
		c.Levels[i] = n
	}
	return &c
}

// spec: vortexpipe-driver §3.6 (the SW sampler reads levels at any address and
// pitch): a pitched copy samples bit-identically to the packed original.
func TestPitchedLevels(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		dim     Dim
		f       format.Format
		w, h, d int
	}{
		{Dim2D, format.RGBA8, 5, 3, 1}, {Dim2DArray, format.RG8, 6, 4, 3}, {Dim3D, format.RGBA16F, 4, 4, 4},
		{DimCube, format.R32F, 4, 4, 6}, {Dim1DArray, format.SRGB8A8, 7, 1, 2},
	} {
		tx := mustTex(t, tc.dim, tc.f, tc.w, tc.h, tc.d, 0)
		for _, l := range tx.Levels {
			for i := range l.Data {
				l.Data[i] = byte(rng.Uint32() >> 3 & 0x3F) // no NaN halves
			}
		}
		p := padded(tx, 12, 40)
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		s := DefaultSampler()
		s.MinFilter, s.MagFilter, s.MipFilter, s.WrapS, s.WrapT, s.WrapR = Linear, Linear, MipLinear, MirroredRepeat, Repeat, ClampToEdge
		n := 16
		req := Request{Op: OpSample, N: n, Coord: make([][4]float32, n), LOD: LODExplicit, LODValue: make([]float32, n)}
		for l := range n {
			req.Coord[l] = [4]float32{rng.Float32()*3 - 1, rng.Float32()*3 - 1, rng.Float32()*3 - 1, rng.Float32() * 2}
			req.LODValue[l] = rng.Float32()*4 - 1
		}
		a, b := make([][4]uint32, n), make([][4]uint32, n)
		if err := Sample(tx, &s, &req, a); err != nil {
			t.Fatal(err)
		}
		if err := Sample(p, &s, &req, b); err != nil {
			t.Fatal(err)
		}
		for l := range n {
			if a[l] != b[l] {
				t.Errorf("%v %v lane %d: pitched %x, packed %x", tc.dim, tc.f, l, b[l], a[l])
			}
		}
		p.Levels[0].Data = p.Levels[0].Data[:len(p.Levels[0].Data)-53]
		if err := p.Validate(); err == nil {
			t.Errorf("%v: short pitched level accepted", tc.dim)
		}
	}
	bad := mustTex(t, Dim2D, format.RGBA8, 4, 4, 1, 1)
	bad.Levels[0].RowPitch = 12
	if err := bad.Validate(); err == nil {
		t.Error("row pitch below the row accepted")
	}
}

// spec: vortexpipe-driver §3.4.1 (sample-major layout), §3.6 (txf_ms).
func TestMultisampleFetch(t *testing.T) {
	tx, err := NewMultisampleTexture(Dim2DArray, format.RGBA8UI, 3, 2, 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	l := &tx.Levels[0]
	for z := range 2 {
		for y := range 2 {
			for x := range 3 {
				for k := range 4 {
					off := z*l.SlicePitch + y*l.RowPitch + (x*4+k)*4
					format.Pack(tx.Format, l.Data[off:], format.FromInt(tx.Format, [4]uint32{uint32(x), uint32(y), uint32(z), uint32(k)}))
				}
			}
		}
	}
	s := DefaultSampler()
	out := make([][4]uint32, 5)
	req := Request{Op: OpFetchSample, N: 5, IntCoord: [][4]int32{{2, 1, 1, 3}, {0, 0, 0, 0}, {3, 0, 0, 0}, {1, 1, 1, 4}, {1, 1, 2, 0}}}
	if err := Sample(tx, &s, &req, out); err != nil {
		t.Fatal(err)
	}
	want := [][4]uint32{{2, 1, 1, 3}, {0, 0, 0, 0}, {}, {}, {}}
	for i := range want {
		if out[i] != want[i] {
			t.Errorf("fetch %v = %v, want %v", req.IntCoord[i], out[i], want[i])
		}
	}
	req = Request{Op: OpSize, N: 1, IntCoord: [][4]int32{{}}}
	if err := Sample(tx, &s, &req, out); err != nil || out[0] != [4]uint32{3, 2, 2, 1} {
		t.Errorf("size %v %v", out[0], err)
	}
	req = Request{Op: OpSample, N: 1, Coord: [][4]float32{{}}}
	if err := Sample(tx, &s, &req, out); err == nil {
		t.Error("filtered sample of a multisample texture accepted")
	}
	if _, err := NewMultisampleTexture(Dim3D, format.RGBA8, 2, 2, 2, 4); err == nil {
		t.Error("3D multisample texture accepted")
	}
}

// spec: vortexpipe-driver §3.6 (textureQueryLod row): x is the level a sample
// accesses (the value TestMipSelection's level-indexed texture returns), y the
// clamped level of detail.
func TestQueryLod(t *testing.T) {
	tx := levels8(t)
	for _, c := range []struct {
		mip        MipFilter
		lod, bias  float32
		minL, maxL float32
		base       int
		wantX      float32
		wantY      float32
	}{
		{MipNearest, 0.5, 0, -1000, 1000, 0, 0, 0.5}, {MipNearest, 0.51, 0, -1000, 1000, 0, 1, 0.51},
		{MipNearest, 1.6, 0, -1000, 1000, 0, 2, 1.6}, {MipNearest, 9, 0, -1000, 1000, 0, 3, 9},
		{MipLinear, 1.25, 0, -1000, 1000, 0, 1.25, 1.25}, {MipLinear, 7, 0, -1000, 1000, 0, 3, 7},
		{MipLinear, 0.5, 1, -1000, 1000, 0, 1.5, 1.5}, {MipLinear, 3, 0, 0, 1.5, 0, 1.5, 1.5},
		{MipLinear, -3, 0, -1000, 1000, 0, 0, -3}, {MipNearest, 1, 0, -1000, 1000, 2, 1, 1},
		{MipNone, 3, 0, -1000, 1000, 0, 0, 3},
	} {
		s := nearestS(Repeat)
		s.MipFilter, s.LODBias, s.MinLOD, s.MaxLOD = c.mip, c.bias, c.minL, c.maxL
		tx.BaseLevel = c.base
		req := Request{Op: OpQueryLod, N: 1, Coord: [][4]float32{{0.3, 0.6}}, LOD: LODExplicit, LODValue: []float32{c.lod}}
		out := make([][4]uint32, 1)
		if err := Sample(tx, &s, &req, out); err != nil {
			t.Fatal(err)
		}
		x, y := math.Float32frombits(out[0][0]), math.Float32frombits(out[0][1])
		if math.Abs(float64(x-c.wantX)) > 1e-6 || math.Abs(float64(y-c.wantY)) > 1e-6 {
			t.Errorf("%+v: query (%v, %v), want (%v, %v)", c, x, y, c.wantX, c.wantY)
		}
	}
	tx.BaseLevel = 0
	// From derivatives: a 1/8 step per pixel on an 8x8 base is 1 texel: lambda 0;
	// 1/2 is 4 texels: lambda 2.
	s := nearestS(Repeat)
	s.MipFilter = MipLinear
	req := Request{Op: OpQueryLod, N: 2, Coord: make([][4]float32, 2), LOD: LODGrad,
		DPdx: [][3]float32{{0.125, 0}, {0.5, 0}}, DPdy: [][3]float32{{0, 0.125}, {0, 0.5}}}
	out := make([][4]uint32, 2)
	if err := Sample(tx, &s, &req, out); err != nil {
		t.Fatal(err)
	}
	if math.Float32frombits(out[0][1]) != 0 || math.Float32frombits(out[1][1]) != 2 || math.Float32frombits(out[1][0]) != 2 {
		t.Errorf("derivative query %v", out)
	}
}

// spec: vortexpipe-driver §3.6 (Mirror-clamp wraps MIRROR_CLAMP*): the
// EXT_texture_mirror_clamp modes on a 4-texel ramp, texel i holding i+1 and
// the border 10.
func TestMirrorClampEXT(t *testing.T) {
	tx := mustTex(t, Dim1D, format.R32F, 4, 1, 1, 1)
	for x := range 4 {
		_ = tx.SetFloat(0, x, 0, 0, [4]float32{float32(x + 1)})
	}
	for _, c := range []struct {
		w    Wrap
		f    Filter
		s    float32
		want float32
	}{
		{MirrorClamp, Nearest, -0.3, 2},          // |−1.2| → texel 1
		{MirrorClamp, Nearest, -1.5, 4},          // |−6| clamps to 4 → last texel
		{MirrorClamp, Linear, -0.25, 1.5},        // |−1| − 0.5: texels 0, 1 half each
		{MirrorClamp, Linear, 0.0625, 3.25},      // 0.25 − 0.5: ¼ border, ¾ texel 0
		{MirrorClamp, Linear, 2, 7},              // clamped to 4: texel 3 and the border
		{MirrorClampToBorder, Nearest, -1.1, 10}, // |−4.4| → index 4: border
		{MirrorClampToBorder, Nearest, -0.9, 4},  // |−3.6| → texel 3
		{MirrorClampToBorder, Linear, -2, 10},    // clamped to 4.5 − 0.5 = 4: border only
		{MirrorClampToBorder, Linear, 0.5, 2.5},
	} {
		s := nearestS(c.w)
		s.MinFilter, s.MagFilter = c.f, c.f
		got := sample1(t, tx, s, Request{Coord: [][4]float32{{c.s}}})[0]
		if got != c.want {
			t.Errorf("wrap %d filter %d s=%v: %v, want %v", c.w, c.f, c.s, got, c.want)
		}
	}
}
