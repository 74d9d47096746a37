package device

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/mem"
	"vortexgfx/device/simt"
	"vortexgfx/isa/rv32"
)

// Registers of the hand-written kernels.
const (
	rZero, rT0, rT1, rT2, rT3 = 0, 5, 6, 7, 28
	rA0, rA1, rA2, rA3, rA4   = 10, 11, 12, 13, 14
	rA5                       = 15
)

func asmWords(t *testing.T, insts ...rv32.Inst) []byte {
	t.Helper()
	var b []byte
	for i, in := range insts {
		w, err := rv32.Encode(in)
		if err != nil {
			t.Fatalf("instruction %d (%s): %v", i, in.Op, err)
		}
		b = append(b, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	return b
}

func iop(op rv32.Op, rd, rs1 uint8, imm int32) rv32.Inst {
	return rv32.Inst{Op: op, Rd: rd, Rs1: rs1, Imm: imm}
}
func rop(op rv32.Op, rd, rs1, rs2 uint8) rv32.Inst {
	return rv32.Inst{Op: op, Rd: rd, Rs1: rs1, Rs2: rs2}
}
func sop(op rv32.Op, rs2, rs1 uint8, imm int32) rv32.Inst {
	return rv32.Inst{Op: op, Rs1: rs1, Rs2: rs2, Imm: imm}
}
func csrRead(rd uint8, csr uint16) rv32.Inst { return rv32.Inst{Op: rv32.CSRRS, Rd: rd, CSR: csr} }

var vxHalt = rv32.Inst{Op: rv32.VXTMC}

// gid leaves BLOCK_ID_X·BLOCK_DIM_X + THREAD_ID_X in rd (clobbers rT2, rT3).
func gid(rd uint8) []rv32.Inst {
	return []rv32.Inst{csrRead(rd, simt.CSRCTAID+3), csrRead(rT2, simt.CSRCTAID+6), csrRead(rT3, simt.CSRCTAID+9),
		rop(rv32.MUL, rT2, rT2, rT3), rop(rv32.ADD, rd, rd, rT2)}
}

// isaVecAdd is c[i] = a[i] + b[i] for i < n with args {a, b, c, n}, as code.
func isaVecAdd(t *testing.T) []byte {
	var p []rv32.Inst
	p = append(p, csrRead(rT0, simt.CSRMscratch),
		iop(rv32.LW, rA0, rT0, 0), iop(rv32.LW, rA1, rT0, 8), iop(rv32.LW, rA2, rT0, 16), iop(rv32.LW, rA3, rT0, 24))
	p = append(p, gid(rT1)...)
	p = append(p, rv32.Inst{Op: rv32.BGEU, Rs1: rT1, Rs2: rA3, Imm: 4 * 10},
		iop(rv32.SLLI, rT1, rT1, 2),
		rop(rv32.ADD, rA0, rA0, rT1), iop(rv32.LW, rA4, rA0, 0),
		rop(rv32.ADD, rA1, rA1, rT1), iop(rv32.LW, rA5, rA1, 0),
		rop(rv32.ADD, rA4, rA4, rA5),
		rop(rv32.ADD, rA2, rA2, rT1), sop(rv32.SW, rA4, rA2, 0),
		rv32.Inst{Op: rv32.JAL, Imm: 8}, rv32.Inst{Op: rv32.ADDI}, // the branch target is 10 words on
		vxHalt)
	return asmWords(t, p...)
}

// isaReverse reverses each CTA's block through local memory across a vx_bar:
// args {in, out}; lmem[tid] = in[gid]; bar; out[gid] = lmem[threads-1-tid].
func isaReverse(t *testing.T) []byte {
	var p []rv32.Inst
	p = append(p, csrRead(rT0, simt.CSRMscratch), iop(rv32.LW, rA0, rT0, 0), iop(rv32.LW, rA1, rT0, 8))
	p = append(p, gid(rT1)...)
	p = append(p, iop(rv32.SLLI, rT1, rT1, 2),
		csrRead(rA2, simt.CSRCTAID+3), iop(rv32.SLLI, rA2, rA2, 2), // tid·4
		csrRead(rA3, simt.CSRCTALMemAddr),
		rop(rv32.ADD, rA4, rA0, rT1), iop(rv32.LW, rA4, rA4, 0),
		rop(rv32.ADD, rA5, rA3, rA2), sop(rv32.SW, rA4, rA5, 0),
		csrRead(rT2, simt.CSRCTAID), csrRead(rT3, simt.CSRCTAID+2),
		rv32.Inst{Op: rv32.VXBAR, Rs1: rT2, Rs2: rT3},
		csrRead(rA4, simt.CSRCTAID+9), iop(rv32.SLLI, rA4, rA4, 2), iop(rv32.ADDI, rA4, rA4, -4),
		rop(rv32.SUB, rA4, rA4, rA2), rop(rv32.ADD, rA4, rA4, rA3), iop(rv32.LW, rA4, rA4, 0),
		rop(rv32.ADD, rA5, rA1, rT1), sop(rv32.SW, rA4, rA5, 0),
		vxHalt)
	return asmWords(t, p...)
}

// isaCount has every thread amoadd 1 to the word at args[0].
func isaCount(t *testing.T) []byte {
	return asmWords(t, csrRead(rT0, simt.CSRMscratch), iop(rv32.LW, rA0, rT0, 0), iop(rv32.ADDI, rA1, rZero, 1),
		rv32.Inst{Op: rv32.AMOADDW, Rs1: rA0, Rs2: rA1}, vxHalt)
}

// isaWild loads from an unmapped address.
func isaWild(t *testing.T) []byte {
	return asmWords(t, rv32.Inst{Op: rv32.LUI, Rd: rA0, Imm: 0x7000_0000}, iop(rv32.LW, rA1, rA0, 4), vxHalt)
}

// newCodeRig is newRig with the machine-code kernels in the image as well.
func newCodeRig(t *testing.T, cfg config.Config) *rig {
	t.Helper()
	m := mem.NewDevice(0x1000_0000, 1<<30)
	dev, err := New(cfg, m, testLibrary(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	ents := []abi.KernelImageEntry{abi.LibraryEntry("main", "vecadd"),
		{Name: "isa_vecadd", Kind: abi.KernelCode, Payload: isaVecAdd(t)},
		{Name: "isa_rev", Kind: abi.KernelCode, Payload: isaReverse(t)},
		{Name: "isa_count", Kind: abi.KernelCode, Payload: isaCount(t)},
		{Name: "isa_wild", Kind: abi.KernelCode, Payload: isaWild(t)}}
	img, err := abi.EncodeKernelImage(ents)
	if err != nil {
		t.Fatal(err)
	}
	base, err := m.Alloc(uint64(len(img)), 64)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Write(base, img); err != nil {
		t.Fatal(err)
	}
	if ents, err = abi.DecodeKernelImage(img); err != nil {
		t.Fatal(err)
	}
	return &rig{t: t, mem: m, dev: dev, base: base, ents: ents}
}

// A KernelCode entry runs as machine code fetched from device memory: the same
// results as the Go kernel, on any core count, with the same instruction counts.
func TestCodeKernelVecAddAnyCoreCount(t *testing.T) {
	const n = 1000
	var ref LaunchStats
	for _, cores := range []int{1, 2, 4} {
		cfg := config.Default()
		cfg.Device.CoresPerSocket, cfg.Device.SocketsPerCluster, cfg.Device.Cores = cores, 1, config.CoresISA
		r := newCodeRig(t, cfg)
		a, b := make([]uint32, n), make([]uint32, n)
		for i := range a {
			a[i], b[i] = uint32(i*3), uint32(1000-i)
		}
		pa, pb, pc := r.alloc(a), r.alloc(b), r.alloc(make([]uint32, n))
		var seen []uint64
		r.dev.SetLaunchObserver(func(entry uint64, s LaunchStats) { seen = append(seen, entry, s.Instructions) })
		r.program(abi.LaunchInfo{StartupAddr: r.base, KernelEntry: r.entry("isa_vecadd"),
			Args: r.args(pa, pb, pc, n), NDim: 1, Grid: [3]uint32{(n + 63) / 64}, Block: [3]uint32{64}})
		cyc, err := r.dev.Launch(context.Background())
		if err != nil {
			t.Fatalf("%d cores: %v", cores, err)
		}
		for i, v := range r.read(pc, n) {
			if v != a[i]+b[i] {
				t.Fatalf("%d cores: c[%d] = %d, want %d", cores, i, v, a[i]+b[i])
			}
		}
		s := r.dev.LastLaunch()
		if s.CTAs != 16 || s.Warps != 64 || s.Instructions == 0 || s.ThreadInstructions < 1000*20 || s.Cycles != cyc {
			t.Errorf("%d cores: stats %+v (cycles %d)", cores, s, cyc)
		}
		if len(seen) != 2 || seen[0] != r.entry("isa_vecadd") || seen[1] != s.Instructions {
			t.Errorf("%d cores: observer saw %v", cores, seen)
		}
		if cores == 1 {
			ref = s
		} else if s.Instructions != ref.Instructions || s.ThreadInstructions != ref.ThreadInstructions || s.MemOps != ref.MemOps {
			t.Errorf("%d cores: counters %+v differ from 1 core %+v", cores, s, ref)
		}
	}
	// 1000 lanes take the 21-instruction path (10 of ids and args, the bound
	// check, 8 of the add, jal, vx_tmc); the 24 lanes past n branch to the nop
	// and vx_tmc: 13.
	if want := uint64(1000*21 + 24*13); ref.ThreadInstructions != want {
		t.Errorf("thread instructions %d, want %d", ref.ThreadInstructions, want)
	}
}

// Local memory at CTA_LMEM_ADDR and vx_bar across the CTA's warps.
func TestCodeKernelLocalMemoryAndBarrier(t *testing.T) {
	r := newCodeRig(t, config.Default())
	in := make([]uint32, 128)
	for i := range in {
		in[i] = uint32(i)
	}
	pi, po := r.alloc(in), r.alloc(make([]uint32, 128))
	r.program(abi.LaunchInfo{StartupAddr: r.base, KernelEntry: r.entry("isa_rev"), Args: r.args(pi, po),
		NDim: 1, Grid: [3]uint32{2}, Block: [3]uint32{64}, LMemSize: 256})
	if _, err := r.dev.Launch(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, v := range r.read(po, 128) {
		if want := uint32(i/64*64 + 63 - i%64); v != want {
			t.Fatalf("out[%d] = %d, want %d", i, v, want)
		}
	}
}

// Atomics of machine-code CTAs on several cores at once all land.
func TestCodeKernelAtomicsAcrossCores(t *testing.T) {
	r := newCodeRig(t, config.Default())
	ctr := r.alloc([]uint32{0})
	r.program(abi.LaunchInfo{StartupAddr: r.base, KernelEntry: r.entry("isa_count"), Args: r.args(ctr),
		NDim: 1, Grid: [3]uint32{64}, Block: [3]uint32{64}})
	if _, err := r.dev.Launch(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := r.read(ctr, 1)[0]; got != 64*64 {
		t.Errorf("counter %d, want %d", got, 64*64)
	}
}

// A fault ends the launch with the core's error naming pc and address, and the
// next launch of the same code starts clean.
func TestCodeKernelFaultNamesPC(t *testing.T) {
	r := newCodeRig(t, config.Default())
	pc := abi.KernelCodePC(r.entry("isa_wild"))
	for range 2 {
		r.program(abi.LaunchInfo{StartupAddr: r.base, KernelEntry: r.entry("isa_wild"), Args: r.args(0),
			NDim: 1, Grid: [3]uint32{4}, Block: [3]uint32{16}})
		_, err := r.dev.Launch(context.Background())
		var f *simt.Fault
		if !errors.As(err, &f) || f.PC != uint32(pc)+4 || f.Addr != 0x7000_0004 || f.Kind != "load" {
			t.Fatalf("err %v, want a load fault at pc 0x%x address 0x70000004", err, pc+4)
		}
		if !strings.Contains(err.Error(), "CTA 0") {
			t.Errorf("err %v does not name the first failing CTA", err)
		}
	}
}

// FuzzCodeKernel: any instruction words as a KernelCode entry launch to a result
// or an error (an illegal instruction, a fault, the budget) — never a panic or a
// hang — and the device runs the next launch normally.
func FuzzCodeKernel(f *testing.F) {
	f.Add(isaVecAdd(&testing.T{}))
	f.Add(isaReverse(&testing.T{}))
	f.Add(isaCount(&testing.T{}))
	f.Add([]byte{0x6f, 0, 0, 0})             // jal x0, 0: a loop the budget ends
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0}) // not an instruction
	f.Fuzz(func(t *testing.T, code []byte) {
		code = code[:len(code)&^3]
		if len(code) == 0 || len(code) > 4096 {
			return
		}
		cfg := config.Default()
		cfg.Device.CoresPerSocket, cfg.Device.SocketsPerCluster = 1, 1
		m := mem.NewDevice(0x1000_0000, 1<<24)
		dev, err := New(cfg, m, testLibrary(t))
		if err != nil {
			t.Fatal(err)
		}
		defer dev.Close()
		dev.isaBudget = 20000
		img, err := abi.EncodeKernelImage([]abi.KernelImageEntry{{Name: "k", Kind: abi.KernelCode, Payload: code},
			{Name: "ok", Kind: abi.KernelCode, Payload: isaCount(t)}})
		if err != nil {
			t.Fatal(err)
		}
		ents, _ := abi.DecodeKernelImage(img)
		base, _ := m.Alloc(uint64(len(img)), 64)
		if err := m.Write(base, img); err != nil {
			t.Fatal(err)
		}
		r := &rig{t: t, mem: m, dev: dev, base: base, ents: ents}
		for _, name := range []string{"k", "ok"} {
			// The fuzzed code may have stored anywhere: the image and the
			// arguments are written afresh for the second launch.
			if err := m.Write(base, img); err != nil {
				t.Fatal(err)
			}
			ctr := r.alloc([]uint32{0})
			r.program(abi.LaunchInfo{StartupAddr: base, KernelEntry: r.entry(name), Args: r.args(ctr, ctr),
				NDim: 1, Grid: [3]uint32{2}, Block: [3]uint32{32}, LMemSize: 256})
			_, err := dev.Launch(context.Background())
			if name == "ok" {
				if err != nil {
					t.Fatalf("the launch after the fuzzed one: %v", err)
				}
				if got := r.read(ctr, 1)[0]; got != 64 {
					t.Fatalf("the launch after the fuzzed one counted %d, want 64", got)
				}
			}
		}
	})
}
