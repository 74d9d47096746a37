package device_test

import (
	"context"
	"encoding/binary"
	"math/bits"
	"reflect"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/mem"
	"vortexgfx/gfx/draw3d"
	"vortexgfx/gfx/frontend"
)

// TestGraphicsStateOneCopy: the bus latches the units' registers into their own
// state types, and RASTER snoops the KMU startup PC and the OM depth registers.
// spec: rasterizer §4, vortex-hardware-facts §2
func TestGraphicsStateOneCopy(t *testing.T) {
	m := mem.NewDevice(0x1000_0000, 1<<20)
	d, err := device.New(config.Default(), m, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, w := range []struct {
		a abi.DCR
		v uint32
	}{
		{abi.DCRStartupAddr0, 0x8000_0000}, {abi.DCRStartupAddr1, 1}, {abi.DCROMZBufAddr, 0x40},
		{abi.DCROMZBufPitch, 512}, {abi.DCROMDepthFunc, uint32(abi.CmpLEqual)}, {abi.DCROMEarlyZSafe, 1},
		{abi.DCRRasterTileCount, 9}, {abi.DCRTexStage, 1}, {abi.DCRTexFormat, 3}, {abi.DCROMRTSelect, 1},
		{abi.DCROMBlendConst, 0x11223344},
	} {
		if err := d.DCRWrite(w.a, w.v); err != nil {
			t.Fatal(err)
		}
	}
	s := d.State()
	r := s.Raster.State
	checks := []struct {
		name      string
		got, want uint64
	}{
		{"snooped startup PC", r.StartupPC(), 0x1_8000_0000},
		{"snooped zbuf", uint64(r.ZBufAddr), 0x40},
		{"snooped zpitch", uint64(r.ZBufPitch), 512},
		{"snooped depth func", uint64(r.DepthFunc), uint64(abi.CmpLEqual)},
		{"snooped early-Z gate", uint64(r.EarlyZSafe), 1},
		{"tile count", uint64(r.TileCount), 9},
		{"om zbuf", uint64(s.OM.ZBufAddr), 0x40},
		{"om rt1 blend const", uint64(s.OM.RT[1].BlendConst), 0x11223344},
		{"om rt0 blend const", uint64(s.OM.RT[0].BlendConst), 0},
		{"tex stage 1 format", uint64(s.Tex.Stages[1].Format), 3},
		{"tex select", uint64(s.Tex.Select), 1},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %#x, want %#x", c.name, c.got, c.want)
		}
	}
	for _, rd := range []struct {
		a    abi.DCR
		want uint32
	}{{abi.DCROMBlendConst, 0x11223344}, {abi.DCRTexFormat, 3}, {abi.DCRRasterTileCount, 9}, {abi.DCROMRTSelect, 1}} {
		if v, err := d.DCRRead(rd.a, 0); err != nil || v != rd.want {
			t.Errorf("DCR read %#x = %#x, %v; want %#x", rd.a, v, err, rd.want)
		}
	}
}

