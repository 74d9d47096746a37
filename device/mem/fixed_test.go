package mem

import (
	"errors"
	"testing"
)

// spec: vortexpipe §2.4 — modules load at fixed link bases; ordinary allocations
// stay out of the reserved link window.
func TestAllocAtAndReserve(t *testing.T) {
	d := NewDevice(0x1000_0000, 0x8000_0000)
	d.SetCapacity(1 << 20)
	if err := d.Reserve(0x1000_0000, 0x10_0000); err != nil {
		t.Fatal(err)
	}
	a, err := d.Alloc(4096, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if a < 0x1010_0000 {
		t.Fatalf("Alloc placed %#x inside the reserved window", a)
	}
	tests := []struct {
		name       string
		addr, size uint64
		want       error
	}{
		{"inside the reserved window", 0x1000_0000, 8192, nil},
		{"overlaps the first", 0x1000_1000, 4096, ErrOccupied},
		{"overlaps a buffer", a, 64, ErrOccupied},
		{"below the base", 0x0FFF_F000, 4096, ErrBadAlloc},
		{"past the limit", 0x8FFF_F000, 8192, ErrBadAlloc},
		{"zero size", 0x2000_0000, 0, ErrBadAlloc},
		{"over capacity", 0x3000_0000, 1 << 20, ErrOutOfMemory},
		{"far away", 0x7000_0000, 4096, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := d.AllocAt(tc.addr, tc.size)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("AllocAt(%#x, %d) = %v, want %v", tc.addr, tc.size, err, tc.want)
			}
		})
	}
	if err := d.WriteU32(0x1000_1FFC, 7); err != nil {
		t.Fatalf("write into a fixed allocation: %v", err)
	}
	if err := d.Free(0x1000_0000); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Alloc(1<<20, 0); !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("capacity not enforced: %v", err)
	}
}

// spec: command-processor §8 — after Unmap every VA of the range faults, and the
// table pages can map the range again.
func TestUnmap(t *testing.T) {
	for _, mode := range []Mode{ModeSv32, ModeSv39} {
		t.Run(mode.String(), func(t *testing.T) {
			d := NewDevice(DefaultDeviceBase, DefaultDeviceSize)
			pt, err := NewPageTable(d, mode)
			if err != nil {
				t.Fatal(err)
			}
			big := LevelSize(mode, 1)
			pa, err := d.Alloc(2*big, big)
			if err != nil {
				t.Fatal(err)
			}
			va := uint64(0xA000_0000)
			if err := pt.Map(va, pa, big+3*PageSize, PermRW); err != nil {
				t.Fatal(err)
			}
			if got, err := Translate(d, pt.SATP(), va+big+5, AccessWrite); err != nil || got != pa+big+5 {
				t.Fatalf("translate before unmap = %#x, %v", got, err)
			}
			if err := pt.Unmap(va+PageSize, PageSize); err == nil {
				t.Fatal("unmapping part of a superpage succeeded")
			}
			if err := pt.Unmap(va, big+3*PageSize); err != nil {
				t.Fatal(err)
			}
			for _, off := range []uint64{0, big - 1, big, big + 3*PageSize - 1} {
				var pf *PageFault
				if _, err := Translate(d, pt.SATP(), va+off, AccessRead); !errors.As(err, &pf) {
					t.Fatalf("VA %#x after unmap: %v, want a page fault", va+off, err)
				}
			}
			if err := pt.Unmap(va, PageSize); err == nil {
				t.Fatal("unmapping an unmapped page succeeded")
			}
			if err := pt.Map(va, pa, PageSize, PermR); err != nil {
				t.Fatalf("remap after unmap: %v", err)
			}
			if err := pt.Release(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
