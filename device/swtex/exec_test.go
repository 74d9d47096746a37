package swtex

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/device/mem"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/ref"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

const warp = 16

// The software sampler serves the executor and, through Sample, the reference
// renderer's texture interface.
var (
	_ exec.Sampler = (*Sampler)(nil)
	_ ref.Textures = (*Sampler)(nil)
)

func newExecReq() *exec.TexRequest {
	r := &exec.TexRequest{Width: warp}
	for i := range 4 {
		r.Coord[i], r.ICoord[i], r.Out[i] = make([]float32, warp), make([]int32, warp), make([]uint32, warp)
	}
	for i := range 3 {
		r.DPdx[i], r.DPdy[i] = make([]float32, warp), make([]float32, warp)
	}
	r.Lod, r.ILod, r.Bias, r.Compare = make([]float32, warp), make([]int32, warp), make([]float32, warp), make([]float32, warp)
	return r
}

// execCase is one exec texture instruction shape and the reference request the
// executor's contract says it means (vortexpipe §2.3.2: emit_tex's SW dispatch).
type execCase struct {
	name           string
	kind           ir.SamplerKind
	op             ir.TexOp
	tex            func(testing.TB, *rand.Rand) *sampler.Texture
	smp            sampler.Sampler
	ncoord, grads  int
	lod, bias, ref bool
	comp           int
	offset         [3]int32
}

