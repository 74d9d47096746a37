package swtex

import (
	"math/rand/v2"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/device/mem"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// devMem is fake device memory: package mem's allocator-backed device space.
func devMem(t testing.TB) *mem.Device { return mem.NewDevice(0x4000_0000, 256<<20) }

// resident uploads each (texture, sampler) pair the way a driver does (Layout,
// allocate, write, relocate the descriptor) and writes the descriptor table. It
// returns the table address.
func resident(t testing.TB, m *mem.Device, texs []*sampler.Texture, smps []sampler.Sampler) uint64 {
	t.Helper()
	table, err := m.Alloc(uint64(len(texs))*abi.SWTexDescBytes, 64)
	if err != nil {
		t.Fatal(err)
	}
	for i, tx := range texs {
		u, err := Layout(tx, &smps[i])
		if err != nil {
			t.Fatal(err)
		}
		base, err := m.Alloc(uint64(len(u.Data)), LevelAlign)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Write(base, u.Data); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, abi.SWTexDescBytes)
		u.PutDescriptor(base, b)
		if err := m.Write(table+uint64(i)*abi.SWTexDescBytes, b); err != nil {
			t.Fatal(err)
		}
	}
	return table
}

// fill writes random texel values to every level (unorm/float components in
// [0,1], depth in [0,1], integers over their whole range).
func fill(tx *sampler.Texture, rng *rand.Rand) {
	b := tx.Format.Info().Bytes
	for li := range tx.Levels {
		l := &tx.Levels[li]
		spp := max(tx.Samples, 1)
		for z := range l.D {
			for y := range l.H {
				for x := range l.W * spp {
					off := z*l.SlicePitch + y*l.RowPitch + x*b
					if l.RowPitch == 0 {
						off = ((z*l.H+y)*l.W*spp + x) * b
					}
					dst := l.Data[off:]
					switch {
					case tx.Format.IsDepth():
						format.PackDepth(tx.Format, dst, rng.Float32())
						if tx.Format.HasStencil() {
							format.PackStencil(tx.Format, dst, uint8(rng.Uint32()))
						}
					case tx.Format == format.S8:
						format.PackStencil(tx.Format, dst, uint8(rng.Uint32()))
					case tx.Format.IsInteger():
						format.Pack(tx.Format, dst, format.FromInt(tx.Format, [4]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}))
					default:
						format.Pack(tx.Format, dst, format.FromFloat(tx.Format, [4]float32{rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()}))
					}
				}
			}
		}
	}
}

func newTex(t testing.TB, dim sampler.Dim, f format.Format, w, h, d, levels int, rng *rand.Rand) *sampler.Texture {
	t.Helper()
	tx, err := sampler.NewTexture(dim, f, w, h, d, levels)
	if err != nil {
		t.Fatal(err)
	}
	fill(tx, rng)
	return tx
}

// smp returns a sampler state with the given filters and one wrap on all axes.
func smp(min, mag sampler.Filter, mip sampler.MipFilter, w sampler.Wrap) sampler.Sampler {
	s := sampler.DefaultSampler()
	s.MinFilter, s.MagFilter, s.MipFilter, s.WrapS, s.WrapT, s.WrapR = min, mag, mip, w, w, w
	s.BorderColor = [4]float32{0.25, 0.5, 0.75, 1}
	s.BorderColorInt = [4]uint32{7, 8, 9, 10}
	return s
}

// reqGen describes random requests of one op.
type reqGen struct {
	op       sampler.Op
	lod      sampler.LODMode
	coords   int     // coordinates used (incl. layer)
	lo, hi   float32 // coordinate range
	layerMax float32 // 0: no layer coordinate; else the layer coordinate's range
	gradMax  float32 // gradient magnitude (LODGrad)
	aniso    bool    // stretch x gradients 8x over y
	ref      bool
	bias     bool
	intMax   int32 // OpFetch/OpSize/OpFetchSample integer range
	comp     int
	offset   [3]int32
	offsets  bool
}

const lanes = 32

