package abi

import (
	"encoding/binary"
	"fmt"
)

// Opcode is a CP command opcode, the low byte of the command header.
// spec: command-processor §2.2
type Opcode uint8

// The CP command opcodes. spec: command-processor §2.2, vortex-hardware-facts §1.2
const (
	OpNop         Opcode = 0x00
	OpMemWrite    Opcode = 0x01 // host → device copy
	OpMemRead     Opcode = 0x02 // device → host copy
	OpMemCopy     Opcode = 0x03 // device → device copy
	OpDCRWrite    Opcode = 0x04
	OpDCRRead     Opcode = 0x05 // response lands in Q_LAST_DCR_RSP
	OpLaunch      Opcode = 0x06 // pulse KMU start, wait for drain
	OpFence       Opcode = 0x07
	OpEventSignal Opcode = 0x08
	OpEventWait   Opcode = 0x09
	OpCacheFlush  Opcode = 0x0A
	OpLaunchQMD   Opcode = 0x0B // emulation CP only
	OpDraw        Opcode = 0x0C // emulation CP only
)

// NumOpcodes is one past the highest defined opcode.
const NumOpcodes = 0x0D

// Header flags (byte 1 of the header). spec: command-processor §2.1
const (
	FlagProfile     uint8 = 1 << 0 // appends an 8-byte profile_slot trailer
	FlagFencePre    uint8 = 1 << 1 // declared by the hardware, acted on by no consumer
	FlagMemPhysical uint8 = 1 << 2 // CMD_MEM_* device operand is physical (no VA walk)
)

// ProfileTrailerBytes is the size added to a command by FlagProfile.
const ProfileTrailerBytes = 8

// Argument byte offsets inside a command: little-endian, not naturally aligned.
// spec: command-processor §2.1
const (
	HeaderBytes = 4
	Arg0Offset  = 4
	Arg1Offset  = 12
	Arg2Offset  = 20
	ArgBytes    = 8
)

// FENCE scope bits in arg0[1:0]. spec: command-processor §2.3
const (
	FenceDMA uint32 = 1 << 0 // wait for all earlier DMA of the queue
	FenceGPU uint32 = 1 << 1 // wait for all earlier launches/DCR traffic of the queue
)

// WaitOp is the EVENT_WAIT compare op in arg2[1:0]. spec: command-processor §2.3
type WaitOp uint8

// The EVENT_WAIT compare ops. The counter read from memory is compared with arg1:
// EQ counter == arg1, GE counter >= arg1, GT counter > arg1, NE counter != arg1.
const (
	WaitEQ WaitOp = 0
	WaitGE WaitOp = 1
	WaitGT WaitOp = 2
	WaitNE WaitOp = 3
)

// Satisfied reports whether counter satisfies the compare against value.
func (op WaitOp) Satisfied(counter, value uint64) bool {
	switch op & 3 {
	case WaitEQ:
		return counter == value
	case WaitGE:
		return counter >= value
	case WaitGT:
		return counter > value
	default:
		return counter != value
	}
}

// String returns the op's mnemonic.
func (op WaitOp) String() string {
	return [...]string{"EQ", "GE", "GT", "NE"}[op&3]
}

// Resource is the CP resource unit an opcode bids for. spec: command-processor §4.2
type Resource uint8

// The four arbitrated resources, plus ResNone for commands that retire without a bid.
const (
	ResNone Resource = iota
	ResKMU
	ResDMA
	ResDCR
	ResEvent
)

type opInfo struct {
	name     string
	size     int // on-wire bytes without the profile trailer
	nargs    int // 8-byte arg slots wholly inside size
	res      Resource
	emuOnly  bool
	fenceArg bool // arg0 is the 32-bit word at offset 4
}

var opTable = [NumOpcodes]opInfo{
	OpNop:         {"NOP", 4, 0, ResNone, false, false},
	OpMemWrite:    {"MEM_WRITE", 28, 3, ResDMA, false, false},
	OpMemRead:     {"MEM_READ", 28, 3, ResDMA, false, false},
	OpMemCopy:     {"MEM_COPY", 28, 3, ResDMA, false, false},
	OpDCRWrite:    {"DCR_WRITE", 20, 2, ResDCR, false, false},
	OpDCRRead:     {"DCR_READ", 20, 2, ResDCR, false, false},
	OpLaunch:      {"LAUNCH", 12, 1, ResKMU, false, false},
	OpFence:       {"FENCE", 8, 0, ResNone, false, true},
	OpEventSignal: {"EVENT_SIGNAL", 20, 2, ResEvent, false, false},
	OpEventWait:   {"EVENT_WAIT", 28, 3, ResEvent, false, false},
	OpCacheFlush:  {"CACHE_FLUSH", 12, 1, ResDCR, false, false},
	OpLaunchQMD:   {"LAUNCH_QMD", 12, 1, ResKMU, true, false},
	OpDraw:        {"DRAW", 12, 1, ResKMU, true, false},
}

