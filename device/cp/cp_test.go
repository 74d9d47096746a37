package cp

import (
	"bytes"
	"errors"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/device/mem"
)

// TestDevCaps checks CP_DEV_CAPS per flavour. spec: command-processor §6;
// vortex-hardware-facts §1.1 (emulation value 1 | 16<<8 | 6<<16 | bits 25, 26)
func TestDevCaps(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want uint32
	}{
		// Bits 28–30 (profiling, interrupts, mailbox) always; bit 27 only when the CP
		// pipelines a queue's DMA and GPU work (abi.CPDevCaps.FenceOrdering).
		{"emu", Config{Flavor: abi.FlavorEmu}, 1 | 16<<8 | 6<<16 | 1<<25 | 1<<26 | 0x7<<28},
		{"emu vm", Config{Flavor: abi.FlavorEmu, VM: true}, 1 | 16<<8 | 6<<16 | 7<<24 | 0x7<<28},
		{"emu pipelined", Config{Flavor: abi.FlavorEmu, Pipeline: true}, 1 | 16<<8 | 6<<16 | 1<<25 | 1<<26 | 0xF<<27},
		{"rtl", Config{Flavor: abi.FlavorRTL}, 1 | 16<<8 | 6<<16 | 0x7<<28},
		{"rtl 4 queues", Config{Flavor: abi.FlavorRTL, NumQueues: 4, RingSizeLog2Max: 20}, 4 | 20<<8 | 6<<16 | 0x7<<28},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.cfg)
			if got := r.rd(abi.RegCPDevCaps); got != tc.want {
				t.Fatalf("CP_DEV_CAPS = %#x, want %#x", got, tc.want)
			}
		})
	}
}

// TestRegisterMap checks decoding rules. spec: command-processor §5
func TestRegisterMap(t *testing.T) {
	for _, fl := range []abi.Flavor{abi.FlavorEmu, abi.FlavorRTL} {
		t.Run(fl.String(), func(t *testing.T) {
			r := newRig(t, Config{Flavor: fl, NumQueues: 2})
			reads := []struct {
				off       uint32
				want      uint32
				undecoded bool
			}{
				{abi.RegGPUDevCapsLo, 0x22334455, false},
				{abi.RegGPUDevCapsHi, 0x11, false},
				{abi.RegGPUISACapsLo, 0x40001100, false},
				{abi.RegGPUISACapsHi, 0x40000000, false},
				{abi.RegCPCycleFreqHz, DefaultCycleFreqHz, false},
				{0x00C, abi.UndecodedRead, true},
				{0x040, abi.UndecodedRead, true},
				{0x0FC, abi.UndecodedRead, true},
				{abi.QueueReg(0, 0x34), abi.UndecodedRead, true}, // Q_DCR_BLOCKED is the fork's
				{abi.QueueReg(2, abi.RegQSeqnum), abi.UndecodedRead, true},
				{abi.QueueReg(1, abi.RegQRingSizeLog2), 16, false},
				{abi.RegCPSATPLo, map[bool]uint32{true: 0, false: abi.UndecodedRead}[fl == abi.FlavorEmu], fl == abi.FlavorRTL},
			}
			for _, tc := range reads {
				got, err := r.cp.ReadReg(tc.off)
				if got != tc.want || errors.Is(err, ErrUndecoded) != tc.undecoded {
					t.Errorf("ReadReg(%#x) = %#x, %v; want %#x undecoded=%v", tc.off, got, err, tc.want, tc.undecoded)
				}
			}
			writes := []struct {
				off  uint32
				want error
			}{
				{abi.RegCPStatus, ErrReadOnly},
				{abi.RegCPDevCaps, ErrReadOnly},
				{abi.QueueReg(0, abi.RegQSeqnum), ErrReadOnly},
				{abi.QueueReg(0, abi.RegQError), ErrReadOnly},
				{0x00C, ErrUndecoded},
				{abi.QueueReg(2, abi.RegQControl), ErrUndecoded},
				{abi.RegCPSATPHi, map[bool]error{true: nil, false: ErrUndecoded}[fl == abi.FlavorEmu]},
			}
			for _, tc := range writes {
				if err := r.cp.WriteReg(tc.off, 1); !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
					t.Errorf("WriteReg(%#x) = %v, want %v", tc.off, err, tc.want)
				}
			}
			// Round trips.
			r.w(abi.QueueReg(1, abi.RegQTailLo), 0x1234)
			if got := r.rd(abi.QueueReg(1, abi.RegQTailLo)); got != 0x1234 {
				t.Errorf("staged TAIL_LO reads %#x", got)
			}
			r.w(abi.QueueReg(1, abi.RegQControl), abi.QControlEnable|abi.QControlReset|3<<abi.QControlPrioShift|abi.QControlProfileEn)
			if got := r.rd(abi.QueueReg(1, abi.RegQControl)); got != abi.QControlEnable|3<<abi.QControlPrioShift|abi.QControlProfileEn {
				t.Errorf("Q_CONTROL reads %#x (reset is a pulse)", got)
			}
		})
	}
}

