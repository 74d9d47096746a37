package draw3d

import (
	"path/filepath"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/device/om"
	"vortexgfx/device/raster"
	"vortexgfx/gfx/frontend"
	"vortexgfx/trace"
)

// TestDenseGridRenders: the scene golden renders identically from the dense
// device tile buffer (empty bins skipped without a pid fetch).
func TestDenseGridRenders(t *testing.T) {
	dir := traceDir(t)
	tr, err := trace.Load(filepath.Join(dir, "scene.cgltrace"))
	if err != nil {
		t.Fatal(err)
	}
	verts, tris := flatten(&tr.DrawCalls[0])
	host, err := frontend.Binning(verts, tris, 256, 256, 0, 1, 7, frontend.PlanesV1)
	if err != nil {
		t.Fatal(err)
	}
	// The device front end (near clip, guard band, CULL_NONE) emits the same
	// records as the oracle when nothing needs clipping.
	fe, fbb, st, err := frontend.RunWithStats(verts, tris, 256, 256, 0, 1, frontend.CullNone, nil, frontend.PlanesV1)
	if err != nil {
		t.Fatal(err)
	}
	if st.NearClipped == 0 && st.GuardClipped == 0 {
		if len(fe) != len(host.Prims) {
			t.Fatalf("front end %d prims, oracle %d", len(fe), len(host.Prims))
		}
		for i := range fe {
			if fe[i] != host.Prims[i] || fbb[i] != host.BBoxes[i] {
				t.Fatalf("prim %d differs between the front end and the oracle", i)
			}
		}
	}
	g, _ := frontend.NewBinGrid(256, 256, 7)
	dev, n, err := frontend.DeviceBinning(g, fbb)
	if err != nil {
		t.Fatal(err)
	}
	render := func(tbuf []byte, count int) []byte {
		mem := NewArena(0x10000, 4<<20)
		cb, _ := mem.Alloc(256 * 256 * 4)
		zb, _ := mem.Alloc(256 * 256 * 4)
		fill(mem, zb, 256*256, ClearDepth)
		tb, _ := upload(mem, tbuf)
		pb, _ := upload(mem, host.PrimBuf)
		var rs raster.State
		var os om.State
		for _, w := range []struct {
			a abi.DCR
			v uint32
		}{
			{abi.DCRRasterTBufAddr, uint32(tb >> 6)}, {abi.DCRRasterTileCount, uint32(count)},
			{abi.DCRRasterPBufAddr, uint32(pb >> 6)}, {abi.DCRRasterPBufStride, abi.PrimBytes},
			{abi.DCRRasterScissorX, 256 << 16}, {abi.DCRRasterScissorY, 256 << 16},
			{abi.DCRRasterFragEntryLo, 1}, {abi.DCROMCBufAddr, uint32(cb >> 6)}, {abi.DCROMCBufPitch, 1024},
			{abi.DCROMCBufWriteMask, 0xF}, {abi.DCROMZBufAddr, uint32(zb >> 6)}, {abi.DCROMZBufPitch, 1024},
			{abi.DCROMDepthFunc, uint32(abi.CmpLess)}, {abi.DCROMDepthWriteMask, 1},
			{abi.DCROMBlendFunc, abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendZero, abi.BlendZero)},
		} {
			rs.Write(w.a, w.v)
			os.Write(w.a, w.v)
		}
		unit, err := om.Bind(mem, &os, 0, 256, 256)
		if err != nil {
			t.Fatal(err)
		}
		k, err := NewFragKernel(mem, FragArgs{DepthEnabled: true, ColorEnabled: true, PrimAddr: pb, NumPrims: len(host.Prims)}, nil, unit)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := raster.Run(mem, &rs, raster.Config{Workers: 2, Engines: 2}, k.Launch); err != nil {
			t.Fatal(err)
		}
		out, _ := mem.View(cb, 256*256*4)
		return append([]byte(nil), out...)
	}
	a, b := render(host.TileBuf, host.TileCount), render(dev, n)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("byte %d differs between the oracle and the dense grid", i)
		}
	}
}