// Valid reports whether op is a defined opcode (of either CP flavour).
func (op Opcode) Valid() bool { return op < NumOpcodes }

// String returns the mnemonic without the CMD_ prefix, or "OP_0xNN" when undefined.
func (op Opcode) String() string {
	if !op.Valid() {
		return fmt.Sprintf("OP_0x%02X", uint8(op))
	}
	return opTable[op].name
}

// BaseSize is the on-wire size in bytes without the profile trailer, 0 if undefined.
// spec: command-processor §2.2 (cmd_size_bytes)
func (op Opcode) BaseSize() int {
	if !op.Valid() {
		return 0
	}
	return opTable[op].size
}

// Size is the on-wire size for the given header flags (+8 with FlagProfile).
func (op Opcode) Size(flags uint8) int {
	s := op.BaseSize()
	if s != 0 && flags&FlagProfile != 0 {
		s += ProfileTrailerBytes
	}
	return s
}

// NumArgs is the number of 8-byte argument slots wholly inside the base size. FENCE
// has none; its 32-bit scope word is reported as arg0 by the decoder.
func (op Opcode) NumArgs() int {
	if !op.Valid() {
		return 0
	}
	return opTable[op].nargs
}

// HasFenceWord reports whether arg0 is the 32-bit word at offset 4 (CMD_FENCE).
func (op Opcode) HasFenceWord() bool { return op.Valid() && opTable[op].fenceArg }

// Resource returns the resource unit the opcode bids for. spec: command-processor §4.2
func (op Opcode) Resource() Resource {
	if !op.Valid() {
		return ResNone
	}
	return opTable[op].res
}

// EmuOnly reports whether only the emulation CP decodes op (0x0B, 0x0C).
func (op Opcode) EmuOnly() bool { return op.Valid() && opTable[op].emuOnly }

// OpcodeByName returns the opcode whose mnemonic (with or without "CMD_") is name.
func OpcodeByName(name string) (Opcode, bool) {
	if len(name) > 4 && name[:4] == "CMD_" {
		name = name[4:]
	}
	for i, info := range opTable {
		if info.name == name {
			return Opcode(i), true
		}
	}
	return 0, false
}

// Flavor selects which CP implementation's decode rules apply.
// spec: command-processor §2.2, §6, §8
type Flavor uint8

const (
	// FlavorEmu is the emulation CP: decodes 0x0B/0x0C, byte-exact DMA, VM.
	FlavorEmu Flavor = iota
	// FlavorRTL is the FPGA CP as documented: 0x0B/0x0C end the line, DMA is rounded
	// up to 64-byte beats, no VM, CP_DEV_CAPS feature bits 24–26 clear.
	FlavorRTL
)

// String returns "emu" or "rtl".
func (f Flavor) String() string {
	if f == FlavorRTL {
		return "rtl"
	}
	return "emu"
}

// ParseFlavor parses "emu" or "rtl".
func ParseFlavor(s string) (Flavor, error) {
	switch s {
	case "emu":
		return FlavorEmu, nil
	case "rtl":
		return FlavorRTL, nil
	}
	return 0, fmt.Errorf("unknown CP flavour %q (want emu or rtl)", s)
}

// Decodes reports whether a CP of this flavour decodes op.
func (f Flavor) Decodes(op Opcode) bool {
	return op.Valid() && !(f == FlavorRTL && op.EmuOnly())
}

// Command is one decoded CP command.
// spec: command-processor §2.1 (header {reserved[15:0], flags[7:0], opcode[7:0]})
type Command struct {
	Op    Opcode
	Flags uint8
	// Args holds arg0..arg2. Only the first Op.NumArgs() are defined on the wire; for
	// FENCE, Args[0] is the 32-bit scope word at offset 4.
	Args [3]uint64
	// ProfileSlot is the 64-bit trailer at Size()-8, meaningful with FlagProfile.
	ProfileSlot uint64
}

// Size is the command's on-wire size including any profile trailer.
func (c Command) Size() int { return c.Op.Size(c.Flags) }

