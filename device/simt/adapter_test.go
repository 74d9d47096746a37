package simt

import (
	"errors"
	"testing"

	"vortexgfx/device/mem"
	"vortexgfx/isa/rv32"
)

// The core runs on the device model's memory through ByteMemory, and a fault
// there (outside any allocation) surfaces as a *Fault wrapping mem's *Fault.
func TestRunsOnDeviceMemory(t *testing.T) {
	dev := mem.NewDevice(0, 1<<20)
	if err := dev.AllocAt(0, 0x1000); err != nil {
		t.Fatal(err)
	}
	code := []rv32.Inst{li(a0, 40), I(rv32.ADDI, a0, a0, 2), S(rv32.SH, a0, zero, dataBase),
		I(rv32.LHU, a1, zero, dataBase), S(rv32.SW, a1, zero, dataBase+4),
		I(rv32.LUI, a2, 0, 0x80000), I(rv32.LW, a3, a2, 0)}
	m := ByteMemory{dev}
	for i, in := range code {
		w, _ := rv32.Encode(in)
		if err := m.Store(codeBase+uint32(4*i), 4, w); err != nil {
			t.Fatal(err)
		}
	}
	c := newCore(t, m, 1, 1)
	_ = c.Start(0, codeBase, 1)
	err := c.Run()
	if v, _ := dev.ReadU32(dataBase + 4); v != 42 {
		t.Errorf("stored %d, want 42", v)
	}
	var f *Fault
	var mf *mem.Fault
	if !errors.As(err, &f) || !errors.As(err, &mf) || f.Addr != 0x80000 || f.Kind != "load" {
		t.Errorf("err %v, want a load fault at 0x80000 wrapping mem.Fault", err)
	}
	if _, err := m.Load(0, 3); err == nil {
		t.Error("3-byte load accepted")
	}
}
