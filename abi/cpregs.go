package abi

// CP register offsets, CP-internal and byte-addressed (a backend at a platform base,
// such as XRT/OPAE's 0x1000, subtracts it first). spec: command-processor §5,
// vortex-hardware-facts §1.1
const (
	RegCPCtrl        = 0x000 // RW bit0 enable_global, bit1 reset_all
	RegCPStatus      = 0x004 // RO bit0 busy, bit1 error
	RegCPDevCaps     = 0x008 // RO see CPDevCaps
	RegCPCycleLo     = 0x010 // RO free-running cycle counter
	RegCPCycleHi     = 0x014
	RegGPUDevCapsLo  = 0x018 // RO see GPUDevCaps
	RegGPUDevCapsHi  = 0x01C
	RegGPUISACapsLo  = 0x020 // RO see ISACaps
	RegGPUISACapsHi  = 0x024
	RegCPSATPLo      = 0x028 // RW page-table root (emulation CP; VM)
	RegCPSATPHi      = 0x02C
	RegCPCycleFreqHz = 0x030 // RO ours: CP_CYCLE tick rate (§10 item 12)
	RegCPIRQStatus   = 0x034 // RW1C ours: bit q = queue q retired since last clear (§10 item 13)
	RegCPIRQEnable   = 0x038 // RW ours: bit q = raise the interrupt for queue q

	// QueueBase is the first per-queue block; queue q's block is at
	// QueueBase + q*QueueStride.
	QueueBase   = 0x100
	QueueStride = 0x40
)

// Per-queue register offsets inside a queue block. spec: command-processor §5
const (
	RegQRingBaseLo   = 0x00
	RegQRingBaseHi   = 0x04
	RegQHeadAddrLo   = 0x08 // where the CP publishes head (ours: written back, §10 item 14)
	RegQHeadAddrHi   = 0x0C
	RegQCmplAddrLo   = 0x10 // where the CP publishes the 8-byte seqnum
	RegQCmplAddrHi   = 0x14
	RegQRingSizeLog2 = 0x18 // mask = (1 << value) - 1
	RegQControl      = 0x1C // see QControl* bits
	RegQTailLo       = 0x20 // staging only
	RegQTailHi       = 0x24 // staging + atomic commit of the 64-bit tail
	RegQSeqnum       = 0x28 // latest retired seqnum (low 32 bits)
	RegQError        = 0x2C // ours: see QErr* and QErrorWord
	RegQLastDCRRsp   = 0x30
	// 0x34 is left unused: the wickedb/vortex fork puts Q_DCR_BLOCKED there.
	RegQFaultAddrLo = 0x38 // ours: address of the access that faulted
	RegQFaultAddrHi = 0x3C
)

// QueueReg returns the CP register offset of per-queue register reg of queue q.
func QueueReg(q int, reg uint32) uint32 { return QueueBase + uint32(q)*QueueStride + reg }

// CP_CTRL bits.
const (
	CPCtrlEnable   uint32 = 1 << 0
	CPCtrlResetAll uint32 = 1 << 1
)

// CP_STATUS bits.
const (
	CPStatusBusy  uint32 = 1 << 0
	CPStatusError uint32 = 1 << 1
)

// Q_CONTROL bits. spec: command-processor §5
const (
	QControlEnable    uint32 = 1 << 0
	QControlReset     uint32 = 1 << 1 // pulse: clears head, tail, seqnum and error
	QControlPrioShift        = 2      // bits [3:2]: arbitration priority, 3 = highest
	QControlPrioMask  uint32 = 3 << QControlPrioShift
	QControlProfileEn uint32 = 1 << 4 // write 32-byte profile records for F_PROFILE
)

// DefaultRingSizeLog2 is the ring size the runtime programs (64 KiB).
// spec: command-processor §9
const DefaultRingSizeLog2 = 16

// UndecodedRead is what a read of an undecoded register returns.
// spec: command-processor §5
const UndecodedRead uint32 = 0xDEADBEEF

// QErr is the error code in Q_ERROR[7:0]. The hardware ties Q_ERROR to zero; our CP
// reports faults through it (and CP_STATUS.error) instead of hanging or corrupting
// state. A faulted queue stops fetching until it is reset through Q_CONTROL.reset.
type QErr uint8

// Q_ERROR codes (ours; spec: command-processor §5 reserves the word).
const (
	QErrNone       QErr = 0
	QErrFetch      QErr = 1  // ring line read outside host memory
	QErrDMARead    QErr = 2  // DMA source outside any allocation
	QErrDMAWrite   QErr = 3  // DMA destination outside any allocation
	QErrPageFault  QErr = 4  // VM translation failed (invalid/unmapped PTE)
	QErrCompletion QErr = 5  // seqnum/head/profile writeback outside host memory
	QErrDescriptor QErr = 6  // QMD or draw descriptor read fault
	QErrEvent      QErr = 7  // event counter read/write fault
	QErrDCR        QErr = 8  // DCR the device rejected (unmapped address, bad value)
	QErrLaunch     QErr = 9  // kernel launch failed on the device
	QErrTailRange  QErr = 10 // committed tail not a multiple of 64 or behind head
	QErrRingConfig QErr = 11 // ring size log2 out of range or ring base misaligned
	QErrSequence   QErr = 12 // command not allowed here (e.g. nested DRAW step)
	QErrNumCodes   QErr = 13
)

