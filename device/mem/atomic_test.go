package mem

import (
	"errors"
	"sync"
	"testing"
)

// TestSharedWordNeverTorn has one goroutine store words whose halves are equal while
// another loads them: under -race this is clean, and no load may see a mix of two
// stores. It covers an aligned word and a misaligned one.
func TestSharedWordNeverTorn(t *testing.T) {
	d := NewDevice(DefaultDeviceBase, 1<<20)
	base, err := d.Alloc(64, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range []uint64{base, base + 8, base + 3} {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := uint64(0); i < 2000; i++ {
				if err := d.StoreU64(addr, i<<32|i); err != nil {
					t.Error(err)
					return
				}
			}
		}()
		for i := 0; i < 2000; i++ {
			v, err := d.LoadU64(addr)
			if err != nil {
				t.Fatal(err)
			}
			if v>>32 != v&0xFFFF_FFFF {
				t.Fatalf("load at %#x saw a torn word %#x", addr, v)
			}
		}
		wg.Wait()
		if v, _ := d.ReadU64(addr); v != 1999<<32|1999 {
			t.Fatalf("word at %#x = %#x after the stores, want the last", addr, v)
		}
	}
}

// TestSharedWordFaults: LoadU64/StoreU64 fault like ReadU64/WriteU64 outside an
// allocation or across its end, and leave memory untouched.
func TestSharedWordFaults(t *testing.T) {
	d := NewDevice(DefaultDeviceBase, 1<<20)
	base, _ := d.Alloc(16, 0)
	for _, addr := range []uint64{0, base + 12, base + 16} {
		var f *Fault
		if _, err := d.LoadU64(addr); !errors.As(err, &f) || f.Addr != addr || f.Write {
			t.Errorf("LoadU64(%#x) = %v, want a read fault at it", addr, err)
		}
		if err := d.StoreU64(addr, 1); !errors.As(err, &f) || f.Addr != addr || !f.Write {
			t.Errorf("StoreU64(%#x) = %v, want a write fault at it", addr, err)
		}
	}
	var b [16]byte
	if err := d.Read(base, b[:]); err != nil || b != [16]byte{} {
		t.Fatalf("a faulting store changed memory: %v %x", err, b)
	}
	if err := d.StoreU64(base+8, 0x0102030405060708); err != nil {
		t.Fatal(err)
	}
	_ = d.Read(base+8, b[:8])
	if b[0] != 8 || b[7] != 1 {
		t.Fatalf("StoreU64 is not little-endian: % x", b[:8])
	}
}
