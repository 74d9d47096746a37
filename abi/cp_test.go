package abi

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// spec: command-processor §2.2 (opcode map and cmd_size_bytes), vortex-hardware-facts §1.2
func TestOpcodeTable(t *testing.T) {
	tests := []struct {
		op      Opcode
		value   uint8
		name    string
		size    int
		nargs   int
		res     Resource
		emuOnly bool
	}{
		{OpNop, 0x00, "NOP", 4, 0, ResNone, false},
		{OpMemWrite, 0x01, "MEM_WRITE", 28, 3, ResDMA, false},
		{OpMemRead, 0x02, "MEM_READ", 28, 3, ResDMA, false},
		{OpMemCopy, 0x03, "MEM_COPY", 28, 3, ResDMA, false},
		{OpDCRWrite, 0x04, "DCR_WRITE", 20, 2, ResDCR, false},
		{OpDCRRead, 0x05, "DCR_READ", 20, 2, ResDCR, false},
		{OpLaunch, 0x06, "LAUNCH", 12, 1, ResKMU, false},
		{OpFence, 0x07, "FENCE", 8, 0, ResNone, false},
		{OpEventSignal, 0x08, "EVENT_SIGNAL", 20, 2, ResEvent, false},
		{OpEventWait, 0x09, "EVENT_WAIT", 28, 3, ResEvent, false},
		{OpCacheFlush, 0x0A, "CACHE_FLUSH", 12, 1, ResDCR, false},
		{OpLaunchQMD, 0x0B, "LAUNCH_QMD", 12, 1, ResKMU, true},
		{OpDraw, 0x0C, "DRAW", 12, 1, ResKMU, true},
	}
	if len(tests) != NumOpcodes {
		t.Fatalf("table covers %d opcodes, abi defines %d", len(tests), NumOpcodes)
	}
	for _, tc := range tests {
		if uint8(tc.op) != tc.value {
			t.Errorf("%s = 0x%02X, want 0x%02X", tc.name, uint8(tc.op), tc.value)
		}
		if got := tc.op.String(); got != tc.name {
			t.Errorf("0x%02X name %q, want %q", tc.value, got, tc.name)
		}
		if got := tc.op.Size(0); got != tc.size {
			t.Errorf("%s size %d, want %d", tc.name, got, tc.size)
		}
		// +8 B with F_PROFILE (§2.2 footnote)
		if got := tc.op.Size(FlagProfile); got != tc.size+8 {
			t.Errorf("%s profiled size %d, want %d", tc.name, got, tc.size+8)
		}
		if got := tc.op.NumArgs(); got != tc.nargs {
			t.Errorf("%s args %d, want %d", tc.name, got, tc.nargs)
		}
		if got := tc.op.Resource(); got != tc.res {
			t.Errorf("%s resource %d, want %d", tc.name, got, tc.res)
		}
		if got := tc.op.EmuOnly(); got != tc.emuOnly {
			t.Errorf("%s emu-only %v, want %v", tc.name, got, tc.emuOnly)
		}
		if got := FlavorRTL.Decodes(tc.op); got == tc.emuOnly {
			t.Errorf("rtl decodes %s = %v", tc.name, got)
		}
		if !FlavorEmu.Decodes(tc.op) {
			t.Errorf("emu does not decode %s", tc.name)
		}
		if op, ok := OpcodeByName("CMD_" + tc.name); !ok || op != tc.op {
			t.Errorf("OpcodeByName(CMD_%s) = %v, %v", tc.name, op, ok)
		}
	}
	if Opcode(0x0D).Valid() || FlavorEmu.Decodes(0x0D) || Opcode(0xFF).Size(0) != 0 {
		t.Error("0x0D and above must be undefined")
	}
}

