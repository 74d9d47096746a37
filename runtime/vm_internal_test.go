package runtime

import (
	"strings"
	"testing"

	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/sim"
)

// spec: command-processor §8 — a CMD_MEM_* to a freed buffer's VA takes a page
// fault through Q_ERROR (code QErrPageFault), and the queue keeps working after.
// (The public API refuses freed buffers, so this test plants the raw VA.)
func TestDMAToFreedVAFaults(t *testing.T) {
	cfg := config.Default()
	cfg.CP.VM = true
	s, err := sim.Open(cfg, device.NewLibrary(), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(s)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	a, err := d.Alloc(8192)
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.Alloc(64)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Write(a, 0, make([]byte, 8192)); err != nil {
		t.Fatal(err)
	}
	va := a.Addr()
	if err := a.Free(); err != nil {
		t.Fatal(err)
	}
	for _, it := range []item{
		{kind: itemWrite, dst: va + 4096, n: 64, data: make([]byte, 64)},
		{kind: itemRead, src: va, n: 16, out: make([]byte, 16)},
		{kind: itemCopy, dst: b.Addr(), src: va + 100, n: 32},
	} {
		batch := d.DefaultQueue().NewBatch()
		batch.items = append(batch.items, it)
		err := batch.Submit().Wait()
		if err == nil || !strings.Contains(err.Error(), "page fault") {
			t.Fatalf("DMA kind %d to freed VA %#x: %v, want a page fault", it.kind, va, err)
		}
		p := []byte{1, 2, 3}
		if err := d.Write(b, 0, p); err != nil {
			t.Fatalf("queue after the fault: %v", err)
		}
	}
}
