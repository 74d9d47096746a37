package swtex_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/mem"
	"vortexgfx/device/swtex"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// probeKernel is a device kernel that samples like a vertex or compute kernel
// does: args {descriptor table, descriptor count, coordinate buffer (u, v, lod
// floats per thread), output buffer (4 words per thread), thread count}. Each
// core keeps one Sampler (no allocation per wave); every CTA binds it to the
// table it finds in its arg block, then issues one texture instruction per warp.
func probeKernel(m *mem.Device, perCore []*swtex.Sampler) device.Kernel {
	return func(c *device.CTA) error {
		table, count, coords, out, n := c.Arg(0), c.Arg(1), c.Arg(2), c.Arg(3), c.Arg(4)
		s := perCore[c.Core]
		if err := s.Bind(m, table, int(count)); err != nil {
			return err
		}
		w := c.WarpWidth
		r := &exec.TexRequest{Op: ir.TexSampleLod, Sampler: int(c.BlockIdx[1]), Width: w, NCoord: 2, HasLod: true,
			Binding: ir.SamplerBinding{Kind: ir.Sampler2D, Result: ir.F32}}
		for k := range 4 {
			r.Coord[k], r.Out[k] = make([]float32, w), make([]uint32, w)
		}
		r.Lod = make([]float32, w)
		for warp := 0; warp < c.Warps(); warp++ {
			r.Mask = 0
			for l := 0; l < w; l++ {
				tid := warp*w + l
				if tid >= c.Threads {
					break
				}
				i := c.GlobalID(tid)
				if i >= n {
					continue
				}
				r.Mask |= 1 << l
				r.Coord[0][l], r.Coord[1][l], r.Lod[l] = c.ReadF32(coords+12*i), c.ReadF32(coords+12*i+4), c.ReadF32(coords+12*i+8)
			}
			if err := s.Texture(r); err != nil {
				return err
			}
			for l := 0; l < w; l++ {
				if r.Mask>>l&1 == 0 {
					continue
				}
				i := c.GlobalID(warp*w + l)
				for k := range 4 {
					c.WriteU32(out+16*i+4*uint64(k)+16*n*uint64(c.BlockIdx[1]), r.Out[k][l])
				}
			}
		}
		return c.Err()
	}
}

// TestDeviceKernel runs the software sampler inside device kernels on several
// cores (run under -race in CI): two NPOT textures laid out and uploaded by the
// host, their descriptor table's address passed in the arg block, each grid row
// sampling one of them; every result equals the reference sampler's.
// spec: vortexpipe-driver §3.6 (the SW sampler runs on the device, never a host
// round-trip), §2.5 (resident descriptor table in the arg block)
func TestDeviceKernel(t *testing.T) {
	const n = 300
	rng := rand.New(rand.NewPCG(30, 31))
	texs := []*sampler.Texture{}
	smps := []sampler.Sampler{sampler.DefaultSampler(), sampler.DefaultSampler()}
	for i, sz := range [][2]int{{37, 21}, {10, 64}} {
		tx, err := sampler.NewTexture(sampler.Dim2D, format.RGBA8, sz[0], sz[1], 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		for j := range tx.Levels[0].Data {
			tx.Levels[0].Data[j] = byte(rng.Uint32())
		}
		if err := tx.GenerateMipmaps(); err != nil {
			t.Fatal(err)
		}
		texs = append(texs, tx)
		smps[i].MinFilter, smps[i].WrapS, smps[i].WrapT = sampler.Linear, sampler.MirrorClampToEdge, sampler.ClampToBorder
		smps[i].BorderColor = [4]float32{0.5, 0, 1, 0.25}
	}
	cfg := config.Default()
	cfg.Device.CoresPerSocket, cfg.Device.SocketsPerCluster = 4, 1
	m := mem.NewDevice(0x1000_0000, 64<<20)
	perCore := make([]*swtex.Sampler, cfg.Device.NumCores())
	for i := range perCore {
		perCore[i] = swtex.New()
	}
	lib := device.NewLibrary()
	if err := lib.Register("probe", probeKernel(m, perCore)); err != nil {
		t.Fatal(err)
	}
	dev, err := device.New(cfg, m, lib)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	alloc := func(b []byte) uint64 {
		a, err := m.Alloc(uint64(max(len(b), 8)), 64)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Write(a, b); err != nil {
			t.Fatal(err)
		}
		return a
	}
	var ups []*swtex.Upload
	var bases []uint64
	for i := range texs {
		u, err := swtex.Layout(texs[i], &smps[i])
		if err != nil {
			t.Fatal(err)
		}
		ups, bases = append(ups, u), append(bases, alloc(u.Data))
	}
	table, err := swtex.PutTable(ups, bases)
	if err != nil {
		t.Fatal(err)
	}
	coords := make([]byte, 12*n)
	lanes := make([][4]float32, n)
	for i := range lanes {
		lanes[i] = [4]float32{rng.Float32()*2 - 0.5, rng.Float32()*2 - 0.5, rng.Float32()*5 - 1}
		for k := range 3 {
			v := math.Float32bits(lanes[i][k])
			coords[12*i+4*k], coords[12*i+4*k+1], coords[12*i+4*k+2], coords[12*i+4*k+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		}
	}
	pt, pc, po := alloc(table), alloc(coords), alloc(make([]byte, 16*n*len(texs)))
	args := make([]byte, 8*5)
	for i, v := range []uint64{pt, uint64(len(texs)), pc, po, n} {
		for k := range 8 {
			args[8*i+k] = byte(v >> (8 * k))
		}
	}
	img, err := abi.EncodeKernelImage([]abi.KernelImageEntry{abi.LibraryEntry("main", "probe")})
	if err != nil {
		t.Fatal(err)
	}
	ents, err := abi.DecodeKernelImage(img)
	if err != nil {
		t.Fatal(err)
	}
	ib := alloc(img)
	l := abi.LaunchInfo{StartupAddr: ib, KernelEntry: ib + uint64(ents[0].EntryOffset), Args: alloc(args), NDim: 2,
		Grid: [3]uint32{(n + 63) / 64, uint32(len(texs)), 1}, Block: [3]uint32{64, 1, 1}}
	for _, p := range abi.LaunchDCRs(l, uint32(cfg.Device.Threads)) {
		if err := dev.DCRWrite(p.Addr, p.Value); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := dev.Launch(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := make([][4]uint32, n)
	for ti := range texs {
		req := &sampler.Request{Op: sampler.OpSample, N: n, Coord: make([][4]float32, n), LOD: sampler.LODExplicit, LODValue: make([]float32, n)}
		for i := range lanes {
			req.Coord[i] = [4]float32{lanes[i][0], lanes[i][1]}
			req.LODValue[i] = lanes[i][2]
		}
		if err := sampler.Sample(texs[ti], &smps[ti], req, want); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			for k := range 4 {
				got, err := m.ReadU32(po + uint64(16*n*ti+16*i+4*k))
				if err != nil {
					t.Fatal(err)
				}
				if got != want[i][k] {
					t.Fatalf("texture %d thread %d word %d: device %08x, reference %08x", ti, i, k, got, want[i][k])
				}
			}
		}
	}
	var st swtex.Stats
	for _, s := range perCore {
		st.Lanes += s.Stats().Lanes
	}
	if st.Lanes != n*uint64(len(texs)) {
		t.Errorf("%d lanes sampled on the device, want %d", st.Lanes, n*len(texs))
	}
}
