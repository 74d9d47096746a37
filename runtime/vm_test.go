package runtime_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/mem"
	"vortexgfx/device/sim"
	"vortexgfx/runtime"
)

func vmConfig(xlen int) func(*config.Config) {
	return func(c *config.Config) {
		c.CP.VM = true
		c.Device.XLen = xlen
	}
}

// spec: command-processor §8, §9 — with VM advertised the runtime programs
// CP_SATP at open (Sv32 for XLEN 32, Sv39 for XLEN 64), buffers live at virtual
// addresses backed by page tables in device memory, DMA is translated, kernels see
// the same address space, and a freed range faults.
func TestVMRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		xlen int
		mode mem.Mode
	}{{32, mem.ModeSv32}, {64, mem.ModeSv39}} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			e := openSim(t, "emu", vmConfig(tc.xlen), sim.Options{})
			mode, satp := e.dev.VMMode()
			if mode != tc.mode {
				t.Fatalf("mode %v, want %v", mode, tc.mode)
			}
			lo, _ := e.sim.ReadReg(abi.RegCPSATPLo)
			hi, _ := e.sim.ReadReg(abi.RegCPSATPHi)
			if got := uint64(hi)<<32 | uint64(lo); got != satp || got == 0 {
				t.Fatalf("CP_SATP = %#x, want %#x", got, satp)
			}
			const n = 3000 // crosses pages
			a, c := e.alloc(4*n), e.alloc(4*n)
			if _, _, ok := e.sim.Mem.Lookup(a.Addr()); ok {
				t.Fatalf("buffer address %#x is a physical allocation, want a VA", a.Addr())
			}
			in := make([]uint32, n)
			for i := range in {
				in[i] = uint32(i*7 + 1)
			}
			if err := e.dev.Write(a, 0, u32s(in)); err != nil {
				t.Fatal(err)
			}
			// The bytes really sit at the translated physical address.
			pa, err := mem.Translate(e.sim.Mem, satp, a.Addr()+4*1500, mem.AccessRead)
			if err != nil {
				t.Fatal(err)
			}
			if v, err := e.sim.Mem.ReadU32(pa); err != nil || v != in[1500] {
				t.Fatalf("physical word at %#x = %d (%v), want %d", pa, v, err, in[1500])
			}
			q := e.dev.DefaultQueue()
			if err := q.EnqueueCopy(c, 0, a, 0, 4*n).Wait(); err != nil {
				t.Fatal(err)
			}
			if err := q.EnqueueLaunch(e.kern["scale"], runtime.LaunchParams{NDim: 1, Grid: [3]uint32{(n + 63) / 64},
				Block: [3]uint32{64}, Args: args(c.Addr(), 3, n)}).Wait(); err != nil {
				t.Fatal(err)
			}
			out := make([]byte, 4*n)
			if err := e.dev.Read(c, 0, out); err != nil {
				t.Fatal(err)
			}
			for i := range in {
				if u32(out, i) != 3*in[i] {
					t.Fatalf("out[%d] = %d, want %d", i, u32(out, i), 3*in[i])
				}
			}
			// A physical buffer: a real physical address, reached by DMA and kernels.
			p, err := e.dev.AllocWith(4*n, runtime.AllocOptions{Physical: true})
			if err != nil {
				t.Fatal(err)
			}
			if _, _, ok := e.sim.Mem.Lookup(p.Addr()); !ok || !p.Physical() {
				t.Fatalf("physical buffer at %#x is not a physical allocation", p.Addr())
			}
			if err := q.NewBatch().Copy(p, 0, c, 0, 4*n).Launch(e.kern["scale"], runtime.LaunchParams{NDim: 1,
				Grid: [3]uint32{(n + 63) / 64}, Block: [3]uint32{64}, Args: args(p.Addr(), 2, n)}).Read(p, 0, out).Submit().Wait(); err != nil {
				t.Fatal(err)
			}
			if u32(out, 5) != 6*in[5] {
				t.Fatalf("physical buffer word 5 = %d, want %d", u32(out, 5), 6*in[5])
			}
			// Free unmaps: the old VA no longer translates, for the CP or the cores.
			va := c.Addr()
			if err := c.Free(); err != nil {
				t.Fatal(err)
			}
			if err := e.dev.Write(a, 0, []byte{1}); err != nil { // any submission uploads the tables
				t.Fatal(err)
			}
			var pf *mem.PageFault
			if _, err := mem.Translate(e.sim.Mem, satp, va, mem.AccessRead); !errors.As(err, &pf) {
				t.Fatalf("freed VA %#x translates: %v", va, err)
			}
			err = q.EnqueueLaunch(e.kern["scale"], runtime.LaunchParams{NDim: 1, Grid: [3]uint32{1},
				Block: [3]uint32{64}, Args: args(va, 3, 64)}).Wait()
			if err == nil || !strings.Contains(err.Error(), "launch error") {
				t.Fatalf("kernel on a freed VA: %v, want a launch error", err)
			}
			if le := e.sim.GPU.LastLaunchError(); le == nil || !strings.Contains(le.Error(), "page fault") {
				t.Fatalf("device reason %v, want a page fault", le)
			}
			// The queue recovers.
			if err := e.dev.Read(a, 0, out[:64]); err != nil || u32(out, 1) != in[1] {
				t.Fatalf("after the fault: %v, word 1 = %d", err, u32(out, 1))
			}
		})
	}
}