// TestTailCommitAndEnables: TAIL_LO alone does not advance; a queue runs only when
// both enables are set. spec: command-processor §5
func TestTailCommitAndEnables(t *testing.T) {
	tests := []struct {
		name       string
		ctrl, qctl uint32
		hi         bool
		runs       bool
	}{
		{"both enabled, committed", abi.CPCtrlEnable, abi.QControlEnable, true, true},
		{"TAIL_LO only", abi.CPCtrlEnable, abi.QControlEnable, false, false},
		{"global disabled", 0, abi.QControlEnable, true, false},
		{"queue disabled", abi.CPCtrlEnable, 0, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, Config{})
			r.w(abi.RegCPCtrl, tc.ctrl)
			r.w(abi.QueueReg(0, abi.RegQControl), tc.qctl)
			b, _ := abi.PackLines([]abi.Command{abi.DCRWrite(abi.DCRGridDimX, 7)})
			r.put(0, b)
			r.w(abi.QueueReg(0, abi.RegQTailLo), uint32(r.tail[0]))
			if tc.hi {
				r.w(abi.QueueReg(0, abi.RegQTailHi), 0)
			}
			r.wait()
			if got := r.seq(0) == 1; got != tc.runs {
				t.Fatalf("ran = %v, want %v (seqnum %d)", got, tc.runs, r.seq(0))
			}
			// Enabling everything later runs it.
			r.w(abi.RegCPCtrl, abi.CPCtrlEnable)
			r.w(abi.QueueReg(0, abi.RegQControl), abi.QControlEnable)
			r.w(abi.QueueReg(0, abi.RegQTailHi), 0)
			r.wait()
			if r.seq(0) != 1 {
				t.Fatalf("seqnum %d after enabling", r.seq(0))
			}
		})
	}
}

// TestRetireAndMailbox: each retire bumps seqnum and writes it to CMPL_ADDR; head
// advances by 64 per consumed line and is published to HEAD_ADDR; a padding line
// retires nothing. spec: command-processor §4.1, §4.3, §10 item 14
func TestRetireAndMailbox(t *testing.T) {
	r := newRig(t, Config{})
	b, _ := abi.PackLines([]abi.Command{
		abi.DCRWrite(abi.DCRGridDimX, 1), abi.DCRWrite(abi.DCRGridDimY, 2), abi.DCRRead(abi.DCRMPMValue, 9),
	})
	r.put(0, b)
	r.put(0, make([]byte, 64)) // pure padding
	r.put(0, b)
	r.commit(0)
	r.wait()
	if s := r.seq(0); s != 6 {
		t.Fatalf("seqnum = %d, want 6", s)
	}
	if v := r.hostU64(r.cmpl[0]); v != 6 {
		t.Fatalf("cmpl slot = %d, want 6", v)
	}
	if v := r.hostU64(r.head[0]); v != 3*64 {
		t.Fatalf("head slot = %d, want 192", v)
	}
	if v := r.rd(abi.QueueReg(0, abi.RegQLastDCRRsp)); v != 1<<16^9^0x5A5A {
		t.Fatalf("LAST_DCR_RSP = %#x", v)
	}
	if st := r.rd(abi.RegCPStatus); st != 0 {
		t.Fatalf("CP_STATUS = %#x, want idle", st)
	}
	// Ring wrap: the ring is 64 KiB; fill past its end.
	var cmds []abi.Command
	for i := 0; i < 1100*5; i++ {
		cmds = append(cmds, abi.DCRWrite(abi.DCRGridDimZ, uint32(i)))
	}
	for i := 0; i < len(cmds); i += 500 {
		r.submit(0, cmds[i:min(i+500, len(cmds))]...)
		r.wait()
	}
	if s := r.seq(0); s != 6+5500 {
		t.Fatalf("seqnum after wrap = %d", s)
	}
	if r.gpu.dcr[abi.DCRGridDimZ] != 5499 {
		t.Fatalf("last DCR value %d", r.gpu.dcr[abi.DCRGridDimZ])
	}
}