// TestExecContract drives Sampler.Texture with executor requests (a partial
// mask, garbage in the inactive lanes) and checks each active lane against a
// reference request built by hand, and that inactive lanes are left untouched.
// spec: vortexpipe-driver §2.3.2, §3.6; shader/exec.Sampler (once per warp)
func TestExecContract(t *testing.T) {
	lin := smp(fLin, fLin, linMip, sampler.Repeat)
	cmp := withCompare(smp(fLin, fLin, noMip, sampler.ClampToEdge), compare.LessEqual)
	cases := []execCase{
		{name: "2D implicit LOD + bias", kind: ir.Sampler2D, op: ir.TexSample, tex: tex(sampler.Dim2D, format.RGBA8, 37, 19, 1, 0), smp: lin, ncoord: 2, grads: 2, bias: true},
		{name: "2D explicit LOD", kind: ir.Sampler2D, op: ir.TexSampleLod, tex: tex(sampler.Dim2D, format.RGBA8, 16, 16, 1, 0), smp: lin, ncoord: 2, lod: true},
		{name: "3D gradients", kind: ir.Sampler3D, op: ir.TexSampleGrad, tex: tex(sampler.Dim3D, format.RGBA16F, 8, 8, 8, 0), smp: lin, ncoord: 3, grads: 3},
		{name: "cube explicit LOD", kind: ir.SamplerCube, op: ir.TexSampleLod, tex: tex(sampler.DimCube, format.RGBA8, 8, 8, 6, 0), smp: lin, ncoord: 3, lod: true},
		{name: "2D array implicit LOD", kind: ir.Sampler2DArray, op: ir.TexSample, tex: tex(sampler.Dim2DArray, format.RGBA8, 8, 8, 3, 0), smp: lin, ncoord: 3, grads: 2},
		{name: "2D shadow", kind: ir.Sampler2DShadow, op: ir.TexSample, tex: tex(sampler.Dim2D, format.D32F, 8, 8, 1, 1), smp: cmp, ncoord: 2, grads: 2, ref: true},
		{name: "cube shadow", kind: ir.SamplerCubeShadow, op: ir.TexSample, tex: tex(sampler.DimCube, format.D16, 4, 4, 6, 1), smp: cmp, ncoord: 3, ref: true},
		{name: "2D array shadow", kind: ir.Sampler2DArrayShadow, op: ir.TexSample, tex: tex(sampler.Dim2DArray, format.D24S8, 4, 4, 2, 1), smp: cmp, ncoord: 3, ref: true},
		{name: "1D shadow (s, unused, ref)", kind: ir.Sampler1DShadow, op: ir.TexSample, tex: tex(sampler.Dim1D, format.D32F, 8, 1, 1, 1), smp: cmp, ncoord: 2, ref: true},
		{name: "1D implicit LOD", kind: ir.Sampler1D, op: ir.TexSample, tex: tex(sampler.Dim1D, format.RGBA8, 16, 1, 1, 0), smp: lin, ncoord: 1, grads: 1},
		{name: "1D array implicit LOD", kind: ir.Sampler1DArray, op: ir.TexSample, tex: tex(sampler.Dim1DArray, format.RGBA8, 16, 1, 3, 0), smp: lin, ncoord: 2, grads: 1},
		{name: "cube array explicit LOD", kind: ir.SamplerCubeArray, op: ir.TexSampleLod, tex: tex(sampler.DimCubeArray, format.RGBA8, 4, 4, 12, 0), smp: lin, ncoord: 4, lod: true},
		{name: "query LOD", kind: ir.Sampler2D, op: ir.TexQueryLod, tex: tex(sampler.Dim2D, format.RGBA8, 16, 16, 1, 0), smp: lin, ncoord: 2, grads: 2},
		{name: "fetch with offset", kind: ir.Sampler2DArray, op: ir.TexFetch, tex: tex(sampler.Dim2DArray, format.RGBA8I, 5, 4, 3, 0), smp: lin, ncoord: 3, offset: [3]int32{1, 0, 0}},
		{name: "size", kind: ir.SamplerCube, op: ir.TexSize, tex: tex(sampler.DimCube, format.RGBA8, 8, 8, 6, 0), smp: lin},
		{name: "query levels", kind: ir.Sampler3D, op: ir.TexQueryLevels, tex: tex(sampler.Dim3D, format.R8, 8, 4, 2, 0), smp: lin},
		{name: "gather component 1 + offset", kind: ir.Sampler2D, op: ir.TexGather, tex: tex(sampler.Dim2D, format.RGBA8, 7, 5, 1, 1), smp: lin, ncoord: 2, comp: 1, offset: [3]int32{-2, 1, 0}},
		{name: "gather compare", kind: ir.Sampler2DShadow, op: ir.TexGather, tex: tex(sampler.Dim2D, format.D32F, 7, 5, 1, 1), smp: cmp, ncoord: 2, ref: true},
	}
	rng := rand.New(rand.NewPCG(11, 12))
	texs := make([]*sampler.Texture, len(cases))
	smps := make([]sampler.Sampler, len(cases))
	for i, c := range cases {
		texs[i], smps[i] = c.tex(t, rng), c.smp
	}
	m := devMem(t)
	table := resident(t, m, texs, smps)
	s := New()
	if err := s.Bind(m, table, len(cases)); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newExecReq()
			r.Op, r.Sampler, r.Binding = c.op, i, ir.SamplerBinding{Name: c.name, Kind: c.kind, Result: ir.F32}
			r.Mask = uint64(rng.Uint32()>>16) | 1
			r.NCoord, r.Offset, r.HasOffset, r.Comp = c.ncoord, c.offset, c.offset != [3]int32{}, c.comp
			r.HasLod, r.HasBias, r.HasRef, r.Grads = c.lod || c.op == ir.TexFetch || c.op == ir.TexSize, c.bias, c.ref, c.grads
			for l := range warp {
				for k := range 4 {
					r.Coord[k][l] = rng.Float32()*2 - 0.5
					r.ICoord[k][l] = rng.Int32N(9) - 1
					r.Out[k][l] = 0xDEADBEEF
				}
				for k := range 3 {
					r.DPdx[k][l], r.DPdy[k][l] = rng.Float32()*0.4-0.2, rng.Float32()*0.4-0.2
				}
				r.Lod[l], r.Bias[l], r.Compare[l] = rng.Float32()*5-1, rng.Float32()*2-1, rng.Float32()
				r.ILod[l] = rng.Int32N(5) - 1
			}
			if err := s.Texture(r); err != nil {
				t.Fatal(err)
			}
			for l := range warp {
				if r.Mask>>l&1 == 0 {
					for k := range 4 {
						if r.Out[k][l] != 0xDEADBEEF {
							t.Fatalf("inactive lane %d result %d written", l, k)
						}
					}
					continue
				}
				want := reference(t, texs[i], &smps[i], c, r, l)
				for k := range 4 {
					if r.Out[k][l] != want[k] {
						t.Fatalf("lane %d: %08x, reference %08x", l, [4]uint32{r.Out[0][l], r.Out[1][l], r.Out[2][l], r.Out[3][l]}, want)
					}
				}
			}
		})
	}
}

