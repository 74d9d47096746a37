package swtex

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"vortexgfx/abi"
	fftex "vortexgfx/device/tex"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// ffTolerance is the largest difference, in 8-bit steps per channel, between the
// FF TEX unit's fixed-point filtering and the software sampler's float filtering
// of the same POT BGRA8 texture and state (bilinear weights quantised to 1/256,
// the /255 lerp, and the trilinear blend of two rounded levels). A forced-software
// image may differ from the FF one by this much per channel.
// spec: vortex-hardware-facts §4 (FF arithmetic); vortexpipe-driver §2.3.3
// (VORTEX_FORCE_SW=tex A/B)
const ffTolerance = 2

// ffCase is one FF TEX configuration and its software equivalent.
type ffCase struct {
	name   string
	wrapFF abi.TexWrap
	filter uint32
	mip    sampler.MipFilter
	// lo, hi bound the coordinates (S.23 raw); maxLod bounds the level operand.
	lo, hi int32
	maxLod uint32
}

// ffCompare samples n random coordinates of c through the FF TEX model and the
// software sampler over the same texels and returns the largest per-channel
// difference in 8-bit steps and where it happened.
func ffCompare(t *testing.T, c ffCase, n int) (worst int, at string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(21, 22))
	tx := newTex(t, sampler.Dim2D, format.BGRA8, 32, 8, 1, 0, rng)
	if err := tx.GenerateMipmaps(); err != nil {
		t.Fatal(err)
	}
	m := devMem(t)
	// The FF chain: the same level bytes packed at byte offsets (MIPOFF).
	var chain []byte
	var offs [abi.TexMaxLevels]uint32
	for i, l := range tx.Levels {
		offs[i] = uint32(len(chain))
		chain = append(chain, l.Data...)
	}
	for i := len(tx.Levels); i < abi.TexMaxLevels; i++ {
		offs[i] = offs[len(tx.Levels)-1]
	}
	ffBase, err := m.Alloc(uint64(len(chain)), 64)
	if err != nil {
		t.Fatal(err)
	}
	_ = m.Write(ffBase, chain)
	border := [4]uint8{40, 200, 90, 255} // R G B A
	st := fftex.Stage{Addr: uint32(ffBase >> 6), LogDim: abi.PackTexLogDim(5, 3), Format: uint32(abi.TexA8R8G8B8),
		Filter: c.filter, Wrap: abi.PackTexWrap(c.wrapFF, c.wrapFF), MipOff: offs,
		Border: uint32(border[3])<<24 | uint32(border[0])<<16 | uint32(border[1])<<8 | uint32(border[2])}
	ff, err := fftex.Bind(m, st)
	if err != nil {
		t.Fatal(err)
	}
	// The software side samples the FF chain in place, through FFDescriptor.
	d, err := FFDescriptor(st, c.mip != noMip)
	if err != nil {
		t.Fatal(err)
	}
	table, _ := m.Alloc(abi.SWTexDescBytes, 64)
	db := make([]byte, abi.SWTexDescBytes)
	d.Put(db)
	_ = m.Write(table, db)
	sw := New()
	if err := sw.Bind(m, table, 1); err != nil {
		t.Fatal(err)
	}
	req := &sampler.Request{Op: sampler.OpSample, N: 1, Coord: make([][4]float32, 1), LOD: sampler.LODExplicit, LODValue: make([]float32, 1)}
	out := make([][4]uint32, 1)
	for range n {
		// S.23 coordinates in [lo, hi): |c| < 2^24 is exact in float32.
		u, v := c.lo+rng.Int32N(c.hi-c.lo), c.lo+rng.Int32N(c.hi-c.lo)
		var lodFF uint32
		var lodSW float32
		switch c.mip {
		case sampler.MipNearest:
			lodFF = rng.Uint32N(c.maxLod + 1)
			lodSW = float32(lodFF)
		case sampler.MipLinear:
			lodFF = rng.Uint32N(c.maxLod << abi.TexLodFracBits)
			lodSW = float32(lodFF) / (1 << abi.TexLodFracBits)
		}
		argb := ff.Sample(u, v, lodFF)
		req.Coord[0] = [4]float32{float32(u) / (1 << 23), float32(v) / (1 << 23)}
		req.LODValue[0] = lodSW
		if err := sw.Sample(0, req, out); err != nil {
			t.Fatal(err)
		}
		want := [4]uint32{argb >> 16 & 0xFF, argb >> 8 & 0xFF, argb & 0xFF, argb >> 24}
		for k := range 4 {
			got := int(math.Round(float64(math.Float32frombits(out[0][k])) * 255))
			if d := abs(got - int(want[k])); d > worst {
				worst = d
				at = fmt.Sprintf("(%v, %v) lod %v: SW %d, FF %d", req.Coord[0][0], req.Coord[0][1], lodSW, got, want[k])
			}
		}
	}
	return worst, at
}

