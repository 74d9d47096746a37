package mem

import (
	"errors"
	"testing"
)

func TestSATPRoundTrip(t *testing.T) {
	tests := []struct {
		satp uint64
		mode Mode
		root uint64
		bad  bool
	}{
		{0, ModeBare, 0, false},
		{0x8000_0123, ModeSv32, 0x123000, false},
		{0x0000_0123, ModeBare, 0, false}, // RV32 MODE bit clear
		{8<<60 | 0x456, ModeSv39, 0x456000, false},
		{9 << 60, ModeBare, 0, true}, // Sv48 unsupported
	}
	for _, tc := range tests {
		m, r, err := DecodeSATP(tc.satp)
		if (err != nil) != tc.bad || m != tc.mode || r != tc.root {
			t.Errorf("DecodeSATP(%#x) = %v %#x %v", tc.satp, m, r, err)
		}
		if !tc.bad && tc.mode != ModeBare && EncodeSATP(m, r) != tc.satp {
			t.Errorf("EncodeSATP(%v, %#x) = %#x, want %#x", m, r, EncodeSATP(m, r), tc.satp)
		}
	}
}

func newPT(t *testing.T, mode Mode) (*Device, *PageTable) {
	t.Helper()
	d := NewDevice(0, 1<<34)
	pt, err := NewPageTable(d, mode)
	if err != nil {
		t.Fatal(err)
	}
	return d, pt
}

func TestTranslateMappings(t *testing.T) {
	for _, mode := range []Mode{ModeSv32, ModeSv39} {
		t.Run(mode.String(), func(t *testing.T) {
			d, pt := newPT(t, mode)
			mega := LevelSize(mode, 1)
			// 4 KiB pages, then a megapage (va and pa both aligned).
			if err := pt.Map(0x4000_0000, 0x1234_5000, 2*PageSize, PermRW); err != nil {
				t.Fatal(err)
			}
			if err := pt.Map(0x8000_0000, 4*mega, mega, PermR); err != nil {
				t.Fatal(err)
			}
			tests := []struct {
				va, pa uint64
				acc    Access
				fault  string
			}{
				{0x4000_0010, 0x1234_5010, AccessRead, ""},
				{0x4000_1FFF, 0x1234_6FFF, AccessWrite, ""},
				{0x4000_2000, 0, AccessRead, "invalid PTE"},
				{0x8000_0000 + mega - 1, 5*mega - 1, AccessRead, ""},
				{0x8000_0004, 0, AccessWrite, "page not writable"},
				{0x4000_0000, 0, AccessExec, "page not executable"},
			}
			for _, tc := range tests {
				pa, err := Translate(d, pt.SATP(), tc.va, tc.acc)
				if tc.fault == "" {
					if err != nil || pa != tc.pa {
						t.Errorf("%s %#x -> %#x, %v; want %#x", tc.acc, tc.va, pa, err, tc.pa)
					}
					continue
				}
				var pf *PageFault
				if !errors.As(err, &pf) || pf.Reason != tc.fault || pf.VA != tc.va {
					t.Errorf("%s %#x: err %v, want %q", tc.acc, tc.va, err, tc.fault)
				}
			}
		})
	}
}

func TestTranslateGigapage(t *testing.T) {
	d, pt := newPT(t, ModeSv39)
	if err := pt.Map(1<<30, 2<<30, 1<<30, PermRWX); err != nil {
		t.Fatal(err)
	}
	pa, err := Translate(d, pt.SATP(), 1<<30+0x3456789, AccessWrite)
	if err != nil || pa != 2<<30+0x3456789 {
		t.Fatalf("gigapage: %#x %v", pa, err)
	}
	// Mapping inside the gigapage is refused.
	if err := pt.Map(1<<30+PageSize, 0, PageSize, PermR); err == nil {
		t.Fatal("map inside a gigapage succeeded")
	}
}