func (g reqGen) make(rng *rand.Rand) *sampler.Request {
	r := &sampler.Request{Op: g.op, N: lanes, LOD: g.lod, Coord: make([][4]float32, lanes), IntCoord: make([][4]int32, lanes),
		Offset: g.offset, GatherComp: g.comp}
	span := g.hi - g.lo
	for l := range lanes {
		for k := 0; k < g.coords; k++ {
			r.Coord[l][k] = g.lo + rng.Float32()*span
		}
		if g.layerMax > 0 {
			r.Coord[l][g.coords] = rng.Float32()*(g.layerMax+2) - 1
		}
		for k := range 3 {
			r.IntCoord[l][k] = rng.Int32N(g.intMax+3) - 1
		}
		r.IntCoord[l][3] = rng.Int32N(6) - 1 // level, or sample index

	}
	if g.ref {
		r.Ref = make([]float32, lanes)
		for l := range r.Ref {
			r.Ref[l] = rng.Float32()*1.2 - 0.1
		}
	}
	switch g.lod {
	case sampler.LODExplicit:
		r.LODValue = make([]float32, lanes)
		for l := range r.LODValue {
			r.LODValue[l] = rng.Float32()*8 - 2
		}
	case sampler.LODGrad:
		r.DPdx, r.DPdy = make([][3]float32, lanes), make([][3]float32, lanes)
		for l := range lanes {
			for k := range 3 {
				r.DPdx[l][k] = (rng.Float32()*2 - 1) * g.gradMax
				r.DPdy[l][k] = (rng.Float32()*2 - 1) * g.gradMax
			}
			if g.aniso {
				r.DPdx[l] = [3]float32{g.gradMax * (1 + rng.Float32()), 0, 0}
				r.DPdy[l] = [3]float32{0, g.gradMax / 8 * (1 + rng.Float32()), 0}
			}
		}
	}
	if g.bias {
		r.LODValue = make([]float32, lanes)
		for l := range r.LODValue {
			r.LODValue[l] = rng.Float32()*2 - 1
		}
	}
	if g.offsets {
		r.UseGatherOffsets = true
		for i := range r.GatherOffsets {
			r.GatherOffsets[i] = [2]int32{rng.Int32N(17) - 8, rng.Int32N(17) - 8}
		}
	}
	return r
}

var (
	fNear, fLin            = sampler.Nearest, sampler.Linear
	noMip, nearMip, linMip = sampler.MipNone, sampler.MipNearest, sampler.MipLinear
)

func uv(op sampler.Op, lod sampler.LODMode, grad float32) reqGen {
	return reqGen{op: op, lod: lod, coords: 2, lo: -0.5, hi: 1.5, gradMax: grad}
}

// coverageRow is one row of the vortexpipe §3.6 TEX coverage table (or a case of
// it): a texture, a sampler state and the requests that exercise it.
type coverageRow struct {
	row  string
	name string
	tex  func(testing.TB, *rand.Rand) *sampler.Texture
	smp  func() sampler.Sampler
	reqs []reqGen
	// distinct asks that the results not all be equal (the case is not vacuous).
	distinct bool
}

func tex(dim sampler.Dim, f format.Format, w, h, d, levels int) func(testing.TB, *rand.Rand) *sampler.Texture {
	return func(t testing.TB, rng *rand.Rand) *sampler.Texture { return newTex(t, dim, f, w, h, d, levels, rng) }
}

func fixed(s sampler.Sampler) func() sampler.Sampler { return func() sampler.Sampler { return s } }

func withCompare(s sampler.Sampler, f compare.Func) sampler.Sampler {
	s.CompareEnable, s.Compare = true, f
	return s
}

