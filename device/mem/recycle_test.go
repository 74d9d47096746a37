package mem

import "testing"

// TestRecycledAllocationsAreZeroed: host memory reuses the backing array of a
// freed large allocation for the next one of a similar size, which must still
// read as zeroed bytes of exactly the requested size, with Used and the
// addresses unchanged by the reuse. spec: command-processor §9 (host_mem_alloc)
func TestRecycledAllocationsAreZeroed(t *testing.T) {
	tests := []struct {
		name       string
		first, nxt uint64
		wantReuse  bool
	}{
		{"same size", 1 << 20, 1 << 20, true},
		{"smaller within half", 1 << 20, 600 << 10, true},
		{"far smaller", 1 << 20, 300 << 10, false},
		{"larger", 1 << 20, 2 << 20, false},
		{"below the recycling size", 64 << 10, 64 << 10, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHost(DefaultHostBase, DefaultHostSize)
			a, err := h.Alloc(tc.first, 0)
			if err != nil {
				t.Fatal(err)
			}
			v, _ := h.View(a, int(tc.first))
			for i := range v {
				v[i] = 0xA5
			}
			old := &v[0]
			if err := h.Free(a); err != nil {
				t.Fatal(err)
			}
			b, err := h.Alloc(tc.nxt, 0)
			if err != nil {
				t.Fatal(err)
			}
			if b != a || h.Used() != tc.nxt {
				t.Fatalf("alloc at %#x with %d used, want %#x and %d", b, h.Used(), a, tc.nxt)
			}
			w, err := h.View(b, int(tc.nxt))
			if err != nil {
				t.Fatal(err)
			}
			if reused := &w[0] == old; reused != tc.wantReuse {
				t.Fatalf("reused = %v, want %v", reused, tc.wantReuse)
			}
			for i, x := range w {
				if x != 0 {
					t.Fatalf("byte %d = %#x after reallocation, want 0", i, x)
				}
			}
			if _, err := h.View(b, int(tc.nxt)+1); err == nil {
				t.Fatal("view past the new allocation's end succeeded")
			}
		})
	}
}

// TestDeviceMemoryDoesNotRecycle: device memory always gets fresh arrays, so a
// view a fixed-function unit still holds of freed memory never aliases a new
// allocation.
func TestDeviceMemoryDoesNotRecycle(t *testing.T) {
	d := NewDevice(DefaultDeviceBase, DefaultDeviceSize)
	a, _ := d.Alloc(1<<20, 0)
	v, _ := d.View(a, 1<<20)
	_ = d.Free(a)
	b, _ := d.Alloc(1<<20, 0)
	w, _ := d.View(b, 1<<20)
	if &v[0] == &w[0] {
		t.Fatal("device memory reused a freed allocation's array")
	}
}

// TestWindowCurrent: a window views its whole allocation and stays current
// only until the next Alloc or Free of its space.
func TestWindowCurrent(t *testing.T) {
	d := NewDevice(DefaultDeviceBase, DefaultDeviceSize)
	if _, ok := d.Window(DefaultDeviceBase); ok {
		t.Fatal("window in an empty space")
	}
	a, _ := d.Alloc(4096, 0)
	w, ok := d.Window(a + 100)
	if !ok || w.Base != a || len(w.Data) != 4096 || !d.Current(&w) {
		t.Fatalf("window %#x+%d ok %v current %v", w.Base, len(w.Data), ok, d.Current(&w))
	}
	if _, ok := d.Window(a + 4096); ok {
		t.Fatal("window past the allocation's end")
	}
	b, _ := d.Alloc(64, 0)
	if d.Current(&w) {
		t.Fatal("window current after an Alloc")
	}
	w, _ = d.Window(a)
	_ = d.Free(b)
	if d.Current(&w) || d.Current(&Window{}) {
		t.Fatal("window current after a Free (or a zero window current)")
	}
}
