package exec

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"testing"
)

// TestWorkgroupRunShared checks that RunShared keeps the shared variables in the
// storage it is given (the CTA's local memory on the device), as little-endian
// words from byte 0, with the same results as Run, zeroing only the program's
// bytes and refusing storage that is too small. spec: vortexpipe-driver §2.2,
// §2.3.2
func TestWorkgroupRunShared(t *testing.T) {
	ids := WorkgroupIDs{Num: [3]uint32{1, 1, 1}}
	for _, tc := range []struct {
		name     string
		n, width int
		extra    int // storage bytes beyond the shared variables
	}{
		{"one lane", 1, 1, 0},
		{"partial warp", 7, 4, 12},
		{"many warps", 100, 16, 0},
		{"big group", 1024, 32, 64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := reverseProgram(uint32(tc.n), true)
			wg, err := NewWorkgroup(p, Config{Width: tc.width})
			if err != nil {
				t.Fatal(err)
			}
			host := newSliceMemory()
			host.buf[3] = make([]uint32, tc.n)
			if err := wg.Run(context.Background(), ids, host); err != nil {
				t.Fatal(err)
			}
			dev := newSliceMemory()
			dev.buf[3] = make([]uint32, tc.n)
			lmem := bytes.Repeat([]byte{0xA5}, 4*tc.n+tc.extra)
			if err := wg.RunShared(context.Background(), ids, dev, lmem); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(host.buf[3], dev.buf[3]) {
				t.Fatalf("RunShared results differ from Run:\n%v\n%v", dev.buf[3], host.buf[3])
			}
			for i := 0; i < tc.n; i++ {
				if v := binary.LittleEndian.Uint32(lmem[4*i:]); v != uint32(i) {
					t.Fatalf("shared word %d in the storage = %d, want %d", i, v, i)
				}
			}
			for i, b := range lmem[4*tc.n:] {
				if b != 0xA5 {
					t.Fatalf("storage byte %d beyond the shared variables changed to %#x", 4*tc.n+i, b)
				}
			}
			err = wg.RunShared(context.Background(), ids, dev, lmem[:4*tc.n-1])
			if !errors.Is(err, ErrSharedTooSmall) {
				t.Fatalf("storage of %d bytes for %d: err %v, want ErrSharedTooSmall", 4*tc.n-1, 4*tc.n, err)
			}
			// The workgroup's own memory serves Run again afterwards.
			if err := wg.Run(context.Background(), ids, host); err != nil {
				t.Fatal(err)
			}
			for i, v := range wg.Shared() {
				if v != uint32(i) {
					t.Fatalf("own shared word %d = %d after Run, want %d", i, v, i)
				}
			}
		})
	}
}

// TestRunSharedAllocs checks that a warm RunShared allocates nothing.
func TestRunSharedAllocs(t *testing.T) {
	wg, err := NewWorkgroup(reverseProgram(64, true), Config{Width: 16})
	if err != nil {
		t.Fatal(err)
	}
	mem := newSliceMemory()
	mem.buf[3] = make([]uint32, 64)
	lmem := make([]byte, 256)
	ids := WorkgroupIDs{Num: [3]uint32{1, 1, 1}}
	run := func() {
		if err := wg.RunShared(context.Background(), ids, mem, lmem); err != nil {
			t.Fatal(err)
		}
	}
	run()
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Fatalf("RunShared allocates %v times per run", n)
	}
}