var qErrNames = [QErrNumCodes]string{
	"none", "fetch fault", "DMA read fault", "DMA write fault", "page fault",
	"completion write fault", "descriptor read fault", "event fault", "DCR error",
	"launch error", "bad tail", "bad ring configuration", "command sequence error",
}

// String names the error code.
func (e QErr) String() string {
	if int(e) < len(qErrNames) {
		return qErrNames[e]
	}
	return "unknown error"
}

// QErrNoOffset is the line offset Q_ERROR reports for a fault that no command caused
// (a fetch fault, a bad ring configuration or tail, a mailbox write).
const QErrNoOffset = 0xFFFF

// QErrorWord packs Q_ERROR: [7:0] code, [15:8] opcode of the failing command,
// [31:16] the failing command's byte offset in its line (QErrNoOffset when no command
// caused the fault).
func QErrorWord(code QErr, op Opcode, lineOff int) uint32 {
	return uint32(code) | uint32(op)<<8 | uint32(uint16(lineOff))<<16
}

// DecodeQError unpacks a Q_ERROR word.
func DecodeQError(w uint32) (code QErr, op Opcode, lineOff int) {
	return QErr(w), Opcode(w >> 8), int(w >> 16)
}

// CPDevCaps is the CP's own capability word at CP_DEV_CAPS.
// spec: command-processor §5, §6; vortex-hardware-facts §1.1
type CPDevCaps struct {
	NumQueues       uint8 // [7:0]
	RingSizeLog2Max uint8 // [15:8]
	AXITIDWidth     uint8 // [23:16]
	VMEnabled       bool  // bit 24 (emulation)
	SupportsDraw    bool  // bit 25 (emulation)
	SupportsQMD     bool  // bit 26 (emulation)
	// Ours, beyond the hardware's list of gaps (§10): both flavours of our CP set them.
	// FenceOrdering (bit 27) is set when the CP overlaps a queue's DMA and GPU work,
	// so that only CMD_FENCE orders them (§10 item 3); clear when each queue runs
	// strictly in order, where a FENCE is trivially satisfied and need not be sent.
	FenceOrdering bool
	Profiling     bool // bit 28: 32-byte profile records + CP_CYCLE_FREQ_HZ (item 12)
	Interrupts    bool // bit 29: CP_IRQ_STATUS/ENABLE (item 13)
	Mailbox       bool // bit 30: head written back to HEAD_ADDR (item 14)
}

// CP_DEV_CAPS feature bits.
const (
	CapVMEnabled     = 24
	CapSupportsDraw  = 25
	CapSupportsQMD   = 26
	CapFenceOrdering = 27
	CapProfiling     = 28
	CapInterrupts    = 29
	CapMailbox       = 30
)

// Encode packs the capability word.
func (c CPDevCaps) Encode() uint32 {
	w := uint32(c.NumQueues) | uint32(c.RingSizeLog2Max)<<8 | uint32(c.AXITIDWidth)<<16
	for _, b := range []struct {
		on  bool
		bit uint
	}{
		{c.VMEnabled, CapVMEnabled}, {c.SupportsDraw, CapSupportsDraw},
		{c.SupportsQMD, CapSupportsQMD}, {c.FenceOrdering, CapFenceOrdering},
		{c.Profiling, CapProfiling}, {c.Interrupts, CapInterrupts}, {c.Mailbox, CapMailbox},
	} {
		if b.on {
			w |= 1 << b.bit
		}
	}
	return w
}

// DecodeCPDevCaps unpacks a CP_DEV_CAPS word.
func DecodeCPDevCaps(w uint32) CPDevCaps {
	bit := func(n uint) bool { return w>>n&1 != 0 }
	return CPDevCaps{
		NumQueues: uint8(w), RingSizeLog2Max: uint8(w >> 8), AXITIDWidth: uint8(w >> 16),
		VMEnabled: bit(CapVMEnabled), SupportsDraw: bit(CapSupportsDraw),
		SupportsQMD: bit(CapSupportsQMD), FenceOrdering: bit(CapFenceOrdering),
		Profiling: bit(CapProfiling), Interrupts: bit(CapInterrupts), Mailbox: bit(CapMailbox),
	}
}

// ProfileRecordBytes is the size of the profiling record written to a command's
// profile_slot: four little-endian u64 CP_CYCLE values {queued, submit, start, end}.
// spec: command-processor §10 item 12
const ProfileRecordBytes = 32

// Offsets of the profile record fields.
const (
	ProfileQueued = 0  // the cycle the tail commit made the command visible
	ProfileSubmit = 8  // the cycle its line was fetched
	ProfileStart  = 16 // the cycle it was granted its resource (or decoded, if none)
	ProfileEnd    = 24 // the cycle it retired
)

// SeqnumBytes is the size of the completion record written to CMPL_ADDR.
const SeqnumBytes = 8