// reference samples lane l of an executor request on the host with a one-lane
// reference request built from the executor's documented contract.
func reference(t *testing.T, tx *sampler.Texture, s *sampler.Sampler, c execCase, r *exec.TexRequest, l int) [4]uint32 {
	t.Helper()
	q := sampler.Request{N: 1, Coord: make([][4]float32, 1), IntCoord: make([][4]int32, 1), Offset: r.Offset, GatherComp: r.Comp}
	for k := 0; k < c.ncoord; k++ {
		q.Coord[0][k] = r.Coord[k][l]
		q.IntCoord[0][k] = r.ICoord[k][l]
	}
	if c.ref {
		q.Ref = []float32{r.Compare[l]}
		if c.kind == ir.Sampler1DShadow {
			q.Coord[0][1] = 0
		}
	}
	switch c.op {
	case ir.TexSample, ir.TexSampleLod, ir.TexSampleGrad, ir.TexQueryLod:
		q.Op = sampler.OpSample
		if c.op == ir.TexQueryLod {
			q.Op = sampler.OpQueryLod
		}
		switch {
		case c.op == ir.TexSampleLod:
			q.LOD, q.LODValue = sampler.LODExplicit, []float32{r.Lod[l]}
		case c.grads > 0:
			q.LOD = sampler.LODGrad
			q.DPdx, q.DPdy = make([][3]float32, 1), make([][3]float32, 1)
			for k := 0; k < c.grads; k++ {
				q.DPdx[0][k], q.DPdy[0][k] = r.DPdx[k][l], r.DPdy[k][l]
			}
		}
		if c.bias {
			q.LODValue = []float32{r.Bias[l]}
		}
	case ir.TexFetch:
		q.Op = sampler.OpFetch
		q.IntCoord[0][3] = r.ILod[l]
	case ir.TexSize, ir.TexQueryLevels:
		q.Op = sampler.OpSize
		q.IntCoord[0] = [4]int32{}
		if r.HasLod { // textureSize's level; textureQueryLevels has none
			q.IntCoord[0][3] = r.ILod[l]
		}
	case ir.TexGather:
		q.Op = sampler.OpGather
	}
	out := make([][4]uint32, 1)
	if err := sampler.Sample(tx, s, &q, out); err != nil {
		t.Fatal(err)
	}
	if c.op == ir.TexQueryLevels {
		out[0][0] = out[0][3]
	}
	return out[0]
}

