package raster

import (
	"encoding/binary"
	"testing"

	"vortexgfx/abi"
)

// FuzzRun decodes arbitrary tile and primitive buffers: a corrupt frame returns
// an error or renders, but never panics or hangs.
func FuzzRun(f *testing.F) {
	seed := make([]byte, 12+4+36)
	abi.BinHeader{PidsCount: 1}.Put(seed)
	for k := 0; k < 3; k++ {
		binary.LittleEndian.PutUint32(seed[16+12*k+8:], 1)
	}
	f.Add(seed, uint8(1), uint8(1), uint8(2))
	f.Add(seed[:16], uint8(2), uint8(0), uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, tiles, stride, engines uint8) {
		m := make(mem, 0x20000)
		n := copy(m[tbufAt:pbufAt], data)
		copy(m[pbufAt:], data[n:])
		s := state(int(tiles%8), 32, 32)
		s.Write(abi.DCRRasterPBufStride, uint32(stride)*4)
		cfg := Config{BinLog: 4, Engines: 1 << (engines % 3), Workers: 2, EarlyZ: true}
		s.Write(abi.DCROMEarlyZSafe, 1)
		_, _ = Run(m, s, cfg, func(core int, w *Wave) error {
			if w.Quads < 1 || 4*w.Quads > len(w.Pos) {
				t.Fatalf("wave of %d quads", w.Quads)
			}
			return nil
		})
	})
}
