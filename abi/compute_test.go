package abi

import (
	"bytes"
	"strings"
	"testing"
)

// TestComputeDescRoundTrip: the blob layout of the compute descriptor set
// (spec: vortexpipe §2.5).
func TestComputeDescRoundTrip(t *testing.T) {
	ds := []ComputeDesc{
		{Kind: DescStorageBuffer, Flags: DescWritable, Binding: 0, Addr: 0x1000_0040, Size: 256},
		{Kind: DescStorageImage, Format: 7, Binding: 0, Addr: 0x1000_1000, Size: 64 * 64 * 4, Width: 64, Height: 64, Depth: 1},
		{Kind: DescAtomicCounter, Flags: DescWritable, Binding: 3, Addr: 0x1000_2000, Size: 4},
		{Kind: DescUniformBuffer, Binding: 1, Addr: 0x1_0000_2000, Size: 16},
	}
	b, err := EncodeComputeDescs(ds)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != ComputeDescBlobBytes(len(ds)) {
		t.Fatalf("blob is %d bytes, want %d", len(b), ComputeDescBlobBytes(len(ds)))
	}
	got, err := DecodeComputeDescs(b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ds {
		if got[i] != ds[i] {
			t.Errorf("entry %d: %+v, want %+v", i, got[i], ds[i])
		}
	}
	// Field offsets inside an entry.
	e := b[ComputeDescHeaderBytes+ComputeDescEntryBytes:]
	for _, c := range []struct {
		name string
		off  int
		want byte
	}{{"kind", 0, byte(DescStorageImage)}, {"format", 2, 7}, {"addr", 8, 0x00}, {"addr byte 1", 9, 0x10}, {"width", 20, 64}, {"height", 24, 64}, {"depth", 28, 1}} {
		if e[c.off] != c.want {
			t.Errorf("%s at +%d = %#x, want %#x", c.name, c.off, e[c.off], c.want)
		}
	}
}

func TestComputeDescErrors(t *testing.T) {
	good, _ := EncodeComputeDescs([]ComputeDesc{{Kind: DescStorageBuffer, Size: 4}})
	badMagic := bytes.Clone(good)
	badMagic[0] ^= 1
	badKind := bytes.Clone(good)
	badKind[ComputeDescHeaderBytes] = 9
	many := bytes.Clone(good)
	many[4] = 200
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"short", good[:8], "header"},
		{"magic", badMagic, "magic"},
		{"kind", badKind, "kind 9"},
		{"count", many, "200 entries"},
		{"truncated", good[:ComputeDescHeaderBytes+10], "truncated"},
	} {
		if _, err := DecodeComputeDescs(c.b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %q", c.name, err, c.want)
		}
	}
	dup := []ComputeDesc{{Kind: DescStorageBuffer, Binding: 2}, {Kind: DescStorageBuffer, Binding: 2}}
	if _, err := EncodeComputeDescs(dup); err == nil || !strings.Contains(err.Error(), "bound twice") {
		t.Errorf("duplicate binding: %v", err)
	}
	if _, err := EncodeComputeDescs(make([]ComputeDesc, ComputeDescMaxEntries+1)); err == nil {
		t.Error("oversized set accepted")
	}
	if got := CSBaseXY(3, 5); got != 3|5<<32 {
		t.Errorf("CSBaseXY = %#x", got)
	}
}

// FuzzComputeDescs: any bytes decode to a blob that re-encodes to the same entries,
// or to an error; never a panic.
func FuzzComputeDescs(f *testing.F) {
	seed, _ := EncodeComputeDescs([]ComputeDesc{{Kind: DescStorageBuffer, Binding: 1, Addr: 64, Size: 8}})
	f.Add(seed)
	f.Add([]byte("VXCD"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, err := DecodeComputeDescs(b)
		if err != nil {
			return
		}
		again, err := EncodeComputeDescs(ds)
		if err != nil {
			return // duplicates decode but do not encode
		}
		back, err := DecodeComputeDescs(again)
		if err != nil || len(back) != len(ds) {
			t.Fatalf("re-decode: %v", err)
		}
		for i := range ds {
			if back[i] != ds[i] {
				t.Fatalf("entry %d changed", i)
			}
		}
	})
}