// TestBadBindings: out-of-range tables, descriptors and levels, a kind that does
// not match the descriptor and malformed requests are errors naming the sampler
// and the field; none panics. spec: docs/CONVENTIONS.md (bad input)
func TestBadBindings(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	tx := newTex(t, sampler.Dim2D, format.RGBA8, 8, 8, 1, 0, rng)
	s0 := smp(fLin, fLin, linMip, sampler.Repeat)
	u, err := Layout(tx, &s0)
	if err != nil {
		t.Fatal(err)
	}
	good := func(m *mem.Device) (uint64, uint64) {
		base, _ := m.Alloc(uint64(len(u.Data)), 64)
		_ = m.Write(base, u.Data)
		table, _ := m.Alloc(abi.SWTexDescBytes, 64)
		b := make([]byte, abi.SWTexDescBytes)
		u.PutDescriptor(base, b)
		_ = m.Write(table, b)
		return base, table
	}
	sample := func(s *Sampler, i int) error {
		req := &sampler.Request{Op: sampler.OpSample, N: 1, Coord: [][4]float32{{0.5, 0.5}}}
		return s.Sample(i, req, make([][4]uint32, 1))
	}
	for _, tc := range []struct {
		name, want string
		run        func(m *mem.Device) error
	}{
		{"table outside memory", "sampler 0: descriptor at 0x10", func(m *mem.Device) error {
			s := New()
			if err := s.Bind(m, 0x10, 1); err != nil {
				return err
			}
			return sample(s, 0)
		}},
		{"sampler index past the table", "sampler 3 outside the 1-entry", func(m *mem.Device) error {
			_, table := good(m)
			s := New()
			_ = s.Bind(m, table, 1)
			return sample(s, 3)
		}},
		{"bad format field", "sampler 0: descriptor at", func(m *mem.Device) error {
			_, table := good(m)
			_ = m.Write(table+1, []byte{99})
			s := New()
			_ = s.Bind(m, table, 1)
			return sample(s, 0)
		}},
		{"level address outside memory", "sampler 0: level 2 at 0x", func(m *mem.Device) error {
			_, table := good(m)
			b := make([]byte, 8)
			_ = m.Write(table+abi.SWTexHeaderBytes+2*abi.SWTexLevelBytes, append(b[:0], 0, 0, 0, 0x7F, 0, 0, 0, 0))
			s := New()
			_ = s.Bind(m, table, 1)
			return sample(s, 0)
		}},
		{"level running off its allocation", "sampler 0: level 0 at", func(m *mem.Device) error {
			base, table := good(m)
			d := u.Descriptor(base)
			d.Level[0].RowPitch = 4096
			b := make([]byte, abi.SWTexDescBytes)
			d.Put(b)
			_ = m.Write(table, b)
			s := New()
			_ = s.Bind(m, table, 1)
			return sample(s, 0)
		}},
		{"kind does not match the target", "a cube sampler on a 2D texture", func(m *mem.Device) error {
			_, table := good(m)
			s := New()
			_ = s.Bind(m, table, 1)
			r := newExecReq()
			r.Mask, r.NCoord, r.Binding = 1, 3, ir.SamplerBinding{Kind: ir.SamplerCube}
			return s.Texture(r)
		}},
		{"short lane arrays", "coordinate holds 3 lanes of 16", func(m *mem.Device) error {
			_, table := good(m)
			s := New()
			_ = s.Bind(m, table, 1)
			r := newExecReq()
			r.Mask, r.NCoord, r.Binding = 1, 2, ir.SamplerBinding{Kind: ir.Sampler2D}
			r.Coord[1] = r.Coord[1][:3]
			return s.Texture(r)
		}},
		{"unknown op", "texture op", func(m *mem.Device) error {
			_, table := good(m)
			s := New()
			_ = s.Bind(m, table, 1)
			r := newExecReq()
			r.Op, r.Mask, r.NCoord, r.Binding = ir.TexOp(99), 1, 2, ir.SamplerBinding{Kind: ir.Sampler2D}
			return s.Texture(r)
		}},
		{"bind nil memory", "nil memory", func(m *mem.Device) error { return New().Bind(nil, 0, 1) }},
		{"bind wrapping table", "wraps the address space", func(m *mem.Device) error { return New().Bind(m, ^uint64(0)-10, 2) }},
	} {
		err := tc.run(devMem(t))
		if !errors.Is(err, ErrSampler) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %q", tc.name, err, tc.want)
		}
	}
	// A failed descriptor stays failed (and cheap) for the rest of the binding.
	m := devMem(t)
	s := New()
	_ = s.Bind(m, 0x10, 1)
	e1, e2 := sample(s, 0), sample(s, 0)
	if e1 == nil || e1 != e2 {
		t.Errorf("repeated failure %v / %v", e1, e2)
	}
}