// spec: command-processor §2.1 (header layout, flags, arg offsets)
func TestWireLayout(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want int
	}{
		{"header bytes", HeaderBytes, 4}, {"arg0 offset", Arg0Offset, 4},
		{"arg1 offset", Arg1Offset, 12}, {"arg2 offset", Arg2Offset, 20},
		{"line bytes", LineBytes, 64}, {"max cmds per line", MaxCmdsPerLine, 5},
		{"F_PROFILE", int(FlagProfile), 1}, {"F_FENCE_PRE", int(FlagFencePre), 2},
		{"F_MEM_PHYSICAL", int(FlagMemPhysical), 4},
		{"FENCE_DMA_BIT", int(FenceDMA), 1}, {"FENCE_GPU_BIT", int(FenceGPU), 2},
		{"WAIT_EQ", int(WaitEQ), 0}, {"WAIT_GE", int(WaitGE), 1}, {"WAIT_GT", int(WaitGT), 2},
		{"WAIT_NE", int(WaitNE), 3},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %d, want %d", tc.name, tc.got, tc.want)
		}
	}
	// A profiled MEM_WRITE: opcode byte 0, flags byte 1, reserved bytes 2–3 zero,
	// args little-endian and unaligned at 4/12/20, profile slot at size−8 = 28.
	c := Command{Op: OpMemWrite, Flags: FlagProfile | FlagMemPhysical,
		Args: [3]uint64{0x1122334455667788, 0x99AABBCCDDEEFF00, 0x40}, ProfileSlot: 0xCAFEF00D}
	b := c.Append(nil)
	if len(b) != 36 {
		t.Fatalf("profiled MEM_WRITE is %d bytes, want 36", len(b))
	}
	if b[0] != 0x01 || b[1] != 0x05 || b[2] != 0 || b[3] != 0 {
		t.Errorf("header bytes % x", b[:4])
	}
	if binary.LittleEndian.Uint64(b[4:]) != c.Args[0] || binary.LittleEndian.Uint64(b[12:]) != c.Args[1] ||
		binary.LittleEndian.Uint64(b[20:]) != c.Args[2] || binary.LittleEndian.Uint64(b[28:]) != c.ProfileSlot {
		t.Errorf("payload % x", b)
	}
	// FENCE's arg0 is the 32-bit word at offset 4, the only bytes its 8-byte size covers.
	f := Fence(FenceDMA | FenceGPU).Append(nil)
	if !bytes.Equal(f, []byte{0x07, 0, 0, 0, 3, 0, 0, 0}) {
		t.Errorf("FENCE bytes % x", f)
	}
}

// spec: command-processor §2.3 (EVENT_WAIT compare ops)
func TestWaitOps(t *testing.T) {
	for _, tc := range []struct {
		op     WaitOp
		c, v   uint64
		expect bool
	}{
		{WaitEQ, 5, 5, true}, {WaitEQ, 4, 5, false},
		{WaitGE, 5, 5, true}, {WaitGE, 6, 5, true}, {WaitGE, 4, 5, false},
		{WaitGT, 5, 5, false}, {WaitGT, 6, 5, true},
		{WaitNE, 5, 5, false}, {WaitNE, 1, 5, true},
	} {
		if got := tc.op.Satisfied(tc.c, tc.v); got != tc.expect {
			t.Errorf("%v(%d, %d) = %v", tc.op, tc.c, tc.v, got)
		}
	}
}

func line(parts ...[]byte) []byte {
	b := make([]byte, LineBytes)
	off := 0
	for _, p := range parts {
		copy(b[off:], p)
		off += len(p)
	}
	return b
}

// spec: command-processor §2.1 (the four end-of-line conditions)
func TestWalkLine(t *testing.T) {
	dcr := DCRWrite(0x060, 7).Append(nil) // 20 B
	mem := MemCopy(1, 2, 3).Append(nil)   // 28 B
	launch := Launch().Append(nil)        // 12 B
	qmd := LaunchQMD(0x1000).Append(nil)  // 12 B
	profNop := Command{Op: OpNop, Flags: FlagFencePre}.Append(nil)
	tests := []struct {
		name   string
		line   []byte
		flavor Flavor
		ops    []Opcode
		offs   []int
		end    LineEnd
		endOff int
	}{
		{"empty line is one sentinel", line(), FlavorEmu, nil, nil, EndSentinel, 0},
		{"sentinel after two", line(dcr, launch), FlavorEmu, []Opcode{OpDCRWrite, OpLaunch}, []int{0, 20}, EndSentinel, 32},
		{"two MEM commands then padding", line(mem, mem), FlavorEmu,
			[]Opcode{OpMemCopy, OpMemCopy}, []int{0, 28}, EndSentinel, 56},
		{"exactly full line: no room", line(dcr, dcr, dcr, []byte{0, 2, 0, 0}), FlavorEmu,
			[]Opcode{OpDCRWrite, OpDCRWrite, OpDCRWrite, OpNop}, []int{0, 20, 40, 60}, EndNoRoom, 64},
		{"16 flagged NOPs fill the line", line(bytes.Repeat(profNop, 16)), FlavorEmu,
			bytes16(OpNop), offsets(16, 4), EndNoRoom, 64},
		{"overrun", line(mem, mem, launch), FlavorEmu, []Opcode{OpMemCopy, OpMemCopy}, []int{0, 28}, EndOverrun, 56},
		{"rtl does not decode LAUNCH_QMD", line(dcr, qmd), FlavorRTL, []Opcode{OpDCRWrite}, []int{0}, EndUnknownOpcode, 20},
		{"emu decodes LAUNCH_QMD", line(dcr, qmd), FlavorEmu, []Opcode{OpDCRWrite, OpLaunchQMD}, []int{0, 20}, EndSentinel, 32},
		{"undefined opcode", line(launch, []byte{0x33, 0}), FlavorEmu, []Opcode{OpLaunch}, []int{0}, EndUnknownOpcode, 12},
		{"NOP with a flag is a command", line([]byte{0, 2, 0, 0}, launch), FlavorEmu, []Opcode{OpNop, OpLaunch}, []int{0, 4}, EndSentinel, 16},
		{"no room: 60 bytes used", line(mem, mem, []byte{0x00, 0x02, 0, 0}), FlavorEmu,
			[]Opcode{OpMemCopy, OpMemCopy, OpNop}, []int{0, 28, 56}, EndSentinel, 60},
	}
	for _, tc := range tests {
		cmds, end, endOff := WalkLine(tc.line, tc.flavor)
		if end != tc.end || endOff != tc.endOff {
			t.Errorf("%s: end %v at %d, want %v at %d", tc.name, end, endOff, tc.end, tc.endOff)
		}
		if len(cmds) != len(tc.ops) {
			t.Errorf("%s: %d commands, want %d", tc.name, len(cmds), len(tc.ops))
			continue
		}
		for i, c := range cmds {
			if c.Op != tc.ops[i] || c.Offset != tc.offs[i] {
				t.Errorf("%s: cmd %d = %v@%d, want %v@%d", tc.name, i, c.Op, c.Offset, tc.ops[i], tc.offs[i])
			}
		}
	}
}

