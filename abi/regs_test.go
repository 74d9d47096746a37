package abi

import "testing"

// spec: command-processor §5 (register map); vortex-hardware-facts §1.1
func TestRegisterMap(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want uint32
	}{
		{"CP_CTRL", RegCPCtrl, 0x000}, {"CP_STATUS", RegCPStatus, 0x004},
		{"CP_DEV_CAPS", RegCPDevCaps, 0x008}, {"CP_CYCLE_LO", RegCPCycleLo, 0x010},
		{"CP_CYCLE_HI", RegCPCycleHi, 0x014}, {"GPU_DEV_CAPS_LO", RegGPUDevCapsLo, 0x018},
		{"GPU_DEV_CAPS_HI", RegGPUDevCapsHi, 0x01C}, {"GPU_ISA_CAPS_LO", RegGPUISACapsLo, 0x020},
		{"GPU_ISA_CAPS_HI", RegGPUISACapsHi, 0x024}, {"CP_SATP_LO", RegCPSATPLo, 0x028},
		{"CP_SATP_HI", RegCPSATPHi, 0x02C},
		{"Q0 RING_BASE_LO", QueueReg(0, RegQRingBaseLo), 0x100}, {"Q0 RING_BASE_HI", QueueReg(0, RegQRingBaseHi), 0x104},
		{"Q0 HEAD_ADDR_LO", QueueReg(0, RegQHeadAddrLo), 0x108}, {"Q0 HEAD_ADDR_HI", QueueReg(0, RegQHeadAddrHi), 0x10C},
		{"Q0 CMPL_ADDR_LO", QueueReg(0, RegQCmplAddrLo), 0x110}, {"Q0 CMPL_ADDR_HI", QueueReg(0, RegQCmplAddrHi), 0x114},
		{"Q0 RING_SIZE_LOG2", QueueReg(0, RegQRingSizeLog2), 0x118}, {"Q0 CONTROL", QueueReg(0, RegQControl), 0x11C},
		{"Q0 TAIL_LO", QueueReg(0, RegQTailLo), 0x120}, {"Q0 TAIL_HI", QueueReg(0, RegQTailHi), 0x124},
		{"Q0 SEQNUM", QueueReg(0, RegQSeqnum), 0x128}, {"Q0 ERROR", QueueReg(0, RegQError), 0x12C},
		{"Q0 LAST_DCR_RSP", QueueReg(0, RegQLastDCRRsp), 0x130},
		{"Q1 TAIL_HI", QueueReg(1, RegQTailHi), 0x164}, {"Q3 CONTROL", QueueReg(3, RegQControl), 0x1DC},
		{"CONTROL enable", QControlEnable, 1}, {"CONTROL reset", QControlReset, 2},
		{"CONTROL prio", QControlPrioMask, 0xC}, {"CONTROL profile_en", QControlProfileEn, 0x10},
		{"STATUS busy", CPStatusBusy, 1}, {"STATUS error", CPStatusError, 2},
		{"undecoded read", UndecodedRead, 0xDEADBEEF},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = 0x%X, want 0x%X", tc.name, tc.got, tc.want)
		}
	}
}

// spec: command-processor §5, §6; vortex-hardware-facts §1.1 (the emulation value
// 1 | 16<<8 | 6<<16 | bit25 | bit26)
func TestCPDevCaps(t *testing.T) {
	emu := CPDevCaps{NumQueues: 1, RingSizeLog2Max: 16, AXITIDWidth: 6, SupportsDraw: true, SupportsQMD: true}
	if got, want := emu.Encode(), uint32(1|16<<8|6<<16|1<<25|1<<26); got != want {
		t.Errorf("emulation caps 0x%08X, want 0x%08X", got, want)
	}
	rtl := CPDevCaps{NumQueues: 1, RingSizeLog2Max: 16, AXITIDWidth: 6}
	if got := rtl.Encode(); got>>24 != 0 {
		t.Errorf("rtl caps 0x%08X must have bits 24–31 clear", got)
	}
	all := CPDevCaps{NumQueues: 8, RingSizeLog2Max: 20, AXITIDWidth: 7, VMEnabled: true, SupportsDraw: true,
		SupportsQMD: true, FenceOrdering: true, Profiling: true, Interrupts: true, Mailbox: true}
	if DecodeCPDevCaps(all.Encode()) != all {
		t.Errorf("round trip lost fields: %+v", DecodeCPDevCaps(all.Encode()))
	}
	for _, tc := range []struct{ bit, want int }{{CapVMEnabled, 24}, {CapSupportsDraw, 25}, {CapSupportsQMD, 26}} {
		if tc.bit != tc.want {
			t.Errorf("feature bit %d, want %d", tc.bit, tc.want)
		}
	}
}

func TestQError(t *testing.T) {
	w := QErrorWord(QErrDMAWrite, OpMemWrite, 36)
	code, op, off := DecodeQError(w)
	if code != QErrDMAWrite || op != OpMemWrite || off != 36 {
		t.Errorf("Q_ERROR round trip: %v %v %d", code, op, off)
	}
	for c := QErrNone; c < QErrNumCodes; c++ {
		if c.String() == "" || c.String() == "unknown error" {
			t.Errorf("code %d has no name", c)
		}
	}
}