// TestLayoutRefusals: Layout refuses what the descriptor cannot carry.
func TestLayoutRefusals(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	s := smp(fLin, fLin, linMip, sampler.Repeat)
	odd := newTex(t, sampler.Dim2D, format.RGBA8, 8, 8, 1, 0, rng)
	odd.Levels[1].W = 3
	odd.Levels[1].Data = make([]byte, 3*4*4)
	nan := s
	nan.MaxLOD = float32(zero() / zero())
	ms3, err := sampler.NewMultisampleTexture(sampler.Dim2D, format.RGBA8, 2, 2, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		tex  *sampler.Texture
		smp  *sampler.Sampler
		want string
	}{
		{"off-chain level", odd, &s, "level 1 is 3x4x1"},
		{"NaN max LOD", newTex(t, sampler.Dim2D, format.RGBA8, 2, 2, 1, 1, rng), &nan, "NaN"},
		{"3 samples", ms3, &s, "3 samples"},
		{"nil sampler", odd, nil, "nil sampler"},
		{"invalid texture", &sampler.Texture{}, &s, "bad texture"},
	} {
		_, err := Layout(tc.tex, tc.smp)
		if !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

func zero() float64 { return 0 }

// TestRebindNoAlloc: rebinding a sampler and sampling a warp allocates nothing
// once the sampler has seen the table size and warp width.
// spec: docs/CONVENTIONS.md (no allocation per pixel, quad or lane)
func TestRebindNoAlloc(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	tx := newTex(t, sampler.Dim2D, format.RGBA8, 16, 16, 1, 0, rng)
	m := devMem(t)
	table := resident(t, m, []*sampler.Texture{tx}, []sampler.Sampler{smp(fLin, fLin, linMip, sampler.Repeat)})
	s := New()
	r := newExecReq()
	r.Op, r.Mask, r.NCoord, r.Grads, r.Binding = ir.TexSample, 0xFFFF, 2, 2, ir.SamplerBinding{Kind: ir.Sampler2D}
	run := func() {
		if err := s.Bind(m, table, 1); err != nil {
			t.Fatal(err)
		}
		if err := s.Texture(r); err != nil {
			t.Fatal(err)
		}
	}
	run()
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Errorf("%v allocations per bind + warp sample", n)
	}
	if st := s.Stats(); st.Instructions != 22 || st.Lanes != 22*16 || st.Decodes != 22 {
		t.Errorf("stats %+v, want 22 instructions of 16 lanes, 22 decodes", st)
	}
}

// FuzzDescriptor: any descriptor header and level records, with the level
// addresses steered into a 64 KiB texel allocation, binds and samples every op
// without panicking; a descriptor the sampler accepts gives results equal to the
// reference sampler on its own decoded state.
func FuzzDescriptor(f *testing.F) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, c := range []struct {
		tx *sampler.Texture
		s  sampler.Sampler
	}{
		{newTex(f, sampler.Dim2D, format.RGBA8, 8, 4, 1, 0, rng), smp(fLin, fLin, linMip, sampler.MirrorClampToEdge)},
		{newTex(f, sampler.DimCubeArray, format.D32F, 4, 4, 12, 0, rng), withCompare(smp(fLin, fLin, linMip, sampler.ClampToBorder), compare.Less)},
		{newTex(f, sampler.Dim3D, format.RGBA16UI, 4, 2, 3, 0, rng), smp(fNear, fNear, nearMip, sampler.Repeat)},
	} {
		u, err := Layout(c.tx, &c.s)
		if err != nil {
			f.Fatal(err)
		}
		b := make([]byte, abi.SWTexDescBytes)
		u.PutDescriptor(0, b)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := make([]byte, abi.SWTexDescBytes)
		copy(b, data)
		m := mem.NewDevice(0x1000, 1<<20)
		texels, _ := m.Alloc(1<<16, 64)
		for i := range abi.SWTexMaxLevels {
			o := abi.SWTexHeaderBytes + i*abi.SWTexLevelBytes
			if b[o]|b[o+1]|b[o+2]|b[o+3]|b[o+4]|b[o+5]|b[o+6]|b[o+7] == 0 {
				continue // an unused record stays zero
			}
			off := uint64(b[o])<<8 | uint64(b[o+1])
			for k := range 8 {
				b[o+k] = byte((texels + off) >> (8 * k))
			}
		}
		table, _ := m.Alloc(abi.SWTexDescBytes, 64)
		_ = m.Write(table, b)
		s := New()
		if err := s.Bind(m, table, 1); err != nil {
			t.Fatal(err)
		}
		tx, sm, err := s.TextureState(0)
		if err != nil {
			return
		}
		for _, g := range []reqGen{
			{op: sampler.OpSample, lod: sampler.LODGrad, coords: 3, lo: -2, hi: 2, layerMax: 4, gradMax: 2, aniso: true, ref: true},
			{op: sampler.OpSample, lod: sampler.LODExplicit, coords: 3, lo: -2, hi: 2, ref: true},
			{op: sampler.OpFetch, intMax: 9}, {op: sampler.OpSize, intMax: 4}, {op: sampler.OpFetchSample, intMax: 5},
			{op: sampler.OpGather, coords: 3, lo: -2, hi: 2, offsets: true, ref: true},
			{op: sampler.OpQueryLod, lod: sampler.LODGrad, coords: 3, lo: -1, hi: 1, gradMax: 1, ref: true},
		} {
			req := g.make(rng)
			got, want := make([][4]uint32, lanes), make([][4]uint32, lanes)
			errGot := s.Sample(0, req, got)
			errWant := sampler.Sample(tx, sm, req, want)
			if (errGot == nil) != (errWant == nil) {
				t.Fatalf("op %d: device error %v, reference error %v", g.op, errGot, errWant)
			}
			for l := range lanes {
				if got[l] != want[l] {
					t.Fatalf("op %d lane %d differs", g.op, l)
				}
			}
		}
	})
}