// kickRig is a bare device (no CP) with the gfx kernels and a triangle binned
// on the host, driven by DCR writes and a grid-less launch.
func kickFrame(t *testing.T, cfg config.Config) ([]byte, device.GraphicsStats, *device.Device) {
	t.Helper()
	img, gs, d, err := kickWith(t, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return img, gs, d
}

// kickWith runs the frame with fs (nil: the draw3d fragment kernel) as the fragment
// kernel and extra DCR writes after the draw's own.
func kickWith(t *testing.T, cfg config.Config, fs device.Kernel, extra [][2]uint32) ([]byte, device.GraphicsStats, *device.Device, error) {
	t.Helper()
	return kickDepth(t, cfg, fs, false, extra)
}

// kickDepth is kickWith, with a zeroed depth buffer bound (OM_ZBUF_ADDR and
// pitch, before extra) when depth is set.
func kickDepth(t *testing.T, cfg config.Config, fs device.Kernel, depth bool, extra [][2]uint32) ([]byte, device.GraphicsStats, *device.Device, error) {
	t.Helper()
	const W = 32
	m := mem.NewDevice(0x1000_0000, 1<<24)
	lib := device.NewLibrary()
	if err := frontend.RegisterKernels(lib); err != nil {
		t.Fatal(err)
	}
	if err := draw3d.RegisterKernels(lib); err != nil {
		t.Fatal(err)
	}
	if fs != nil {
		if err := lib.Register("test.fs", fs); err != nil {
			t.Fatal(err)
		}
	}
	d, err := device.New(cfg, m, lib)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	d.EnableGraphics(m, nil)
	img, err := draw3d.FragImage()
	if fs != nil {
		img, err = abi.EncodeKernelImage([]abi.KernelImageEntry{abi.LibraryEntry("main", "test.fs")})
	}
	if err != nil {
		t.Fatal(err)
	}
	ents, _ := abi.DecodeKernelImage(img)
	verts := []frontend.Vertex{
		{Pos: [4]float32{-1, -1, 0.5, 1}, Color: [4]float32{1, 0, 0, 1}},
		{Pos: [4]float32{1, -1, 0.5, 1}, Color: [4]float32{0, 1, 0, 1}},
		{Pos: [4]float32{-1, 1, 0.5, 1}, Color: [4]float32{0, 0, 1, 1}},
	}
	b, err := frontend.Binning(verts, [][3]uint32{{0, 1, 2}}, W, W, 0, 1, 7, frontend.PlanesGrx)
	if err != nil {
		t.Fatal(err)
	}
	put := func(p []byte) uint64 {
		a, err := m.Alloc(uint64(max(len(p), 4)), 64)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Write(a, p); err != nil {
			t.Fatal(err)
		}
		return a
	}
	base := put(img)
	cbuf := put(make([]byte, W*W*4))
	tile, prim := put(b.TileBuf), put(b.PrimBuf)
	args := put(abi.Draw3DFragArgs{ColorEnabled: true, PrimAddr: prim, NumPrims: len(b.Prims)}.Pack())
	entry := base + uint64(ents[0].EntryOffset)
	for _, w := range []struct {
		a abi.DCR
		v uint32
	}{
		{abi.DCRStartupAddr0, uint32(base)}, {abi.DCRStartupAddr1, 0},
		{abi.DCRGridDimX, 0}, {abi.DCRGridDimY, 1}, {abi.DCRGridDimZ, 1},
		{abi.DCRRasterTBufAddr, uint32(tile >> 6)}, {abi.DCRRasterTileCount, uint32(b.TileCount)},
		{abi.DCRRasterPBufAddr, uint32(prim >> 6)}, {abi.DCRRasterPBufStride, abi.PrimBytes},
		{abi.DCRRasterScissorX, W << 16}, {abi.DCRRasterScissorY, W << 16},
		{abi.DCROMCBufAddr, uint32(cbuf >> 6)}, {abi.DCROMCBufPitch, W * 4}, {abi.DCROMCBufWriteMask, 0xF},
		{abi.DCROMDepthFunc, uint32(abi.CmpAlways)},
		{abi.DCROMBlendFunc, abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendZero, abi.BlendZero)},
		{abi.DCRRasterFragEntryLo, uint32(entry)}, {abi.DCRRasterFragEntryHi, uint32(entry >> 32)},
		{abi.DCRRasterFragParamLo, uint32(args)}, {abi.DCRRasterFragParamHi, 0},
	} {
		if err := d.DCRWrite(w.a, w.v); err != nil {
			t.Fatal(err)
		}
	}
	if depth {
		zbuf := put(make([]byte, W*W*4))
		extra = append([][2]uint32{{uint32(abi.DCROMZBufAddr), uint32(zbuf >> 6)}, {uint32(abi.DCROMZBufPitch), W * 4}}, extra...)
	}
	for _, w := range extra {
		if err := d.DCRWrite(abi.DCR(w[0]), w[1]); err != nil {
			t.Fatal(err)
		}
	}
	_, lerr := d.Launch(context.Background())
	out := make([]byte, W*W*4)
	if err := m.Read(cbuf, out); err != nil {
		t.Fatal(err)
	}
	return out, d.LastGraphics(), d, lerr
}

