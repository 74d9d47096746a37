package abi

import (
	"encoding/binary"
	"fmt"
)

// LineBytes is the size of one ring line; a command never crosses one.
// spec: command-processor §2.1
const LineBytes = 64

// MaxCmdsPerLine is VX_CP_MAX_CMDS_PER_CL, the most commands the hardware unpacks
// from one line. The encoder never puts more in a line. spec: command-processor §1.1
const MaxCmdsPerLine = 5

// LineEnd says why the walk of a line stopped. spec: command-processor §2.1
type LineEnd uint8

// The four end-of-line conditions.
const (
	EndNoRoom        LineEnd = iota // offset+4 > 64: no room for a header
	EndSentinel                     // opcode 0 and flags 0: padding
	EndUnknownOpcode                // an opcode this CP flavour does not decode
	EndOverrun                      // the command would overrun the line
)

// String returns the JSON spelling used by `vortex cp decode`.
func (e LineEnd) String() string {
	switch e {
	case EndNoRoom:
		return "no_room"
	case EndSentinel:
		return "sentinel"
	case EndUnknownOpcode:
		return "unknown_opcode"
	case EndOverrun:
		return "overrun"
	}
	return fmt.Sprintf("LineEnd(%d)", uint8(e))
}

// ParseLineEnd is the inverse of LineEnd.String.
func ParseLineEnd(s string) (LineEnd, bool) {
	for e := EndNoRoom; e <= EndOverrun; e++ {
		if e.String() == s {
			return e, true
		}
	}
	return 0, false
}

// LineCommand is a command decoded from a line with its byte offset in the line.
type LineCommand struct {
	Offset int
	Command
}

// DecodeAt decodes the command at off in line following flavour f's rules. When the
// walk ends there it returns ok=false and why.
// spec: command-processor §2.1 (VX_cp_unpack)
func DecodeAt(line []byte, off int, f Flavor) (c Command, ok bool, end LineEnd) {
	if off+HeaderBytes > len(line) {
		return Command{}, false, EndNoRoom
	}
	op, flags := Opcode(line[off]), line[off+1]
	if op == OpNop && flags == 0 {
		return Command{}, false, EndSentinel
	}
	if !f.Decodes(op) {
		return Command{}, false, EndUnknownOpcode
	}
	size := op.Size(flags)
	if off+size > len(line) {
		return Command{}, false, EndOverrun
	}
	b := line[off : off+size]
	c = Command{Op: op, Flags: flags}
	if op.HasFenceWord() {
		c.Args[0] = uint64(binary.LittleEndian.Uint32(b[Arg0Offset:]))
	} else {
		for i := 0; i < op.NumArgs(); i++ {
			c.Args[i] = binary.LittleEndian.Uint64(b[Arg0Offset+ArgBytes*i:])
		}
	}
	if flags&FlagProfile != 0 {
		c.ProfileSlot = binary.LittleEndian.Uint64(b[size-ProfileTrailerBytes:])
	}
	return c, true, 0
}

// WalkLine decodes every command of one 64-byte line in order and reports why the
// walk ended and at which byte offset. It is a pure function: the same bytes always
// give the same result. len(line) must be LineBytes.
// spec: command-processor §2.1, §4.1
func WalkLine(line []byte, f Flavor) (cmds []LineCommand, end LineEnd, endOff int) {
	return AppendLine(nil, line, f)
}

// AppendLine is WalkLine appending to cmds, so a caller can reuse one slice.
func AppendLine(cmds []LineCommand, line []byte, f Flavor) ([]LineCommand, LineEnd, int) {
	off := 0
	for {
		c, ok, end := DecodeAt(line, off, f)
		if !ok {
			return cmds, end, off
		}
		cmds = append(cmds, LineCommand{Offset: off, Command: c})
		off += c.Size()
	}
}

// Packer packs a command stream into 64-byte lines without ever crossing a line
// boundary and with at most MaxCmdsPerLine commands per line; the unused tail of each
// line is the zero sentinel. The zero value is ready to use.
type Packer struct {
	buf   []byte
	off   int // offset in the current (last) line; LineBytes when no line is open
	count int // commands in the current line
}

// NewPacker returns a packer whose first line opens on the first Add.
func NewPacker() *Packer { return &Packer{off: LineBytes} }

// Add appends c, opening a new line when it does not fit in the current one. It
// returns the line index and offset at which c was placed. c must be decodable: not
// the zero sentinel and with a defined opcode.
func (p *Packer) Add(c Command) (line, off int, err error) {
	if !c.Op.Valid() {
		return 0, 0, fmt.Errorf("abi: cannot pack undefined opcode 0x%02X", uint8(c.Op))
	}
	if c.IsSentinel() {
		return 0, 0, fmt.Errorf("abi: cannot pack a NOP with zero flags (it is the line sentinel)")
	}
	if p.buf == nil && p.off == 0 {
		p.off = LineBytes
	}
	size := c.Size()
	if p.off+size > LineBytes || p.count >= MaxCmdsPerLine {
		p.NewLine()
	}
	start := len(p.buf) - LineBytes + p.off
	c.Put(p.buf[start : start+size])
	line, off = len(p.buf)/LineBytes-1, p.off
	p.off += size
	p.count++
	return line, off, nil
}

// NewLine closes the current line (if any) and opens an empty one.
func (p *Packer) NewLine() {
	p.buf = append(p.buf, make([]byte, LineBytes)...)
	p.off, p.count = 0, 0
}

// Lines returns the number of lines packed so far.
func (p *Packer) Lines() int { return len(p.buf) / LineBytes }

// Bytes returns the packed lines. The slice aliases the packer's buffer.
func (p *Packer) Bytes() []byte { return p.buf }

// Reset empties the packer, keeping its buffer for reuse.
func (p *Packer) Reset() { p.buf, p.off, p.count = p.buf[:0], LineBytes, 0 }

// PackLines packs cmds densely into lines. spec: command-processor §2.1
func PackLines(cmds []Command) ([]byte, error) {
	p := NewPacker()
	for i, c := range cmds {
		if _, _, err := p.Add(c); err != nil {
			return nil, fmt.Errorf("command %d: %w", i, err)
		}
	}
	return p.Bytes(), nil
}