// TestFFAgreement samples POT BGRA8 textures through the FF TEX model and the
// software sampler with the same texels and state and checks they agree within
// ffTolerance (nearest sampling exactly): every FF filter on CLAMP and REPEAT,
// nearest on MIRROR and BORDER, and bilinear MIRROR/BORDER where the footprint
// stays inside the image (see TestFFLinearEdgeDivergence for the rest).
// spec: vortexpipe-driver §3.6 (rows 1-3: FF vx_tex), §2.3.3 (forced SW A/B)
func TestFFAgreement(t *testing.T) {
	const one = 1 << 23
	bil, tri := abi.TexFilterBilinear, abi.TexFilterBilinear|abi.TexFilterMipLinear
	var cases []ffCase
	for _, w := range []struct{ ff abi.TexWrap }{{abi.WrapClamp}, {abi.WrapRepeat}} {
		cases = append(cases,
			ffCase{"nearest", w.ff, 0, noMip, -2 * one, 2 * one, 0},
			ffCase{"bilinear", w.ff, bil, noMip, -2 * one, 2 * one, 0},
			ffCase{"bilinear, nearest mip", w.ff, bil, nearMip, -2 * one, 2 * one, 5},
			ffCase{"trilinear", w.ff, tri, linMip, -2 * one, 2 * one, 5})
	}
	cases = append(cases,
		ffCase{"nearest", abi.WrapMirror, 0, noMip, -2 * one, 2 * one, 0},
		ffCase{"nearest", abi.WrapBorder, 0, noMip, -2 * one, 2 * one, 0},
		ffCase{"bilinear inside", abi.WrapMirror, bil, noMip, one / 8, one - one/8, 0},
		ffCase{"bilinear inside", abi.WrapBorder, bil, noMip, one / 8, one - one/8, 0})
	worst := 0
	for _, c := range cases {
		d, at := ffCompare(t, c, 300)
		lim := ffTolerance
		if c.filter == 0 {
			lim = 0
		}
		if d > lim {
			t.Errorf("wrap %v %s: FF and SW differ by %d/255 at %s", c.wrapFF, c.name, d, at)
		}
		worst = max(worst, d)
	}
	t.Logf("worst FF/SW channel difference: %d/255 (tolerance %d)", worst, ffTolerance)
}

// TestFFLinearEdgeDivergence measures where the FF unit's fixed-point filtering
// is not the GL/Vulkan filter, so the software sampler (which is) cannot match
// it: with MIRROR the FF takes the bilinear weights from the mirrored left tap,
// which swaps the two weights in every mirrored period; with BORDER the weight of
// a tap outside the image comes from the clamped coordinate, so within half a
// texel of an edge the FF returns (mostly) the border colour. Both are properties
// of the modelled hardware (vortex-hardware-facts §4), reported, not asserted.
// spec: vortexpipe-driver §1.5.1 (silent collapse), §3.6
func TestFFLinearEdgeDivergence(t *testing.T) {
	const one = 1 << 23
	bil := abi.TexFilterBilinear
	for _, c := range []ffCase{
		{"bilinear, mirrored periods", abi.WrapMirror, bil, noMip, one, 2 * one, 0},
		{"bilinear at the edges", abi.WrapBorder, bil, noMip, -one / 16, one / 16, 0},
	} {
		d, at := ffCompare(t, c, 300)
		t.Logf("wrap %v %s: FF/SW differ by up to %d/255 (%s)", c.wrapFF, c.name, d, at)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// TestFFDescriptorRefusals: only in-place-samplable FF stages convert.
func TestFFDescriptorRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		st   fftex.Stage
	}{
		{"R5G6B5 format", fftex.Stage{Format: uint32(abi.TexR5G6B5)}},
		{"LOGDIM", fftex.Stage{LogDim: abi.PackTexLogDim(16, 0)}},
		{"wrap code 4", fftex.Stage{Wrap: abi.PackTexWrap(abi.WrapMirrorClamp, 0)}},
	} {
		if _, err := FFDescriptor(tc.st, true); !errors.Is(err, ErrLayout) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