// TestGraphicsKick: a grid-less launch walks the RASTER buffers and shades every
// covered pixel once on its owner core through vx_om_export; the image does not
// depend on the core or worker count; the counters read through MPM_VALUE match.
// spec: rasterizer §5, §9, §11; vortex-hardware-facts §7
func TestGraphicsKick(t *testing.T) {
	var ref []byte
	for _, shape := range []struct{ cores, workers, engines int }{{1, 1, 1}, {2, 4, 2}, {4, 2, 4}} {
		cfg := config.Default()
		cfg.Device.CoresPerSocket, cfg.Device.SocketsPerCluster = shape.cores, 1
		cfg.Raster.Workers, cfg.Raster.EnginesPerCluster = shape.workers, shape.engines
		img, gs, d := kickFrame(t, cfg)
		if ref == nil {
			ref = img
		}
		if string(img) != string(ref) {
			t.Fatalf("%+v: image differs from one core", shape)
		}
		written := 0
		for i := 0; i < len(img); i += 4 {
			if binary.LittleEndian.Uint32(img[i:]) != 0 {
				written++
			}
		}
		if gs.Raster.Fragments != int64(written) || gs.OMReads != uint64(written) || gs.OMWrites != uint64(written) || written == 0 {
			t.Errorf("%+v: %d pixels written, raster launched %d, OM %d/%d", shape, written, gs.Raster.Fragments, gs.OMReads, gs.OMWrites)
		}
		var om uint64
		for c := 0; c < d.NumCores(); c++ {
			lo, err := d.DCRRead(abi.DCRMPMValue, abi.MPMTag(abi.MPMOM, abi.CSROMWrites, c, false))
			if err != nil {
				t.Fatal(err)
			}
			om += uint64(lo)
		}
		if om != gs.OMWrites {
			t.Errorf("%+v: MPM OM writes %d, frame %d", shape, om, gs.OMWrites)
		}
		if rr, _ := d.DCRRead(abi.DCRMPMValue, abi.MPMTag(abi.MPMRaster, abi.CSRRasterReads, 0, false)); uint64(rr) != uint64(gs.Raster.Reads) {
			t.Errorf("%+v: MPM RASTER reads %d, frame %d", shape, rr, gs.Raster.Reads)
		}
	}
}

// TestGraphicsOutsideFrame: vx_tex and vx_om_export outside a frame kick fault
// the CTA instead of touching memory.
func TestGraphicsOutsideFrame(t *testing.T) {
	m := mem.NewDevice(0x1000_0000, 1<<20)
	lib := device.NewLibrary()
	calls := func(c *device.CTA) error {
		c.ForEachThread(func(int) { c.Tex(0, 0, 0, 0) })
		return nil
	}
	if err := lib.Register("tex", calls); err != nil {
		t.Fatal(err)
	}
	d, err := device.New(config.Default(), m, lib)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	img, _ := abi.EncodeKernelImage([]abi.KernelImageEntry{abi.LibraryEntry("main", "tex")})
	ents, _ := abi.DecodeKernelImage(img)
	base, _ := m.Alloc(uint64(len(img)), 64)
	if err := m.Write(base, img); err != nil {
		t.Fatal(err)
	}
	entry := base + uint64(ents[0].EntryOffset)
	for _, w := range []struct {
		a abi.DCR
		v uint32
	}{
		{abi.DCRStartupAddr0, uint32(base)}, {abi.DCRKernelEntry0, uint32(entry)},
		{abi.DCRBlockDimX, 4}, {abi.DCRBlockDimY, 1}, {abi.DCRBlockDimZ, 1},
		{abi.DCRGridDimX, 1}, {abi.DCRGridDimY, 1}, {abi.DCRGridDimZ, 1}, {abi.DCRBlockSize, 4},
		{abi.DCRWarpStepX, 0}, {abi.DCRWarpStepY, 0}, {abi.DCRWarpStepZ, 0},
		{abi.DCRClusterDimX, 1}, {abi.DCRClusterDimY, 1}, {abi.DCRClusterDimZ, 1},
	} {
		if err := d.DCRWrite(w.a, w.v); err != nil {
			t.Fatal(err)
		}
	}
	_, err = d.Launch(context.Background())
	if err == nil || !strings.Contains(err.Error(), "outside a fragment frame") {
		t.Errorf("vx_tex outside a frame: %v", err)
	}
}

// TestGraphicsApertureStore: the aperture-store form of vx_om_export writes the
// same pixels as the direct form, and a store that is not one aligned record in
// the aperture faults the wave. spec: vortexpipe §3.3, §3.4
func TestGraphicsApertureStore(t *testing.T) {
	const W = 32
	aper, err := abi.NewAperture(W, W, 1, abi.RecordShiftColorZ)
	if err != nil {
		t.Fatal(err)
	}
	dcrs := [][2]uint32{
		{uint32(abi.DCROMApertureXBits), uint32(aper.XBits)}, {uint32(abi.DCROMApertureYBits), uint32(aper.YBits)},
		{uint32(abi.DCROMApertureRecordShift), abi.RecordShiftColorZ},
	}
	export := func(store bool, misalign uint64) device.Kernel {
		return func(c *device.CTA) error {
			var rec [8]byte
			c.ForEachThread(func(l int) {
				pos := c.FragPos(l)
				if pos>>31 == 0 {
					return
				}
				x, y := int(pos&0xFFFF), int(pos>>16&0x7FFF)
				color := 0xFF000000 | uint32(x)<<8 | uint32(y)
				if !store {
					c.OMExport(x, y, 0, 0, color, 0, 0)
					return
				}
				binary.LittleEndian.PutUint32(rec[:], color)
				c.OMStore(aper.Addr(0, 0, x, y)+misalign, rec[:])
			})
			return nil
		}
	}
	direct, _, _, err := kickWith(t, config.Default(), export(false, 0), dcrs)
	if err != nil {
		t.Fatal(err)
	}
	stored, gs, _, err := kickWith(t, config.Default(), export(true, 0), dcrs)
	if err != nil {
		t.Fatal(err)
	}
	if string(direct) != string(stored) || gs.OMWrites == 0 {
		t.Errorf("aperture stores differ from vx_om_export (%d written)", gs.OMWrites)
	}
	if _, _, _, err := kickWith(t, config.Default(), export(true, 4), dcrs); err == nil || !strings.Contains(err.Error(), "not one aligned 8-byte record") {
		t.Errorf("misaligned aperture store: %v", err)
	}
}