// TestTranslatePTERules plants malformed entries: each must fault with its reason.
// spec: RISC-V privileged spec §4.3.2 (the walk), Svade (A/D not updated)
func TestTranslatePTERules(t *testing.T) {
	const va = 0x4000_0000
	tests := []struct {
		name   string
		mode   Mode
		level  int
		pte    uint64
		acc    Access
		reason string
	}{
		{"invalid", ModeSv39, 0, 0x100<<10 | PTER | PTEA, AccessRead, "invalid PTE"},
		{"W without R", ModeSv39, 0, 0x100<<10 | PTEV | PTEW | PTEA | PTED, AccessWrite, "invalid PTE"},
		{"A clear", ModeSv39, 0, 0x100<<10 | PTEV | PTER, AccessRead, "accessed bit clear"},
		{"D clear on write", ModeSv39, 0, 0x100<<10 | PTEV | PTER | PTEW | PTEA, AccessWrite, "dirty bit clear on a write"},
		{"D clear on read ok", ModeSv39, 0, 0x100<<10 | PTEV | PTER | PTEA, AccessRead, ""},
		{"reserved bits", ModeSv39, 0, 1<<63 | 0x100<<10 | PTEV | PTER | PTEA, AccessRead, "invalid PTE"},
		{"misaligned megapage", ModeSv39, 1, 0x101<<10 | PTEV | PTER | PTEA, AccessRead, "misaligned superpage"},
		{"misaligned gigapage", ModeSv39, 2, 0x200<<10 | PTEV | PTER | PTEA, AccessRead, "misaligned superpage"},
		{"pointer at last level", ModeSv39, 0, 0x100<<10 | PTEV, AccessRead, "non-leaf PTE at the last level"},
		{"sv32 misaligned megapage", ModeSv32, 1, 0x101<<10 | PTEV | PTER | PTEA, AccessRead, "misaligned superpage"},
		{"sv32 aligned megapage", ModeSv32, 1, 0x400<<10 | PTEV | PTER | PTEA, AccessRead, ""},
		{"sv32 pointer at last level", ModeSv32, 0, 0x100<<10 | PTEV, AccessRead, "non-leaf PTE at the last level"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, pt := newPT(t, tc.mode)
			if err := pt.SetPTE(va, tc.level, tc.pte); err != nil {
				t.Fatal(err)
			}
			_, err := Translate(d, pt.SATP(), va, tc.acc)
			if tc.reason == "" {
				if err != nil {
					t.Fatalf("unexpected fault %v", err)
				}
				return
			}
			var pf *PageFault
			if !errors.As(err, &pf) || pf.Reason != tc.reason || pf.Level != tc.level {
				t.Fatalf("err = %v, want %q at level %d", err, tc.reason, tc.level)
			}
		})
	}
}

func TestTranslateBadVA(t *testing.T) {
	d, pt := newPT(t, ModeSv39)
	if _, err := Translate(d, pt.SATP(), 1<<40, AccessRead); err == nil {
		t.Fatal("non-canonical Sv39 VA translated")
	}
	d32, pt32 := newPT(t, ModeSv32)
	if _, err := Translate(d32, pt32.SATP(), 1<<33, AccessRead); err == nil {
		t.Fatal("33-bit Sv32 VA translated")
	}
	// A root outside device memory faults with the memory fault wrapped.
	_, err := Translate(d, EncodeSATP(ModeSv39, 1<<33), 0, AccessRead)
	var f *Fault
	if !errors.As(err, &f) {
		t.Fatalf("PTE read fault not wrapped: %v", err)
	}
	if pa, err := Translate(d, 0, 0xDEAD, AccessRead); err != nil || pa != 0xDEAD {
		t.Fatalf("bare: %#x %v", pa, err)
	}
	if err := pt.Release(); err != nil {
		t.Fatal(err)
	}
	if d.Used() != 0 {
		t.Fatalf("release left %d bytes", d.Used())
	}
}