// TestDMA covers both flavours' copy rules. spec: command-processor §2.3, §3.1,
// §10 item 1 (RTL rounds to 64-byte beats); vortex-hardware-facts §1.3
func TestDMA(t *testing.T) {
	tests := []struct {
		name    string
		flavor  abi.Flavor
		size    uint64
		wantDev int // bytes of the device buffer overwritten
	}{
		{"emu exact", abi.FlavorEmu, 100, 100},
		{"emu crosses pages", abi.FlavorEmu, 10000, 10000},
		{"rtl rounds up", abi.FlavorRTL, 100, 128},
		{"rtl aligned", abi.FlavorRTL, 128, 128},
		{"emu zero", abi.FlavorEmu, 0, 0},
		{"emu several bounce stages", abi.FlavorEmu, 150000, 150000},
		{"rtl several stages", abi.FlavorRTL, 150001, 150016},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, Config{Flavor: tc.flavor})
			const n = 160000
			src := r.halloc(n + 64)
			pat := make([]byte, n+64)
			for i := range pat {
				pat[i] = byte(i*7 + 1 + i>>8)
			}
			_ = r.host.Write(src, pat)
			dst := r.dalloc(n + 64)
			back := r.halloc(n)
			cpy := r.dalloc(n)
			r.submit(0, abi.MemWrite(dst+3, src+5, tc.size), abi.MemCopy(cpy, dst, n), abi.MemRead(back, cpy, n))
			r.wait()
			if e, _, _ := r.qerr(0); e != abi.QErrNone {
				t.Fatalf("Q_ERROR %v", e)
			}
			got := make([]byte, n)
			_ = r.host.Read(back, got)
			want := make([]byte, n)
			copy(want[3:3+tc.wantDev], pat[5:5+tc.wantDev])
			if !bytes.Equal(got, want) {
				t.Fatalf("round trip differs at %d", firstDiff(got, want))
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestDMABursts: ≤4 KB bursts that never cross a 4 KB boundary on either operand.
// spec: command-processor §7 (VX_cp_dma)
func TestDMABursts(t *testing.T) {
	tests := []struct{ dst, src, size, want uint64 }{
		{0, 0, 4096, 1},
		{0, 0, 4097, 2},
		{0, 0, 1, 1},
		{4095, 4095, 2, 2},
		{0, 1, 4096, 2},
		{100, 200, 8192, 5},
		{0x1000, 0x2000, 3 * 4096, 3},
	}
	for _, tc := range tests {
		if got := dmaBursts(tc.dst, tc.src, tc.size); got != tc.want {
			t.Errorf("dmaBursts(%#x, %#x, %d) = %d, want %d", tc.dst, tc.src, tc.size, got, tc.want)
		}
	}
}

// TestDCRAndCacheFlush: writes reach the GPU, CACHE_FLUSH sweeps a DCR read of
// 0x000 with tag = core id for every core, clamped to the device's cores.
// spec: command-processor §7 (VX_cp_dcr_proxy); vortex-hardware-facts §1.3
func TestDCRAndCacheFlush(t *testing.T) {
	r := newRig(t, Config{})
	r.submit(0, abi.DCRWrite(0x1019, 5), abi.CacheFlush(3), abi.CacheFlush(1000))
	r.wait()
	want := []string{"W19=5", "R0/0", "R0/1", "R0/2", "R0/0", "R0/1", "R0/2", "R0/3"}
	if got := r.gpu.Log(); !equalStrings(got, want) {
		t.Fatalf("DCR log %v, want %v", got, want)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestLaunchQMDAndDraw: QMD replays its pairs then launches; the 64-pair backstop;
// the draw walk with its ignored steps and the 256-step backstop.
// spec: command-processor §2.3, §8.1; vortex-hardware-facts §1.3
func TestLaunchQMDAndDraw(t *testing.T) {
	r := newRig(t, Config{})
	pairs := abi.LaunchDCRs(abi.LaunchInfo{StartupAddr: 0x80000000, KernelEntry: 0x80000100, Args: 0x9000,
		NDim: 1, Grid: [3]uint32{4}, Block: [3]uint32{8}}, 4)
	qmd, err := abi.EncodeQMD(pairs)
	if err != nil {
		t.Fatal(err)
	}
	qa := r.dalloc(uint64(len(qmd)))
	_ = r.dev.Write(qa, qmd)
	r.submit(0, abi.LaunchQMD(qa), abi.CacheFlush(4))
	r.wait()
	if len(r.gpu.launches) != 1 || r.gpu.launches[0][abi.DCRGridDimX] != 4 || r.gpu.launches[0][abi.DCRStartupAddr0] != 0x80000000 {
		t.Fatalf("launch snapshot %v", r.gpu.launches)
	}

	// Backstop: count 1000 replays exactly 64 pairs (of a 64-pair body).
	big := make([]byte, 4+64*8)
	big[0], big[1] = 0xE8, 0x03
	for i := 0; i < 64; i++ {
		big[4+8*i] = 0x40
		big[8+8*i] = byte(i)
	}
	ba := r.dalloc(uint64(len(big)))
	_ = r.dev.Write(ba, big)
	before := len(r.gpu.Log())
	r.submit(0, abi.LaunchQMD(ba))
	r.wait()
	if e, _, _ := r.qerr(0); e != abi.QErrNone {
		t.Fatalf("QMD backstop faulted: %v", e)
	}
	if n := len(r.gpu.Log()) - before; n != 65 {
		t.Fatalf("QMD with count 1000 made %d GPU calls, want 64 writes + launch", n)
	}

	// Draw: DCR write, an ignored MEM step, LAUNCH_QMD, CACHE_FLUSH; clamped count.
	steps := []abi.Command{abi.DCRWrite(0x80, 1), abi.LaunchQMD(qa), abi.CacheFlush(2), abi.DCRRead(0x81, 3)}
	desc, err := abi.EncodeDraw(steps)
	if err != nil {
		t.Fatal(err)
	}
	ign := abi.MemWrite(0, 0, 1).Step28()
	desc = append(desc[:4+28], append(ign[:], desc[4+28:]...)...)
	desc[0] = 5
	da := r.dalloc(uint64(len(desc)))
	_ = r.dev.Write(da, desc)
	before = len(r.gpu.Log())
	seq := r.seq(0)
	r.submit(0, abi.Draw(da))
	r.wait()
	log := r.gpu.Log()[before:]
	if len(log) != 1+len(pairs)+1+2+1 || log[0] != "W80=1" || log[len(log)-1] != "R81/3" {
		t.Fatalf("draw log %v", log)
	}
	if r.seq(0) != seq+1 {
		t.Fatalf("draw retired %d seqnums, want 1", r.seq(0)-seq)
	}

	// 256-step backstop: num_steps = 1000 with 257 valid steps reads only 256.
	many := make([]abi.Command, 256)
	for i := range many {
		many[i] = abi.DCRWrite(0x82, uint32(i))
	}
	desc, _ = abi.EncodeDraw(many)
	desc[0], desc[1] = 0xE8, 0x03
	da = r.dalloc(uint64(len(desc)))
	_ = r.dev.Write(da, desc)
	r.submit(0, abi.Draw(da))
	r.wait()
	if e, _, _ := r.qerr(0); e != abi.QErrNone || r.gpu.dcr[0x82] != 255 {
		t.Fatalf("draw backstop: err %v last %d", e, r.gpu.dcr[0x82])
	}
}

// TestRTLEndsLineOnEmuOpcodes: the rtl flavour does not decode 0x0B/0x0C, so the
// line ends there and later commands of that line never run.
// spec: command-processor §2.2
func TestRTLEndsLineOnEmuOpcodes(t *testing.T) {
	for _, op := range []abi.Command{abi.LaunchQMD(0x1000), abi.Draw(0x1000)} {
		r := newRig(t, Config{Flavor: abi.FlavorRTL})
		r.submit(0, abi.DCRWrite(0x80, 1), op, abi.DCRWrite(0x80, 2))
		r.submit(0, abi.DCRWrite(0x80, 3))
		r.wait()
		if s := r.seq(0); s != 2 || r.gpu.dcr[0x80] != 3 {
			t.Fatalf("%v: seqnum %d, DCR %d; want 2 and 3", op.Op, s, r.gpu.dcr[0x80])
		}
	}
}

// TestVM: MMU-aware DMA on the emu flavour. spec: command-processor §8;
// vortex-hardware-facts §1.3 (MEM_WRITE translates dst, MEM_READ src, COPY both)
func TestVM(t *testing.T) {
	for _, mode := range []mem.Mode{mem.ModeSv32, mem.ModeSv39} {
		t.Run(mode.String(), func(t *testing.T) {
			r := newRig(t, Config{VM: true})
			pt, err := mem.NewPageTable(r.dev, mode)
			if err != nil {
				t.Fatal(err)
			}
			phys, _ := r.dev.Alloc(2*mem.PageSize, mem.PageSize)
			phys2, _ := r.dev.Alloc(mem.PageSize, mem.PageSize)
			const va = 0x4000_0000
			// Two VA pages mapped in reverse order, so a page-crossing copy must
			// translate per page.
			if err := pt.Map(va, phys+mem.PageSize, mem.PageSize, mem.PermRW); err != nil {
				t.Fatal(err)
			}
			if err := pt.Map(va+mem.PageSize, phys, mem.PageSize, mem.PermRW); err != nil {
				t.Fatal(err)
			}
			if err := pt.Map(va+2*mem.PageSize, phys2, mem.PageSize, mem.PermR); err != nil {
				t.Fatal(err)
			}
			satp := pt.SATP()
			r.w(abi.RegCPSATPLo, uint32(satp))
			r.w(abi.RegCPSATPHi, uint32(satp>>32))
			src := r.halloc(8192)
			pat := bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8}, 1024)
			_ = r.host.Write(src, pat)
			r.submit(0, abi.MemWrite(va+4000, src, 200))
			phys3 := r.dalloc(64)
			pcmd := abi.MemWrite(phys3, src, 64)
			pcmd.Flags |= abi.FlagMemPhysical
			r.submit(0, pcmd)
			r.wait()
			if e, _, _ := r.qerr(0); e != abi.QErrNone {
				t.Fatalf("Q_ERROR %v", e)
			}
			got := make([]byte, 96)
			_ = r.dev.Read(phys+mem.PageSize+4000, got)
			if !bytes.Equal(got, pat[:96]) {
				t.Fatal("first page piece not at the translated PA")
			}
			got = make([]byte, 104)
			_ = r.dev.Read(phys, got)
			if !bytes.Equal(got, pat[96:200]) {
				t.Fatal("second page piece not at the translated PA")
			}
			got = make([]byte, 64)
			_ = r.dev.Read(phys3, got)
			if !bytes.Equal(got, pat[:64]) {
				t.Fatal("F_MEM_PHYSICAL did not bypass translation")
			}
			// Writing a read-only page, and an unmapped page, are page faults with the VA.
			for _, bad := range []uint64{va + 2*mem.PageSize + 8, va + 5*mem.PageSize} {
				r.w(abi.QueueReg(0, abi.RegQControl), abi.QControlEnable|abi.QControlReset)
				r.tail[0] = 0
				r.submit(0, abi.MemWrite(bad, src, 8))
				r.wait()
				e, op, off := r.qerr(0)
				fa := uint64(r.rd(abi.QueueReg(0, abi.RegQFaultAddrLo))) | uint64(r.rd(abi.QueueReg(0, abi.RegQFaultAddrHi)))<<32
				if e != abi.QErrPageFault || op != abi.OpMemWrite || off != 0 || fa != bad {
					t.Fatalf("VA %#x: Q_ERROR %v %v %d addr %#x", bad, e, op, off, fa)
				}
			}
		})
	}
}

// TestVMTranslationRules: MEM_WRITE translates its destination, MEM_READ its
// source, MEM_COPY both; host operands never. spec: vortex-hardware-facts §1.3
func TestVMTranslationRules(t *testing.T) {
	r := newRig(t, Config{VM: true})
	pt, _ := mem.NewPageTable(r.dev, mem.ModeSv39)
	a, _ := r.dev.Alloc(mem.PageSize, mem.PageSize)
	b, _ := r.dev.Alloc(mem.PageSize, mem.PageSize)
	const va, vb = 0x20_0000_0000, 0x30_0000_0000
	_ = pt.Map(va, a, mem.PageSize, mem.PermRW)
	_ = pt.Map(vb, b, mem.PageSize, mem.PermRW)
	r.w(abi.RegCPSATPLo, uint32(pt.SATP()))
	r.w(abi.RegCPSATPHi, uint32(pt.SATP()>>32))
	h, back := r.halloc(64), r.halloc(64)
	_ = r.host.WriteU64(h, 0xC0FFEE)
	r.submit(0, abi.MemWrite(va, h, 8), abi.MemCopy(vb, va, 8), abi.MemRead(back, vb, 8))
	r.wait()
	if e, _, _ := r.qerr(0); e != abi.QErrNone {
		t.Fatalf("Q_ERROR %v", e)
	}
	if v, _ := r.dev.ReadU64(b); v != 0xC0FFEE {
		t.Fatalf("MEM_COPY landed %#x at b", v)
	}
	if v := r.hostU64(back); v != 0xC0FFEE {
		t.Fatalf("MEM_READ returned %#x", v)
	}
	// With SATP cleared (bare), the same VAs are physical and fault.
	r.w(abi.RegCPSATPLo, 0)
	r.w(abi.RegCPSATPHi, 0)
	r.submit(0, abi.MemWrite(va, h, 8))
	r.wait()
	if e, _, _ := r.qerr(0); e != abi.QErrDMAWrite {
		t.Fatalf("bare SATP: Q_ERROR %v, want DMA write fault", e)
	}
	if lo, hi := r.rd(abi.RegCPCycleLo), r.rd(abi.RegCPCycleHi); uint64(hi)<<32|uint64(lo) != r.cp.Cycle() || lo == 0 {
		t.Fatalf("CP_CYCLE regs %#x:%#x vs %d", hi, lo, r.cp.Cycle())
	}
}

// TestNewValidation: bad configurations are errors, never a half-built CP.
func TestNewValidation(t *testing.T) {
	h := mem.NewHost(mem.DefaultHostBase, mem.DefaultHostSize)
	d := mem.NewDevice(mem.DefaultDeviceBase, mem.DefaultDeviceSize)
	g := newFakeGPU(1)
	tests := []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"defaults", Config{}, true},
		{"max queues", Config{NumQueues: MaxQueues}, true},
		{"too many queues", Config{NumQueues: MaxQueues + 1}, false},
		{"negative queues", Config{NumQueues: -1}, false},
		{"ring too small", Config{RingSizeLog2Max: 5}, false},
		{"ring too large", Config{RingSizeLog2Max: 33}, false},
		{"rtl with VM", Config{Flavor: abi.FlavorRTL, VM: true}, false},
		{"unknown flavour", Config{Flavor: 7}, false},
		{"huge frequency", Config{CycleFreqHz: 1 << 33}, false},
	}
	for _, tc := range tests {
		c, err := New(tc.cfg, h, d, g, Caps{})
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v, want ok=%v", tc.name, err, tc.ok)
		}
		if c != nil {
			c.Close()
			c.Close() // idempotent
		}
	}
	if _, err := New(Config{}, nil, d, g, Caps{}); err == nil {
		t.Error("nil host accepted")
	}
}