// TestOMExportLanes: a wave's fragments handed over in one OMExportLanes call
// (lanes with holes, each pixel twice so the additive blend reads what the
// first wrote) write the same pixels, counters, recorded cache traffic and
// cycles as one OMExport per lane; lanes past the arrays fault the wave.
// spec: vortex-hardware-facts §5, §7; vortexpipe §3.4
func TestOMExportLanes(t *testing.T) {
	type lanes struct {
		x, y        [16]int32
		face, color [16]uint32
		depth       [16]uint32
	}
	fill := func(c *device.CTA, v *lanes) uint64 {
		var mask uint64
		for l := range c.Threads {
			pos := c.FragPos(l)
			if pos>>31 == 0 || l%5 == 3 { // uncovered, or a hole in the mask
				continue
			}
			mask |= 1 << l
			v.x[l], v.y[l] = int32(pos&0xFFFF), int32(pos>>16&0x7FFF)
			v.face[l], v.color[l], v.depth[l] = uint32(l&1), 0x10000000|uint32(l)<<16|pos&0xFFFF, uint32(l)<<12
		}
		return mask
	}
	one := func(c *device.CTA) error {
		var v lanes
		mask := fill(c, &v)
		for range 2 {
			for m := mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros64(m)
				c.OMExport(int(v.x[l]), int(v.y[l]), v.face[l], 0, v.color[l], v.depth[l], 0)
			}
		}
		return nil
	}
	batch := func(c *device.CTA) error {
		var v lanes
		mask := fill(c, &v)
		for range 2 {
			c.OMExportLanes(0, mask, v.x[:], v.y[:], v.face[:], v.color[:], v.depth[:])
		}
		return nil
	}
	// The general OM path (an additive blend) and the depth-colour one
	// (om.Unit.DepthColor: a GREATER depth test with writes on a zeroed
	// depth buffer, so a pixel's first export passes and its second, at
	// the same depth, fails).
	for _, st := range []struct {
		name  string
		depth bool
		extra [][2]uint32
	}{
		{"blend", false, [][2]uint32{{uint32(abi.DCROMBlendFunc), abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendOne, abi.BlendOne)}}},
		{"depth-colour", true, [][2]uint32{{uint32(abi.DCROMDepthFunc), uint32(abi.CmpGreater)}, {uint32(abi.DCROMDepthWriteMask), 1}}},
	} {
		want, wgs, _, err := kickDepth(t, config.Default(), one, st.depth, st.extra)
		if err != nil {
			t.Fatal(err)
		}
		got, ggs, _, err := kickDepth(t, config.Default(), batch, st.depth, st.extra)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: OMExportLanes wrote other pixels than OMExport per lane", st.name)
		}
		if !reflect.DeepEqual(ggs, wgs) || wgs.OMReads == 0 || wgs.OM.CacheReads == 0 || wgs.OMWrites == 0 {
			t.Errorf("%s: OMExportLanes stats %+v, OMExport per lane %+v", st.name, ggs, wgs)
		}
		if st.name == "depth-colour" && wgs.OMWrites >= wgs.OMReads {
			t.Errorf("%s: %d of %d exports passed, want the second of each pixel to fail", st.name, wgs.OMWrites, wgs.OMReads)
		}
	}
	short := func(c *device.CTA) error {
		var v lanes
		c.OMExportLanes(0, 1<<16, v.x[:], v.y[:], v.face[:], v.color[:], v.depth[:])
		return nil
	}
	if _, _, _, err := kickWith(t, config.Default(), short, nil); err == nil || !strings.Contains(err.Error(), "lane 16 past the wave's 16-lane arrays") {
		t.Errorf("lane past the arrays: %v", err)
	}
}