func coverage() []coverageRow {
	lin := smp(fLin, fLin, linMip, sampler.Repeat)
	aniso := smp(fLin, fLin, linMip, sampler.Repeat)
	aniso.MaxAnisotropy = 16
	biased := lin
	biased.LODBias, biased.MinLOD, biased.MaxLOD = 0.75, 0.5, 3.25
	rect := smp(fLin, fLin, noMip, sampler.ClampToEdge)
	rect.Unnormalized = true
	seamless := smp(fLin, fLin, linMip, sampler.ClampToEdge)
	seamless.CubeSeamless = true
	mirrorClamp := smp(fLin, fLin, linMip, sampler.MirrorClampToEdge)
	mixedWrap := smp(fLin, fLin, noMip, sampler.Repeat)
	mixedWrap.WrapS, mixedWrap.WrapT = sampler.MirrorClampToEdge, sampler.Clamp
	extWrap := smp(fLin, fLin, linMip, sampler.Repeat)
	extWrap.WrapS, extWrap.WrapT = sampler.MirrorClamp, sampler.MirrorClampToBorder
	swz := func(f format.Format, s [4]sampler.Swizzle) func(testing.TB, *rand.Rand) *sampler.Texture {
		return func(t testing.TB, rng *rand.Rand) *sampler.Texture {
			tx := newTex(t, sampler.Dim2D, f, 8, 8, 1, 0, rng)
			tx.Swizzle = s
			return tx
		}
	}
	msN := func(dim sampler.Dim, f format.Format, n int) func(testing.TB, *rand.Rand) *sampler.Texture {
		return func(t testing.TB, rng *rand.Rand) *sampler.Texture {
			layers := 1
			if dim == sampler.Dim2DArray {
				layers = 2
			}
			tx, err := sampler.NewMultisampleTexture(dim, f, 5, 3, layers, n)
			if err != nil {
				t.Fatal(err)
			}
			fill(tx, rng)
			return tx
		}
	}
	ms := msN(sampler.Dim2DArray, format.RGBA8, 4)
	baseMax := func(t testing.TB, rng *rand.Rand) *sampler.Texture {
		tx := newTex(t, sampler.Dim2D, format.RGBA8, 32, 16, 1, 0, rng)
		tx.BaseLevel, tx.MaxLevel = 1, 3
		return tx
	}
	vol := reqGen{op: sampler.OpSample, lod: sampler.LODGrad, coords: 3, lo: -0.5, hi: 1.5, gradMax: 0.3}
	cube := reqGen{op: sampler.OpSample, lod: sampler.LODGrad, coords: 3, lo: -1, hi: 1, gradMax: 0.3}
	arr := reqGen{op: sampler.OpSample, lod: sampler.LODGrad, coords: 2, lo: -0.5, hi: 1.5, layerMax: 5, gradMax: 0.3}
	cubeArr := reqGen{op: sampler.OpSample, lod: sampler.LODExplicit, coords: 3, lo: -1, hi: 1, layerMax: 3}
	return []coverageRow{
		{row: "2D texture / textureLod / bias", name: "RGBA8 POT implicit LOD", tex: tex(sampler.Dim2D, format.RGBA8, 16, 16, 1, 0), smp: fixed(biased),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.4), uv(sampler.OpSample, sampler.LODExplicit, 0), {op: sampler.OpSample, lod: sampler.LODGrad, coords: 2, lo: 0, hi: 1, gradMax: 0.2, bias: true}}, distinct: true},
		{row: "2D texture / textureLod / bias", name: "BGRA8 vertex stage (no derivatives)", tex: tex(sampler.Dim2D, format.BGRA8, 8, 8, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODNone, 0)}, distinct: true},
		{row: "Mipmap filter (MIPMAP_NEAREST/LINEAR)", name: "nearest mip, nearest/linear", tex: tex(sampler.Dim2D, format.RGBA8, 32, 32, 1, 0), smp: fixed(smp(fNear, fLin, nearMip, sampler.Repeat)),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.5), uv(sampler.OpSample, sampler.LODExplicit, 0)}, distinct: true},
		{row: "Mipmap filter (MIPMAP_NEAREST/LINEAR)", name: "trilinear", tex: tex(sampler.Dim2D, format.RGBA8, 32, 32, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.5)}, distinct: true},
		{row: "Mipmap filter (MIPMAP_NEAREST/LINEAR)", name: "base/max level view", tex: baseMax, smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODExplicit, 0), {op: sampler.OpSize, intMax: 4}}, distinct: true},
		{row: "CLAMP_TO_BORDER", name: "float border", tex: tex(sampler.Dim2D, format.RGBA8, 8, 4, 1, 1), smp: fixed(smp(fLin, fLin, noMip, sampler.ClampToBorder)),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODNone, 0)}, distinct: true},
		{row: "Mirror-clamp wraps (MIRROR_CLAMP*)", name: "MIRROR_CLAMP_TO_EDGE trilinear", tex: tex(sampler.Dim2D, format.RGBA8, 16, 8, 1, 0), smp: fixed(mirrorClamp),
			reqs: []reqGen{{op: sampler.OpSample, lod: sampler.LODGrad, coords: 2, lo: -2, hi: 2, gradMax: 0.3}}, distinct: true},
		{row: "Mirror-clamp wraps (MIRROR_CLAMP*)", name: "mirror-clamp S, legacy GL_CLAMP T", tex: tex(sampler.Dim2D, format.RGBA8, 8, 8, 1, 1), smp: fixed(mixedWrap),
			reqs: []reqGen{{op: sampler.OpSample, lod: sampler.LODNone, coords: 2, lo: -2, hi: 2}}, distinct: true},
		{row: "Mirror-clamp wraps (MIRROR_CLAMP*)", name: "EXT MIRROR_CLAMP S, MIRROR_CLAMP_TO_BORDER T", tex: tex(sampler.Dim2D, format.RGBA8, 8, 8, 1, 0), smp: fixed(extWrap),
			reqs: []reqGen{{op: sampler.OpSample, lod: sampler.LODGrad, coords: 2, lo: -2, hi: 2, gradMax: 0.3}, {op: sampler.OpSample, lod: sampler.LODNone, coords: 2, lo: -2, hi: 2}}, distinct: true},
		{row: "Anisotropic filtering", name: "16x, stretched footprints", tex: tex(sampler.Dim2D, format.RGBA8, 64, 64, 1, 0), smp: fixed(aniso),
			reqs: []reqGen{{op: sampler.OpSample, lod: sampler.LODGrad, coords: 2, lo: 0, hi: 1, gradMax: 0.1, aniso: true}}, distinct: true},
		{row: "Anisotropic filtering", name: "2D array", tex: tex(sampler.Dim2DArray, format.RGBA16F, 32, 16, 3, 0), smp: fixed(aniso),
			reqs: []reqGen{{op: sampler.OpSample, lod: sampler.LODGrad, coords: 2, lo: 0, hi: 1, gradMax: 0.1, aniso: true, layerMax: 3}}, distinct: true},
		{row: "NPOT dimensions", name: "37x19 trilinear", tex: tex(sampler.Dim2D, format.RGBA8, 37, 19, 1, 0), smp: fixed(smp(fLin, fLin, linMip, sampler.MirroredRepeat)),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.4), uv(sampler.OpSample, sampler.LODExplicit, 0)}, distinct: true},
		{row: "3D / cube / cube-array / 2D-array", name: "3D NPOT", tex: tex(sampler.Dim3D, format.RGBA8, 9, 6, 5, 0), smp: fixed(lin),
			reqs: []reqGen{vol}, distinct: true},
		{row: "3D / cube / cube-array / 2D-array", name: "cube seamless", tex: tex(sampler.DimCube, format.RGBA8, 8, 8, 6, 0), smp: fixed(seamless),
			reqs: []reqGen{cube}, distinct: true},
		{row: "3D / cube / cube-array / 2D-array", name: "cube per-face wrap", tex: tex(sampler.DimCube, format.RG16F, 4, 4, 6, 0), smp: fixed(smp(fLin, fLin, nearMip, sampler.ClampToEdge)),
			reqs: []reqGen{cube}, distinct: true},
		{row: "3D / cube / cube-array / 2D-array", name: "cube array", tex: tex(sampler.DimCubeArray, format.RGBA8, 8, 8, 18, 0), smp: fixed(seamless),
			reqs: []reqGen{cubeArr}, distinct: true},
		{row: "3D / cube / cube-array / 2D-array", name: "2D array", tex: tex(sampler.Dim2DArray, format.RGBA8, 12, 10, 5, 0), smp: fixed(lin),
			reqs: []reqGen{arr}, distinct: true},
		{row: "3D / cube / cube-array / 2D-array", name: "1D", tex: tex(sampler.Dim1D, format.RGBA8, 13, 1, 1, 0), smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpSample, lod: sampler.LODGrad, coords: 1, lo: -0.5, hi: 1.5, gradMax: 0.3}}, distinct: true},
		{row: "3D / cube / cube-array / 2D-array", name: "RECT (unnormalized)", tex: tex(sampler.Dim2D, format.RGBA8, 7, 5, 1, 1), smp: fixed(rect),
			reqs: []reqGen{{op: sampler.OpSample, lod: sampler.LODNone, coords: 2, lo: -1, hi: 8}}, distinct: true},
		{row: "Shadow (compare) samplers, incl. array/cube", name: "2D D32F LEQUAL linear", tex: tex(sampler.Dim2D, format.D32F, 8, 8, 1, 0), smp: fixed(withCompare(lin, compare.LessEqual)),
			reqs: []reqGen{{op: sampler.OpSample, lod: sampler.LODGrad, coords: 2, lo: -0.2, hi: 1.2, gradMax: 0.2, ref: true}}, distinct: true},
		{row: "Shadow (compare) samplers, incl. array/cube", name: "2D array D16 GREATER", tex: tex(sampler.Dim2DArray, format.D16, 8, 8, 3, 1), smp: fixed(withCompare(smp(fLin, fLin, noMip, sampler.ClampToBorder), compare.Greater)),
			reqs: []reqGen{{op: sampler.OpSample, lod: sampler.LODNone, coords: 2, lo: -0.2, hi: 1.2, layerMax: 3, ref: true}}, distinct: true},
		{row: "Shadow (compare) samplers, incl. array/cube", name: "cube D24S8 LESS", tex: tex(sampler.DimCube, format.D24S8, 8, 8, 6, 1), smp: fixed(withCompare(seamless, compare.Less)),
			reqs: []reqGen{{op: sampler.OpSample, lod: sampler.LODNone, coords: 3, lo: -1, hi: 1, ref: true}}, distinct: true},
		{row: "Shadow (compare) samplers, incl. array/cube", name: "cube array D32F NOTEQUAL", tex: tex(sampler.DimCubeArray, format.D32F, 4, 4, 12, 1), smp: fixed(withCompare(smp(fNear, fNear, noMip, sampler.ClampToEdge), compare.GreaterEqual)),
			reqs: []reqGen{{op: sampler.OpSample, lod: sampler.LODNone, coords: 3, lo: -1, hi: 1, layerMax: 2, ref: true}}, distinct: true},
		{row: "texelFetch (txf), int and float dests", name: "RGBA8UI with offset", tex: tex(sampler.Dim2D, format.RGBA8UI, 6, 5, 1, 0), smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpFetch, intMax: 6, offset: [3]int32{1, -1, 0}}}, distinct: true},
		{row: "texelFetch (txf), int and float dests", name: "R32F 2D array", tex: tex(sampler.Dim2DArray, format.R32F, 6, 5, 4, 0), smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpFetch, intMax: 6}}, distinct: true},
		{row: "texelFetch (txf), int and float dests", name: "RGBA8 3D", tex: tex(sampler.Dim3D, format.RGBA8, 4, 4, 4, 0), smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpFetch, intMax: 4}}, distinct: true},
		{row: "textureSize (txs)", name: "cube array", tex: tex(sampler.DimCubeArray, format.RGBA8, 8, 8, 12, 0), smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpSize, intMax: 4}}, distinct: true},
		{row: "textureSize (txs)", name: "3D NPOT", tex: tex(sampler.Dim3D, format.R8, 9, 5, 3, 0), smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpSize, intMax: 4}}, distinct: true},
		{row: "textureGather (tg4, + offset/compare)", name: "component, offset", tex: tex(sampler.Dim2D, format.RGBA8, 9, 7, 1, 1), smp: fixed(smp(fLin, fLin, noMip, sampler.Repeat)),
			reqs: []reqGen{{op: sampler.OpGather, coords: 2, lo: -0.5, hi: 1.5, comp: 2, offset: [3]int32{-3, 2, 0}}}, distinct: true},
		{row: "textureGather (tg4, + offset/compare)", name: "per-texel offsets", tex: tex(sampler.Dim2DArray, format.RGBA8UI, 9, 7, 2, 1), smp: fixed(smp(fLin, fLin, noMip, sampler.ClampToBorder)),
			reqs: []reqGen{{op: sampler.OpGather, coords: 2, lo: -0.5, hi: 1.5, layerMax: 2, comp: 1, offsets: true}}, distinct: true},
		{row: "textureGather (tg4, + offset/compare)", name: "compare", tex: tex(sampler.Dim2D, format.D32F, 8, 8, 1, 1), smp: fixed(withCompare(smp(fLin, fLin, noMip, sampler.ClampToEdge), compare.Less)),
			reqs: []reqGen{{op: sampler.OpGather, coords: 2, lo: -0.2, hi: 1.2, ref: true}}, distinct: true},
		{row: "textureGather (tg4, + offset/compare)", name: "cube (no longer gated)", tex: tex(sampler.DimCube, format.RGBA8, 4, 4, 6, 1), smp: fixed(seamless),
			reqs: []reqGen{{op: sampler.OpGather, coords: 3, lo: -1, hi: 1, comp: 0}}, distinct: true},
		{row: "Integer textures (int8 RGBA)", name: "RGBA8I nearest + integer border", tex: tex(sampler.Dim2D, format.RGBA8I, 8, 8, 1, 0), smp: fixed(smp(fLin, fLin, linMip, sampler.ClampToBorder)),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
		{row: "Float formats (R16F/RG16F/RGBA16F/R32F/RG32F/RGBA32F)", name: "R16F", tex: tex(sampler.Dim2D, format.R16F, 10, 6, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
		{row: "Float formats (R16F/RG16F/RGBA16F/R32F/RG32F/RGBA32F)", name: "RG16F", tex: tex(sampler.Dim2D, format.RG16F, 10, 6, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
		{row: "Float formats (R16F/RG16F/RGBA16F/R32F/RG32F/RGBA32F)", name: "RGBA16F", tex: tex(sampler.Dim2D, format.RGBA16F, 10, 6, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
		{row: "Float formats (R16F/RG16F/RGBA16F/R32F/RG32F/RGBA32F)", name: "R32F", tex: tex(sampler.Dim2D, format.R32F, 10, 6, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
		{row: "Float formats (R16F/RG16F/RGBA16F/R32F/RG32F/RGBA32F)", name: "RG32F", tex: tex(sampler.Dim2D, format.RG32F, 10, 6, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
		{row: "Float formats (R16F/RG16F/RGBA16F/R32F/RG32F/RGBA32F)", name: "RGBA32F", tex: tex(sampler.Dim2D, format.RGBA32F, 10, 6, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
		{row: "Depth formats (D32F/D16, packed Z24S8)", name: "D32F", tex: tex(sampler.Dim2D, format.D32F, 8, 8, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
		{row: "Depth formats (D32F/D16, packed Z24S8)", name: "D16", tex: tex(sampler.Dim2D, format.D16, 8, 8, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
		{row: "Depth formats (D32F/D16, packed Z24S8)", name: "Z24S8", tex: tex(sampler.Dim2D, format.D24S8, 8, 8, 1, 1), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODNone, 0)}, distinct: true},
		{row: "Depth formats (D32F/D16, packed Z24S8)", name: "S8 (stencil texturing)", tex: tex(sampler.Dim2D, format.S8, 8, 8, 1, 1), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODNone, 0), {op: sampler.OpFetch, intMax: 8}}, distinct: true},
		{row: "Other colour formats (R8, RG8, 565, 5551, …)", name: "R8", tex: tex(sampler.Dim2D, format.R8, 11, 7, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
		{row: "Other colour formats (R8, RG8, 565, 5551, …)", name: "RG8", tex: tex(sampler.Dim2D, format.RG8, 11, 7, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
		{row: "Other colour formats (R8, RG8, 565, 5551, …)", name: "SRGB8_A8 (decoded before filtering)", tex: tex(sampler.Dim2D, format.SRGB8A8, 11, 7, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
		{row: "Other colour formats (R8, RG8, 565, 5551, …)", name: "RGBA8 snorm", tex: tex(sampler.Dim2D, format.RGBA8SNorm, 6, 6, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
		{row: "View component swizzle", name: "BGR1", tex: swz(format.RGBA8, [4]sampler.Swizzle{sampler.SwizzleB, sampler.SwizzleG, sampler.SwizzleR, sampler.SwizzleOne}), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3), {op: sampler.OpGather, coords: 2, lo: 0, hi: 1, comp: 3}}, distinct: true},
		{row: "View component swizzle", name: "0AA1 on an integer texture", tex: swz(format.RGBA8UI, [4]sampler.Swizzle{sampler.SwizzleZero, sampler.SwizzleA, sampler.SwizzleA, sampler.SwizzleOne}), smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpFetch, intMax: 8}}, distinct: true},
		{row: "1D arrays, txf_ms, textureQueryLod, query_levels", name: "1D array", tex: tex(sampler.Dim1DArray, format.RGBA8, 17, 1, 4, 0), smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpSample, lod: sampler.LODGrad, coords: 1, lo: -0.5, hi: 1.5, layerMax: 4, gradMax: 0.3}, {op: sampler.OpFetch, intMax: 17}, {op: sampler.OpSize, intMax: 5}}, distinct: true},
		{row: "1D arrays, txf_ms, textureQueryLod, query_levels", name: "txf_ms 4x 2D array", tex: ms, smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpFetchSample, intMax: 5}, {op: sampler.OpSize, intMax: 1}}, distinct: true},
		{row: "1D arrays, txf_ms, textureQueryLod, query_levels", name: "txf_ms 2x 2D", tex: msN(sampler.Dim2D, format.RGBA8, 2), smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpFetchSample, intMax: 5}, {op: sampler.OpSize, intMax: 1}}, distinct: true},
		{row: "1D arrays, txf_ms, textureQueryLod, query_levels", name: "txf_ms 8x 2D array R32F", tex: msN(sampler.Dim2DArray, format.R32F, 8), smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpFetchSample, intMax: 8}, {op: sampler.OpSize, intMax: 1}}, distinct: true},
		{row: "1D arrays, txf_ms, textureQueryLod, query_levels", name: "txf_ms 16x 2D", tex: msN(sampler.Dim2D, format.RGBA8, 16), smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpFetchSample, intMax: 16}, {op: sampler.OpSize, intMax: 1}}, distinct: true},
		{row: "1D arrays, txf_ms, textureQueryLod, query_levels", name: "textureQueryLod", tex: tex(sampler.Dim2D, format.RGBA8, 37, 20, 1, 0), smp: fixed(biased),
			reqs: []reqGen{{op: sampler.OpQueryLod, lod: sampler.LODGrad, coords: 2, lo: 0, hi: 1, gradMax: 0.5}}, distinct: true},
		{row: "1D arrays, txf_ms, textureQueryLod, query_levels", name: "textureQueryLod anisotropic", tex: tex(sampler.Dim2D, format.RGBA8, 64, 64, 1, 0), smp: fixed(aniso),
			reqs: []reqGen{{op: sampler.OpQueryLod, lod: sampler.LODGrad, coords: 2, lo: 0, hi: 1, gradMax: 0.1, aniso: true}}, distinct: true},
		{row: "1D arrays, txf_ms, textureQueryLod, query_levels", name: "query_levels (size [3])", tex: baseMax, smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpSize, intMax: 3}}, distinct: true},
		{row: "Pure-integer formats wider than int8 RGBA", name: "R32I", tex: tex(sampler.Dim2D, format.R32I, 5, 5, 1, 0), smp: fixed(lin),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3), {op: sampler.OpFetch, intMax: 5}}, distinct: true},
		{row: "Pure-integer formats wider than int8 RGBA", name: "RGBA16UI", tex: tex(sampler.Dim2D, format.RGBA16UI, 5, 5, 1, 0), smp: fixed(lin),
			reqs: []reqGen{{op: sampler.OpFetch, intMax: 5}}, distinct: true},
		{row: "Pure-integer formats wider than int8 RGBA", name: "RGBA32UI", tex: tex(sampler.Dim2D, format.RGBA32UI, 5, 5, 1, 0), smp: fixed(smp(fNear, fNear, nearMip, sampler.ClampToBorder)),
			reqs: []reqGen{uv(sampler.OpSample, sampler.LODGrad, 0.3)}, distinct: true},
	}
}

// TestCoverageRows samples every §3.6 row through the software sampler from
// device memory (uploaded with Layout, descriptors in a resident table) and
// compares each lane bit-exactly with gl/sampler on the host texture.
// spec: vortexpipe-driver §3.6 (every row of the TEX coverage table)
func TestCoverageRows(t *testing.T) {
	rows := coverage()
	rng := rand.New(rand.NewPCG(8, 36))
	m := devMem(t)
	texs := make([]*sampler.Texture, len(rows))
	smps := make([]sampler.Sampler, len(rows))
	for i, r := range rows {
		texs[i], smps[i] = r.tex(t, rng), r.smp()
	}
	table := resident(t, m, texs, smps)
	s := New()
	if err := s.Bind(m, table, len(rows)); err != nil {
		t.Fatal(err)
	}
	got, want := make([][4]uint32, lanes), make([][4]uint32, lanes)
	for i, r := range rows {
		t.Run(r.row+"/"+r.name, func(t *testing.T) {
			distinct := false
			for _, g := range r.reqs {
				for range 4 {
					req := g.make(rng)
					if err := s.Sample(i, req, got); err != nil {
						t.Fatal(err)
					}
					if err := sampler.Sample(texs[i], &smps[i], req, want); err != nil {
						t.Fatal(err)
					}
					for l := range lanes {
						if got[l] != want[l] {
							t.Fatalf("op %d lane %d: device %08x, reference %08x (coord %v, int %v)", g.op, l, got[l], want[l], req.Coord[l], req.IntCoord[l])
						}
						if got[l] != got[0] {
							distinct = true
						}
					}
				}
			}
			if r.distinct && !distinct {
				t.Errorf("every lane returned %08x: the case does not exercise the row", got[0])
			}
		})
	}
}

// TestAnisotropyNotCollapsed: with anisotropic footprints the 16x result differs
// from the isotropic one (the §3.6 "silent collapse" is closed), and a max
// anisotropy of 1 gives exactly the isotropic result.
// spec: vortexpipe-driver §3.6 (Anisotropic filtering row)
func TestAnisotropyNotCollapsed(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tx := newTex(t, sampler.Dim2D, format.RGBA8, 64, 64, 1, 0, rng)
	iso := smp(fLin, fLin, linMip, sampler.Repeat)
	an := iso
	an.MaxAnisotropy = 16
	one := iso
	one.MaxAnisotropy = 1
	m := devMem(t)
	table := resident(t, m, []*sampler.Texture{tx, tx, tx}, []sampler.Sampler{iso, an, one})
	s := New()
	if err := s.Bind(m, table, 3); err != nil {
		t.Fatal(err)
	}
	req := reqGen{op: sampler.OpSample, lod: sampler.LODGrad, coords: 2, lo: 0, hi: 1, gradMax: 0.1, aniso: true}.make(rng)
	a, b, c := make([][4]uint32, lanes), make([][4]uint32, lanes), make([][4]uint32, lanes)
	for i, out := range [][][4]uint32{a, b, c} {
		if err := s.Sample(i, req, out); err != nil {
			t.Fatal(err)
		}
	}
	differ := 0
	for l := range lanes {
		if a[l] != b[l] {
			differ++
		}
		if a[l] != c[l] {
			t.Errorf("lane %d: max anisotropy 1 gives %x, isotropic %x", l, c[l], a[l])
		}
	}
	if differ < lanes/2 {
		t.Errorf("anisotropic result equals the isotropic one on %d of %d lanes", lanes-differ, lanes)
	}
}

// TestMirrorClampNotCollapsed: MIRROR_CLAMP_TO_EDGE differs from CLAMP_TO_EDGE
// on negative coordinates (it used to collapse to CLAMP). spec: vortexpipe §3.6
func TestMirrorClampNotCollapsed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tx := newTex(t, sampler.Dim2D, format.RGBA8, 8, 8, 1, 1, rng)
	m := devMem(t)
	table := resident(t, m, []*sampler.Texture{tx, tx},
		[]sampler.Sampler{smp(fNear, fNear, noMip, sampler.MirrorClampToEdge), smp(fNear, fNear, noMip, sampler.ClampToEdge)})
	s := New()
	if err := s.Bind(m, table, 2); err != nil {
		t.Fatal(err)
	}
	req := &sampler.Request{Op: sampler.OpSample, N: 1, Coord: [][4]float32{{-0.3, 0.5}}}
	a, b := make([][4]uint32, 1), make([][4]uint32, 1)
	_ = s.Sample(0, req, a)
	_ = s.Sample(1, req, b)
	// u = -0.3 → texel -2.4, floor -3 → mirrored index 2; clamp gives 0.
	want := make([][4]uint32, 1)
	_ = sampler.Sample(tx, &sampler.Sampler{WrapS: sampler.ClampToEdge, WrapT: sampler.ClampToEdge, MaxLOD: 1000},
		&sampler.Request{Op: sampler.OpSample, N: 1, Coord: [][4]float32{{2.5 / 8, 0.5}}}, want)
	if a[0] != want[0] || a[0] == b[0] {
		t.Errorf("mirror clamp %x (want texel 2: %x), clamp %x", a[0], want[0], b[0])
	}
}