// IsSentinel reports whether the header is the zero sentinel (opcode 0, flags 0)
// that pads the rest of a line. spec: command-processor §2.1
func (c Command) IsSentinel() bool { return c.Op == OpNop && c.Flags == 0 }

// Put writes c into b, which must hold c.Size() bytes. Bytes of b that the command
// does not define (reserved header bytes, FENCE's upper four bytes) are zeroed.
func (c Command) Put(b []byte) {
	n := c.Size()
	clear(b[:n])
	b[0] = byte(c.Op)
	b[1] = c.Flags
	switch {
	case c.Op.HasFenceWord():
		binary.LittleEndian.PutUint32(b[Arg0Offset:], uint32(c.Args[0]))
	default:
		for i := 0; i < c.Op.NumArgs(); i++ {
			binary.LittleEndian.PutUint64(b[Arg0Offset+ArgBytes*i:], c.Args[i])
		}
	}
	if c.Flags&FlagProfile != 0 {
		binary.LittleEndian.PutUint64(b[n-ProfileTrailerBytes:], c.ProfileSlot)
	}
}

// Append appends c's on-wire bytes to b.
func (c Command) Append(b []byte) []byte {
	n := len(b)
	b = append(b, make([]byte, c.Size())...)
	c.Put(b[n:])
	return b
}

// Step28 returns the 28-byte record prefix used as a draw-descriptor step: the header
// and three 8-byte argument slots. spec: command-processor §8.1
func (c Command) Step28() [DrawStepBytes]byte {
	var s [DrawStepBytes]byte
	s[0] = byte(c.Op)
	s[1] = c.Flags
	for i := 0; i < 3; i++ {
		binary.LittleEndian.PutUint64(s[Arg0Offset+ArgBytes*i:], c.Args[i])
	}
	return s
}

// CommandFromStep28 decodes a draw-descriptor step. All three arg slots are read.
func CommandFromStep28(s []byte) Command {
	c := Command{Op: Opcode(s[0]), Flags: s[1]}
	for i := 0; i < 3; i++ {
		c.Args[i] = binary.LittleEndian.Uint64(s[Arg0Offset+ArgBytes*i:])
	}
	return c
}

// Convenience constructors for the commands the runtime emits.

// MemWrite copies size bytes from host src to device dst.
func MemWrite(dst, src, size uint64) Command {
	return Command{Op: OpMemWrite, Args: [3]uint64{dst, src, size}}
}

// MemRead copies size bytes from device src to host dst.
func MemRead(dst, src, size uint64) Command {
	return Command{Op: OpMemRead, Args: [3]uint64{dst, src, size}}
}

// MemCopy copies size bytes from device src to device dst.
func MemCopy(dst, src, size uint64) Command {
	return Command{Op: OpMemCopy, Args: [3]uint64{dst, src, size}}
}

// DCRWrite writes value to the DCR at addr (12 bits used).
func DCRWrite(addr DCR, value uint32) Command {
	return Command{Op: OpDCRWrite, Args: [3]uint64{uint64(addr), uint64(value)}}
}

// DCRRead reads the DCR at addr with tag on the DCR data bus.
func DCRRead(addr DCR, tag uint32) Command {
	return Command{Op: OpDCRRead, Args: [3]uint64{uint64(addr), uint64(tag)}}
}

// Launch pulses the KMU start and waits for the drain.
func Launch() Command { return Command{Op: OpLaunch} }

// LaunchQMD replays the QMD descriptor at addr, then launches.
func LaunchQMD(addr uint64) Command { return Command{Op: OpLaunchQMD, Args: [3]uint64{addr}} }

// Draw walks the draw descriptor at addr.
func Draw(addr uint64) Command { return Command{Op: OpDraw, Args: [3]uint64{addr}} }

// CacheFlush sweeps the caches of cores 0..numCores-1.
func CacheFlush(numCores uint32) Command {
	return Command{Op: OpCacheFlush, Args: [3]uint64{uint64(numCores)}}
}

// Fence orders the queue's later commands after earlier work in scope.
func Fence(scope uint32) Command { return Command{Op: OpFence, Args: [3]uint64{uint64(scope)}} }

// EventSignal writes value to the 8-byte counter at addr.
func EventSignal(addr, value uint64) Command {
	return Command{Op: OpEventSignal, Args: [3]uint64{addr, value}}
}

// EventWait waits until the counter at addr satisfies op against value.
func EventWait(addr, value uint64, op WaitOp) Command {
	return Command{Op: OpEventWait, Args: [3]uint64{addr, value, uint64(op)}}
}