// spec: vortex-hardware-facts §9 item 12 — with VM on, TEX/RASTER/OM address DCRs
// must point into pinned physical buffers; without VM every buffer is physical.
func TestVMFixedFunctionBinding(t *testing.T) {
	for _, vm := range []bool{true, false} {
		e := openSim(t, "emu", func(c *config.Config) { c.CP.VM = vm }, sim.Options{})
		virt := e.alloc(4096)
		phys, err := e.dev.AllocWith(4096, runtime.AllocOptions{Physical: true})
		if err != nil {
			t.Fatal(err)
		}
		q := e.dev.DefaultQueue()
		for _, tc := range []struct {
			dcr   abi.DCR
			addr  uint64
			wantO bool
		}{
			{abi.DCROMCBufAddr, virt.Addr(), !vm},
			{abi.DCROMZBufAddr, virt.Addr() + 64, !vm},
			{abi.DCRTexAddr, virt.Addr(), !vm},
			{abi.DCRRasterTBufAddr, virt.Addr(), !vm},
			{abi.DCRRasterPBufAddr, virt.Addr(), !vm},
			{abi.DCROMCBufAddr, phys.Addr(), true},
			{abi.DCRTexAddr, phys.Addr() + 4032, true},
			{abi.DCRTexAddr, phys.Addr() + 4096, !vm},
			{abi.DCROMCBufPitch, virt.Addr(), true}, // not an address DCR
			{abi.DCROMZBufAddr, 0, true},            // nothing bound
		} {
			blk := uint32(tc.addr >> 6)
			err := q.EnqueueDCRWrite(tc.dcr, blk).Wait()
			if (err == nil) != tc.wantO {
				t.Errorf("vm=%v DCR %#x = %#x: %v, want ok=%v", vm, tc.dcr, tc.addr, err, tc.wantO)
			}
			derr := q.EnqueueDraw([]runtime.DrawStep{runtime.DCRStep(tc.dcr, blk)}).Wait()
			if (derr == nil) != tc.wantO {
				t.Errorf("vm=%v draw DCR %#x = %#x: %v, want ok=%v", vm, tc.dcr, tc.addr, derr, tc.wantO)
			}
		}
		old := phys.Addr()
		if err := phys.Free(); err != nil {
			t.Fatal(err)
		}
		if vm {
			if err := q.EnqueueDCRWrite(abi.DCROMCBufAddr, uint32(old>>6)).Wait(); err == nil {
				t.Error("binding a freed physical buffer succeeded")
			}
		}
	}
}

// spec: command-processor §9 — SATP is written only when VM is advertised.
func TestNoSATPWithoutVM(t *testing.T) {
	e := open(t, "emu", nil)
	if lo, _ := e.sim.ReadReg(abi.RegCPSATPLo); lo != 0 {
		t.Fatalf("CP_SATP_LO = %#x without VM", lo)
	}
	if m, _ := e.dev.VMMode(); m != mem.ModeBare {
		t.Fatalf("mode %v without VM", m)
	}
}

// Many goroutines allocate, write, read and free VA buffers on several queues at
// once; page-table uploads from any queue keep every mapping visible. Run with -race.
func TestVMConcurrent(t *testing.T) {
	e := openSim(t, "emu", vmConfig(32), sim.Options{})
	const workers = 3
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		q, err := e.dev.NewQueue(runtime.QueueOptions{})
		if err != nil {
			t.Fatal(err)
		}
		go func(w int) {
			for i := 0; i < 8; i++ {
				b, err := e.dev.Alloc(uint64(4096*(1+i%3) + 100))
				if err != nil {
					errs <- err
					return
				}
				in := bytes.Repeat([]byte{byte(w*16 + i)}, int(b.Size()))
				out := make([]byte, len(in))
				if err := q.NewBatch().Write(b, 0, in).Read(b, 0, out).Submit().Wait(); err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(in, out) {
					errs <- errors.New("round trip mismatch")
					return
				}
				if err := b.Free(); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}(w)
	}
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
