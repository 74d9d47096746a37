package mem

import (
	"encoding/binary"
	"testing"
)

// FuzzTranslate walks page tables made of random bytes: the walk must return a PA
// or a *PageFault, never panic, and a translation must keep the page offset.
func FuzzTranslate(f *testing.F) {
	f.Add(make([]byte, 64), uint64(0x4000_0123), false, uint8(0))
	f.Add([]byte{0x01, 0x04, 0, 0, 0xCF, 0, 0, 0}, uint64(0x123), true, uint8(1))
	f.Add([]byte{0xCF, 0x00, 0x40, 0x00, 0, 0, 0, 0}, uint64(0x7FFF_FFFF), false, uint8(2))
	f.Fuzz(func(t *testing.T, table []byte, va uint64, sv32 bool, acc uint8) {
		d := NewDevice(0, 1<<32)
		mode := ModeSv39
		if sv32 {
			mode = ModeSv32
		}
		// Three table pages at 0x0, 0x1000 (the root) and 0x2000 filled from the
		// input; PTE pointers into them make multi-level walks reachable.
		for i := 0; i < 3; i++ {
			a, err := d.Alloc(PageSize, PageSize)
			if err != nil {
				t.Fatal(err)
			}
			page := make([]byte, PageSize)
			for j := 0; j < len(table) && j < PageSize; j++ {
				page[j] = table[(j+i*7)%len(table)]
			}
			if len(table) >= 8 {
				binary.LittleEndian.PutUint64(page[8*(i+1):], binary.LittleEndian.Uint64(table)&^0xFFFFF)
			}
			_ = d.Write(a, page)
		}
		pa, err := Translate(d, EncodeSATP(mode, PageSize), va, Access(acc%3))
		if err != nil {
			if _, ok := err.(*PageFault); !ok {
				t.Fatalf("non-PageFault error %T: %v", err, err)
			}
			return
		}
		if pa%PageSize != va%PageSize {
			t.Fatalf("VA %#x -> PA %#x changed the page offset", va, pa)
		}
	})
}