// TestPutTable: the table encoder refuses mismatched, nil and unaligned entries.
func TestPutTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	s := smp(fLin, fLin, noMip, sampler.Repeat)
	u, err := Layout(newTex(t, sampler.Dim2D, format.RGBA8, 2, 2, 1, 1, rng), &s)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		ups   []*Upload
		bases []uint64
	}{
		{"count mismatch", []*Upload{u}, nil},
		{"nil upload", []*Upload{nil}, []uint64{0}},
		{"unaligned base", []*Upload{u}, []uint64{0x1004}},
	} {
		if _, err := PutTable(tc.ups, tc.bases); !errors.Is(err, ErrLayout) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	b, err := PutTable([]*Upload{u, u}, []uint64{0x1000, 0x2000})
	if err != nil || len(b) != 2*abi.SWTexDescBytes {
		t.Fatalf("%d bytes, %v", len(b), err)
	}
	d, err := abi.DecodeSWTexDesc(b[abi.SWTexDescBytes:])
	if err != nil || d.Level[0].Addr != 0x2000 {
		t.Errorf("entry 1 level 0 at 0x%x, %v", d.Level[0].Addr, err)
	}
}

// TestFormatCodes: every reference format has exactly one descriptor code of the
// same texel size, and back. spec: abi.SWTexFormat code table
func TestFormatCodes(t *testing.T) {
	seen := map[abi.SWTexFormat]bool{}
	for f := format.Format(1); f.Valid(); f++ {
		c, ok := FormatCode(f)
		if !ok || !c.Valid() || seen[c] || c.Bytes() != f.Info().Bytes || c.String() != f.String() {
			t.Errorf("format %v: code %v (%d bytes) ok=%v", f, c, c.Bytes(), ok)
		}
		seen[c] = true
		if back, ok := Format(c); !ok || back != f {
			t.Errorf("code %v maps back to %v", c, back)
		}
	}
	if _, ok := FormatCode(format.Invalid); ok {
		t.Error("invalid format has a code")
	}
	if _, ok := Format(0); ok {
		t.Error("code 0 has a format")
	}
}

