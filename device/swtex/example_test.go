package swtex_test

import (
	"fmt"
	"math"

	"vortexgfx/device/mem"
	"vortexgfx/device/swtex"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// A driver lays a texture out once, uploads it and its descriptor table to device
// memory; a kernel binds a Sampler to the table and samples.
func Example() {
	tx, _ := sampler.NewTexture(sampler.Dim2D, format.RGBA8, 3, 3, 1, 1) // NPOT: not for the FF unit
	_ = tx.SetFloat(0, 1, 1, 0, [4]float32{1, 0.5, 0, 1})
	s := sampler.DefaultSampler()
	s.WrapS, s.WrapT = sampler.MirrorClampToEdge, sampler.MirrorClampToEdge

	// Host: lay out, allocate, upload, relocate the descriptor into a table.
	dev := mem.NewDevice(0x1000_0000, 1<<20)
	up, _ := swtex.Layout(tx, &s)
	base, _ := dev.Alloc(uint64(len(up.Data)), swtex.LevelAlign)
	_ = dev.Write(base, up.Data)
	table, _ := swtex.PutTable([]*swtex.Upload{up}, []uint64{base})
	tableAddr, _ := dev.Alloc(uint64(len(table)), 64)
	_ = dev.Write(tableAddr, table)

	// Device: bind (per wave or per draw) and sample texture 0.
	sw := swtex.New()
	_ = sw.Bind(dev, tableAddr, 1)
	out := make([][4]uint32, 1)
	req := &sampler.Request{Op: sampler.OpSample, N: 1, Coord: [][4]float32{{0.5, 0.5}}}
	_ = sw.Sample(0, req, out)
	fmt.Printf("%.2f %.2f %.2f %.2f\n", math.Float32frombits(out[0][0]), math.Float32frombits(out[0][1]),
		math.Float32frombits(out[0][2]), math.Float32frombits(out[0][3]))
	// Output: 1.00 0.50 0.00 1.00
}
