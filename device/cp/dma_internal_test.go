package cp

import (
	"bytes"
	"testing"

	"vortexgfx/device/mem"
)

// TestMoveDirectMatchesStaged: the one-copy fast path of a DMA move leaves
// exactly the bytes the bounce-buffer path does, and declines (writing
// nothing) whenever the staged path's result could differ or fault: overlapping
// ranges of one space, a range outside an allocation, a translated operand.
// spec: command-processor §8 (staged through a bounce buffer)
func TestMoveDirectMatchesStaged(t *testing.T) {
	const n = 3*bounceBytes + 1000
	tests := []struct {
		name       string
		dstOff     uint64 // into the device buffer
		srcOff     uint64
		size       uint64
		sameSpace  bool // MEM_COPY (device to device) instead of MEM_WRITE
		translate  bool
		wantDirect bool
	}{
		{"host to device", 0, 0, n, false, false, true},
		{"host to device unaligned", 5, 3, n - 8, false, false, true},
		{"device copy disjoint", n, 0, n, true, false, true},
		{"device copy overlap forward", 8, 0, n, true, false, false},
		{"device copy overlap backward", 0, 8, n, true, false, false},
		{"device copy in place", 0, 0, n, true, false, false},
		{"past the allocation", 0, 0, 2*n + 1, true, false, false},
		{"translated", 0, 0, 64, false, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := func(direct bool) ([]byte, bool, *qfault) {
				host := mem.NewHost(mem.DefaultHostBase, mem.DefaultHostSize)
				dev := mem.NewDevice(mem.DefaultDeviceBase, mem.DefaultDeviceSize)
				h, err := host.Alloc(n, 0)
				if err != nil {
					t.Fatal(err)
				}
				d, err := dev.Alloc(2*n, 0)
				if err != nil {
					t.Fatal(err)
				}
				pat := make([]byte, 2*n)
				for i := range pat {
					pat[i] = byte(i*13 + i>>9)
				}
				_ = host.Write(h, pat[:n])
				_ = dev.Write(d, pat)
				src := dmaOperand{m: &host.Memory, addr: h + tc.srcOff}
				if tc.sameSpace {
					src = dmaOperand{m: &dev.Memory, addr: d + tc.srcOff}
				}
				dst := dmaOperand{m: &dev.Memory, addr: d + tc.dstOff, write: true, translate: tc.translate}
				c := &CP{bounce: make([]byte, bounceBytes)}
				var ok bool
				var f *qfault
				if direct {
					ok = moveDirect(dst, src, tc.size)
				} else if !tc.translate {
					f = c.moveStaged(dst, src, tc.size, 0)
				}
				out := make([]byte, 2*n)
				_ = dev.Read(d, out)
				return out, ok, f
			}
			before, _, _ := run(false)
			got, ok, _ := run(true)
			if ok != tc.wantDirect {
				t.Fatalf("direct = %v, want %v", ok, tc.wantDirect)
			}
			if !ok {
				return
			}
			if !bytes.Equal(got, before) {
				t.Fatalf("direct move differs from the staged one at byte %d", firstDiff(got, before))
			}
		})
	}
}