// FuzzExecRequest: executor requests with any op, kind, operand flags, mask,
// width and short lane arrays never panic; they sample or return an error.
func FuzzExecRequest(f *testing.F) {
	f.Add([]byte{0, 0, 2, 2, 0xFF, 0xFF, 16, 0})
	f.Add([]byte{3, 2, 3, 0, 0x0F, 0, 16, 7})
	f.Add([]byte{5, 4, 3, 0, 1, 0, 64, 0xFF})
	f.Add([]byte{6, 8, 2, 3, 0xAA, 0x55, 8, 3})
	rng := rand.New(rand.NewPCG(7, 7))
	kinds := []ir.SamplerKind{ir.Sampler2D, ir.Sampler3D, ir.SamplerCube, ir.Sampler2DArray, ir.Sampler2DShadow,
		ir.SamplerCubeShadow, ir.Sampler2DArrayShadow, ir.Sampler1D, ir.Sampler1DShadow}
	texs := []*sampler.Texture{
		newTex(f, sampler.Dim2D, format.D32F, 4, 4, 1, 0, rng), newTex(f, sampler.Dim3D, format.RGBA8, 4, 4, 4, 0, rng),
		newTex(f, sampler.DimCube, format.D16, 4, 4, 6, 0, rng), newTex(f, sampler.Dim2DArray, format.RGBA8I, 4, 4, 3, 0, rng),
		newTex(f, sampler.Dim1D, format.R32F, 8, 1, 1, 0, rng),
	}
	smps := make([]sampler.Sampler, len(texs))
	for i := range smps {
		smps[i] = withCompare(smp(fLin, fLin, linMip, sampler.MirrorClampToEdge), compare.LessEqual)
		smps[i].MaxAnisotropy = 8
	}
	m := devMem(f)
	table := resident(f, m, texs, smps)
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 8 {
			return
		}
		s := New()
		if err := s.Bind(m, table, len(texs)); err != nil {
			t.Fatal(err)
		}
		w := int(b[6] % 80)
		r := &exec.TexRequest{Op: ir.TexOp(b[0] % 8), Sampler: int(b[1]%7) - 1, Width: w, NCoord: int(b[2] % 6),
			Grads: int(b[3] % 5), Mask: uint64(b[4]) | uint64(b[5])<<56, Comp: int(b[7] % 4),
			Binding: ir.SamplerBinding{Kind: kinds[int(b[1])%len(kinds)]}, HasLod: b[7]&16 != 0, HasBias: b[7]&32 != 0,
			HasRef: b[7]&64 != 0, Offset: [3]int32{int32(int8(b[7])) % 9, 0, 0}}
		n := w
		if b[7]&128 != 0 {
			n = w / 2 // short arrays
		}
		for k := range 4 {
			r.Coord[k], r.ICoord[k], r.Out[k] = make([]float32, n), make([]int32, n), make([]uint32, n)
			for l := range n {
				r.Coord[k][l] = float32(l-3) * 0.37
				r.ICoord[k][l] = int32(l%5) - 1
			}
		}
		for k := range 3 {
			r.DPdx[k], r.DPdy[k] = make([]float32, n), make([]float32, n)
			for l := range n {
				r.DPdx[k][l], r.DPdy[k][l] = float32(l)*0.1, float32(k)*0.2
			}
		}
		r.Lod, r.ILod, r.Bias, r.Compare = make([]float32, n), make([]int32, n), make([]float32, n), make([]float32, n)
		_ = s.Texture(r)
	})
}