func bytes16(op Opcode) []Opcode {
	out := make([]Opcode, 16)
	for i := range out {
		out[i] = op
	}
	return out
}

func offsets(n, step int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i * step
	}
	return out
}

// The encoder never crosses a line, never packs more than five commands per line and
// round-trips through the line walker. spec: command-processor §2.1, §1.1
func TestPackLines(t *testing.T) {
	var cmds []Command
	for i := 0; i < 7; i++ {
		cmds = append(cmds, DCRWrite(DCR(0x10+i), uint32(i)))
	}
	cmds = append(cmds, Launch(), CacheFlush(4), MemWrite(1, 2, 3), Fence(FenceGPU),
		Command{Op: OpNop, Flags: FlagProfile, ProfileSlot: 9}, EventWait(8, 1, WaitGE))
	for i := 0; i < 6; i++ {
		cmds = append(cmds, Fence(FenceDMA))
	}
	ring, err := PackLines(cmds)
	if err != nil {
		t.Fatal(err)
	}
	if len(ring)%LineBytes != 0 {
		t.Fatalf("ring is %d bytes", len(ring))
	}
	var got []Command
	for l := 0; l < len(ring)/LineBytes; l++ {
		lc, end, _ := WalkLine(ring[l*LineBytes:(l+1)*LineBytes], FlavorEmu)
		if end == EndUnknownOpcode || end == EndOverrun {
			t.Fatalf("line %d ended with %v", l, end)
		}
		if len(lc) > MaxCmdsPerLine {
			t.Fatalf("line %d holds %d commands", l, len(lc))
		}
		for _, c := range lc {
			got = append(got, c.Command)
		}
	}
	if len(got) != len(cmds) {
		t.Fatalf("decoded %d commands, want %d", len(got), len(cmds))
	}
	for i := range cmds {
		want := cmds[i]
		for a := want.Op.NumArgs(); a < 3 && !want.Op.HasFenceWord(); a++ {
			want.Args[a] = 0
		}
		if got[i] != want {
			t.Errorf("cmd %d = %+v, want %+v", i, got[i], want)
		}
	}
	// 3 DCR writes (60 B) fill a line: 7 DCR writes take 3 lines.
	if lc, end, _ := WalkLine(ring[:64], FlavorEmu); len(lc) != 3 || end != EndSentinel {
		t.Errorf("first line: %d commands, ended %v; want 3 DCR writes then the sentinel", len(lc), end)
	}
	if _, err := PackLines([]Command{{Op: OpNop}}); err == nil {
		t.Error("packing the zero sentinel must fail")
	}
	if _, err := PackLines([]Command{{Op: 0x44}}); err == nil {
		t.Error("packing an undefined opcode must fail")
	}
}

// spec: command-processor §8.1 (28-byte steps are command-record prefixes)
func TestStep28(t *testing.T) {
	c := EventWait(0x1234, 0x55, WaitNE)
	s := c.Step28()
	if got := CommandFromStep28(s[:]); got != c {
		t.Errorf("step round trip %+v, want %+v", got, c)
	}
	full := c.Append(nil)
	if !bytes.Equal(full[:DrawStepBytes], s[:]) {
		t.Errorf("step is not the command's 28-byte prefix")
	}
}