// spec: command-processor §6 (GPU_DEV_CAPS table)
func TestGPUDevCapsFields(t *testing.T) {
	tests := []struct {
		field string
		set   func(*GPUDevCaps)
		word  uint64
	}{
		{"impl_id [7:0]", func(c *GPUDevCaps) { c.ImplID = 0xAB }, 0xAB},
		{"log threads [10:8]", func(c *GPUDevCaps) { c.LogThreads = 7 }, 7 << 8},
		{"log warps [13:11]", func(c *GPUDevCaps) { c.LogWarps = 7 }, 7 << 11},
		{"log socket [16:14]", func(c *GPUDevCaps) { c.LogSocketSize = 7 }, 7 << 14},
		{"log cluster [19:17]", func(c *GPUDevCaps) { c.LogClusterSize = 7 }, 7 << 17},
		{"log clusters [22:20]", func(c *GPUDevCaps) { c.LogClusters = 7 }, 7 << 20},
		{"log issue [25:23]", func(c *GPUDevCaps) { c.LogIssueWidth = 7 }, 7 << 23},
		{"log lmem [33:26]", func(c *GPUDevCaps) { c.LogLocalMem = 0xFF }, 0xFF << 26},
		{"log banks [36:34]", func(c *GPUDevCaps) { c.LogMemBanks = 7 }, 7 << 34},
		{"bank size biased by 20 [41:37]", func(c *GPUDevCaps) { c.MemBankAddrWidth = 20 + 31 }, 31 << 37},
	}
	for _, tc := range tests {
		c := GPUDevCaps{MemBankAddrWidth: 20}
		tc.set(&c)
		w, err := c.Encode()
		if err != nil {
			t.Fatalf("%s: %v", tc.field, err)
		}
		if w != tc.word {
			t.Errorf("%s: 0x%X, want 0x%X", tc.field, w, tc.word)
		}
		if DecodeGPUDevCaps(w) != c {
			t.Errorf("%s: decode %+v, want %+v", tc.field, DecodeGPUDevCaps(w), c)
		}
	}
	c := GPUDevCaps{LogThreads: 2, LogWarps: 2, LogSocketSize: 1, LogClusterSize: 1, LogClusters: 1, MemBankAddrWidth: 28}
	if c.NumCores() != 8 || c.NumThreads() != 4 || c.NumWarps() != 4 {
		t.Errorf("derived counts: cores %d threads %d warps %d", c.NumCores(), c.NumThreads(), c.NumWarps())
	}
	if _, err := (GPUDevCaps{LogThreads: 8, MemBankAddrWidth: 20}).Encode(); err == nil {
		t.Error("a 3-bit field holding 8 must not encode")
	}
	if _, err := (GPUDevCaps{MemBankAddrWidth: 19}).Encode(); err == nil {
		t.Error("a bank width below the bias must not encode")
	}
	if DecodeGPUDevCaps(0xFFFFFC0000000000).ImplID != 0 {
		t.Error("reserved bits [63:42] must be ignored")
	}
}

// spec: command-processor §6; vortex-hardware-facts §1.1 (GPU_ISA_CAPS)
func TestISACaps(t *testing.T) {
	c, err := NewISACaps("IMAF", 32, ExtTEX, ExtRASTER, ExtOM, ExtRTU)
	if err != nil {
		t.Fatal(err)
	}
	if c.Misa() != uint32(1<<8|1<<12|1<<0|1<<5) /* I M A F */ {
		t.Errorf("misa 0x%X", c.Misa())
	}
	if c.MisaLetters() != "AFIM" || c.XLen() != 32 || uint64(c)>>30&3 != 1 {
		t.Errorf("letters %q xlen %d", c.MisaLetters(), c.XLen())
	}
	for _, tc := range []struct {
		ext ISAExt
		bit uint
		has bool
	}{
		{ExtICache, 32, false}, {ExtDCache, 33, false}, {ExtL2, 34, false}, {ExtL3, 35, false},
		{ExtLMEM, 36, false}, {ExtZicond, 37, false}, {ExtTEX, 38, true}, {ExtRASTER, 39, true},
		{ExtOM, 40, true}, {ExtTCU, 41, false}, {ExtDXA, 42, false}, {ExtRTU, 43, true},
	} {
		if ISAExtShift+uint(tc.ext) != tc.bit {
			t.Errorf("%v at bit %d, want %d", tc.ext, ISAExtShift+uint(tc.ext), tc.bit)
		}
		if c.Has(tc.ext) != tc.has {
			t.Errorf("%v present = %v", tc.ext, c.Has(tc.ext))
		}
	}
	c64, _ := NewISACaps("I", 64)
	if c64.XLen() != 64 || uint64(c64)>>30&3 != 2 {
		t.Errorf("RV64 code %d", uint64(c64)>>30&3)
	}
	if _, err := NewISACaps("I", 16); err == nil {
		t.Error("XLEN 16 must be refused")
	}
}
