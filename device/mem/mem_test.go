package mem

import (
	"bytes"
	"errors"
	"sync"
	"testing"
)

func TestAllocFreeAndFaults(t *testing.T) {
	d := NewDevice(DefaultDeviceBase, 1<<20)
	a, err := d.Alloc(100, 0)
	if err != nil {
		t.Fatal(err)
	}
	if a%DefaultAlign != 0 || a < DefaultDeviceBase {
		t.Fatalf("alloc at %#x: want %d-aligned above base", a, DefaultAlign)
	}
	b, err := d.Alloc(4096, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if b%4096 != 0 || (b < a+100 && b+4096 > a) {
		t.Fatalf("second alloc %#x overlaps or misaligned", b)
	}
	tests := []struct {
		name  string
		addr  uint64
		n     int
		write bool
		ok    bool
	}{
		{"inside", a, 100, false, true},
		{"write inside", a + 10, 90, true, true},
		{"straddles end", a + 90, 11, true, false},
		{"before base", a - 1, 1, false, false},
		{"unmapped", 0x10, 4, false, false},
		{"second alloc", b, 4096, true, true},
		{"past second", b + 4096, 1, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := make([]byte, tc.n)
			var err error
			if tc.write {
				err = d.Write(tc.addr, p)
			} else {
				err = d.Read(tc.addr, p)
			}
			if tc.ok != (err == nil) {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
			if err != nil {
				var f *Fault
				if !errors.As(err, &f) || f.Addr != tc.addr || f.Size != uint64(tc.n) || f.Write != tc.write || f.Space != DeviceSpace {
					t.Fatalf("fault = %#v", err)
				}
			}
		})
	}
	if err := d.Free(a + 1); !errors.Is(err, ErrBadFree) {
		t.Fatalf("free of non-base: %v", err)
	}
	if err := d.Free(a); err != nil {
		t.Fatal(err)
	}
	if err := d.Read(a, make([]byte, 1)); err == nil {
		t.Fatal("read of freed memory succeeded")
	}
	if d.Used() != 4096 {
		t.Fatalf("used = %d, want 4096", d.Used())
	}
	if _, err := d.Alloc(0, 0); !errors.Is(err, ErrBadAlloc) {
		t.Fatalf("zero alloc: %v", err)
	}
	if _, err := d.Alloc(8, 3); !errors.Is(err, ErrBadAlloc) {
		t.Fatalf("non-power-of-two align: %v", err)
	}
	if _, err := d.Alloc(2<<20, 0); !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("oversized alloc: %v", err)
	}
}

func TestReuseAfterFree(t *testing.T) {
	h := NewHost(DefaultHostBase, 3*4096)
	var as []uint64
	for i := 0; i < 3; i++ {
		a, err := h.Alloc(4096, 4096)
		if err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
	}
	if _, err := h.Alloc(1, 0); err == nil {
		t.Fatal("alloc in a full space succeeded")
	}
	if err := h.Free(as[1]); err != nil {
		t.Fatal(err)
	}
	a, err := h.Alloc(4096, 0)
	if err != nil || a != as[1] {
		t.Fatalf("realloc = %#x, %v; want %#x", a, err, as[1])
	}
}

func TestAccessors(t *testing.T) {
	h := NewHost(DefaultHostBase, DefaultHostSize)
	a, _ := h.Alloc(64, 0)
	if err := h.WriteU64(a, 0x1122334455667788); err != nil {
		t.Fatal(err)
	}
	if v, _ := h.ReadU32(a); v != 0x55667788 {
		t.Fatalf("ReadU32 = %#x", v)
	}
	if err := h.WriteU32(a+60, 7); err != nil {
		t.Fatal(err)
	}
	if err := h.WriteU64(a+60, 7); err == nil {
		t.Fatal("straddling WriteU64 succeeded")
	}
	v, err := h.View(a, 64)
	if err != nil {
		t.Fatal(err)
	}
	v[1] = 0xAB // a view aliases memory
	got := make([]byte, 2)
	_ = h.Read(a, got)
	if !bytes.Equal(got, []byte{0x88, 0xAB}) {
		t.Fatalf("after view write: % x", got)
	}
	if _, err := h.View(a, 65); err == nil {
		t.Fatal("oversized view succeeded")
	}
	if base, size, ok := h.Lookup(a + 5); !ok || base != a || size != 64 {
		t.Fatalf("Lookup = %#x %d %v", base, size, ok)
	}
}

// TestConcurrent allocates, frees and writes disjoint ranges from many goroutines;
// run with -race.
func TestConcurrent(t *testing.T) {
	d := NewDevice(DefaultDeviceBase, DefaultDeviceSize)
	shared, _ := d.Alloc(8*1024, 0)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				a, err := d.Alloc(uint64(64+i), 0)
				if err != nil {
					t.Error(err)
					return
				}
				if err := d.WriteU32(a, uint32(g)); err != nil {
					t.Error(err)
				}
				if err := d.WriteU64(shared+uint64(g*1024+i%128*8), uint64(i)); err != nil {
					t.Error(err)
				}
				if err := d.Free(a); err != nil {
					t.Error(err)
				}
			}
		}(g)
	}
	wg.Wait()
	if d.Used() != 8*1024 {
		t.Fatalf("used = %d", d.Used())
	}
}

func BenchmarkReadU32(b *testing.B) {
	d := NewDevice(DefaultDeviceBase, DefaultDeviceSize)
	var addrs []uint64
	for i := 0; i < 64; i++ {
		a, _ := d.Alloc(4096, 0)
		addrs = append(addrs, a)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = d.ReadU32(addrs[i&63] + 16)
	}
}
