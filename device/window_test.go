package device

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"vortexgfx/device/mem"
)

// TestCTAWindowedAccess: a CTA reaching memory through its cached allocation
// window reads and writes the same bytes as the memory's own accessors, and
// faults exactly as they do once the allocation is freed or when an access
// straddles an allocation's end — the window never outlives the allocation map
// it was taken from. spec: vortex-hardware-facts §1.4 (device memory faults end
// the launch)
func TestCTAWindowedAccess(t *testing.T) {
	m := mem.NewDevice(mem.DefaultDeviceBase, 1<<24)
	a, _ := m.Alloc(256, 0)
	b, _ := m.Alloc(256, 0)
	var c CTA
	c.setMemory(m)
	if c.wins == nil || c.words == nil {
		t.Fatal("mem.Device lends no windows or word accessors")
	}
	c.WriteU32(a+4, 0xA1B2C3D4)
	c.WriteU64(b+8, 0x0102030405060708)
	c.Write(a+100, []byte{9, 8, 7})
	if v, _ := m.ReadU32(a + 4); v != 0xA1B2C3D4 {
		t.Fatalf("word written through the window reads %#x", v)
	}
	if c.ReadU64(b+8) != 0x0102030405060708 || c.ReadU32(a+4) != 0xA1B2C3D4 {
		t.Fatal("window reads differ")
	}
	p := make([]byte, 3)
	c.Read(a+100, p)
	if p[0] != 9 || p[2] != 7 || c.Err() != nil || c.memOps != 6 {
		t.Fatalf("read %v, err %v, %d memory ops", p, c.Err(), c.memOps)
	}
	// Straddling the end of a: the memory's fault, not a window read.
	c.Read(a+254, p)
	if !faultAt(c.Err(), "read of 3 bytes", a+254) {
		t.Fatalf("straddling read: %v", c.Err())
	}
	// Freed under a cached window: the next access faults.
	c.err = nil
	_ = c.ReadU32(a)
	if err := m.Free(a); err != nil {
		t.Fatal(err)
	}
	if v := c.ReadU32(a); v != 0 || !faultAt(c.Err(), "read of 4 bytes", a) {
		t.Fatalf("read of a freed allocation: %#x, %v", v, c.Err())
	}
	// A new allocation in its place is reached again.
	c.err = nil
	a2, _ := m.Alloc(256, 0)
	if a2 != a {
		t.Fatalf("realloc at %#x, want %#x", a2, a)
	}
	c.WriteU32(a2, 5)
	if v, _ := m.ReadU32(a2); v != 5 || c.Err() != nil {
		t.Fatalf("write to the new allocation: %d, %v", v, c.Err())
	}
}

// faultAt reports whether err is the CTA's fault for the memory's own
// message about an access of what at addr.
func faultAt(err error, what string, addr uint64) bool {
	return errors.Is(err, ErrFault) && strings.Contains(err.Error(), fmt.Sprintf("%s at %#x outside", what, addr))
}

// TestCTAWindowsRoundRobin: more buffers than the CTA keeps windows on, touched
// in turn, all read back what was written; freeing one makes exactly its
// accesses fault.
func TestCTAWindowsRoundRobin(t *testing.T) {
	m := mem.NewDevice(mem.DefaultDeviceBase, 1<<24)
	var bufs []uint64
	for range ctaWindows + 2 {
		a, _ := m.Alloc(64, 0)
		bufs = append(bufs, a)
	}
	var c CTA
	c.setMemory(m)
	for round := uint32(0); round < 3; round++ {
		for i, a := range bufs {
			c.WriteU32(a+4*uint64(round), uint32(i)<<8|round)
		}
	}
	for i, a := range bufs {
		for round := uint32(0); round < 3; round++ {
			if v := c.ReadU32(a + 4*uint64(round)); v != uint32(i)<<8|round {
				t.Fatalf("buffer %d word %d = %#x", i, round, v)
			}
		}
	}
	_ = m.Free(bufs[2])
	if _ = c.ReadU32(bufs[1]); c.Err() != nil {
		t.Fatalf("live buffer after a free: %v", c.Err())
	}
	if v := c.ReadU32(bufs[2]); v != 0 || !faultAt(c.Err(), "read of 4 bytes", bufs[2]) {
		t.Fatalf("freed buffer: %#x, %v", v, c.Err())
	}
}
